"""The card solver: find constructions that match a card (R10), or prove that none exists.

Only the front and back views are given. The search places whole pieces, and is exact:

* The views fix the building's height H, so every placement lives in the 4 x 4 x H box; each
  piece's placements there are precomputed as bitmasks (:class:`Candidate`).
* A row of the box is the 4 cells with the same column x and level z. Where a view shows ``.``
  the whole row is empty. Where a view shows colour c, piece c (each colour is one piece) must
  own a cube in that row, with only empty cells in front of it (front view) or behind it (back
  view): a candidate of c that misses such a row is dropped, and the cells it leaves in front
  (behind) become ``must_empty``. A cube in the front (back) cell of a row whose view shows
  another colour is impossible. Pieces that neither view shows are hidden inside: their cubes
  can only be in the two middle cells of shown rows.
* With those rules, once every piece is placed both views are exactly the card's (each shown
  colour is nearest, nothing is in front of it, empty rows stay empty), so the only check left
  is support (R5), pruned during the search: no cube above a ``must_empty`` cell, and every
  empty cell under a cube must still be fillable by a remaining piece's candidate.
* Depth-first, the piece with the fewest compatible candidates is placed next (forward checking
  drops every candidate that clashes with the partial construction).

Each solution is found once, so the search also counts solutions up to a limit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from otherside.games.rectoverso.cards import Card, matches
from otherside.games.rectoverso.construction import (
    EMPTY,
    LEVEL,
    SITE,
    Construction,
    Placement,
    cells_mask,
)
from otherside.games.rectoverso.notation import VIEW_CHARACTERS, Place, Remove
from otherside.games.rectoverso.pieces import BY_LETTER, Piece, pieces_of


@dataclass(frozen=True, slots=True)
class Candidate:
    """A placement of one piece that agrees with the card on its own.

    Attributes:
        placement: the placement.
        mask: its cells.
        below: the cells directly under its cubes (``mask >> 16``).
        must_empty: cells that must stay empty for the views to show this piece where they do.
    """

    placement: Placement
    mask: int
    below: int
    must_empty: int


class Solver:
    """Solutions of one card. Build once, then call :meth:`solutions`, :meth:`solve`, etc.

    Attributes:
        card: the card.
        reason: why the card has no solution, when that is clear before searching.
        candidates: the placements of each piece that agree with the card on their own.
        nodes: search nodes visited so far (a measure of work, for benchmarks).
    """

    def __init__(self, card: Card) -> None:
        self.card = card
        self.pieces = pieces_of(card.difficulty)
        self.candidates: dict[Piece, list[Candidate]] = {}
        self.nodes = 0
        self.reason: str | None = self._check_views()
        if self.reason is None:
            self._prepare()

    def _check_views(self) -> str | None:
        front, back = self.card.front, self.card.back
        if not front or len(front) != len(back):
            return f"the views have {len(front)} and {len(back)} levels; they need the same, >= 1"
        letters = {p.letter for p in self.pieces}
        for level in (*front, *back):
            if len(level) != SITE or set(level) - set(VIEW_CHARACTERS):
                return f"{level!r} is not a level of a view"
            unknown = set(level) - letters - {EMPTY}
            if unknown:
                piece = BY_LETTER[sorted(unknown)[0]]
                return f"{piece.name} is not used at {self.card.difficulty} (R2)"
        height = len(front)
        for z in range(height):
            for x in range(SITE):
                shown_front = self._front(x, z) != EMPTY
                if shown_front != (self._back(x, z) != EMPTY):
                    return f"column {x} level {z} is empty in one view only"
                if shown_front and z > 0 and self._front(x, z - 1) == EMPTY:
                    return f"column {x} level {z} stands above an empty row (R5)"
        if not any(c != EMPTY for c in front[0]):
            return "the top level of the views is empty"
        return None

    def _front(self, x: int, z: int) -> str:
        return self.card.front[len(self.card.front) - 1 - z][x]

    def _back(self, x: int, z: int) -> str:
        return self.card.back[len(self.card.back) - 1 - z][SITE - 1 - x]

    def _prepare(self) -> None:
        height = self.card.height
        empty = 0
        for z in range(height):
            for x in range(SITE):
                if self._front(x, z) == EMPTY:
                    empty |= cells_mask((x, y, z) for y in range(SITE))
        for piece in self.pieces:
            self.candidates[piece] = list(self._piece_candidates(piece, height, empty))
            if not self.candidates[piece]:
                self.reason = f"no placement of {piece.name} agrees with both views"

    def _piece_candidates(self, piece: Piece, height: int, empty: int) -> Iterator[Candidate]:
        letter = piece.letter
        required = {
            (x, z)
            for z in range(height)
            for x in range(SITE)
            if letter in (self._front(x, z), self._back(x, z))
        }
        for shape in piece.orientations:
            width, depth, tall = (max(c[i] for c in shape) + 1 for i in range(3))
            for z0 in range(height - tall + 1):
                for y0 in range(SITE - depth + 1):
                    for x0 in range(SITE - width + 1):
                        cells = [(x + x0, y + y0, z + z0) for x, y, z in shape]
                        candidate = self._candidate(piece, cells, required, empty)
                        if candidate is not None:
                            yield candidate

    def _candidate(
        self, piece: Piece, cells: list[tuple[int, int, int]], required: set, empty: int
    ) -> Candidate | None:
        mask = cells_mask(cells)
        if mask & empty:
            return None
        rows: dict[tuple[int, int], list[int]] = {}
        for x, y, z in cells:
            rows.setdefault((x, z), []).append(y)
        if not required <= rows.keys():
            return None
        must_empty = 0
        for (x, z), ys in rows.items():
            if self._front(x, z) == piece.letter:
                must_empty |= cells_mask((x, y, z) for y in range(min(ys)))
            elif min(ys) == 0:
                return None
            if self._back(x, z) == piece.letter:
                must_empty |= cells_mask((x, y, z) for y in range(max(ys) + 1, SITE))
            elif max(ys) == SITE - 1:
                return None
        below = mask >> LEVEL
        if below & (empty | must_empty):
            return None
        return Candidate(Placement.make(piece, cells), mask, below, must_empty)

    def solutions(
        self, limit: int | None = None, fixed: Iterable[Placement] = ()
    ) -> Iterator[Construction]:
        """Every construction that matches the card (up to ``limit``), each exactly once.

        Args:
            limit: stop after that many solutions (``None``: all of them).
            fixed: placements that every solution must contain (pieces already placed).
        """
        if self.reason is not None:
            return
        occupied = forbidden = 0
        chosen: list[Placement] = []
        for placement in fixed:
            options = self.candidates.get(placement.piece, [])
            found = [c for c in options if c.placement == placement]
            if not found:
                return
            c = found[0]
            if c.mask & (occupied | forbidden) or c.must_empty & occupied:
                return
            occupied |= c.mask
            forbidden |= c.must_empty
            chosen.append(placement)
        if (occupied >> LEVEL) & forbidden:
            return
        placed = {p.piece for p in chosen}
        remaining = [(p, self.candidates[p]) for p in self.pieces if p not in placed]
        cubes = sum(p.size for p, _ in remaining)
        solutions = search(remaining, occupied, forbidden, chosen, cubes, self._visit)
        for count, solution in enumerate(solutions, start=1):
            yield Construction(tuple(sorted(solution, key=lambda p: p.piece)))
            if limit is not None and count >= limit:
                return

    def _visit(self) -> None:
        self.nodes += 1

    def solve(self, fixed: Iterable[Placement] = ()) -> Construction | None:
        """One matching construction (containing ``fixed``), or ``None`` when none exists."""
        return next(self.solutions(1, fixed), None)

    def count(self, limit: int | None = None) -> int:
        """The number of matching constructions, counting at most ``limit``."""
        return sum(1 for _ in self.solutions(limit))


def search(
    remaining: list[tuple[Piece, list[Candidate]]],
    occupied: int,
    forbidden: int,
    chosen: list[Placement],
    cubes: int,
    visit: Callable[[], None],
) -> Iterator[list[Placement]]:
    """Every way to add one candidate of each remaining piece to ``chosen``, each once.

    Depth-first, the piece with the fewest candidates compatible with the cells taken
    (``occupied``) and kept empty (``forbidden``) first; a branch stops when a piece has none
    left, when the empty cells under cubes (R5) outnumber the ``cubes`` still to place or lie
    out of every candidate's reach. ``visit`` is called at each node (to count them, or to stop
    the search by raising). A bot's one-side completion runs the same search.
    """
    visit()
    need = (occupied >> LEVEL) & ~occupied  # empty cells under cubes (R5)
    if not remaining:
        if not need:
            yield list(chosen)
        return
    if need.bit_count() > cubes:
        return
    blocked = occupied | forbidden
    above = occupied >> LEVEL
    filtered: list[tuple[Piece, list[Candidate]]] = []
    reach = 0
    best = -1
    for piece, candidates in remaining:
        ok = [
            c
            for c in candidates
            if not (c.mask & blocked or c.must_empty & occupied or c.below & forbidden)
            and not c.must_empty & above
        ]
        if not ok:
            return
        for c in ok:
            reach |= c.mask
        if best < 0 or len(ok) < len(filtered[best][1]):
            best = len(filtered)
        filtered.append((piece, ok))
    if need & ~reach:
        return
    piece, options = filtered.pop(best)
    left = cubes - piece.size
    for c in options:
        chosen.append(c.placement)
        yield from search(
            filtered, occupied | c.mask, forbidden | c.must_empty, chosen, left, visit
        )
        chosen.pop()


def solve(card: Card) -> Construction | None:
    """A construction that matches ``card``, or ``None`` when none exists (proved by search)."""
    return Solver(card).solve()


def count_solutions(card: Card, limit: int | None = 100) -> int:
    """How many constructions match ``card``, counting at most ``limit``."""
    return Solver(card).count(limit)


def hint(card: Card, construction: Construction) -> Place | Remove | None:
    """One step towards a match: a piece to remove, or a correct placement to make.

    The pieces already placed are kept, in piece order, as long as some solution still contains
    them; the first one that no longer fits is the piece to remove. Otherwise the hint is a
    placement of a solution containing every kept piece, preferring one that is legal now.

    Returns:
        ``None`` when the construction already matches, or when the card has no solution.
    """
    if matches(construction, card):
        return None
    solver = Solver(card)
    kept: list[Placement] = []
    for placement in construction.placements:
        if solver.solve([*kept, placement]) is not None:
            kept.append(placement)
        else:
            return Remove(placement.piece)
    solution = solver.solve(kept)
    if solution is None:
        return None
    missing = [p for p in solution.placements if p not in kept]
    missing.sort(key=lambda p: (min(c[2] for c in p.cells), p.piece))
    for placement in missing:
        if construction.check_place(placement) is None:
            return Place(placement)
    return Place(missing[0]) if missing else None
