"""R1, R2, R4: the pieces, the difficulties and every piece's orientations."""

from __future__ import annotations

import pytest

from otherside.games.rectoverso.pieces import PIECES, SHAPES, pieces_of, shape_orientations


def test_r1_eleven_pieces_with_their_sizes() -> None:
    sizes = {p.name: p.size for p in PIECES}
    assert sizes == {
        "black": 1, "white": 1, "grey": 1, "brown": 1,
        "green": 2, "pink": 2, "violet": 2, "orange": 2,
        "yellow": 3, "blue": 3, "red": 4,
    }  # fmt: skip
    assert len({p.letter for p in PIECES}) == 11


def test_r2_easy_has_every_piece_but_red() -> None:
    assert [p.name for p in pieces_of("hard")] == [p.name for p in PIECES]
    assert "red" not in [p.name for p in pieces_of("easy")]
    assert sum(p.size for p in pieces_of("easy")) == 18
    with pytest.raises(ValueError, match="known: easy, hard"):
        pieces_of("medium")


@pytest.mark.parametrize(
    ("shape", "count"), [("cube", 1), ("bar-2", 3), ("bar-3", 3), ("L-3", 12), ("L-4", 24)]
)
def test_r4_distinct_orientations(shape: str, count: int) -> None:
    orientations = shape_orientations(shape)
    assert len(orientations) == count
    assert len(set(orientations)) == count
    for cells in orientations:
        assert min(c[i] for c in cells for i in range(3)) == 0
        assert len(cells) == len(SHAPES[shape])


def test_r4_mirror_image_of_the_l_is_the_same_piece_turned_over() -> None:
    red = next(p for p in PIECES if p.name == "red")
    mirrored = tuple(sorted((-x + 2, y, z) for x, y, z in SHAPES["L-4"]))
    assert red.fits(mirrored)
    assert not red.fits(((0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)))  # a T is not an L
