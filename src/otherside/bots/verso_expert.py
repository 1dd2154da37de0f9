"""The solo expert: Monte Carlo over determinizations on the fast model of solo Verso.

At each decision of a solo game (V16–V17) the expert draws concrete positions ("worlds") from the
view (:func:`otherside.games.verso.determinize`: hidden faces among the exact candidates of the V3
deck, the rest of the pile among the unseen cards), plays *distinct* legal actions in them
(series that discard the same two cards leave the same tableau: only the best-scoring one is
kept) and finishes each game with the tuned greedy policy of :mod:`otherside.bots.verso_world`.
Every action is tried in the same worlds (common random numbers), so the comparison is between
actions, not between lucky draws; the action with the best total final score is played.

With ``halving`` the budget of ``worlds`` x actions rollouts is spent by sequential halving
(Karnin, Koren & Somekh 2013) instead: each round plays the actions still in play in further
worlds and drops the worse half, so the close contenders get most of the rollouts. That halves
the points lost per decision to sampling noise at the same budget
(``benchmarks/verso_expert_noise.py``) yet scored no better over 200 piles: what holds the expert
back is the bias of its greedy rollouts, not their noise. Flat stays the default.

The rollouts are cheap (a fraction of a millisecond per game), which is what lets the expert use
hundreds of worlds per action where ``planner`` affords 48 worlds and 4 actions.
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


class ExpertBot:
    """Flat Monte Carlo for solo Verso on the fast model (or sequential halving, ``halving``).

    Args:
        worlds: determinizations per decision, every distinct action played in each; with
            ``halving``, rollouts per distinct action on average (the budget is ``worlds``
            times the number of distinct actions).
        seconds: optional time budget per decision: once it is spent (after at least 16
            worlds), the best action still in play so far is chosen. Without it, the choice
            depends only on the view and the rng.
        honest: whether the rollout policy judges ``flip`` on the candidates of the top's hidden
            face (as a player would) rather than on the world's actual face. The default (the
            world's face) measured a little stronger on training piles: its continuation plays
            about as well as the expert itself, where the honest greedy plays worse.
        weights: the rollout policy's potential.
        table_iterations: the ``ismcts`` iterations per decision at a table of 2+ players.
        halving: spend the budget by sequential halving rather than flat Monte Carlo.
    """

    name = "expert"

    def __init__(
        self,
        worlds: int = 250,
        seconds: float | None = None,
        honest: bool = False,
        weights: Weights | None = None,
        table_iterations: int = 200,
        halving: bool = False,
    ) -> None:
        if worlds < 1:
            raise ValueError(f"worlds must be at least 1, not {worlds}")
        if seconds is not None and seconds <= 0:
            raise ValueError(f"seconds must be positive, not {seconds}")
        self.worlds = worlds
        self.seconds = seconds
        self.honest = honest
        self.halving = halving
        self.weights = weights or Weights()
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
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        worlds = [world]
        alive = list(range(len(moves)))
        totals = [0] * len(moves)
        played = 0  # every action still in play has been played in worlds[:played]
        budget = self.worlds * len(moves)
        # Halving: ceil(log2(actions)) rounds down to one action; flat: one round, all actions.
        rounds = (len(moves) - 1).bit_length() if self.halving else 1
        spent = False
        for _ in range(rounds):
            start, played = played, played + max(1, budget // (rounds * len(alive)))
            for n in range(start, played):
                if n == len(worlds):
                    worlds.append(self._world(view, rng))
                for k in alive:
                    trial = worlds[n].copy()
                    if not play(trial, moves[k]):
                        rollout(trial, self.weights, self.honest)
                    totals[k] += trial.score
                if deadline is not None and n >= 15 and time.perf_counter() > deadline:
                    spent = True
                    break
            alive.sort(key=lambda k: (-totals[k], k))  # same worlds for all: totals compare
            if spent:
                break
            alive = alive[: (len(alive) + 1) // 2]
        return actions[alive[0]]

    @staticmethod
    def _world(view: Mapping[str, Any], rng: random.Random) -> World:
        state = determinize(view, rng)  # type: ignore[arg-type]
        assert isinstance(state, VersoState)
        return World.from_state(state)
