"""What a Recto Verso builder knows: its view (R17) and the legal actions, read as geometry.

A builder's view holds its own side of the card, its own view of the construction, the top
view and the unplaced pieces; the legal actions list a removal for every piece on top of some
column (what a hand can grip), not whether something rests on it (R17).
Because no cube may stand above an empty cell (R5), every column of the construction is solid
from the ground to its highest cube, so the top view gives the exact set of occupied cells. The
piece of a cell is known where a view shows it: the top cube of every column (top view) and
the cube nearest the builder in every row (own view); each colour is one piece. The other
cubes are hidden, and :func:`believe` fills them in by finding an arrangement of the placed
pieces that fills the occupied cells and agrees with every seen colour (when several agree it
takes the first in a fixed order; a wrong guess only ever concerns cubes nobody in front of
them can see, and the next decision starts again from the new view).

Sides. A *row* is the line of four cells with the same column x and level z. The *depth* of a
cell is its distance from a side: ``y`` from the front (recto), ``3 - y`` from the back
(verso). A side's view shows, in each row, the piece of the cube of smallest depth.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from otherside.games.rectoverso.construction import (
    EMPTY,
    LEVEL,
    SITE,
    Construction,
    Placement,
    View,
    cell_bit,
    cells_mask,
)
from otherside.games.rectoverso.notation import Remove
from otherside.games.rectoverso.pieces import BY_LETTER, BY_NAME, Cell, Piece, pieces_of

FRONT, BACK = "front", "back"


def other_side(side: str) -> str:
    """The side the partner sees."""
    return BACK if side == FRONT else FRONT


def depth(y: int, side: str) -> int:
    """How far a cell at ``y`` is from ``side`` (0: the cell nearest that side)."""
    return y if side == FRONT else SITE - 1 - y


def view_column(x: int, side: str) -> int:
    """The character index of column ``x`` in a view of ``side`` (the back view is mirrored)."""
    return x if side == FRONT else SITE - 1 - x


def row_cells(x: int, z: int, side: str) -> tuple[Cell, ...]:
    """The four cells of row (x, z), nearest ``side`` first."""
    ys = range(SITE) if side == FRONT else range(SITE - 1, -1, -1)
    return tuple((x, y, z) for y in ys)


@cache
def in_front(cell: Cell, side: str) -> int:
    """The cells of ``cell``'s row that are nearer ``side`` than it (a bitmask)."""
    x, y, z = cell
    mask = 0
    for other in row_cells(x, z, side)[: depth(y, side)]:
        mask |= 1 << cell_bit(*other)
    return mask


def shown(view: View | Sequence[str], x: int, z: int, side: str) -> str:
    """The character ``view`` (of ``side``) shows for row (x, z); ``.`` above its top level."""
    if z >= len(view):
        return EMPTY
    return view[len(view) - 1 - z][view_column(x, side)]


def nearest(occupied: int, x: int, z: int, side: str) -> int:
    """Depth of the occupied cell of row (x, z) nearest ``side``; ``SITE`` when the row is empty."""
    for index, cell in enumerate(row_cells(x, z, side)):
        if occupied >> cell_bit(*cell) & 1:
            return index
    return SITE


def fronts(occupied: int, side: str) -> int:
    """The cubes ``side`` sees: in every row, the occupied cell nearest that side."""
    mask = 0
    for z in range(_height(occupied)):
        for x in range(SITE):
            at = nearest(occupied, x, z, side)
            if at < SITE:
                mask |= 1 << cell_bit(*row_cells(x, z, side)[at])
    return mask


def _height(occupied: int) -> int:
    return (occupied.bit_length() + LEVEL - 1) // LEVEL


def hidden_from(occupied: int, side: str, height: int) -> int:
    """The empty cells that cubes already placed hide from ``side``: a cube there would not
    change that side's view (a cube nearer that side stands in the same row)."""
    mask = 0
    for z in range(height):
        for x in range(SITE):
            cells = row_cells(x, z, side)
            front = nearest(occupied, x, z, side)
            for cell in cells[front + 1 :]:
                if not occupied >> cell_bit(*cell) & 1:
                    mask |= 1 << cell_bit(*cell)
    return mask


@dataclass(frozen=True)
class Sight:
    """A builder's knowledge during a build, from its view and the legal actions only.

    Attributes:
        side: ``front`` (recto) or ``back`` (verso).
        target: its side of the card.
        own: its own view of the construction.
        difficulty: ``easy`` or ``hard`` (which pieces are in play, R2).
        unplaced: the pieces not on the site.
        placed: the pieces on the site.
        occupied: the occupied cells (bitmask), exact (see the module docstring).
        height: the construction's number of levels.
        seen: the piece of every cell a view shows (column tops and own-side row fronts).
        removable: the placed pieces on top of some column (those listed with a ``remove``);
            something may still rest on them (see :func:`surely_free`).
        partner_done: whether the partner has said done (they make no further move).
    """

    side: str
    target: View
    own: View
    difficulty: str
    unplaced: tuple[Piece, ...]
    placed: tuple[Piece, ...]
    occupied: int
    height: int
    seen: Mapping[Cell, Piece]
    removable: frozenset[Piece]
    partner_done: bool

    @property
    def card_height(self) -> int:
        """The finished building's number of levels (both sides of a card have that many)."""
        return len(self.target)


