"""Random games of the engines, for the rl tests: every state met, seeded."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from otherside.games import verso, versus


def verso_states(players: int, seed: int) -> Iterator[verso.VersoState]:
    """Every state of one random Verso game, the final one included."""
    rng = random.Random(seed)
    state = verso.new_game(players, seed=seed)
    yield state
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
        yield state


def versus_states(seed: int, platform: float = 0.05) -> Iterator[Any]:
    """Every state of one random VERSUS game; a platform action with probability
    ``platform`` (so offers, refusals and resignations are met too)."""
    rng = random.Random(seed)
    state = versus.new_game()
    yield state
    while not state.is_over:
        plies = state.legal_plies()
        pool = plies if plies and rng.random() >= platform else state.legal_actions()
        state = state.apply(rng.choice(pool))
        yield state
