"""Constructions a builder cannot tell apart (R17): what :meth:`RectoVersoGame.redeal` re-draws.

A builder sees the top view (R9), their own side's view (R7 or R8) and which pieces are placed.
By R5 every column is solid from the ground to its top, so the top view fixes every occupied
cell; what stays hidden is which piece fills each cell that is neither a column's top nor the
cube nearest the builder in its row. :func:`lookalike` searches, within a budget, for another
set of placements of the same pieces on the same cells with the same colour wherever the builder
sees one: any view, legal-action list or refusal that changes between the two gives away
something the builder must not learn.

The search is an exact cover of the occupied cells: the lowest uncovered cell is covered next,
by a placement of a piece not yet used that keeps every seen colour (a placement of piece c
covers every cell where c is seen and no cell where another colour is). Candidates are tried
in a random order, so repeated calls give different lookalikes when there are several.
"""

from __future__ import annotations

import random

from otherside.games.rectoverso.construction import (
    SITE,
    Construction,
    Placement,
    cell_bit,
    cells_mask,
)
from otherside.games.rectoverso.pieces import Cell, Piece

SIDES = ("front", "back")
NODE_BUDGET = 20_000  # search nodes before giving up and keeping the construction as it is


def seen_colours(construction: Construction, side: str) -> dict[Cell, str]:
    """The colour letter of every cell whose colour the builder on ``side`` sees: each
    column's top cube (R9) and, in each row of their view, the cube nearest to them (R7, R8).

    Raises:
        ValueError: for a side other than ``front`` or ``back``.
    """
    if side not in SIDES:
        raise ValueError(f"side must be front or back, not {side!r}")
    cells = construction.cells
    seen = {(x, y, z): piece.letter for (x, y), (z, piece) in construction.tops.items()}
    depths = range(SITE) if side == "front" else range(SITE - 1, -1, -1)
    for z in range(construction.height):
        for x in range(SITE):
            near = next(((x, y, z) for y in depths if (x, y, z) in cells), None)
            if near is not None:
                seen[near] = cells[near].letter
    return seen


def lookalike(
    construction: Construction, side: str, rng: random.Random, budget: int = NODE_BUDGET
) -> Construction:
    """A construction the builder on ``side`` cannot tell from ``construction``, drawn at random
    among those the search meets; ``construction`` itself when the budget runs out first.

    Raises:
        ValueError: for a side other than ``front`` or ``back``.
    """
    seen = seen_colours(construction, side)
    occupied = construction.occupied
    pieces = list(construction.pieces)
    candidates = {p: _candidates(p, seen, occupied, construction.height) for p in pieces}
    for options in candidates.values():
        rng.shuffle(options)
    chosen: list[Placement] = []
    nodes = 0

    def cover(left: int, unused: list[Piece]) -> bool:
        nonlocal nodes
        if not left:
            return not unused
        nodes += 1
        if nodes > budget:
            return False
        lowest = left & -left
        for piece in unused:
            rest = [p for p in unused if p != piece]
            for placement in candidates[piece]:
                mask = placement.mask
                if mask & lowest and mask & left == mask:
                    chosen.append(placement)
                    if cover(left & ~mask, rest):
                        return True
                    chosen.pop()
        return False

    if not cover(occupied, pieces):
        return construction
    # Same cells as a legal construction, so every column is solid (R5); ``of`` checks it.
    return Construction.of(chosen)


def _candidates(piece: Piece, seen: dict[Cell, str], occupied: int, height: int) -> list[Placement]:
    """The placements of ``piece`` inside ``occupied`` that keep every seen colour."""
    own = cells_mask([c for c, letter in seen.items() if letter == piece.letter])
    other = cells_mask([c for c, letter in seen.items() if letter != piece.letter])
    found = []
    for shape in piece.orientations:
        width, depth, tall = (max(c[i] for c in shape) + 1 for i in range(3))
        base = cells_mask(shape)
        for z in range(height - tall + 1):
            for y in range(SITE - depth + 1):
                for x in range(SITE - width + 1):
                    mask = base << cell_bit(x, y, z)
                    if mask & occupied != mask or mask & other or own & ~mask:
                        continue
                    cells = tuple((cx + x, cy + y, cz + z) for cx, cy, cz in shape)
                    found.append(Placement(piece, tuple(sorted(cells))))
    return found


__all__ = ["NODE_BUDGET", "SIDES", "lookalike", "seen_colours"]
