"""Placements (R4), support (R5), all pieces (R6) and the three views (R7–R9).

Cells are ``(x, y, z)``: x = 0…3 from the front partner's left to right, y = 0…3 from the front
edge to the back edge, z = 0, 1, … from the ground up (R3). A set of cells is also a bitmask with
bit ``z * 16 + y * 4 + x``, so that ``mask >> 16`` moves every cube one level down: that is how
support is checked (R5) here and in the solver.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property

from otherside.core.errors import IllegalAction
from otherside.games.rectoverso.pieces import Cell, Piece

SITE = 4  # R3: the footprint is SITE x SITE cells
LEVEL = SITE * SITE  # bits per level in a cell mask
EMPTY = "."  # an empty cell in a view

View = tuple[str, ...]


def cell_bit(x: int, y: int, z: int) -> int:
    """Bit index of a cell in a cell mask."""
    return z * LEVEL + y * SITE + x


def cells_mask(cells: Iterable[Cell]) -> int:
    """The bitmask of a set of cells."""
    mask = 0
    for x, y, z in cells:
        mask |= 1 << cell_bit(x, y, z)
    return mask


def unsupported(mask: int) -> int:
    """The cells directly below cubes of ``mask`` that ``mask`` leaves empty (R5).

    >>> unsupported(cells_mask([(0, 0, 1)])) == cells_mask([(0, 0, 0)])
    True
    >>> unsupported(cells_mask([(0, 0, 0), (0, 0, 1)]))
    0
    """
    return (mask >> LEVEL) & ~mask


@dataclass(frozen=True, order=True)
class Placement:
    """A piece on whole cells (R4). ``str`` is the notation: ``yellow 0,0,0 1,0,0 2,0,0``.

    The cells are kept sorted, so equal placements compare and print equal. Build placements
    with :func:`otherside.games.rectoverso.notation.parse_placement` or :meth:`make`, which
    check the shape.
    """

    piece: Piece
    cells: tuple[Cell, ...]

    @classmethod
    def make(cls, piece: Piece, cells: Iterable[Cell]) -> Placement:
        """A placement of ``piece`` on ``cells`` (any order).

        Raises:
            ValueError: when the cells are not that piece's shape.
        """
        ordered = tuple(sorted(cells))
        if not piece.fits(ordered):
            raise ValueError(f"cells {ordered} are not the shape of {piece.name} ({piece.shape})")
        return cls(piece, ordered)

    @cached_property
    def mask(self) -> int:
        """The placement's cells as a bitmask."""
        return cells_mask(self.cells)

    def outside_site(self) -> list[Cell]:
        """The cells that leave the footprint or go below the ground (R4)."""
        return [c for c in self.cells if not (0 <= c[0] < SITE and 0 <= c[1] < SITE and c[2] >= 0)]

    @cached_property
    def _notation(self) -> str:
        return " ".join([self.piece.name, *(f"{x},{y},{z}" for x, y, z in self.cells)])

    def __str__(self) -> str:
        # Written once: a placement is listed, compared and refused as text many times.
        return self._notation


