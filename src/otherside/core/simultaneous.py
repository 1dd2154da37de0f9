"""Simultaneous and timed play: an optional capability of a state, and the functions every
adapter uses to act on any state whether it has the capability or not.

Most games are turn-based: one ``current_player`` acts, ``legal_actions()`` are theirs and
``apply(action)`` plays for them. A game in which several players act at once (Recto Verso's
partners build together, R13) also offers :class:`Simultaneous`:

- ``actors``: the seats that may act now (several during a build);
- ``legal_actions_of(player)`` and ``apply_as(player, action)``: the same as ``legal_actions`` and
  ``apply`` for any of them;
- ``deadline()``: the reading of the game's injected clock at which the game itself ends a
  timed phase (R14's 120 s), or ``None``; once it has passed, the actors' only legal action is
  the game's timeout, which whoever holds the clock (a server, a match loop) applies.

:func:`actors`, :func:`legal_actions_of`, :func:`apply_as` and :func:`deadline` work on every
state: for a turn-based one they fall back on ``current_player``, ``legal_actions`` and
``apply``. So a table runtime or a match loop is written once for both kinds of game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeGuard, runtime_checkable

from otherside.core.errors import IllegalAction
from otherside.core.game import Action, State


@runtime_checkable
class Simultaneous(Protocol):
    """A state in which several players may act at once (see the module docstring)."""

    @property
    def actors(self) -> tuple[int, ...]:
        """The seats that may act now, in seat order (empty once the game is over)."""
        ...

    def legal_actions_of(self, player: int | None) -> Sequence[Action]:
        """The legal actions of ``player`` now (empty for a player who may not act)."""
        ...

    def apply_as(self, player: int, action: Action | str) -> State:
        """The state after ``player``'s ``action``; ``IllegalAction`` if not allowed."""
        ...

    def deadline(self) -> float | None:
        """The clock reading at which the game times the current phase out, or ``None``."""
        ...


# Whether a state type offers :class:`Simultaneous`, by type: ``isinstance`` against a runtime
# protocol inspects every member on each call, and these functions run several times per move.
_SIMULTANEOUS_TYPES: dict[type, bool] = {}


def _simultaneous(state: object) -> TypeGuard[Simultaneous]:
    """``isinstance(state, Simultaneous)``, answered once per type (the capability is a
    class's: its methods and properties, never set per instance)."""
    kind = type(state)
    known = _SIMULTANEOUS_TYPES.get(kind)
    if known is None:
        known = _SIMULTANEOUS_TYPES[kind] = isinstance(state, Simultaneous)
    return known


def actors(state: State) -> tuple[int, ...]:
    """The seats that may act in ``state`` (the player to move in a turn-based game)."""
    if _simultaneous(state):
        return tuple(state.actors)
    player = state.current_player
    return () if player is None else (player,)


def legal_actions_of(state: State, player: int | None) -> list[Action]:
    """The legal actions of ``player`` in ``state`` (none when it is not theirs to act)."""
    if _simultaneous(state):
        return list(state.legal_actions_of(player))
    if player is None or player != state.current_player:
        return []
    return list(state.legal_actions())


def apply_as(state: State, player: int, action: Action | str) -> State:
    """The state after ``player``'s ``action``.

    Raises:
        IllegalAction: when ``player`` may not act now (naming whose turn it is) or the action
            is not legal; ``BadNotation`` for malformed text. The state is unchanged.
    """
    if _simultaneous(state):
        return state.apply_as(player, action)
    if player != state.current_player:
        whose = (
            "nobody's: the game is over"
            if state.current_player is None
            else (f"player {state.current_player}'s")
        )
        raise IllegalAction(action, f"it is {whose} turn, not player {player}'s", [])
    return state.apply(action)


def deadline(state: State) -> float | None:
    """When the game itself times out its current phase (clock reading), if it does."""
    return state.deadline() if _simultaneous(state) else None


def plays_at_once(state: State) -> bool:
    """True for a game whose players may act at the same time (it offers
    :class:`Simultaneous`), even when only one of them may act right now."""
    return _simultaneous(state)


def is_simultaneous(state: State) -> bool:
    """True when several players may act at once right now."""
    return len(actors(state)) > 1
