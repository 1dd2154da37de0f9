"""The solver: solves every standard card, counts, proves impossibility, gives hints."""

from __future__ import annotations

import pytest

from otherside.games.rectoverso.cards import (
    Card,
    generate,
    matches,
    standard_card,
    standard_cards,
    standard_construction,
)
from otherside.games.rectoverso.construction import Construction
from otherside.games.rectoverso.notation import Place, Remove, parse_placement
from otherside.games.rectoverso.solver import Solver, count_solutions, hint, solve

from .helpers import build_order


def test_r10_the_solver_solves_every_standard_card() -> None:
    for card in standard_cards():
        solution = solve(card)
        assert solution is not None, card.number
        assert matches(solution, card), card.number


@pytest.mark.parametrize("seed", [3, 11])
def test_r10_solutions_are_complete_and_distinct(seed: int) -> None:
    """Counting every solution finds the generating construction, each solution once."""
    card, construction = generate(seed, "easy")
    every = list(Solver(card).solutions())
    assert construction in every
    assert len(every) == len(set(every)) == count_solutions(card, limit=None)
    assert all(matches(s, card) for s in every[:50])
    assert count_solutions(card, limit=3) == min(3, len(every))


@pytest.mark.parametrize(
    ("front", "back", "difficulty", "reason"),
    [
        (("kwan", "kwan"), ("nawk",), "easy", "the same"),
        (("kwan", "kwan"), ("nawk", "naw."), "easy", "empty in one view only"),
        (("r...", "kwan"), ("...r", "nawk"), "easy", "red is not used at easy"),
        (("k...", "kwan"), ("...k", "nawk"), "easy", "no placement of black"),
    ],
)
def test_impossible_cards_are_proved_impossible(
    front: tuple[str, ...], back: tuple[str, ...], difficulty: str, reason: str
) -> None:
    solver = Solver(Card(difficulty, front, back))
    assert solver.solve() is None
    assert reason in (solver.reason or "")


def test_a_card_too_low_for_its_pieces_has_no_solution() -> None:
    # 10 pieces (18 cubes) cannot fit a building of one level (16 cells)
    card = Card("easy", ("kwan",), ("gpvo",))
    assert solve(card) is None


def test_hint_gives_a_correct_placement_then_a_removal() -> None:
    card = standard_card(5)
    site = Construction()
    for _ in range(len(standard_construction(5).placements)):
        step = hint(card, site)
        assert isinstance(step, Place)
        site = site.place(step.placement)
    assert matches(site, card)
    assert hint(card, site) is None
    # a wrong piece first: the hint says to remove it
    wrong = next(
        p
        for p in Construction().legal_placements(build_order(standard_construction(5))[0].piece)
        if Solver(card).solve([p]) is None
    )
    step = hint(card, Construction().place(wrong))
    assert step == Remove(wrong.piece)


def test_fixed_placements_that_clash_give_no_solution() -> None:
    card = standard_card(1)
    assert Solver(card).solve([parse_placement("black 0,0,3")]) is None
