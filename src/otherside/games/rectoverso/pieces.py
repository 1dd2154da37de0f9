"""The 11 wooden pieces (R1), the difficulties (R2) and every piece's orientations (R4).

A piece is one colour on every face; its name is its colour (the notation) and its letter is
the character used in views. Orientations are the 24 rotations of 3D space applied to the base
shape, translated so that the smallest coordinate on each axis is 0, and deduplicated. Mirror
images of the L pieces are rotations in 3D (turning the flat piece over), so rotations suffice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from itertools import permutations, product

Cell = tuple[int, int, int]

# R1, as data: (name, view letter, shape name). Order is the canonical piece order everywhere
# (sorted lists, legal actions, solver output).
_PIECE_TABLE: tuple[tuple[str, str, str], ...] = (
    ("black", "k", "cube"),
    ("white", "w", "cube"),
    ("grey", "a", "cube"),
    ("brown", "n", "cube"),
    ("green", "g", "bar-2"),
    ("pink", "p", "bar-2"),
    ("violet", "v", "bar-2"),
    ("orange", "o", "bar-2"),
    ("yellow", "y", "bar-3"),
    ("blue", "b", "L-3"),
    ("red", "r", "L-4"),
)

SHAPES: dict[str, tuple[Cell, ...]] = {
    "cube": ((0, 0, 0),),
    "bar-2": ((0, 0, 0), (1, 0, 0)),
    "bar-3": ((0, 0, 0), (1, 0, 0), (2, 0, 0)),
    "L-3": ((0, 0, 0), (1, 0, 0), (0, 1, 0)),
    "L-4": ((0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)),
}


def _rotations() -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The 24 proper rotations as (axis permutation, signs) with determinant +1."""
    result = []
    for perm in permutations(range(3)):
        parity = sum(1 for i in range(3) for j in range(i + 1, 3) if perm[i] > perm[j]) % 2
        for signs in product((1, -1), repeat=3):
            det = (-1 if parity else 1) * signs[0] * signs[1] * signs[2]
            if det == 1:
                result.append((perm, signs))
    return result


def _normalise(cells: list[Cell]) -> tuple[Cell, ...]:
    low = [min(c[i] for c in cells) for i in range(3)]
    return tuple(sorted((c[0] - low[0], c[1] - low[1], c[2] - low[2]) for c in cells))


@cache
def shape_orientations(shape: str) -> tuple[tuple[Cell, ...], ...]:
    """Every distinct orientation of ``shape``, each normalised to the origin, in a fixed order.

    >>> [len(shape_orientations(s)) for s in ("cube", "bar-2", "bar-3", "L-3", "L-4")]
    [1, 3, 3, 12, 24]
    """
    seen: dict[tuple[Cell, ...], None] = {}
    for perm, signs in _rotations():
        cells = [
            (signs[0] * c[perm[0]], signs[1] * c[perm[1]], signs[2] * c[perm[2]])
            for c in SHAPES[shape]
        ]
        seen.setdefault(_normalise(cells), None)
    return tuple(sorted(seen))


@dataclass(frozen=True, order=True)
class Piece:
    """One wooden piece of R1.

    Attributes:
        index: position in the canonical order (black first, red last).
        name: its colour, used in notation (``yellow``).
        letter: its character in views (``y``).
        shape: ``cube``, ``bar-2``, ``bar-3``, ``L-3`` or ``L-4``.
    """

    index: int
    name: str = field(compare=False)
    letter: str = field(compare=False)
    shape: str = field(compare=False)

    @property
    def size(self) -> int:
        """Number of unit cubes."""
        return len(SHAPES[self.shape])

    @property
    def orientations(self) -> tuple[tuple[Cell, ...], ...]:
        """The piece's distinct orientations (see :func:`shape_orientations`)."""
        return shape_orientations(self.shape)

    def fits(self, cells: tuple[Cell, ...]) -> bool:
        """True when ``cells`` are this piece in some orientation and position."""
        return len(cells) == self.size and _normalise(list(cells)) in self.orientations

    def __str__(self) -> str:
        return self.name


PIECES: tuple[Piece, ...] = tuple(
    Piece(i, name, letter, shape) for i, (name, letter, shape) in enumerate(_PIECE_TABLE)
)
BY_NAME: dict[str, Piece] = {p.name: p for p in PIECES}
BY_LETTER: dict[str, Piece] = {p.letter: p for p in PIECES}

# R2: easy cards use every piece but red; hard cards use all 11.
DIFFICULTIES: dict[str, tuple[Piece, ...]] = {
    "easy": tuple(p for p in PIECES if p.name != "red"),
    "hard": PIECES,
}


def pieces_of(difficulty: str) -> tuple[Piece, ...]:
    """The pieces of a difficulty (R2).

    >>> len(pieces_of("easy")), len(pieces_of("hard"))
    (10, 11)

    Raises:
        ValueError: for an unknown difficulty, naming the known ones.
    """
    try:
        return DIFFICULTIES[difficulty]
    except KeyError:
        raise ValueError(
            f"unknown difficulty {difficulty!r}; known: {', '.join(DIFFICULTIES)}"
        ) from None
