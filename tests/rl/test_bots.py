"""The project's bots as policies of the environments: masked-in actions only, seeded, and an
evaluation loop over seeded episodes."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo", reason="the rl extra: pip install -e '.[rl]'")


from otherside.rl import verso_env, verso_solo_env, versus_env
from otherside.rl.bots import bot_policy, evaluate, masked_random, policy_names
from tests.rl.play import play_policies


def test_verso_bots_play_masked_in_actions_at_a_table() -> None:
    env = verso_env(players=3, seed=2)
    env.reset()
    seats = {
        "player_0": bot_policy("verso", "greedy"),
        "player_1": bot_policy("verso", "ismcts", seed=1, iterations=10),
        "player_2": bot_policy("verso", "best", seed=1, table_iterations=10),  # ismcts here
    }
    play_policies(env, seats)
    assert env.unwrapped.game_state.is_over


def test_the_best_solo_bot_plays_the_gymnasium_env() -> None:
    env = verso_solo_env(seed=1)
    best = bot_policy("verso", "best")
    _, info = env.reset()
    total, terminated = 0.0, False
    while not terminated:
        action = best(env)
        assert info["action_mask"][action] == 1
        _, reward, terminated, _, info = env.step(action)
        total += float(reward)
    assert "illegal_action" not in info
    assert total == env.game_state.scores[0] > 0


@pytest.mark.parametrize("platform", [False, True])
def test_versus_bots_play_board_plies(platform: bool) -> None:
    env = versus_env(platform=platform)
    env.reset()
    seats = {
        "player_0": bot_policy("versus", "search", depth=1, think=0.05),
        "player_1": bot_policy("versus", "greedy"),
    }
    play_policies(env, seats, steps=40)
    plies = [str(action) for action in env.unwrapped.game_state.history]
    assert plies and all(">" in ply for ply in plies)  # never resign nor offer a draw


def test_evaluate_plays_seeded_episodes() -> None:
    env = verso_env(players=2)
    policies = {"player_0": bot_policy("verso", "greedy"), "player_1": masked_random(seed=3)}
    first = evaluate(env, policies, episodes=3, seed=10)
    assert first.episodes == 3
    assert sum(first.returns.values()) == pytest.approx(0)
    assert sum(first.wins.values()) >= 3
    policies["player_1"] = masked_random(seed=3)
    again = evaluate(env, policies, episodes=3, seed=10)
    assert again == first
    with pytest.raises(ValueError, match="player_1"):
        evaluate(env, {"player_0": masked_random()}, episodes=1)


def test_masked_random_and_names() -> None:
    env = versus_env()
    env.reset()
    action = masked_random(seed=1)(env, "player_0")
    assert env.last()[0]["action_mask"][action] == 1
    assert {"greedy", "ismcts", "best"} <= set(policy_names("verso"))
    assert {"greedy", "search"} <= set(policy_names("versus"))
    with pytest.raises(ValueError, match="known: "):
        bot_policy("verso", "alphazero")
    assert isinstance(action, int)
