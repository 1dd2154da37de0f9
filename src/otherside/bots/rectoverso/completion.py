"""One side's completion: can the unplaced pieces finish a construction so that one side's
view is that side of the card? The other side is unknown to the builder, so it is not asked.

It is the card solver's search (:mod:`otherside.games.rectoverso.solver`) with one view and
the pieces already on the site kept where they are:

* The card's side fixes the height H: new cubes stay in the 4 x 4 x H box.
* In each row (column x, level z) the side shows ``.`` or a colour. A ``.`` row must stay
  empty. A row showing a placed piece must already show it, and the cells nearer the side than
  that cube must stay empty. A row showing an unplaced piece c needs a cube of c nearer the side
  than anything already there, with empty cells in front of it (``must_empty``); a cube of
  another piece in such a row must leave room in front of it for c.
* New cubes must end up supported (R5): no cube above a cell that must stay empty, and every
  empty cell under a new cube must still be fillable by a remaining piece.
* Depth-first, the piece with the fewest options first, options in the order of a cost the
  caller gives (which placements it would rather make), within a node budget.

:func:`culprits` lists the rows that no placement can put right (only a removal can), with
the pieces in the way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache

from otherside.bots.rectoverso.sight import depth, nearest, placements_in_box, row_cells, shown
from otherside.games.rectoverso.construction import (
    EMPTY,
    LEVEL,
    SITE,
    Construction,
    Placement,
    View,
    cell_bit,
)
from otherside.games.rectoverso.pieces import BY_LETTER, Piece
from otherside.games.rectoverso.solver import Candidate, search

Row = tuple[int, int]  # (x, z)
NODE_BUDGET = 4000  # search nodes per completion question (a few milliseconds)


class Verdict(Enum):
    """The answer to "can the unplaced pieces complete this side?"."""

    YES = "yes"
    NO = "no"
    UNKNOWN = "unknown"  # the node budget ran out first


@dataclass(frozen=True)
class Answer:
    """A verdict, with one completion when it is yes (the placements to add)."""

    verdict: Verdict
    placements: tuple[Placement, ...] = ()


def culprits(construction: Construction, target: View, side: str) -> dict[Row, set[Piece]]:
    """The rows of ``construction`` that placing more pieces cannot put right, each with the
    pieces that must be lifted off (or moved) to put it right.

    * A row with a cube where ``target`` shows ``.`` (every row at or above the card's height
      counts as such): every piece in it.
    * A row showing another piece than the placed piece c the target wants there: the pieces in
      front of c when c is in the row further back; else c (to be moved here), with the piece
      in the row's nearest cell when c has no room in front of it.
    * A row whose nearest cell is taken while the unplaced piece the target wants there must
      go in front: the piece in that cell.
    """
    occupied = construction.occupied
    placed = set(construction.pieces)
    cells = construction.cells
    wrong: dict[Row, set[Piece]] = {}
    for z in range(max(construction.height, len(target))):
        for x in range(SITE):
            row = [cells[c] for c in row_cells(x, z, side) if occupied >> cell_bit(*c) & 1]
            at = nearest(occupied, x, z, side)
            want = shown(target, x, z, side) if z < len(target) else EMPTY
            if want == EMPTY:
                if row:
                    wrong[(x, z)] = set(row)
                continue
            piece = BY_LETTER[want]
            if piece in placed:
                if not row or row[0] != piece:
                    if piece in row:
                        wrong[(x, z)] = set(row[: row.index(piece)])
                    else:
                        wrong[(x, z)] = {piece, *row[:1]} if at == 0 else {piece}
            elif at == 0:
                wrong[(x, z)] = {row[0]}
    return wrong


class Completion:
    """The completions of one side from one construction (see the module docstring).

    Args:
        construction: the pieces on the site, kept where they are.
        target: the side of the card.
        side: ``front`` or ``back``.
        unplaced: the pieces to place.
        allowed: the cells new cubes may use (default: any).
        cost: orders each piece's options, cheapest tried first (default: the box order).
        budget: search nodes before the answer is :attr:`Verdict.UNKNOWN`.
    """

    def __init__(
        self,
        construction: Construction,
        target: View,
        side: str,
        unplaced: Sequence[Piece],
        allowed: int = -1,
        cost: Callable[[Candidate], float] | None = None,
        budget: int = NODE_BUDGET,
    ) -> None:
        self.construction = construction
        self.target = target
        self.side = side
        self.height = len(target)
        self.budget = budget
        self.nodes = 0
        self.possible = not culprits(construction, target, side)
        self.options: dict[Piece, list[Candidate]] = {}
        if self.possible:
            self._prepare(unplaced, allowed, cost)

    def _prepare(
        self, unplaced: Sequence[Piece], allowed: int, cost: Callable[[Candidate], float] | None
    ) -> None:
        occupied = self.construction.occupied
        fronts: dict[Row, int] = {}  # row -> depth of its nearest cube
        keep_empty = 0
        for z in range(self.height):
            for x in range(SITE):
                at = nearest(occupied, x, z, self.side)
                fronts[(x, z)] = at
                want = shown(self.target, x, z, self.side)
                row = row_cells(x, z, self.side)
                if want == EMPTY:
                    keep_empty |= _mask(row)
                elif at < SITE and BY_LETTER[want] not in unplaced:
                    # Nothing may go in front of the placed piece the row shows.
                    keep_empty |= _mask(row[:at])
        self.keep_empty = keep_empty
        blocked = occupied | keep_empty | ~allowed
        for piece in unplaced:
            options = [
                shape.option
                for shape in _shapes(piece, self.target, self.side)
                if not shape.option.mask & blocked
                and not shape.option.below & (keep_empty | shape.option.must_empty)
                and all(d < fronts[row] for row, d in shape.shows)
            ]
            if cost is not None:
                options.sort(key=cost)
            self.options[piece] = options
            if not options:
                self.possible = False

    def answer(self, first: Candidate | None = None) -> Answer:
        """Whether the unplaced pieces can complete the side, with one completion if so.

        Args:
            first: an option that the completion must contain (the placement about to be
                made); the budget counts afresh for each question.
        """
        if not self.possible:
            return Answer(Verdict.NO)
        occupied, forbidden = self.construction.occupied, self.keep_empty
        chosen: list[Placement] = []
        remaining = list(self.options.items())
        if first is not None:
            piece = first.placement.piece
            remaining = [(p, o) for p, o in remaining if p != piece]
            occupied |= first.mask
            forbidden |= first.must_empty
            chosen.append(first.placement)
        cubes = sum(p.size for p, _ in remaining)
        self.nodes = 0
        try:
            found = next(search(remaining, occupied, forbidden, chosen, cubes, self._visit), None)
        except _OutOfBudget:
            return Answer(Verdict.UNKNOWN)
        if found is None:
            return Answer(Verdict.NO)
        return Answer(Verdict.YES, tuple(found))

    def _visit(self) -> None:
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OutOfBudget


@dataclass(frozen=True, slots=True)
class _Shape:
    """An option as far as the side alone decides it; ``shows``: (row, depth) of the cube
    nearest the side in each row where the side shows the piece (it must be in front)."""

    option: Candidate
    shows: tuple[tuple[Row, int], ...]


@cache
def _shapes(piece: Piece, target: View, side: str) -> tuple[_Shape, ...]:
    """The placements of ``piece`` in the card's box that agree with ``target`` on their own:
    a cube in every row that shows the piece, none in a row that shows ``.``, and none in the
    nearest cell of a row that shows another piece. Cached: a round asks for the same card."""
    height = len(target)
    wanted = {
        (x, z)
        for z in range(height)
        for x in range(SITE)
        if shown(target, x, z, side) == piece.letter
    }
    result = []
    for placement, mask in placements_in_box(piece, height):
        touched: dict[Row, int] = {}
        for x, y, z in placement.cells:
            touched[(x, z)] = min(depth(y, side), touched.get((x, z), SITE))
        if not wanted <= touched.keys():
            continue
        must_empty = 0
        shows = []
        for (x, z), d in touched.items():
            want = shown(target, x, z, side)
            if want == EMPTY or (want != piece.letter and d == 0):
                break  # an empty row, or another piece must be seen in front and cannot be
            if want == piece.letter:
                must_empty |= _mask(row_cells(x, z, side)[:d])
                shows.append(((x, z), d))
        else:
            option = Candidate(placement, mask, mask >> LEVEL, must_empty)
            result.append(_Shape(option, tuple(shows)))
    return tuple(result)


class _OutOfBudget(Exception):
    """The search used its node budget."""


def _mask(cells: Sequence[tuple[int, int, int]]) -> int:
    mask = 0
    for cell in cells:
        mask |= 1 << cell_bit(*cell)
    return mask
