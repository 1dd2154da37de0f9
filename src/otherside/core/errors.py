"""Errors raised for bad input. All are :class:`ValueError` so callers can catch them simply."""

from __future__ import annotations

from collections.abc import Iterable


class OthersideError(ValueError):
    """Base class of every error about bad input to an otherside engine."""


def _alternatives(legal: Iterable[object] | None, limit: int = 40) -> str:
    if legal is None:
        return ""
    names = [str(a) for a in legal]
    if not names:
        return " (no legal action)"
    shown = ", ".join(names[:limit])
    more = f", … ({len(names) - limit} more)" if len(names) > limit else ""
    return f"; legal: {shown}{more}"


class BadNotation(OthersideError):
    """Text that is not valid notation for the game.

    >>> str(BadNotation("drw", "unknown action", ["draw", "flip"]))
    "'drw': unknown action; legal: draw, flip"
    """

    def __init__(self, text: str, reason: str, legal: Iterable[object] | None = None) -> None:
        self.text = text
        self.reason = reason
        self.legal = [str(a) for a in legal] if legal is not None else None
        super().__init__(f"{text!r}: {reason}{_alternatives(self.legal)}")


class IllegalAction(OthersideError):
    """A well-formed action that the rules do not allow in this state.

    >>> str(IllegalAction("draw", "the top face duplicates B3 (V8)", ["flip"]))
    "'draw' is illegal: the top face duplicates B3 (V8); legal: flip"
    """

    def __init__(self, action: object, reason: str, legal: Iterable[object] | None = None) -> None:
        self.action = str(action)
        self.reason = reason
        self.legal = [str(a) for a in legal] if legal is not None else None
        super().__init__(f"{self.action!r} is illegal: {reason}{_alternatives(self.legal)}")


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
