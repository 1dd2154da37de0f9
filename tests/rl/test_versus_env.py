"""The VERSUS AEC environment: PettingZoo's API and seed tests, the encoding against the view,
the mask against the engine's legal actions, with and without the platform actions."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo", reason="the rl extra: pip install -e '.[rl]'")

import numpy as np
from pettingzoo.test import seed_test

from otherside.core.errors import IllegalAction
from otherside.games import versus
from otherside.rl import versus as codec
from otherside.rl import versus_env
from tests.rl.play import check_masks, versus_states
from tests.rl.test_verso_env import run_api_test


@pytest.mark.parametrize("platform", [False, True])
@pytest.mark.parametrize("reward", ["outcome", "margin"])
def test_pettingzoo_api_test(platform: bool, reward: str) -> None:
    run_api_test(versus_env(platform=platform, reward=reward), cycles=300)


@pytest.mark.parametrize("platform", [False, True])
def test_pettingzoo_seed_test(platform: bool) -> None:
    seed_test(lambda: versus_env(platform=platform), num_cycles=200)


@pytest.mark.parametrize("platform", [False, True])
def test_masked_in_actions_are_exactly_the_legal_ones(platform: bool) -> None:
    def legal(state: versus.VersusState) -> list[object]:
        return list(state.legal_actions() if platform else state.legal_plies())

    check_masks(versus_env(platform=platform), legal, episodes=2)


def test_platform_actions_follow_the_engine() -> None:
    """An offer passes the turn to the opponent's answer; a resignation loses (+1/-1)."""
    env = versus_env(platform=True)
    env.reset()
    env.last()
    env.step(codec.encode_action("offer-draw"))
    assert env.agent_selection == "player_1"
    answers = {codec.decode_action(i) for i in np.flatnonzero(env.last()[0]["action_mask"])}
    assert answers == {"accept-draw", "decline-draw"}
    env.step(codec.encode_action("decline-draw"))
    assert env.agent_selection == "player_0"
    env.last()
    env.step(codec.encode_action("resign"))
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": -1.0, "player_1": 1.0}


def test_fast_encoding_equals_the_encoding_of_the_view() -> None:
    encoder = codec.VersusEncoder(platform=True)
    for seed in range(3):
        for state in versus_states(seed):
            for seat in (0, 1):
                expected = encoder.encode_view(versus.view(state, seat))
                observation = encoder.encode_state(state, seat)
                assert np.array_equal(observation, expected)
                assert observation.min() >= 0 and observation.max() <= 1


def test_perfect_information_redeal_changes_nothing() -> None:
    encoder = codec.VersusEncoder()
    for state in versus_states(4):
        other = versus.GAME.redeal(state, 0, random.Random(1))
        assert np.array_equal(encoder.encode_state(other, 0), encoder.encode_state(state, 0))


def test_the_observation_is_the_seat_s_own() -> None:
    encoder = codec.VersusEncoder()
    state = versus.new_game()
    blue, brown = encoder.encode_state(state, 0), encoder.encode_state(state, 1)
    cell = (-4 + 5, 0 + 5)  # 0:-4 is Blue's stone with one blue segment
    row, column = cell[0], cell[1]
    assert blue[row, column, codec.MY_STONE] == 1 and brown[row, column, codec.THEIR_STONE] == 1
    assert blue[row, column, codec.VALUE_TO_ME] == pytest.approx(0.2)
    assert brown[row, column, codec.VALUE_TO_ME] == pytest.approx(0.8)
    assert blue[0, 0, codec.TO_MOVE] == 1 and brown[0, 0, codec.TO_MOVE] == 0
    assert blue[0, 0, codec.BLUE] == 1 and brown[0, 0, codec.BLUE] == 0
    assert blue[:, :, codec.CELL].sum() == 91
    assert blue[:, :, codec.TARGET].sum() == 6


def test_every_index_decodes_to_notation_the_engine_reads() -> None:
    for index in range(codec.ACTION_COUNT):
        text = codec.decode_action(index)
        assert str(versus.parse_action(text)) == text
        assert codec.encode_action(text) == index
    assert codec.PLY_COUNT == 2070
    with pytest.raises(IndexError):
        codec.decode_action(codec.ACTION_COUNT)


def test_illegal_and_unexposed_actions() -> None:
    strict = versus_env(illegal="raise")
    strict.reset()
    with pytest.raises(IllegalAction, match="0:0"):
        strict.step(codec.encode_action("0:0>1:0"))
    with pytest.raises(ValueError, match="0 to 2069"):
        strict.step(codec.encode_action("resign"))
    with pytest.raises(ValueError, match="platform=True"):
        strict.encode_action("resign")
    env = versus_env()
    env.reset()
    with pytest.warns(RuntimeWarning, match="not legal"):
        env.step(codec.encode_action("0:0>1:0"))
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0}


def test_render_describes_the_board() -> None:
    env = versus_env(render_mode="ansi")
    env.reset()
    assert env.render().startswith("ply 0, last -, to move: 0, scores 0-0")
