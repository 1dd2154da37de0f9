"""R11: the card generator, its rejections and the standard set."""

from __future__ import annotations

import json
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from otherside.games.rectoverso.cards import (
    MAX_HEIGHT,
    Card,
    generate,
    generate_standard_set,
    matches,
    rejection,
    standard_card,
    standard_cards,
    standard_construction,
    standard_set_json,
)
from otherside.games.rectoverso.solver import Solver


def test_r11_rejections() -> None:
    assert rejection(Card("easy", ("kwan", "kwan"), ("nawk", "nawk"))) is None
    assert rejection(Card("easy", ("kwan", "kwan"), ("kwan", "kwan"))) == "the two views are equal"
    assert rejection(Card("easy", ("kwa.", "kwa."), ("nawk", "nawk"))) == (
        "the front view shows 3 colours, fewer than 4"
    )
    assert rejection(Card("easy", ("kwan",), ("nawk",))) == "the building has 1 level, fewer than 2"


def test_r11_the_standard_set_regenerates_exactly() -> None:
    shipped = json.loads(
        resources.files("otherside.games.rectoverso")
        .joinpath("data/standard_cards.json")
        .read_text("utf-8")
    )
    assert standard_set_json(generate_standard_set()) == shipped


def test_r11_standard_numbers_difficulties_and_acceptance() -> None:
    cards = standard_cards()
    assert [c.number for c in cards] == list(range(1, 65))
    assert {c.difficulty for c in cards[:32]} == {"easy"}
    assert {c.difficulty for c in cards[32:]} == {"hard"}
    assert len({(c.front, c.back) for c in cards}) == 64
    for card in cards:
        assert rejection(card) is None
        assert 2 <= card.height <= MAX_HEIGHT
        assert matches(standard_construction(card.number or 0), card)
    with pytest.raises(ValueError, match="numbered 1 to 64"):
        standard_card(65)


def test_r11_the_same_seed_gives_the_same_card() -> None:
    assert generate(7, "hard") == generate(7, "hard")
    assert generate(7, "hard")[0] != generate(8, "hard")[0]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["easy", "hard"]))
def test_property_every_generated_card_is_solved_by_its_construction_and_the_solver(
    seed: int, difficulty: str
) -> None:
    card, construction = generate(seed, difficulty)
    assert rejection(card) is None
    assert matches(construction, card)
    solver = Solver(card)
    solution = solver.solve()
    assert solution is not None and matches(solution, card)
    # the generating construction is among the solutions that contain its first piece
    first = construction.placements[0]
    assert construction in list(solver.solutions(fixed=[*construction.placements[:-1]]))
    assert solver.solve(fixed=[first]) is not None
