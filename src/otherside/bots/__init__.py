"""Bots: one game-agnostic protocol, one registry and one match loop.

A bot sees only ``view(state, player)`` and the legal actions, gets an injected
``random.Random`` and returns one of the legal actions. Bots are made by name through the
registry (``make_bot("verso", "greedy")``), so the CLI, the simulator and the server all choose
seats the same way; :func:`bot_info` says what a lobby shows of each (a one-line description, a
measured strength, the player counts it is offered at). Each game's bots live in a package next to
this module (``bots/verso/``, ``bots/versus/``) and register themselves when imported;
``make_bot`` imports ``otherside.bots.<game>`` on first use. This package plays; measurements
that are not players (the clairvoyant solver, statistics, value training) are in
:mod:`otherside.research`, the simulator in :mod:`otherside.simulate`.
"""

from otherside.bots.base import (
    Bot,
    BotFactory,
    BotInfo,
    BotOption,
    RandomBot,
    bot_entry,
    bot_info,
    bot_names,
    make_bot,
    register_bot,
)
from otherside.bots.match import MatchResult, Step, play_match

__all__ = [
    "Bot",
    "BotFactory",
    "BotInfo",
    "BotOption",
    "MatchResult",
    "RandomBot",
    "Step",
    "bot_entry",
    "bot_info",
    "bot_names",
    "make_bot",
    "play_match",
    "register_bot",
]
