"""VERSUS notation (rules page, "Notation"): cells ``q:r``, plies ``<from>><to>``, platform
actions ``resign``, ``offer-draw``, ``accept-draw``, ``decline-draw``.

Actions are small value objects: a :class:`Ply` (a piece moved from one cell to another) or a
:class:`PlatformAction`. ``str(action)`` is the notation and :func:`parse_action` gives it back.
Plies hold cell indices (see :mod:`otherside.games.versus.hex`); one object per ``(from, to)``
pair is kept, so the rules can hand out plies without allocating.
"""

from __future__ import annotations

import enum
import re

from otherside.core.errors import BadNotation
from otherside.games.versus.hex import CELLS, INDEX, RADIUS, Cell

_CELL = re.compile(r"^\s*([+-]?\d+)\s*:\s*([+-]?\d+)\s*$")


def format_cell(index: int) -> str:
    """The notation of the cell with this index.

    >>> format_cell(0), format_cell(45)
    ('0:-5', '0:0')
    """
    q, r = CELLS[index]
    return f"{q}:{r}"


def parse_cell(text: str) -> int:
    """The index of the cell written ``q:r``; ``BadNotation`` if malformed or off the board.

    >>> format_cell(parse_cell("-3:0"))
    '-3:0'
    >>> parse_cell("4:4")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    otherside.core.errors.BadNotation: '4:4': not a cell of the board (S1: ...)
    """
    match = _CELL.match(text)
    if not match:
        raise BadNotation(text, "a cell is written q:r, for example -3:0")
    cell: Cell = (int(match.group(1)), int(match.group(2)))
    index = INDEX.get(cell)
    if index is None:
        raise BadNotation(
            text,
            f"not a cell of the board (S1: |q| ≤ {RADIUS}, |r| ≤ {RADIUS}, |q + r| ≤ {RADIUS})",
        )
    return index


class Ply:
    """A board ply: the piece on ``origin`` moves to ``target`` (cell indices).

    Use :func:`ply` to get the shared instance of a pair.

    >>> str(ply(parse_cell("2:-5"), parse_cell("2:-1")))
    '2:-5>2:-1'
    """

    __slots__ = ("code", "origin", "target")

    def __init__(self, origin: int, target: int) -> None:
        self.origin = origin
        self.target = target
        self.code = origin << 7 | target

    def __str__(self) -> str:
        return f"{format_cell(self.origin)}>{format_cell(self.target)}"

    def __repr__(self) -> str:
        return f"Ply({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ply) and other.code == self.code

    def __hash__(self) -> int:
        return self.code


_PLIES: dict[int, Ply] = {}


def ply(origin: int, target: int) -> Ply:
    """The shared :class:`Ply` moving ``origin`` to ``target``."""
    return ply_of_code(origin << 7 | target)


def ply_of_code(code: int) -> Ply:
    """The shared :class:`Ply` of a move code ``origin << 7 | target`` (the rules' encoding)."""
    found = _PLIES.get(code)
    if found is None:
        found = _PLIES[code] = Ply(code >> 7, code & 127)
    return found


class PlatformAction(enum.Enum):
    """Actions about the match rather than the board (S13, last paragraph)."""

    RESIGN = "resign"
    OFFER_DRAW = "offer-draw"
    ACCEPT_DRAW = "accept-draw"
    DECLINE_DRAW = "decline-draw"

    def __str__(self) -> str:
        return self.value


Action = Ply | PlatformAction


def parse_action(text: str) -> Action:
    """Parse a ply or a platform action (legal or not); ``BadNotation`` if malformed.

    >>> parse_action(" 0:-4 > 0:-3 ")
    Ply('0:-4>0:-3')
    >>> str(parse_action("offer-draw"))
    'offer-draw'
    >>> parse_action("0:-4-0:-3")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    otherside.core.errors.BadNotation: '0:-4-0:-3': a ply is written <from>><to>, for example ...
    """
    word = text.strip().lower()
    for action in PlatformAction:
        if word == action.value:
            return action
    parts = text.split(">")
    if len(parts) != 2:
        others = ", ".join(a.value for a in PlatformAction)
        raise BadNotation(
            text, f"a ply is written <from>><to>, for example 0:-4>0:-3; other actions: {others}"
        )
    try:
        origin, target = parse_cell(parts[0]), parse_cell(parts[1])
    except BadNotation as exc:
        raise BadNotation(text, f"{exc.text.strip()!r}: {exc.reason}") from exc
    return ply(origin, target)
