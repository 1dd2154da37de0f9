"""Seeded games for the rl tests: random games of the engines, and environment loops that
check the masks."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

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


def check_masks(env: Any, legal: Callable[[Any], Sequence[Any]], episodes: int) -> None:
    """Play ``episodes`` seeded games of random masked actions in an AEC environment, checking
    at every step that the mask of the agent to move is exactly ``legal(state)`` (by notation)
    and that every other agent's mask is empty."""
    decode = env.unwrapped.decode_action
    for episode in range(episodes):
        env.reset(seed=episode)
        rng = np.random.default_rng(episode)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            state = env.unwrapped.game_state
            mask = observation["action_mask"]
            if terminated or truncated:
                assert not mask.any()
                env.step(None)
                continue
            assert agent == f"player_{state.current_player}"
            masked = {decode(i) for i in np.flatnonzero(mask)}
            assert masked == {str(a) for a in legal(state)}
            assert masked == {str(a) for a in env.unwrapped.legal_actions()}
            for other in env.agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            env.step(int(rng.choice(np.flatnonzero(mask))))


def play_policies(env: Any, seats: Mapping[str, Any], steps: int | None = None) -> None:
    """Play the policies ``seats`` (for ``steps`` steps, or to the end), checking that each
    action they choose is masked in."""
    for count, agent in enumerate(env.agent_iter()):
        if steps is not None and count == steps:
            return
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = seats[agent](env, agent)
        assert observation["action_mask"][action] == 1
        env.step(action)
