"""The solo expert: flat Monte Carlo over determinizations on the fast model of solo Verso.

At each decision of a solo game (V16–V17) the expert draws ``worlds`` concrete positions from the
view (:func:`otherside.games.verso.determinize`: hidden faces among the exact candidates of the V3
deck, the rest of the pile among the unseen cards), plays every *distinct* legal action in each
of them (series that discard the same two cards leave the same tableau: only the best-scoring one
is kept) and finishes each game with the tuned greedy policy of :mod:`otherside.bots.verso_world`.
Every action is tried in the same worlds (common random numbers), so the comparison is between
actions, not between lucky draws; the action with the best total final score is played.

The rollouts are cheap (a fraction of a millisecond per game), which is what lets the expert use
hundreds of worlds and every action where ``planner`` affords 48 worlds and 4 actions.
Outside solo games it defers to ``ismcts``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from otherside.bots.verso_eval import Weights, choose_greedy, read_view
from otherside.bots.verso_solo import TableDelegate
from otherside.bots.verso_world import (
    BIG_UP,
    WAction,
    World,
    play,
    rollout,
)
from otherside.core.game import Action
from otherside.games.verso import determinize
from otherside.games.verso.actions import Draw, Flip, Series
from otherside.games.verso.state import VersoState


def distinct_actions(world: World, legal: Sequence[Action]) -> tuple[list[Action], list[WAction]]:
    """The legal actions with a different effect, each with its :data:`WAction` on ``world``.

    Among series of one colour that discard the same two cards, the best-scoring one is kept.
    """
    chosen: dict[tuple[int, int, int], tuple[int, Action]] = {}
    for action in legal:
        if isinstance(action, Draw):
            key, points = (0, 0, 0), 0
        elif isinstance(action, Flip):
            key, points = (1, 0, 0), 0
        elif isinstance(action, Series):
            points = sum(3 if BIG_UP[world.tab[s]] else 1 for s in action.slots)
            disc = sum(1 << (s % 7) for s in action.discard_slots)
            key = (2, action.colour, disc)
        else:
            continue
        if key not in chosen or points > chosen[key][0]:
            chosen[key] = (points, action)
    actions = [a for _, a in chosen.values()]
    moves = [(k[0], k[1], p, k[2]) for k, (p, _) in chosen.items()]
    return actions, moves


class SoloWorldBot:
    """The frame the solo bots on the fast model share: at a table defer to ``ismcts``; a single
    legal action, or a single distinct one, is played at once; the final series (V17) banks the
    most points; otherwise :meth:`values` rates each distinct action on a world rebuilt from the
    view and the best is played (the first listed on a tie).

    Args:
        table_iterations: the ``ismcts`` iterations per decision at a table of 2+ players.
    """

    name = "solo"

    def __init__(self, table_iterations: int = 200) -> None:
        self._table = TableDelegate(table_iterations)

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        if not view["solo"]:
            return self._table.choose(view, legal, rng)
        if len(legal) == 1:
            return legal[0]
        if view["phase"] != "play":  # the final series (V17): the most points
            return choose_greedy(read_view(view), legal, Weights())
        world = self._world(view, rng)
        actions, moves = distinct_actions(world, legal)
        if len(actions) == 1:
            return actions[0]
        values = self.values(view, world, moves, rng)
        best = max(range(len(moves)), key=lambda k: (values[k], -k))
        return actions[best]

    def values(
        self,
        view: Mapping[str, Any],
        world: World,
        moves: Sequence[WAction],
        rng: random.Random,
    ) -> Sequence[float]:
        """How good each move is, on the view (``world`` is one position drawn from it)."""
        raise NotImplementedError

    @staticmethod
    def _world(view: Mapping[str, Any], rng: random.Random) -> World:
        state = determinize(view, rng)  # type: ignore[arg-type]
        assert isinstance(state, VersoState)
        return World.from_state(state)


class ExpertBot(SoloWorldBot):
    """Flat Monte Carlo for solo Verso on the fast model, every distinct action in every world.

    Args:
        worlds: determinizations per decision (the same for every action).
        seconds: optional time budget per decision: stop adding worlds once it is spent (at
            least 16 worlds are always played). Without it, the choice depends only on the view
            and the rng.
        honest: whether the rollout policy judges ``flip`` on the candidates of the top's hidden
            face (as a player would) rather than on the world's actual face. The default (the
            world's face) measured a little stronger on training piles: its continuation plays
            about as well as the expert itself, where the honest greedy plays worse.
        weights: the rollout policy's potential.
        table_iterations: the ``ismcts`` iterations per decision at a table of 2+ players.
    """

    name = "expert"

    def __init__(
        self,
        worlds: int = 250,
        seconds: float | None = None,
        honest: bool = False,
        weights: Weights | None = None,
        table_iterations: int = 200,
    ) -> None:
        if worlds < 1:
            raise ValueError(f"worlds must be at least 1, not {worlds}")
        if seconds is not None and seconds <= 0:
            raise ValueError(f"seconds must be positive, not {seconds}")
        self.worlds = worlds
        self.seconds = seconds
        self.honest = honest
        self.weights = weights or Weights()
        super().__init__(table_iterations)

    def values(
        self,
        view: Mapping[str, Any],
        world: World,
        moves: Sequence[WAction],
        rng: random.Random,
    ) -> Sequence[float]:
        """Total final score of each move over the worlds (the first one is ``world``)."""
        totals = [0] * len(moves)
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        for n in range(self.worlds):
            if n:
                world = self._world(view, rng)
            for k, move in enumerate(moves):
                trial = world.copy()
                if not play(trial, move):
                    rollout(trial, self.weights, self.honest)
                totals[k] += trial.score
            if deadline is not None and n >= 15 and time.perf_counter() > deadline:
                break
        return totals
