"""R3–R10: placement, support, all pieces, the three views and matching."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from otherside.core import IllegalAction
from otherside.games.rectoverso.cards import Card, matches, mismatch, standard_construction
from otherside.games.rectoverso.cards import standard_card as card_number
from otherside.games.rectoverso.construction import Construction, unsupported
from otherside.games.rectoverso.notation import parse_piece, parse_placement
from otherside.games.rectoverso.pieces import pieces_of
from otherside.games.rectoverso.solver import Solver

from .helpers import build


def test_r3_r4_a_piece_outside_the_site_is_rejected() -> None:
    with pytest.raises(IllegalAction, match=r"4,0,0 is outside the 4 x 4 build site \(R4\)"):
        Construction().place(parse_placement("yellow 2,0,0 3,0,0 4,0,0"))
    with pytest.raises(IllegalAction, match="outside"):
        Construction().place(parse_placement("black 0,-1,0"))


def test_r4_no_cell_holds_two_cubes() -> None:
    site = build("yellow 0,0,0 1,0,0 2,0,0")
    with pytest.raises(IllegalAction, match=r"those cells are occupied \(R4\)") as refused:
        site.place(parse_placement("green 2,0,0 2,1,0"))
    assert "yellow" not in refused.value.reason  # never the piece in the way (R17)
    with pytest.raises(IllegalAction, match="already placed"):
        site.place(parse_placement("yellow 0,1,0 1,1,0 2,1,0"))


def test_r5_a_floating_cube_is_rejected() -> None:
    with pytest.raises(IllegalAction, match=r"cube 0,0,1 would stand above an empty cell \(R5\)"):
        Construction().place(parse_placement("black 0,0,1"))
    # a bar lying on one cube only floats at its other end
    site = build("black 0,0,0")
    with pytest.raises(IllegalAction, match=r"1,0,1 would stand above"):
        site.place(parse_placement("green 0,0,1 1,0,1"))
    # a piece may rest on itself: an upright L or bar
    build("yellow 0,0,0 0,0,1 0,0,2", "blue 1,0,0 1,0,1 2,0,0")


def test_r5_a_piece_holding_another_cannot_be_removed() -> None:
    site = build("yellow 0,0,0 1,0,0 2,0,0", "black 1,0,1")
    with pytest.raises(IllegalAction, match=r"something rests on yellow.*\(R5\)") as refused:
        site.remove(parse_piece("yellow"))
    assert "black" not in refused.value.reason  # never what rests on it (R17)
    assert site.remove(parse_piece("black")).remove(parse_piece("yellow")) == Construction()


def test_r7_r8_front_view_and_mirrored_back_view() -> None:
    site = build("yellow 0,0,0 1,0,0 2,0,0", "black 3,3,0", "white 0,2,0", "grey 0,2,1")
    assert site.front_view() == ("a...", "yyyk")
    # the back partner sees x = 3 on their left, and the cubes nearest the back
    assert site.back_view() == ("...a", "kyyw")


def test_r9_top_view_gives_colour_and_level_of_the_highest_cube() -> None:
    site = build("yellow 0,0,0 1,0,0 2,0,0", "black 3,3,0", "white 1,0,1")
    assert site.top_view() == (". . . k0", ". . . .", ". . . .", "y0 w1 y0 .")


def test_r6_pieces_hidden_inside_are_allowed_and_required() -> None:
    hidden = None
    for number in range(1, 65):
        card = card_number(number)
        letters = set("".join(card.front + card.back))
        unseen = [p for p in pieces_of(card.difficulty) if p.letter not in letters]
        if unseen:
            hidden = (card, unseen)
            break
    assert hidden is not None, "some standard card hides a piece"
    card, unseen = hidden
    construction = standard_construction(card.number or 0)
    assert matches(construction, card)
    assert unseen[0] in construction.pieces
    without = Construction(tuple(p for p in construction.placements if p.piece != unseen[0]))
    assert mismatch(without, card) == f"pieces not placed (R6): {unseen[0].name}"
    solved = Solver(card).solve()
    assert solved is not None and unseen[0] in solved.pieces and matches(solved, card)


def test_r10_a_different_construction_that_matches_still_counts() -> None:
    card = card_number(1)
    original = standard_construction(1)
    others = [s for s in Solver(card).solutions(limit=5) if s != original]
    assert others, "card 1 has more than one solution"
    assert all(matches(other, card) for other in others)


def test_r10_wrong_views_do_not_match() -> None:
    construction = standard_construction(2)
    card = card_number(2)
    wrong = Card(card.difficulty, card.back, card.front)
    assert mismatch(construction, wrong) is not None
    assert "front view" in (mismatch(construction, wrong) or "")


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_property_no_floating_cube_ever(data: st.DataObject) -> None:
    """Any sequence of legal places and removes keeps every cube supported (R5)."""
    site = Construction()
    for _ in range(data.draw(st.integers(1, 25))):
        options = [p for piece in pieces_of("hard") for p in site.legal_placements(piece)]
        removable = [p for p in site.pieces if site.check_remove(p) is None]
        if removable and data.draw(st.booleans()):
            site = site.remove(data.draw(st.sampled_from(removable)))
        elif options:
            site = site.place(data.draw(st.sampled_from(options)))
        assert unsupported(site.occupied) == 0
        front, back = site.front_view(), site.back_view()
        assert len(front) == len(back) == site.height
        for level_front, level_back in zip(front, back, strict=True):
            assert [c == "." for c in level_front] == [c == "." for c in reversed(level_back)]
