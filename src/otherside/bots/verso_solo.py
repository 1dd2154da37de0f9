"""The solo planner: flat Monte Carlo over determinizations, with greedy rollouts.

At each decision of a solo game (V16–V17) the planner draws ``worlds`` concrete positions from
the view (:func:`otherside.games.verso.determinize`: the top card's hidden face among the exact
candidates, the rest of the pile among the unseen cards), keeps the ``width`` legal actions the
greedy potential ranks highest, and plays each of them in every world, finishing the game with the
greedy policy. The same worlds serve every action (common random numbers), so the comparison is
between actions, not between lucky draws. The action with the best mean final score is played.
Outside solo games it defers to ``ismcts``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from otherside.bots.verso_eval import Weights, action_values, choose_greedy, read_state, read_view
from otherside.core.game import Action
from otherside.games.verso import determinize
from otherside.games.verso.state import VersoState


class TableDelegate:
    """How a solo specialist plays when seated at a table of several: as ``ismcts``.

    The ``ismcts`` bot is made on first use (``bots.verso`` registers the solo bots, so it
    cannot be imported at module level here).
    """

    def __init__(self, iterations: int = 200) -> None:
        self.iterations = iterations
        self._bot: Any = None

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        if self._bot is None:
            from otherside.bots.verso import IsmctsBot

            self._bot = IsmctsBot(iterations=self.iterations)
        return self._bot.choose(view, legal, rng)


def rollout(state: VersoState, weights: Weights) -> int:
    """Finish a solo game with the greedy policy; the final score."""
    while not state.is_over:
        action = choose_greedy(read_state(state), state.legal_actions(), weights)
        state = state.apply(action)  # type: ignore[arg-type]
    return state.score_list[0]


class SoloPlanner:
    """Flat Monte Carlo planning for solo Verso.

    Args:
        worlds: determinizations per decision (the same for every candidate action).
        width: how many of the greedy's best actions are compared (the others are not tried).
        seconds: optional time budget: stop adding worlds once it is spent (at least 4 worlds).
    """

    name = "planner"

    def __init__(self, worlds: int = 48, width: int = 4, seconds: float | None = None) -> None:
        if worlds < 1 or width < 1:
            raise ValueError(f"worlds and width must be at least 1, not {worlds} and {width}")
        self.worlds = worlds
        self.width = width
        self.seconds = seconds
        self.weights = Weights()
        self._table = TableDelegate()

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        if not view["solo"]:
            return self._table.choose(view, legal, rng)
        if len(legal) == 1:
            return legal[0]
        values = action_values(read_view(view), legal, self.weights)
        ranked = sorted(range(len(legal)), key=lambda i: -values[i])[: self.width]
        if len(ranked) == 1:
            return legal[ranked[0]]
        totals = [0] * len(ranked)
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        for w in range(self.worlds):
            world = determinize(view, rng)  # type: ignore[arg-type]
            for k, i in enumerate(ranked):
                totals[k] += rollout(world.apply(legal[i]), self.weights)  # type: ignore[arg-type]
            if deadline is not None and w >= 3 and time.perf_counter() > deadline:
                break
        best = max(range(len(ranked)), key=lambda k: (totals[k], -k))
        return legal[ranked[best]]
