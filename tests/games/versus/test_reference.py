"""The second VERSUS of ``reference.py`` (written from the rules text, for checking the engine's
work in other tests) agrees with the engine on the plies legal at every position of random
games, so that a disagreement elsewhere points at the engine's work, not at the reference."""

from __future__ import annotations

import random

from otherside.games import get_game
from tests.games.versus.reference import Position


def test_the_reference_and_the_engine_allow_the_same_plies_in_random_games() -> None:
    game = get_game("versus")
    plies = 0
    for seed in range(12):
        rng = random.Random(seed)
        state, position = game.new_state(2, seed=seed), Position.start()
        while not state.is_over:
            legal = {str(a) for a in state.legal_actions() if ">" in str(a)}
            assert position.legal() == legal, (seed, plies)
            ply = rng.choice(sorted(legal))
            state = state.apply(ply)
            position.play(ply)
            plies += 1
    assert plies > 1000
