"""The Verso bots: ``random``, ``greedy``, ``ismcts`` and the solo ``planner`` (alias ``best``).

``greedy`` looks one action ahead and scores the tableau it would leave with a tuned potential
(:mod:`otherside.bots.verso_eval`); for ``flip`` it averages over the exact candidates for the top
card's hidden face (the V3 deck minus every card already seen). ``ismcts`` is information-set
Monte Carlo tree search (:mod:`otherside.bots.ismcts`) over positions drawn from the view with
:func:`otherside.games.verso.determinize`, with the greedy policy in its rollouts. ``planner``
(:mod:`otherside.bots.verso_solo`) is the solo specialist, and ``best`` is an alias of it: the
strongest solo bot measured (``benchmarks/verso_bots.py``).

Every bot sees only the view and the legal actions; randomness comes from the injected rng.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from otherside.bots.base import RandomBot, register_bot
from otherside.bots.ismcts import ISMCTS
from otherside.bots.verso_eval import (
    Weights,
    choose_greedy,
    estimated_scores,
    read_state,
    read_view,
)
from otherside.bots.verso_search import GreedyShortlist, margin_reward, public_greedy
from otherside.bots.verso_solo import SoloPlanner
from otherside.core.game import Action, State
from otherside.games.verso import determinize
from otherside.games.verso.state import VersoState

GREEDY_WEIGHTS = Weights()


def greedy_policy(state: State, rng: random.Random) -> Action:
    """The greedy choice in a concrete (sampled) state: the rollout policy of the searches."""
    assert isinstance(state, VersoState)
    return choose_greedy(read_state(state), state.legal_actions(), GREEDY_WEIGHTS)


def table_reward(state: State) -> list[float]:
    """Rewards in [0, 1]: mostly the share of the victory, a little the score against the best.

    A rollout cut off before the end is judged on the estimated scores (score plus tableau
    potential, :func:`~otherside.bots.verso_eval.estimated_scores`).

    The victory share is what a table is played for; the score term orders lost (or won) lines
    so that the search still prefers the closer ones.
    """
    scores: Sequence[float] = state.scores
    if not state.is_over:
        assert isinstance(state, VersoState)
        scores = estimated_scores(state, GREEDY_WEIGHTS)
    top = max(scores)
    winners = sum(1 for s in scores if s == top)
    scale = max(top, 1)
    return [0.8 * (s == top) / winners + 0.2 * s / scale for s in scores]


@register_bot("verso", "random")
class VersoRandomBot(RandomBot):
    """Uniform among the legal actions (the baseline)."""


@register_bot("verso", "greedy")
class GreedyBot:
    """One-action lookahead with a tableau potential and the exact hidden-face candidates."""

    name = "greedy"

    def __init__(self, weights: Weights | None = None) -> None:
        self.weights = weights or GREEDY_WEIGHTS

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        return choose_greedy(read_view(view), legal, self.weights)


@register_bot("verso", "ismcts")
class IsmctsBot:
    """SO-ISMCTS over determinizations of the view, greedy rollouts.

    Args:
        iterations: iterations per decision (deterministic for a given rng).
        seconds: a time budget per decision instead.
        exploration: the UCB1 constant.
        depth: rollout length before the position is judged by its estimated scores.
    """

    name = "ismcts"

    def __init__(
        self,
        iterations: int = 200,
        seconds: float | None = None,
        exploration: float = 0.7,
        depth: int = 8,
        reward: str = "margin",
        scale: float = 4.0,
        policy: str = "public",
        mine: int = 0,
        others: int = 0,
    ) -> None:
        shortlist = None
        if mine or others:
            shortlist = GreedyShortlist(mine or 99, others or 99)
        self.search = ISMCTS(
            determinize,  # type: ignore[arg-type]
            public_greedy if policy == "public" else greedy_policy,
            margin_reward(scale) if reward == "margin" else table_reward,
            iterations=iterations,
            seconds=seconds,
            exploration=exploration,
            rollout_depth=depth,
            shortlist=shortlist,
        )

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        return self.search.search(view, legal, rng)


@register_bot("verso", "planner", "best")
class PlannerBot(SoloPlanner):
    """The solo planner (:mod:`otherside.bots.verso_solo`); at a table it plays ``ismcts``."""

    name = "planner"