@dataclass(frozen=True)
class Construction:
    """A legal (R4, R5) set of placements, at most one per piece, in piece order.

    ``place`` and ``remove`` return a new construction or raise :class:`IllegalAction` naming
    the rule broken; the construction itself never changes.
    """

    placements: tuple[Placement, ...] = ()

    @classmethod
    def of(cls, placements: Iterable[Placement]) -> Construction:
        """Build a construction from ``placements`` in any order (checking every rule).

        Raises:
            IllegalAction: when the placements overlap, leave the site or cannot all stand.
        """
        construction = cls()
        pending = list(placements)
        while pending:
            # Place lower pieces first: any order in which each piece is supported will do.
            ready = [p for p in pending if construction.check_place(p) is None]
            if not ready:
                return construction.place(pending[0])  # raises, naming the rule broken
            for placement in ready:
                if construction.check_place(placement) is None:
                    construction = construction.place(placement)
                    pending.remove(placement)
        return construction

    @cached_property
    def occupied(self) -> int:
        """Bitmask of every occupied cell."""
        mask = 0
        for placement in self.placements:
            mask |= placement.mask
        return mask

    @cached_property
    def cells(self) -> dict[Cell, Piece]:
        """Which piece holds each occupied cell."""
        return {cell: p.piece for p in self.placements for cell in p.cells}

    @cached_property
    def height(self) -> int:
        """Number of levels: the highest occupied level plus one, 0 when empty."""
        return max((c[2] for c in self.cells), default=-1) + 1

    def placement_of(self, piece: Piece) -> Placement | None:
        """Where ``piece`` stands, or ``None`` when it is not placed."""
        for placement in self.placements:
            if placement.piece == piece:
                return placement
        return None

    @property
    def pieces(self) -> tuple[Piece, ...]:
        """The placed pieces in piece order."""
        return tuple(p.piece for p in self.placements)

    def check_place(self, placement: Placement) -> str | None:
        """Why ``placement`` cannot be added (naming the rule), or ``None`` when it can."""
        piece = placement.piece
        if self.placement_of(piece) is not None:
            return f"{piece.name} is already placed; remove it first"
        outside = placement.outside_site()
        if outside:
            cells = " ".join(f"{x},{y},{z}" for x, y, z in outside)
            return f"cell {cells} is outside the 4 x 4 build site (R4)"
        if placement.mask & self.occupied:
            # What a hand feels at the table; the piece in the way may be hidden from the
            # builder (R17), so it is never named.
            return "those cells are occupied (R4)"
        below = unsupported(placement.mask | self.occupied) & (placement.mask >> LEVEL)
        if below:
            floating = [
                c for c in placement.cells if c[2] > 0 and (below >> (cell_bit(*c) - LEVEL)) & 1
            ]
            cells = " ".join(f"{x},{y},{z}" for x, y, z in floating)
            return f"cube {cells} would stand above an empty cell (R5)"
        return None

    def place(self, placement: Placement) -> Construction:
        """The construction with ``placement`` added.

        Raises:
            IllegalAction: when the piece is already placed, a cell is outside the site or
                taken (R4), or a cube would float (R5).
        """
        reason = self.check_place(placement)
        if reason is not None:
            raise IllegalAction(f"place {placement}", reason)
        placements = sorted((*self.placements, placement), key=lambda p: p.piece)
        return Construction(tuple(placements))

    def check_remove(self, piece: Piece) -> str | None:
        """Why ``piece`` cannot be removed, or ``None`` when it can."""
        placement = self.placement_of(piece)
        if placement is None:
            return f"{piece.name} is not placed"
        if unsupported(self.occupied & ~placement.mask):
            # As a hand lifting it would feel; what rests on it may be hidden (R17).
            return f"something rests on {piece.name}: it would be left above an empty cell (R5)"
        return None

    def on_top(self) -> tuple[Piece, ...]:
        """The pieces with a cube on top of a column, in piece order: those a hand can grip
        from above, and the only ones that may be removable (a piece on top of no column has
        something on each of its cubes, R5). The top view shows them (R9)."""
        shown = {piece for _, piece in self.tops.values()}
        return tuple(p for p in self.pieces if p in shown)

    @cached_property
    def tops(self) -> dict[tuple[int, int], tuple[int, Piece]]:
        """For each column (x, y) that holds a cube, the level and piece of its highest cube.

        By R5 every column is solid from the ground to its top, so these alone give every
        occupied cell (:attr:`occupied`): which cells are taken is public, only the colours
        inside are hidden."""
        tops: dict[tuple[int, int], tuple[int, Piece]] = {}
        for (x, y, z), piece in self.cells.items():
            if (x, y) not in tops or tops[(x, y)][0] < z:
                tops[(x, y)] = (z, piece)
        return tops

    def remove(self, piece: Piece) -> Construction:
        """The construction without ``piece``.

        Raises:
            IllegalAction: when the piece is not placed or holds up another piece (R5).
        """
        reason = self.check_remove(piece)
        if reason is not None:
            raise IllegalAction(f"remove {piece.name}", reason)
        return Construction(tuple(p for p in self.placements if p.piece != piece))

    def legal_placements(self, piece: Piece, max_height: int | None = None) -> Iterator[Placement]:
        """Every placement of ``piece`` that :meth:`place` accepts, in a fixed order.

        Args:
            piece: an unplaced piece (a placed one has no legal placement).
            max_height: when given, only placements whose cubes stay below that many levels.
        """
        if self.placement_of(piece) is not None:
            return
        occupied = self.occupied
        top = self.height if max_height is None else max_height - 1
        for shape in piece.orientations:
            width = max(c[0] for c in shape) + 1
            depth = max(c[1] for c in shape) + 1
            tall = max(c[2] for c in shape) + 1
            base = cells_mask(shape)
            for z in range(0, top + 1):
                if max_height is not None and z + tall > max_height:
                    break
                for y in range(SITE - depth + 1):
                    for x in range(SITE - width + 1):
                        mask = base << cell_bit(x, y, z)
                        if mask & occupied or unsupported(mask | occupied) & (mask >> LEVEL):
                            continue
                        cells = tuple((cx + x, cy + y, cz + z) for cx, cy, cz in shape)
                        yield Placement(piece, cells)

    def front_view(self) -> View:
        """R7: per level (top first), per column x = 0…3, the cube nearest the front."""
        return self._view(range(SITE), range(SITE))

    def back_view(self) -> View:
        """R8: per level (top first), the cube nearest the back, mirrored (x = 3 on the left)."""
        return self._view(range(SITE - 1, -1, -1), range(SITE - 1, -1, -1))

    def _view(self, columns: Iterable[int], depths: Iterable[int]) -> View:
        cells = self.cells
        order = list(depths)
        rows = []
        for z in range(self.height - 1, -1, -1):
            row = []
            for x in columns:
                seen = next((cells[(x, y, z)] for y in order if (x, y, z) in cells), None)
                row.append(seen.letter if seen else EMPTY)
            rows.append("".join(row))
        return tuple(rows)

    def top_view(self) -> tuple[str, ...]:
        """R9: for each cell, the colour and level of the highest cube (see the package doc).

        Rows go from the back row (y = 3) to the front row (y = 0), so the front partner reads
        it as a map; each row is four space-separated cells ``<letter><z>`` or ``.``.
        """
        highest = self.tops
        rows = []
        for y in range(SITE - 1, -1, -1):
            row = []
            for x in range(SITE):
                if (x, y) in highest:
                    z, piece = highest[(x, y)]
                    row.append(f"{piece.letter}{z}")
                else:
                    row.append(EMPTY)
            rows.append(" ".join(row))
        return tuple(rows)

    def __str__(self) -> str:
        return "; ".join(str(p) for p in self.placements)
