"""The Verso bots: ``random``, ``greedy``, ``ismcts``, and for solo games ``planner``, ``expert``
and ``expectimax`` (alias ``best``).

``greedy`` looks one action ahead and scores the tableau it would leave with a tuned potential
(:mod:`otherside.bots.verso_eval`); for ``flip`` it averages over the exact candidates for the top
card's hidden face (the V3 deck minus every card already seen). ``ismcts`` is information-set
Monte Carlo tree search (:mod:`otherside.bots.ismcts`) over positions drawn from the view with
:func:`otherside.games.verso.determinize` (:mod:`otherside.bots.verso_search`): its tree tries
the few best actions by the greedy ranking at its own turns and expects the greedy choice from the
other players, its rollouts play greedy, and it plays for the margin over the best other player
rather than for points. ``planner`` (:mod:`otherside.bots.verso_solo`) is flat Monte Carlo with
engine rollouts; ``expert`` (:mod:`otherside.bots.verso_expert`) is flat Monte Carlo on a fast
integer model of solo Verso (:mod:`otherside.bots.verso_world`), which affords every distinct
action in hundreds of worlds. ``expectimax`` (:mod:`otherside.bots.verso_lookahead`) values every
action exactly over the chance events of the next two plies, with a value learned by self-play
(:mod:`otherside.bots.verso_value`) below them. ``best`` is the strongest solo bot measured
(``benchmarks/verso_bots.py``).

Every bot sees only the view and the legal actions; randomness comes from the injected rng.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from otherside.bots.base import RandomBot, register_bot
from otherside.bots.ismcts import ISMCTS
from otherside.bots.verso_eval import Weights, choose_greedy, read_view
from otherside.bots.verso_expert import ExpertBot
from otherside.bots.verso_lookahead import ExpectimaxBot
from otherside.bots.verso_search import (
    GREEDY_WEIGHTS,
    GreedyShortlist,
    margin_reward,
    public_greedy,
)
from otherside.bots.verso_solo import SoloPlanner
from otherside.core.game import Action
from otherside.games.verso import determinize


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
    """SO-ISMCTS over determinizations of the view, greedy rollouts, a margin reward.

    The defaults are the strongest measured against three ``greedy`` at four players
    (``benchmarks/verso_tables.py``).

    Args:
        iterations: iterations per decision (deterministic for a given rng).
        seconds: a time budget per decision instead.
        exploration: the UCB1 constant.
        depth: rollout length before the position is judged by its estimated scores.
        scale: points of margin over the best other player worth about 0.73 of reward
            (:func:`~otherside.bots.verso_search.margin_reward`).
        mine: how many of the greedy ranking's best actions the tree tries at the bot's own
            turns (0: every legal action).
        others: the same at the other players' turns; 1 models them as the greedy player, 0 lets
            the tree search their answers too (slower to converge, assumes nothing of them).
    """

    name = "ismcts"

    def __init__(
        self,
        iterations: int = 200,
        seconds: float | None = None,
        exploration: float = 0.7,
        depth: int = 8,
        scale: float = 4.0,
        mine: int = 4,
        others: int = 1,
    ) -> None:
        if mine < 0 or others < 0:
            raise ValueError(f"mine and others must be 0 (all) or more, not {mine} and {others}")
        shortlist = None
        if mine or others:
            everything = 10**6
            shortlist = GreedyShortlist(mine or everything, others or everything)
        self.search = ISMCTS(
            determinize,  # type: ignore[arg-type]
            public_greedy,
            margin_reward(scale),
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


@register_bot("verso", "planner")
class PlannerBot(SoloPlanner):
    """The solo planner (:mod:`otherside.bots.verso_solo`); at a table it plays ``ismcts``."""

    name = "planner"


@register_bot("verso", "expert")
class VersoExpertBot(ExpertBot):
    """The solo expert (:mod:`otherside.bots.verso_expert`); at a table it plays ``ismcts``."""


@register_bot("verso", "expectimax", "best")
class VersoExpectimaxBot(ExpectimaxBot):
    """The solo two-ply expectimax on the learned value (:mod:`otherside.bots.verso_lookahead`);
    at a table it plays ``ismcts``."""
