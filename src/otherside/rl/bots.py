"""The project's bots as policies of the environments, to evaluate a trained agent against.

A *policy* is called as ``policy(env, agent)`` and returns an action index for ``agent``, the
agent to move. :func:`bot_policy` makes one from any bot of the registry
(:func:`otherside.bots.bot_names`: Verso ``greedy``, ``ismcts``, ``best``…; VERSUS ``greedy``,
``search``…): the bot sees what it sees at a table, the engine's view of its seat and the legal
actions the environment exposes, through the environment's ``view`` and ``legal_actions``, and
never the observation array. :func:`masked_random` is the uniform baseline, and
:func:`evaluate` plays seeded episodes of an AEC environment with one policy per agent.

A trained network becomes a policy in one line, e.g.
``lambda env, agent: int(net(env.observe(agent)).argmax())``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from otherside.bots import Bot, bot_names, make_bot


class Engine(Protocol):
    """What a bot policy reads of an environment (the ``unwrapped`` one)."""

    def view(self, agent: str | None = None) -> dict[str, Any]: ...

    def legal_actions(self) -> list[Any]: ...

    def encode_action(self, action: Any) -> int: ...


Policy = Callable[[Any, str | None], int]
"""``policy(env, agent) -> action index``."""


class BotPolicy:
    """A registry bot playing through an environment.

    Args:
        game: ``"verso"`` or ``"versus"``.
        name: a bot name or alias of the registry for that game.
        seed: seeds the bot's own ``random.Random`` (its decisions are then reproducible).
        **options: the bot's options (``iterations=100`` for ``ismcts``, ``think=0.1`` for
            ``search``…), as ``otherside.bots.make_bot`` takes them.
    """

    def __init__(self, game: str, name: str, seed: int | None = None, **options: Any) -> None:
        self.game = game
        self.name = name
        self.bot: Bot = make_bot(game, name, **options)
        self.rng = random.Random(seed)

    def __call__(self, env: Any, agent: str | None = None) -> int:
        engine: Engine = env.unwrapped
        action = self.bot.choose(engine.view(agent), engine.legal_actions(), self.rng)
        return engine.encode_action(action)

    def __repr__(self) -> str:
        return f"BotPolicy({self.game!r}, {self.name!r})"


def bot_policy(game: str, name: str, seed: int | None = None, **options: Any) -> BotPolicy:
    """The bot ``name`` of ``game`` as a policy (``ValueError`` for an unknown name).

    >>> from otherside.rl import verso_env
    >>> env = verso_env(players=2, seed=1)
    >>> env.reset()
    >>> greedy = bot_policy("verso", "greedy")
    >>> env.unwrapped.decode_action(greedy(env, env.agent_selection))
    'draw'
    """
    return BotPolicy(game, name, seed, **options)


def policy_names(game: str) -> list[str]:
    """The bot names a policy can be made of (the registry's, aliases included)."""
    return bot_names(game)


def masked_random(seed: int | None = None) -> Policy:
    """A policy choosing uniformly among the legal actions of the mask."""
    rng = np.random.default_rng(seed)

    def choose(env: Any, agent: str | None = None) -> int:
        mask = env.observe(agent or env.agent_selection)["action_mask"]
        return int(rng.choice(np.flatnonzero(mask)))

    return choose


@dataclass
class Evaluation:
    """Per-agent results of :func:`evaluate`.

    Attributes:
        episodes: how many were played.
        returns: each agent's mean episode return.
        wins: each agent's wins (the engine's outcome: the highest score, a tie won by
            every tied player; in VERSUS a resignation loses, an agreed draw wins nobody).
        scores: each agent's mean final score.
    """

    episodes: int
    returns: dict[str, float]
    wins: dict[str, int]
    scores: dict[str, float]


def evaluate(
    env: Any, policies: Mapping[str, Policy], episodes: int = 10, seed: int = 0
) -> Evaluation:
    """Play ``episodes`` games of a PettingZoo AEC environment, ``policies[agent]`` for each.

    Episode ``i`` is dealt from seed ``seed + i``, so that two evaluations with the same seed
    see the same deals.
    """
    agents = list(env.possible_agents)
    missing = sorted(set(agents) - set(policies))
    if missing:
        raise ValueError(f"no policy for {', '.join(missing)}")
    returns = dict.fromkeys(agents, 0.0)
    scores = dict.fromkeys(agents, 0.0)
    wins = dict.fromkeys(agents, 0)
    for episode in range(episodes):
        env.reset(seed=seed + episode)
        for agent in env.agent_iter():
            _, reward, terminated, truncated, _ = env.last()
            returns[agent] += reward
            env.step(None if terminated or truncated else policies[agent](env, agent))
        final = env.unwrapped.game_state
        for agent, score in zip(agents, final.scores, strict=True):
            scores[agent] += score
        outcome = final.outcome  # None after an illegal action ended the episode early
        for seat in outcome.winners if outcome else ():
            wins[agents[seat]] += 1
    return Evaluation(
        episodes,
        {a: r / episodes for a, r in returns.items()},
        wins,
        {a: s / episodes for a, s in scores.items()},
    )
