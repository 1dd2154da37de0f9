"""The solo ``expert``: flat Monte Carlo over determinizations on the fast model of Verso.

At each decision of a solo game (V16–V17) the expert draws ``worlds`` concrete positions from the
view (:func:`otherside.games.verso.determinize`: hidden faces among the exact candidates of the V3
deck, the rest of the pile among the unseen cards), plays every *distinct* legal action in each
of them (series that discard the same two cards leave the same tableau: only the best-scoring one
is kept) and finishes each game with the greedy policy on the fast model
(:class:`~otherside.games.verso.fast.World`, :func:`rollout`). Every action is tried in the same
worlds (common random numbers), so the comparison is between actions, not between lucky draws;
the action with the best total final score is played.

The rollouts are cheap (a fraction of a millisecond per game), which is what lets the expert use
hundreds of worlds and every action. :class:`SoloWorldBot` is the frame it shares with
``expectimax``; at a table of several players both play as ``ismcts``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from otherside.bots.verso.greedy import (
    GREEDY_WEIGHTS,
    Weights,
    choose_greedy,
    potential,
    read_view,
)
from otherside.bots.verso.ismcts import IsmctsBot
from otherside.games.verso import determinize
from otherside.games.verso.actions import Draw, Flip, Series, VersoAction
from otherside.games.verso.cards import UP
from otherside.games.verso.fast import (
    GAIN,
    KEY_CARDS,
    SQUARE_POINTS,
    Move,
    World,
    hidden_candidates,
)
from otherside.games.verso.schema import VersoView


def distinct_actions(
    world: World, legal: Sequence[VersoAction]
) -> tuple[list[VersoAction], list[Move]]:
    """The legal actions with a different effect, each with its :data:`Move` on ``world``.

    Among series of one colour that discard the same two cards, the best-scoring one is kept.
    """
    chosen: dict[tuple[int, int, int], tuple[int, VersoAction]] = {}
    keys = world.keys
    for action in legal:
        if isinstance(action, Draw):
            key, points = (0, 0, 0), 0
        elif isinstance(action, Flip):
            key, points = (1, 0, 0), 0
        elif isinstance(action, Series):
            big = keys[action.colour] >> 7
            points = sum(3 if big >> (s % 7) & 1 else 1 for s in action.slots)
            disc = sum(1 << (s % 7) for s in action.discard_slots)
            key = (2, action.colour, disc)
        else:
            continue
        if key not in chosen or points > chosen[key][0]:
            chosen[key] = (points, action)
    actions = [a for _, a in chosen.values()]
    moves = [(k[0], k[1], p, k[2]) for k, (p, _) in chosen.items()]
    return actions, moves


def _gain_value(keys: tuple[int, int, int], square: bool, oc: int, left: int, w: Weights) -> float:
    """Points and potential after gaining ``oc`` (V8: a duplicate is discarded, V12: square);
    :func:`~otherside.games.verso.fast.gain` inlined on oriented cards: the rollouts' hot path."""
    c, bit, add = GAIN[oc]
    if keys[c] & bit:
        return potential(keys[0], keys[1], keys[2], square, left, w)
    ks = list(keys)
    ks[c] |= add
    gained = 0
    if not square and KEY_CARDS[ks[0]] >= 3 and KEY_CARDS[ks[1]] >= 3 and KEY_CARDS[ks[2]] >= 3:
        gained, square = SQUARE_POINTS, True
    return gained + potential(ks[0], ks[1], ks[2], square, left, w)


def move_values(wd: World, moves: Sequence[Move], w: Weights, honest: bool) -> list[float]:
    """The greedy value of each solo move: points now plus the potential left. A flip is judged
    on the world's own hidden face, or with ``honest`` on the average over the candidates for it
    (what the greedy bot does)."""
    left = len(wd.pile) - wd.pos
    top = wd.pile[wd.pos]
    k = wd.keys
    keys = (k[0], k[1], k[2])
    square = bool(wd.squares & 1)
    out = []
    for kind, c, points, disc in moves:
        if kind == 0:
            out.append(_gain_value(keys, square, top, left - 1, w))
        elif kind == 1:
            if honest:
                cands = hidden_candidates(UP[top], wd.known) or (top ^ 1,)
                total = sum(_gain_value(keys, square, oc, left - 1, w) for oc in cands)
                out.append(total / len(cands))
            else:
                out.append(_gain_value(keys, square, top ^ 1, left - 1, w))
        else:
            ks = list(keys)  # fast.banked(keys, square, c, disc), inlined: the hot path
            ks[c] &= ~(disc | disc << 7)
            kept = square and KEY_CARDS[ks[0]] >= 3 and KEY_CARDS[ks[1]] >= 3
            kept = kept and KEY_CARDS[ks[2]] >= 3
            out.append(points + potential(ks[0], ks[1], ks[2], kept, left, w))
    return out


def rollout(wd: World, w: Weights, honest: bool) -> int:
    """Finish a solo game with the greedy policy (changes ``wd``); the final score."""
    while True:
        moves = wd.moves()
        vals = move_values(wd, moves, w, honest)
        best = max(range(len(moves)), key=vals.__getitem__)
        if wd.step(moves[best]):
            return wd.scores[0]


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
        self._table = IsmctsBot(iterations=table_iterations)

    def choose(
        self, view: VersoView, legal: Sequence[VersoAction], rng: random.Random
    ) -> VersoAction:
        if not view["solo"]:
            return self._table.choose(view, legal, rng)
        if len(legal) == 1:
            return legal[0]
        if view["phase"] != "play":  # the final series (V17): the most points
            return choose_greedy(read_view(view), legal, GREEDY_WEIGHTS)
        world = self._world(view, rng)
        actions, moves = distinct_actions(world, legal)
        if len(actions) == 1:
            return actions[0]
        values = self.values(view, world, moves, rng)
        best = max(range(len(moves)), key=lambda k: (values[k], -k))
        return actions[best]

    def values(
        self, view: VersoView, world: World, moves: Sequence[Move], rng: random.Random
    ) -> Sequence[float]:
        """How good each move is, on the view (``world`` is one position drawn from it)."""
        raise NotImplementedError

    @staticmethod
    def _world(view: VersoView, rng: random.Random) -> World:
        return World.from_state(determinize(view, rng))


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
        self.weights = weights or GREEDY_WEIGHTS
        super().__init__(table_iterations)

    def values(
        self, view: VersoView, world: World, moves: Sequence[Move], rng: random.Random
    ) -> Sequence[float]:
        """Total final score of each move over the worlds (the first one is ``world``)."""
        totals = [0] * len(moves)
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        for n in range(self.worlds):
            if n:
                world = self._world(view, rng)
            for k, move in enumerate(moves):
                trial = world.copy()
                if not trial.step(move):
                    rollout(trial, self.weights, self.honest)
                totals[k] += trial.scores[0]
            if deadline is not None and n >= 15 and time.perf_counter() > deadline:
                break
        return totals
