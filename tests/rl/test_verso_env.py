"""The Verso AEC environment: PettingZoo's own API and seed tests, the encoding against the view,
what a player cannot tell apart, and the mask against the engine's legal actions."""

from __future__ import annotations

import random
import warnings

import pytest

pytest.importorskip("pettingzoo", reason="the rl extra: pip install -e '.[rl]'")

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

from otherside.core.errors import IllegalAction
from otherside.games import verso
from otherside.rl import verso as codec
from otherside.rl import verso_env
from tests.rl.play import check_masks, verso_states

# PettingZoo's api_test lists its own classic games by name as allowed to observe a dict
# ({"observation", "action_mask"}); for any other name it warns, whatever the dict holds.
DICT_OBSERVATION_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
)


def run_api_test(env: object, cycles: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=cycles)
    unexpected = [
        str(w.message) for w in caught if not str(w.message).startswith(DICT_OBSERVATION_WARNINGS)
    ]
    assert not unexpected


@pytest.mark.parametrize("players", [2, 3, 6])
@pytest.mark.parametrize("reward", ["outcome", "margin"])
def test_pettingzoo_api_test(players: int, reward: str) -> None:
    run_api_test(verso_env(players=players, seed=players, reward=reward), cycles=200)


@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_seed_test(players: int) -> None:
    seed_test(lambda: verso_env(players=players), num_cycles=200)


def play_masked_random(env: object, seed: int) -> tuple[list[int], dict[str, float]]:
    rng = np.random.default_rng(seed)
    actions: list[int] = []
    returns: dict[str, float] = {}
    for agent in env.agent_iter():  # type: ignore[attr-defined]
        observation, reward, terminated, truncated, _ = env.last()  # type: ignore[attr-defined]
        returns[agent] = returns.get(agent, 0.0) + reward
        action = None
        if not (terminated or truncated):
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            actions.append(action)
        env.step(action)  # type: ignore[attr-defined]
    return actions, returns


def test_seeds_make_episodes_reproducible() -> None:
    first, second = verso_env(players=3, seed=11), verso_env(players=3, seed=11)
    first.reset()
    second.reset()
    assert play_masked_random(first, 1) == play_masked_random(second, 1)
    first.reset(seed=5)
    deal = first.unwrapped.game_state.to_record()["pile"]
    first.reset(seed=5)
    assert first.unwrapped.game_state.to_record()["pile"] == deal
    first.reset(seed=6)
    assert first.unwrapped.game_state.to_record()["pile"] != deal


def test_outcome_rewards_rank_the_final_scores() -> None:
    env = verso_env(players=3, seed=2)
    env.reset()
    _, returns = play_masked_random(env, 3)
    scores = env.unwrapped.game_state.scores
    expected = [sum((s > t) - (s < t) for t in scores) / 2 for s in scores]
    assert [returns[f"player_{p}"] for p in range(3)] == expected
    assert sum(returns.values()) == 0


def test_margin_rewards_add_up_to_the_final_margin() -> None:
    env = verso_env(players=4, seed=3, reward="margin")
    env.reset()
    _, returns = play_masked_random(env, 4)
    scores = env.unwrapped.game_state.scores
    for seat, score in enumerate(scores):
        others = (sum(scores) - score) / 3
        assert returns[f"player_{seat}"] == pytest.approx(score - others)


@pytest.mark.parametrize("players", [1, 2, 4, 6])
def test_fast_encoding_equals_the_encoding_of_the_view(players: int) -> None:
    for seed in range(3):
        for state in verso_states(players, seed):
            for seat in range(players):
                expected = codec.encode_view(verso.view(state, seat))
                assert np.array_equal(codec.encode_state(state, seat), expected)


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(1, 6),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 150),
    redeal=st.integers(0, 2**32),
)
def test_states_a_player_cannot_tell_apart_give_the_same_observation(
    players: int, seed: int, steps: int, redeal: int
) -> None:
    """Game.redeal re-draws every hidden face and the pile below the top (V19)."""
    state = None
    for count, state in enumerate(verso_states(players, seed)):  # noqa: B007
        if count == steps:
            break
    assert state is not None
    for seat in range(players):
        other = verso.GAME.redeal(state, seat, random.Random(redeal))
        assert np.array_equal(codec.encode_state(other, seat), codec.encode_state(state, seat))
        assert np.array_equal(
            codec.action_mask(other.legal_actions()), codec.action_mask(state.legal_actions())
        )


def test_the_observation_changes_with_what_a_player_sees() -> None:
    """The converse, so that the test above cannot pass on a constant: one draw changes it."""
    state = verso.new_game(2, seed=1)
    after = state.apply("draw")
    assert not np.array_equal(codec.encode_state(state, 0), codec.encode_state(after, 0))
    # The hidden face of the card drawn stays hidden: only its up face entered.
    redealt = verso.GAME.redeal(after, 0, random.Random(2))
    assert np.array_equal(codec.encode_state(after, 1), codec.encode_state(redealt, 1))


@pytest.mark.parametrize("players", [2, 5])
def test_masked_in_actions_are_exactly_the_legal_ones(players: int) -> None:
    check_masks(verso_env(players=players), lambda state: state.legal_actions(), episodes=3)


def test_every_index_decodes_to_notation_the_engine_reads() -> None:
    for index in range(codec.ACTION_COUNT):
        text = codec.decode_action(index)
        assert str(verso.parse_action(text)) == text
        assert codec.encode_action(text) == index
        assert codec.encode_action(codec.ACTIONS[index]) == index
    assert codec.encode_action("Series  Blue 3 *4 5") == codec.encode_action("series blue 3 *4 5")
    with pytest.raises(IndexError):
        codec.decode_action(codec.ACTION_COUNT)


def test_an_illegal_action_loses_or_raises() -> None:
    env = verso_env(players=2, seed=1)
    env.reset()
    env.last()
    with pytest.warns(RuntimeWarning, match="'pass', which is not legal"):
        env.step(codec.encode_action("pass"))
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0}
    assert env.infos["player_0"] == {"illegal_action": "pass"}
    assert not env.observe("player_0")["action_mask"].any()
    finished = []
    for agent in env.agent_iter():
        finished.append(agent)
        env.step(None)
    assert finished == ["player_0", "player_1"]
    strict = verso_env(players=2, seed=1, illegal="raise")
    strict.reset()
    with pytest.raises(IllegalAction, match="pass"):
        strict.step(codec.encode_action("pass"))
    assert strict.game_state.to_record()["actions"] == []


@pytest.mark.parametrize("action", [None, -1, 198, 2.0, True])
def test_actions_outside_the_space_are_refused(action: object) -> None:
    env = verso_env(players=2, seed=1)
    env.reset()
    with pytest.raises(ValueError, match="integer 0 to 197"):
        env.step(action)  # type: ignore[arg-type]


def test_reset_comes_first() -> None:
    env = verso_env(players=2)
    with pytest.raises(RuntimeError, match="reset"):
        env.observe("player_0")
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_bad_arguments_name_what_is_allowed() -> None:
    with pytest.raises(ValueError, match="verso_solo_env"):
        verso_env(players=1)
    with pytest.raises(ValueError, match="outcome, margin"):
        verso_env(players=2, reward="points")


def test_render_describes_the_table() -> None:
    env = verso_env(players=2, seed=4, render_mode="ansi")
    env.reset()
    text = env.render()
    assert text.startswith("pile 30, top ")
    assert "player_1 0 VP" in text
