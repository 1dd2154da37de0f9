"""The clairvoyant solver: exact against brute force, equal to the first (slower) solver, and
never below what a bot scores."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from otherside.bots import make_bot, play_match
from otherside.core.rng import derive_seed
from otherside.games import verso
from otherside.games.verso.state import VersoState
from otherside.research.verso_solver import ClairvoyantSolver, clairvoyant_score

# Values computed by the first solver (memoised on the whole tableau as bytes, 40 s - 3 min per
# 35-card pile) on the benchmark's piles: game i of seed 1, the first 20 and 25 cards, and two
# whole piles. The current solver must find exactly the same optimum.
RECORDED = {
    20: (29, 24, 18, 28, 26, 26, 20, 22, 23, 22),
    25: (43, 34, 29, 43, 39, 41, 34, 32, 50, 40),
}
RECORDED_WHOLE = {1: 63, 2: 61}


def brute_force(state: VersoState) -> int:
    """Every line of play of the engine itself, no memo, no pruning: the best final score."""
    if state.is_over:
        return state.scores[0]
    return max(brute_force(state.apply(a)) for a in state.legal_actions())


def engine_best(state: VersoState) -> tuple[int, int]:
    """The engine's own best line, memoised on its positions (pile index, phase, tableaux,
    square flags): an oracle independent of the solver's encoding, fast enough for 20+ cards.
    Returns the best final score and how many squares (V12) the search met on the way."""
    memo: dict[tuple[object, ...], int] = {}
    squares = 0

    def future(s: VersoState) -> int:
        nonlocal squares
        if s.is_over:
            return 0
        key = (s.pos, s.phase, s.tableaux, s.squares)
        if key not in memo:
            best = 0
            for action in s.legal_actions():
                after = s.apply(action)
                squares += any(e[0] == "square" for e in after.events_raw)
                best = max(best, after.scores[0] - s.scores[0] + future(after))
            memo[key] = best
        return memo[key]

    return state.scores[0] + future(state), squares


def benchmark_pile(index: int) -> tuple[int, ...]:
    return verso.new_game(1, seed=derive_seed(1, "game", index)).table.pile


def short_pile(seed: int, size: int) -> list[str]:
    return [verso.card_name(oc) for oc in verso.new_game(1, seed=seed).table.pile[:size]]


def test_solver_is_exact_on_small_piles() -> None:
    """V16-V17 as the engine plays them: every line of play, best final score."""
    for seed in range(12):
        pile = short_pile(seed, 6 + seed % 4)
        assert clairvoyant_score(pile) == brute_force(verso.new_game(1, pile=pile)), pile


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.integers(1, 9))
def test_solver_equals_brute_force(seed: int, size: int) -> None:
    """V16-V17 on random piles: the opponent's turns, duplicates (V8) and squares (V12)."""
    pile = short_pile(seed, size)
    assert clairvoyant_score(pile) == brute_force(verso.new_game(1, pile=pile)), pile


@pytest.mark.slow
def test_solver_equals_the_engine_on_longer_piles() -> None:
    """V12 and V16 at length: squares made, broken and made again, turned cards, duplicates."""
    squares = 0
    for index in range(6):
        pile = [verso.card_name(oc) for oc in benchmark_pile(index)[:22]]
        best, met = engine_best(verso.new_game(1, pile=pile))
        assert clairvoyant_score(pile) == best, pile
        squares += met
    assert squares > 0  # the piles do exercise V12


@pytest.mark.parametrize("size", sorted(RECORDED))
def test_solver_equals_the_first_solver(size: int) -> None:
    found = tuple(clairvoyant_score(benchmark_pile(i)[:size]) for i in range(10))
    assert found == RECORDED[size]


@pytest.mark.slow
def test_solver_on_a_whole_pile() -> None:
    """A 35-card pile (V16), the size the benchmark solves 200 times."""
    assert clairvoyant_score(benchmark_pile(1)) == RECORDED_WHOLE[1]


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6), size=st.integers(4, 16), bot=st.sampled_from(["random", "greedy"])
)
def test_no_bot_beats_the_ceiling(seed: int, size: int, bot: str) -> None:
    pile = short_pile(seed, size)
    state = verso.new_game(1, pile=pile)
    score = play_match(verso.GAME, state, [make_bot("verso", bot)], random.Random(seed))
    assert clairvoyant_score(pile) >= score.outcome.scores[0]


@pytest.mark.slow
def test_the_line_scores_the_optimum_on_the_engine() -> None:
    """The solver's line, replayed move by move by the engine, ends on exactly the optimum."""
    for index in range(4):
        pile = benchmark_pile(index)[:22]
        solver = ClairvoyantSolver(pile)
        line = solver.line()
        state = verso.new_game(1, pile=[verso.card_name(oc) for oc in pile])
        for action in line:
            state = state.apply(action)
        assert state.is_over
        best, _ = engine_best(verso.new_game(1, pile=[verso.card_name(oc) for oc in pile]))
        assert state.scores[0] == solver.solve() == best


@pytest.mark.parametrize("index", range(3))
def test_future_equals_the_engine_from_any_position(index: int) -> None:
    """Mid-game (after a bot's moves, in play and in the final series, V17): the solver's best
    points still to come equal the engine's own exhaustive search from there."""
    pile = [verso.card_name(oc) for oc in benchmark_pile(index)[:18]]
    solver = ClairvoyantSolver(verso.new_game(1, pile=pile).table.pile)
    state = verso.new_game(1, pile=pile)
    rng = random.Random(index)
    bot = make_bot("verso", "greedy")
    checked = 0
    while not state.is_over:
        best, _ = engine_best(state)
        assert state.scores[0] + solver.future(state) == best
        checked += 1
        state = state.apply(bot.choose(verso.GAME.view(state, 0), state.legal_actions(), rng))
    assert solver.future(state) == 0
    assert checked > 5


def test_future_rejects_another_game() -> None:
    solver = ClairvoyantSolver(benchmark_pile(0)[:10])
    other = [verso.card_name(oc) for oc in benchmark_pile(1)[:10]]
    with pytest.raises(ValueError, match="this solver's pile"):
        solver.future(verso.new_game(1, pile=other))
    pile = [verso.card_name(oc) for oc in benchmark_pile(0)[:10]]
    with pytest.raises(ValueError, match="allow_duplicate_keep"):
        solver.future(verso.new_game(1, pile=pile, allow_duplicate_keep=True))
