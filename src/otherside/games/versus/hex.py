"""Hex geometry of the VERSUS board (S1): axial coordinates, the six directions, rays.

Cells are axial ``(q, r)`` with ``|q| ≤ 5``, ``|r| ≤ 5``, ``|q + r| ≤ 5``: 91 cells. The rules
work on cell *indices* (0–90, row by row from ``r = -5`` to ``r = +5``, ``q`` increasing) and
read the tables below, which are computed once at import: the neighbours of a cell and the six
rays leaving it (the cells met along each direction, nearest first, up to the edge). A line of
sight (S10) is the prefix of a ray up to its first piece.
"""

from __future__ import annotations

RADIUS = 5
"""Cells on each side of the hexagon minus one (S1: 6 cells a side, 91 cells)."""

DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
"""The six axial directions of S1, in the order used by every table."""

Cell = tuple[int, int]


def on_board(q: int, r: int, radius: int = RADIUS) -> bool:
    """True when axial ``(q, r)`` is one of the board's cells.

    >>> on_board(5, 0), on_board(5, -5), on_board(3, 3)
    (True, True, False)
    """
    return abs(q) <= radius and abs(r) <= radius and abs(q + r) <= radius


def distance(a: Cell, b: Cell) -> int:
    """Hex distance between two cells (the fewest single steps from one to the other).

    >>> distance((0, 0), (2, -5)), distance((-3, 0), (3, 0))
    (5, 6)
    """
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def direction_between(a: Cell, b: Cell) -> tuple[int, int] | None:
    """The unit direction from ``a`` to ``b`` if they share a line, else ``None``.

    >>> direction_between((2, -5), (2, -1)), direction_between((0, 0), (1, 1))
    ((0, 1), None)
    """
    dq, dr = b[0] - a[0], b[1] - a[1]
    steps = max(abs(dq), abs(dr), abs(dq + dr))
    if steps == 0:
        return None
    unit = (dq // steps, dr // steps)
    if unit in DIRECTIONS and (unit[0] * steps, unit[1] * steps) == (dq, dr):
        return unit
    return None


CELLS: tuple[Cell, ...] = tuple(
    (q, r) for r in range(-RADIUS, RADIUS + 1) for q in range(-RADIUS, RADIUS + 1) if on_board(q, r)
)
"""Every cell, in index order (row ``r = -5`` first, ``q`` increasing within a row)."""

INDEX: dict[Cell, int] = {cell: i for i, cell in enumerate(CELLS)}
"""Cell → index."""


def _ray(index: int, direction: tuple[int, int]) -> tuple[int, ...]:
    q, r = CELLS[index]
    cells: list[int] = []
    while True:
        q, r = q + direction[0], r + direction[1]
        if not on_board(q, r):
            return tuple(cells)
        cells.append(INDEX[(q, r)])


RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_ray(i, d) for d in DIRECTIONS) for i in range(len(CELLS))
)
"""``RAYS[i][d]``: the cells from cell ``i`` along direction ``d``, nearest first."""

NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(ray[0] for ray in rays if ray) for rays in RAYS
)
"""``NEIGHBOURS[i]``: the on-board neighbours of cell ``i`` (direction order, edges skipped)."""

DISTANCE: tuple[tuple[int, ...], ...] = tuple(tuple(distance(a, b) for b in CELLS) for a in CELLS)
"""``DISTANCE[i][j]``: hex distance between cells ``i`` and ``j``."""
