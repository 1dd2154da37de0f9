"""Learning the solo value tables of ``expectimax`` (:class:`~otherside.bots.verso.value.ValueNet`)
by TD(0) self-play on the fast model.

The network plays the honest one-ply policy (:func:`evaluate`: each move is worth the points it
banks plus the net's value of what it leaves; a flip is judged on the average over the faces that
can hide behind the top) against itself on :class:`~otherside.games.verso.fast.World`, and after
each move the value of the previous afterstate moves towards the points gained plus the value of
the new one (Sutton 1988). ``otherside verso train-value`` runs :func:`train`; the shipped tables
come from its defaults. With ``informed`` the policy sees the back of the top card, which no
player does: a measurement of what that face is worth (``benchmarks/verso_solo_information.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from otherside.bots.verso.value import ValueNet
from otherside.games.verso import deal
from otherside.games.verso.cards import UP
from otherside.games.verso.fast import (
    DRAW_MOVE,
    FLIP_MOVE,
    SERIES_OPTIONS,
    Move,
    World,
    banked,
    gain,
    hidden_candidates,
)


def evaluate(net: ValueNet, wd: World, informed: bool = False) -> list[tuple[Move, float]]:
    """Every distinct action of a world in play with its honest one-ply value: the points it
    banks plus the net's value of what it leaves (a flip: the average over the candidates of the
    top's hidden face, not the world's face).

    With ``informed`` the flip is judged on the world's own face instead: the policy of a player
    who sees the back of the top card, which no player does. It exists to measure what that
    hidden face is worth (``benchmarks/verso_solo_information.py``), not to play.
    """
    top = wd.pile[wd.pos]
    left = len(wd.pile) - wd.pos
    keys, square = wd.colour_keys(0), bool(wd.squares & 1)
    out: list[tuple[Move, float]] = []
    face = UP[top]
    slot = face % 21
    if not keys[slot // 7] >> (slot % 7) & 1:
        k0, k1, k2, sq, points = gain(keys, square, face)
        out.append((DRAW_MOVE, points + net.value(k0, k1, k2, sq, left - 1)))
    cands = (top ^ 1,) if informed else hidden_candidates(face, wd.known) or (top ^ 1,)
    total = 0.0
    for oc in cands:
        k0, k1, k2, sq, points = gain(keys, square, UP[oc])
        total += points + net.value(k0, k1, k2, sq, left - 1)
    out.append((FLIP_MOVE, total / len(cands)))
    for c in range(3):
        for points, disc in SERIES_OPTIONS[keys[c]]:
            k0, k1, k2, sq = banked(keys, square, c, disc)
            out.append(((2, c, points, disc), points + net.value(k0, k1, k2, sq, left)))
    return out


def episode(net: ValueNet, pile: tuple[int, ...], alpha: float, informed: bool = False) -> int:
    """Play one game with the one-ply policy (``informed``: see :func:`evaluate`); with
    ``alpha`` > 0 learn from it. The score."""
    wd = World.start(pile)
    n = len(pile)
    prev: tuple[int, ...] | None = None
    prev_value = 0.0
    prev_score = 0
    while True:
        choices = evaluate(net, wd, informed)
        wd.act(0, max(choices, key=lambda t: t[1])[0])
        left = n - wd.pos
        keys, square, score = wd.colour_keys(0), bool(wd.squares & 1), wd.scores[0]
        value = net.value(*keys, square, left)
        feats = net.features(*keys, square, left) if left > 0 else None
        if alpha and prev is not None:
            net.update(prev, alpha * (score - prev_score + value - prev_value))
        prev, prev_value, prev_score = feats, value, score
        if wd.after_action():
            score = wd.scores[0]
            if alpha and prev is not None:
                net.update(prev, alpha * (score - prev_score - prev_value))
            return score


def alpha_at(done: int, episodes: int, alpha: float) -> float:
    """The learning rate: ``alpha`` for the first 40% of the games, a half of it up to 70%,
    a fifth after."""
    share = done / episodes
    return alpha if share < 0.4 else alpha / 2 if share < 0.7 else alpha / 5


def train(
    net: ValueNet,
    episodes: int,
    seed: int,
    alpha: float = 0.01,
    test_games: int = 1000,
    every: int = 10_000,
    progress: Callable[[int, float, float], None] | None = None,
    informed: bool = False,
) -> list[tuple[int, float, float]]:
    """TD(0) self-play on ``episodes`` random piles; every ``every`` games, the mean score of
    those games and of the greedy one-ply policy on ``test_games`` fixed piles. ``informed``
    learns the value of a player who sees the back of the top card (see :func:`evaluate`).

    Returns the learning curve ``[(games, training mean, test mean)]``; ``progress`` gets each
    point as it comes. The same seed gives the same tables.
    """
    if episodes < 1 or every < 1 or test_games < 0:
        raise ValueError("episodes and every must be positive, test_games not negative")
    rng = random.Random(seed)
    test_rng = random.Random(seed ^ 0x5EED)
    tests = [deal(1, test_rng) for _ in range(test_games)]
    curve: list[tuple[int, float, float]] = []
    done = 0
    while done < episodes:
        batch = min(every, episodes - done)
        step = alpha_at(done, episodes, alpha)
        total = sum(episode(net, deal(1, rng), step, informed) for _ in range(batch))
        done += batch
        test = sum(episode(net, p, 0.0, informed) for p in tests) / len(tests) if tests else 0.0
        point = (done, total / batch, test)
        curve.append(point)
        if progress:
            progress(*point)
    return curve
