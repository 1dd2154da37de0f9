"""Solo Verso as a Gymnasium environment: check_env, seeds, rewards, the mask, illegal actions."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("gymnasium", reason="the rl extra: pip install -e '.[rl]'")

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env

from otherside.games import verso
from otherside.rl import verso as codec
from otherside.rl import verso_solo_env


def test_gymnasium_check_env() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # Through the registry, so that check_env also tries every declared render mode.
        check_env(gymnasium.make("otherside/VersoSolo-v0").unwrapped)
    assert not [str(w.message) for w in caught]


def play(env: object, seed: int) -> tuple[list[int], list[float], dict[str, object]]:
    rng = np.random.default_rng(seed)
    observation, info = env.reset()  # type: ignore[attr-defined]
    actions: list[int] = []
    rewards: list[float] = []
    while True:
        assert env.observation_space.contains(observation)  # type: ignore[attr-defined]
        assert np.array_equal(info["action_mask"], env.action_masks())  # type: ignore[attr-defined]
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        actions.append(action)
        observation, reward, terminated, truncated, info = env.step(action)  # type: ignore[attr-defined]
        rewards.append(reward)
        assert not truncated
        if terminated:
            return actions, rewards, info


def test_an_episode_returns_the_final_score_with_its_rating() -> None:
    env = verso_solo_env(seed=5)
    _, rewards, info = play(env, 1)
    score = env.game_state.scores[0]
    assert sum(rewards) == score and min(rewards) >= 0
    assert info["rating"] == verso.rating(score)
    assert not info["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_seeds_make_episodes_reproducible() -> None:
    assert play(verso_solo_env(seed=8), 2)[:2] == play(verso_solo_env(seed=8), 2)[:2]
    env = verso_solo_env()
    env.reset(seed=4)
    pile = env.game_state.to_record()["pile"]
    env.reset(seed=4)
    assert env.game_state.to_record()["pile"] == pile
    env.reset()
    assert env.game_state.to_record()["pile"] != pile


def test_the_mask_is_exactly_the_legal_actions() -> None:
    env = verso_solo_env(seed=3)
    _, info = env.reset()
    rng = np.random.default_rng(0)
    terminated = False
    while not terminated:
        masked = {codec.decode_action(i) for i in np.flatnonzero(info["action_mask"])}
        assert masked == {str(a) for a in env.game_state.legal_actions()}
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, _, terminated, _, info = env.step(action)


def test_an_illegal_action_ends_the_episode_with_the_penalty() -> None:
    env = verso_solo_env(seed=1, illegal_reward=-5)
    env.reset()
    _, reward, terminated, truncated, info = env.step(codec.encode_action("pass"))
    assert (reward, terminated, truncated, info["illegal_action"]) == (-5.0, True, False, "pass")
    env.reset()
    with pytest.raises(ValueError, match="0 to 197"):
        env.step(198)


def test_render_describes_the_table() -> None:
    env = verso_solo_env(seed=2, render_mode="ansi")
    env.reset()
    assert env.render().startswith("pile 35, top ")
