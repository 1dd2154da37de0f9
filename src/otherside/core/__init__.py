"""The game contract shared by every otherside game.

A *game* (:class:`Game`) is a static description and factory; a *state* (:class:`State`) is an
immutable position with the player to move, the legal actions in a deterministic order and
``apply`` returning the next state. Actions are small value objects whose ``str`` is the notation
of the game's rules page; states parse that notation back. ``view(state, player)`` is what that
player may see and nothing more. A game record is JSON and ``replay(record)`` reproduces the game
exactly. Randomness is always a seed or an injected :class:`random.Random`.

This package imports nothing else of ``otherside``.
"""

from otherside.core.errors import BadNotation, BadRecord, IllegalAction, OthersideError
from otherside.core.game import Action, Game, Outcome, State
from otherside.core.records import dump_record, load_record
from otherside.core.rng import derive_seed, make_rng

__all__ = [
    "Action",
    "BadNotation",
    "BadRecord",
    "Game",
    "IllegalAction",
    "OthersideError",
    "Outcome",
    "State",
    "derive_seed",
    "dump_record",
    "load_record",
    "make_rng",
]