def sight_of(view: Mapping[str, Any], legal: Sequence[object]) -> Sight | None:
    """Read a builder's view; ``None`` when the view's player is not building a card now.

    Reads only ``phase``, ``you``, ``recto``, ``verso``, ``done``, ``difficulty``, ``card``,
    ``construction``, ``top`` and ``unplaced``; the legal actions give the pieces on top.
    """
    if view.get("phase") != "build":
        return None
    you = view.get("you")
    if you is None or you not in (view.get("recto"), view.get("verso")):
        return None
    side = FRONT if you == view["recto"] else BACK
    card = view.get("card") or {}
    construction = view.get("construction") or {}
    if side not in card or side not in construction:
        return None
    partner = view["verso"] if side == FRONT else view["recto"]
    occupied, seen, height = _read_top(view["top"])
    own = tuple(construction[side])
    for z in range(height):
        for x in range(SITE):
            letter = shown(own, x, z, side)
            at = nearest(occupied, x, z, side)
            if letter != EMPTY and at < SITE:
                seen[row_cells(x, z, side)[at]] = BY_LETTER[letter]
    unplaced = tuple(BY_NAME[name] for name in view["unplaced"])
    placed = tuple(p for p in pieces_of(view["difficulty"]) if p not in unplaced)
    return Sight(
        side=side,
        target=tuple(card[side]),
        own=own,
        difficulty=view["difficulty"],
        unplaced=unplaced,
        placed=placed,
        occupied=occupied,
        height=height,
        seen=seen,
        removable=frozenset(a.piece for a in legal if isinstance(a, Remove)),
        partner_done=partner in view.get("done", ()),
    )


def _read_top(top: Sequence[str]) -> tuple[int, dict[Cell, Piece], int]:
    """Occupied cells, the seen top cube of each column, and the height, from the top view."""
    occupied = 0
    seen: dict[Cell, Piece] = {}
    height = 0
    for row, line in enumerate(top):
        y = SITE - 1 - row
        for x, cell in enumerate(line.split()):
            if cell == EMPTY:
                continue
            z = int(cell[1:])
            seen[(x, y, z)] = BY_LETTER[cell[0]]
            for level in range(z + 1):
                occupied |= 1 << cell_bit(x, y, level)
            height = max(height, z + 1)
    return occupied, seen, height


@cache
def placements_in_box(piece: Piece, height: int) -> tuple[tuple[Placement, int], ...]:
    """Every placement of ``piece`` inside the 4 x 4 x ``height`` box, with its cell mask."""
    result = []
    for shape in piece.orientations:
        width, deep, tall = (max(c[i] for c in shape) + 1 for i in range(3))
        for z in range(height - tall + 1):
            for y in range(SITE - deep + 1):
                for x in range(SITE - width + 1):
                    cells = tuple((cx + x, cy + y, cz + z) for cx, cy, cz in shape)
                    result.append((Placement(piece, tuple(sorted(cells))), cells_mask(cells)))
    return tuple(result)


def possible_places(sight: Sight, piece: Piece) -> list[tuple[Placement, int]]:
    """Where a placed ``piece`` may stand, given what the builder sees: inside the occupied
    cells, on every cell seen to be that piece and on no cell seen to be another."""
    mine = others = 0
    for cell, seen in sight.seen.items():
        if seen == piece:
            mine |= 1 << cell_bit(*cell)
        else:
            others |= 1 << cell_bit(*cell)
    result = []
    for placement, mask in placements_in_box(piece, sight.height):
        if mask & ~sight.occupied or mask & mine != mine or mask & others:
            continue
        result.append((placement, mask))
    return result


def surely_free(sight: Sight, piece: Piece) -> bool:
    """Whether ``piece`` can be lifted off whatever the hidden cubes are: it is listed with a
    ``remove`` and nothing rests on it in any place it may stand (a lift that something rests
    on would be refused)."""
    if piece not in sight.removable:
        return False
    places = possible_places(sight, piece)
    return bool(places) and all(not (mask << LEVEL) & sight.occupied & ~mask for _, mask in places)


def believe(sight: Sight) -> Construction | None:
    """A construction of the placed pieces that shows everything the builder sees.

    Each placed piece stands in one of its :func:`possible_places` and together they fill
    exactly the occupied cells; the first such arrangement in a fixed order. ``None`` only if
    there is none (which a view of a real construction never causes).
    """
    options: list[tuple[Piece, list[tuple[Placement, int]]]] = []
    for piece in sight.placed:
        fits = possible_places(sight, piece)
        if not fits:
            return None
        options.append((piece, fits))
    found = next(_tilings(options, sight.occupied), None)
    if found is None:
        return None
    return Construction(tuple(sorted(found, key=lambda p: p.piece)))


def _tilings(
    options: list[tuple[Piece, list[tuple[Placement, int]]]], left: int
) -> Iterator[list[Placement]]:
    """Exact covers of the cells ``left`` by one placement of each piece (fewest options first)."""
    if not options:
        if not left:
            yield []
        return
    live: list[tuple[Piece, list[tuple[Placement, int]]]] = []
    reach = 0
    for piece, fits in options:
        ok = [(p, m) for p, m in fits if m & left == m]
        if not ok:
            return
        for _, mask in ok:
            reach |= mask
        live.append((piece, ok))
    if left & ~reach:
        return
    best = min(range(len(live)), key=lambda i: len(live[i][1]))
    _, fits = live.pop(best)
    for placement, mask in fits:
        for rest in _tilings(live, left & ~mask):
            yield [placement, *rest]
