"""Random masked agents in the three environments: the loop a training script starts from.

    pip install -e '.[rl]'
    python examples/rl_random.py [--episodes 20] [--seed 1]

A random agent picks uniformly among the actions its ``action_mask`` allows. The script plays
four-player Verso (PettingZoo AEC), VERSUS (AEC) and solo Verso (Gymnasium) with such agents,
then evaluates a random agent against the ``greedy`` bot, the baseline a trained agent should
beat first.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from otherside.rl import verso_env, verso_solo_env, versus_env
from otherside.rl.bots import Policy, bot_policy, evaluate, masked_random


def play_aec(env: Any, episodes: int, seed: int) -> dict[str, float]:
    """Mean return per agent over ``episodes`` seeded games of random masked actions."""
    rng = np.random.default_rng(seed)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    for episode in range(episodes):
        env.reset(seed=seed + episode)
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _ = env.last()
            returns[agent] += reward
            action = None
            if not (terminated or truncated):
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            env.step(action)
    return {agent: total / episodes for agent, total in returns.items()}


def play_solo(episodes: int, seed: int) -> list[float]:
    """Final scores of ``episodes`` seeded solo games of random masked actions."""
    env = verso_solo_env()
    rng = np.random.default_rng(seed)
    scores = []
    for episode in range(episodes):
        _, info = env.reset(seed=seed + episode)
        total, done = 0.0, False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, reward, terminated, truncated, info = env.step(action)
            total += float(reward)
            done = terminated or truncated
        scores.append(total)
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    episodes, seed = args.episodes, args.seed

    returns = play_aec(verso_env(players=4), episodes, seed)
    print("Verso, 4 random players, mean return:", {a: round(r, 2) for a, r in returns.items()})
    returns = play_aec(versus_env(), episodes, seed)
    print("VERSUS, 2 random players, mean return:", {a: round(r, 2) for a, r in returns.items()})
    scores = play_solo(episodes, seed)
    print(f"solo Verso, random: mean score {np.mean(scores):.1f} (best {max(scores):.0f})")

    env = verso_env(players=2)
    seats: dict[str, Policy] = {
        "player_0": masked_random(seed),
        "player_1": bot_policy("verso", "greedy"),
    }
    result = evaluate(env, seats, episodes=episodes, seed=seed)
    scores_by_agent = {agent: round(score, 1) for agent, score in result.scores.items()}
    print(
        f"Verso, random against greedy over {episodes} games: wins {result.wins}, "
        f"mean scores {scores_by_agent}"
    )


if __name__ == "__main__":
    main()
