"""The clairvoyant solver: exact against brute force, and never below what a bot scores."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from otherside.bots import make_bot, play_match
from otherside.bots.verso_solver import clairvoyant_score
from otherside.games import verso
from otherside.games.verso.state import VersoState


def brute_force(state: VersoState) -> int:
    """Every line of play of the engine itself, no memo, no pruning: the best final score."""
    if state.is_over:
        return state.scores[0]
    return max(brute_force(state.apply(a)) for a in state.legal_actions())


def short_pile(seed: int, size: int) -> list[str]:
    return [verso.card_name(oc) for oc in verso.new_game(1, seed=seed).table.pile[:size]]


def test_solver_is_exact_on_small_piles() -> None:
    for seed in range(12):
        pile = short_pile(seed, 6 + seed % 4)
        assert clairvoyant_score(pile) == brute_force(verso.new_game(1, pile=pile)), pile


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6), size=st.integers(4, 16), bot=st.sampled_from(["random", "greedy"])
)
def test_no_bot_beats_the_ceiling(seed: int, size: int, bot: str) -> None:
    pile = short_pile(seed, size)
    state = verso.new_game(1, pile=pile)
    score = play_match(verso.GAME, state, [make_bot("verso", bot)], random.Random(seed))
    assert clairvoyant_score(pile) >= score.outcome.scores[0]
