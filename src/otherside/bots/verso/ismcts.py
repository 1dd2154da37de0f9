"""The ``ismcts`` Verso bot: information-set MCTS (:mod:`otherside.bots.ismcts`) with Verso's
rollout policy, shortlist and reward.

Verso's views are the same for every seat (V19), so the greedy heuristic's choice is a function of
public information only. :func:`~otherside.bots.verso.greedy.public_seen` reads a concrete
(sampled) state the way :func:`~otherside.bots.verso.greedy.read_view` reads the real view: the
face under the top card is one of the exact candidates, not the face the determinization happened
to draw. A rollout that plays :func:`public_greedy` therefore plays what a greedy player would play
in that position, instead of a greedy player who can see through the pile, and the search's
ranking of actions (:class:`GreedyShortlist`) is the same in every determinization of one view.

The reward is the target of a table (winning), smoothed: a logistic of the margin over the best
other player (:func:`margin_reward`), so that a search among lost lines still prefers the closer
ones and among won lines the safer ones.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from otherside.bots.ismcts import ISMCTS
from otherside.bots.verso.greedy import (
    GREEDY_WEIGHTS,
    Seen,
    action_values,
    estimated_scores,
    public_seen,
)
from otherside.games.verso import determinize
from otherside.games.verso.actions import VersoAction
from otherside.games.verso.schema import VersoView
from otherside.games.verso.state import VersoState

_VALUES: dict[tuple[Seen, int], list[float]] = {}

_VALUES_LIMIT = 200_000


def public_values(state: VersoState) -> list[float]:
    """The greedy value of each legal action of ``state``, read from public knowledge only.

    Memoised: a search meets the same public positions over and over (every determinization of
    one view agrees on them), and the values are a pure function of :func:`public_seen` and the
    legal list, which the seen position and the list's length determine.
    """
    legal = state.legal_actions()
    seen = public_seen(state)
    key = (seen, len(legal))
    values = _VALUES.get(key)
    if values is None:
        if len(_VALUES) >= _VALUES_LIMIT:
            _VALUES.clear()
        values = _VALUES[key] = action_values(seen, legal, GREEDY_WEIGHTS)
    return values


def public_greedy(state: VersoState, rng: random.Random) -> VersoAction:
    """The greedy bot's choice in a sampled state (it reads only what its view would show).

    The first legal action of the highest value, as in
    :func:`~otherside.bots.verso.greedy.choose_greedy`.
    """
    values = public_values(state)
    return state.legal_actions()[max(range(len(values)), key=values.__getitem__)]


class GreedyShortlist:
    """The actions a tree node tries: the best few by the greedy ranking (progressive pruning).

    Args:
        mine: how many of the best-ranked actions to try at the searcher's own nodes.
        others: how many at the other players' nodes (1: they are modelled as the greedy player).
    """

    def __init__(self, mine: int, others: int) -> None:
        if mine < 1 or others < 1:
            raise ValueError(f"shortlists need at least one action, not {mine} and {others}")
        self.mine = mine
        self.others = others

    def __call__(self, state: VersoState, searcher: int) -> Sequence[VersoAction]:
        legal = state.legal_actions()
        keep = self.mine if state.turn == searcher else self.others
        if len(legal) <= keep:
            return legal
        values = public_values(state)
        # Stable order of equal values: the first legal action wins, as in choose_greedy.
        best = sorted(range(len(legal)), key=lambda i: -values[i])[:keep]
        return [legal[i] for i in sorted(best)]


def margin_reward(scale: float) -> Callable[[VersoState], list[float]]:
    """Rewards in (0, 1): a logistic of each player's margin over the best other player.

    A rollout cut off before the end is judged on the estimated scores (score plus tableau
    potential, :func:`~otherside.bots.verso.greedy.estimated_scores`).

    Args:
        scale: points of margin that move the reward from 1/2 to about 3/4.
    """
    if scale <= 0:
        raise ValueError(f"the margin scale must be positive, not {scale}")

    def reward(state: VersoState) -> list[float]:
        scores: Sequence[float] = state.scores
        if not state.is_over:
            scores = estimated_scores(state, GREEDY_WEIGHTS)
        order = sorted(scores, reverse=True)
        first, second = order[0], order[1] if len(order) > 1 else 0.0
        out = []
        for s in scores:
            margin = s - (second if s == first else first)
            out.append(1.0 / (1.0 + math.exp(-margin / scale)))
        return out

    return reward


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
            (:func:`margin_reward`).
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
        self.search: ISMCTS[VersoView, VersoState, VersoAction] = ISMCTS(
            determinize,
            public_greedy,
            margin_reward(scale),
            iterations=iterations,
            seconds=seconds,
            exploration=exploration,
            rollout_depth=depth,
            shortlist=shortlist,
        )

    def choose(
        self, view: VersoView, legal: Sequence[VersoAction], rng: random.Random
    ) -> VersoAction:
        return self.search.search(view, legal, rng)
