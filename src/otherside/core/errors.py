"""Errors raised for bad input. All are :class:`ValueError` so callers can catch them simply."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cached_property


class OthersideError(ValueError):
    """Base class of every error about bad input to an otherside engine."""


def _alternatives(legal: Sequence[object] | None, limit: int = 40) -> str:
    if legal is None:
        return ""
    if not legal:
        return " (no legal action)"
    shown = ", ".join(str(a) for a in legal[:limit])
    more = f", … ({len(legal) - limit} more)" if len(legal) > limit else ""
    return f"; legal: {shown}{more}"


class _Refusal(OthersideError):
    """An error that names the legal actions: they are written out only when read (a
    refusal of a Recto Verso action may list thousands, and most refusals are never
    printed)."""

    def __init__(self, head: str, legal: Iterable[object] | None) -> None:
        self._head = head
        self._legal = tuple(legal) if legal is not None else None
        super().__init__(head)

    @cached_property
    def legal(self) -> list[str] | None:
        """The legal actions in notation (``None``: not known)."""
        return [str(a) for a in self._legal] if self._legal is not None else None

    def __str__(self) -> str:
        return f"{self._head}{_alternatives(self._legal)}"


class BadNotation(_Refusal):
    """Text that is not valid notation for the game.

    >>> str(BadNotation("drw", "unknown action", ["draw", "flip"]))
    "'drw': unknown action; legal: draw, flip"
    """

    def __init__(self, text: str, reason: str, legal: Iterable[object] | None = None) -> None:
        self.text = text
        self.reason = reason
        super().__init__(f"{text!r}: {reason}", legal)


class IllegalAction(_Refusal):
    """A well-formed action that the rules do not allow in this state.

    >>> str(IllegalAction("draw", "the top face duplicates B3 (V8)", ["flip"]))
    "'draw' is illegal: the top face duplicates B3 (V8); legal: flip"
    """

    def __init__(self, action: object, reason: str, legal: Iterable[object] | None = None) -> None:
        self.action = str(action)
        self.reason = reason
        super().__init__(f"{self.action!r} is illegal: {reason}", legal)


class BadRecord(OthersideError):
    """A game record that is malformed or does not replay.

    >>> str(BadRecord("'players' must be an integer from 1 to 6", index=None))
    "bad game record: 'players' must be an integer from 1 to 6"
    >>> str(BadRecord("'fly' is illegal", index=3))
    "bad game record: action 3: 'fly' is illegal"
    """

    def __init__(self, reason: str, index: int | None = None) -> None:
        self.reason = reason
        self.index = index
        where = f"action {index}: " if index is not None else ""
        super().__init__(f"bad game record: {where}{reason}")
