"""A learned value of solo Verso positions: an n-tuple network trained by TD(0) on self-play.

The value of an *afterstate* (the tableau right after the player's action, before the solo
opponent's card, V16) estimates the points still to come: the squares and series of the rest of
the game and the final series (V17). It is the greedy potential of
:mod:`otherside.bots.verso_world` plus the sum of a few table entries (an n-tuple network, as in
Szubert & Jaśkowski's 2048 players), each table indexed by one part of the position:

- each colour's key ``mask | big << 7`` (which values it holds, which of them show 3 VP), by how
  many cards are left in the pile;
- each pair of colours' masks, by a coarser count of cards left;
- the three card counts with the square flag and the cards left;
- the best and the second-best series' points, with the cards left.

The tables are learned by temporal-difference learning (Sutton 1988) while the network plays the
honest one-ply policy (:func:`evaluate`: a flip is judged on the average over the faces that can
hide behind the top) against itself on the fast model, :class:`~otherside.bots.verso_world.World`.
:func:`train` does it, ``otherside verso train-value`` runs it, and the tables the bots use ship as
package data (``data/verso_value.bin``), written by :func:`ValueNet.save`.
"""

from __future__ import annotations

import random
import struct
import zlib
from collections.abc import Callable, Sequence
from functools import cache
from importlib import resources
from pathlib import Path

from otherside.bots.verso_eval import Weights
from otherside.bots.verso_world import (
    _BEST,
    _COUNT,
    _FLIPPED,
    _OPTIONS,
    World,
    banked,
    gain,
    potential,
)
from otherside.games.verso.cards import UP

KEYS = 1 << 14
"""Colour keys ``mask | big << 7``: 7 value bits (bit 0 the star), 7 bits for the 3-VP faces."""
PILE = 35
"""Solo pile size (V4, V16): the cards left run from 0 to 35."""

_BUCKETS = (0, 1, 2, 3, 4, 5, 5, 6, 6, 7, 7, 7, 8, 8, 8, 8, *([9] * 5), *([10] * 7), *([11] * 8))
"""Cards left → bucket of the per-colour table: fine near the end, coarse early on."""
_COARSE = tuple(0 if n <= 2 else 1 if n <= 6 else 2 if n <= 14 else 3 for n in range(PILE + 1))
"""Cards left → bucket of the pair-of-colours table."""
_SIZES = (12 * KEYS, 36 * 2 * 216, 36 * 19 * 19, 4 * KEYS)
_MAGIC = b"OSVV1"
_BASE = Weights()


class BadValueFile(ValueError):
    """A value file that is not one :meth:`ValueNet.save` wrote."""


def _counts(c0: int, c1: int, c2: int, square: bool, left: int) -> int:
    return (((left * 2 + square) * 6 + min(c0, 5)) * 6 + min(c1, 5)) * 6 + min(c2, 5)


class ValueNet:
    """The n-tuple tables and the value they give. A new net is all zeros: the greedy potential."""

    __slots__ = ("colours", "counts", "pairs", "series")

    def __init__(self) -> None:
        self.colours = [0.0] * _SIZES[0]
        self.counts = [0.0] * _SIZES[1]
        self.series = [0.0] * _SIZES[2]
        self.pairs = [0.0] * _SIZES[3]

    def features(self, k0: int, k1: int, k2: int, square: bool, left: int) -> tuple[int, ...]:
        """The eight table indices of a position: three colours, counts, series, three pairs."""
        o = _BUCKETS[left] * KEYS
        b0, b1, b2 = _BEST[k0], _BEST[k1], _BEST[k2]
        top = max(b0, b1, b2)
        second = b0 + b1 + b2 - top - min(b0, b1, b2)
        m0, m1, m2 = k0 & 127, k1 & 127, k2 & 127
        p = _COARSE[left] * KEYS
        return (
            o + k0,
            o + k1,
            o + k2,
            _counts(_COUNT[k0], _COUNT[k1], _COUNT[k2], square, left),
            (left * 19 + top) * 19 + second,
            p + (m0 | m1 << 7),
            p + (m1 | m2 << 7),
            p + (m2 | m0 << 7),
        )

    def value(self, k0: int, k1: int, k2: int, square: bool, left: int) -> float:
        """Points still to come from an afterstate with ``left`` cards in the pile."""
        if left <= 0:  # the final series (V17)
            return float(max(_BEST[k0], _BEST[k1], _BEST[k2]))
        f = self.features(k0, k1, k2, square, left)
        t, p = self.colours, self.pairs
        learned = t[f[0]] + t[f[1]] + t[f[2]] + self.counts[f[3]] + self.series[f[4]]
        learned += p[f[5]] + p[f[6]] + p[f[7]]
        return learned + potential(k0, k1, k2, square, left, _BASE)

    def update(self, f: Sequence[int], step: float) -> None:
        """Move the value of the position with features ``f`` by ``step`` (split over no table)."""
        t, p = self.colours, self.pairs
        t[f[0]] += step
        t[f[1]] += step
        t[f[2]] += step
        self.counts[f[3]] += step
        self.series[f[4]] += step
        p[f[5]] += step
        p[f[6]] += step
        p[f[7]] += step

    # --- files ---
    def save(self, path: Path) -> None:
        """Write the tables as float32, zlib-compressed, behind a magic header."""
        body = b"".join(
            struct.pack(f"<{len(t)}f", *t)
            for t in (self.colours, self.counts, self.series, self.pairs)
        )
        path.write_bytes(_MAGIC + zlib.compress(body, 9))

    @classmethod
    def from_bytes(cls, data: bytes) -> ValueNet:
        """The net of a file :meth:`save` wrote.

        Raises:
            BadValueFile: anything else (wrong header, corrupt or truncated data).
        """
        if not data.startswith(_MAGIC):
            raise BadValueFile("not an otherside Verso value file (bad header)")
        try:
            body = zlib.decompress(data[len(_MAGIC) :])
        except zlib.error as exc:
            raise BadValueFile(f"corrupt Verso value file: {exc}") from exc
        if len(body) != 4 * sum(_SIZES):
            raise BadValueFile(
                f"Verso value file holds {len(body)} bytes of tables, not {4 * sum(_SIZES)}"
            )
        net = cls()
        offset = 0
        tables = []
        for size in _SIZES:
            tables.append(list(struct.unpack_from(f"<{size}f", body, offset)))
            offset += 4 * size
        net.colours, net.counts, net.series, net.pairs = tables
        return net

    @classmethod
    def load(cls, path: Path) -> ValueNet:
        """The net saved at ``path`` (see :meth:`from_bytes` for the errors)."""
        return cls.from_bytes(path.read_bytes())


@cache
def default_net() -> ValueNet:
    """The trained tables shipped with the package (loaded once per process)."""
    data = resources.files("otherside.bots").joinpath("data/verso_value.bin").read_bytes()
    return ValueNet.from_bytes(data)


# --- the honest one-ply policy and TD(0) training on the fast model ---
Move = tuple[int, int, int, int]
"""A world action: (kind, colour, points, discard bits); kind 0 draw, 1 flip, 2 series."""


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
    m, b, square = wd.m, wd.b, wd.square
    keys = (m[0] | b[0] << 7, m[1] | b[1] << 7, m[2] | b[2] << 7)
    out: list[tuple[Move, float]] = []
    face = UP[top]
    slot = face % 21
    if not m[slot // 7] >> (slot % 7) & 1:
        k0, k1, k2, sq, points = gain(keys, square, face)
        out.append(((0, 0, 0, 0), points + net.value(k0, k1, k2, sq, left - 1)))
    known = wd.known
    cands = [top ^ 1] if informed else [oc for oc in _FLIPPED[face] if not known >> (oc >> 1) & 1]
    cands = cands or [top ^ 1]
    total = 0.0
    for oc in cands:
        k0, k1, k2, sq, points = gain(keys, square, UP[oc])
        total += points + net.value(k0, k1, k2, sq, left - 1)
    out.append(((1, 0, 0, 0), total / len(cands)))
    for c in range(3):
        for points, disc in _OPTIONS[keys[c]]:
            k0, k1, k2, sq = banked(keys, square, c, disc)
            out.append(((2, c, points, disc), points + net.value(k0, k1, k2, sq, left)))
    return out


def deal(rng: random.Random) -> tuple[int, ...]:
    """A solo pile for training: 35 of the 90 cards, each with a random face up (V4)."""
    return tuple(card * 2 + rng.randrange(2) for card in rng.sample(range(90), PILE))


def new_world(pile: tuple[int, ...]) -> World:
    """The start of a solo game on ``pile``: an empty tableau, no point, nothing seen."""
    return World(pile, 0, [-1] * 21, [0, 0, 0], [0, 0, 0], False, 0, 0)


def episode(net: ValueNet, pile: tuple[int, ...], alpha: float, informed: bool = False) -> int:
    """Play one game with the one-ply policy (``informed``: see :func:`evaluate`); with
    ``alpha`` > 0 learn from it. The score."""
    wd = new_world(pile)
    n = len(pile)
    prev: tuple[int, ...] | None = None
    prev_value = 0.0
    prev_score = 0
    while True:
        choices = evaluate(net, wd, informed)
        kind, c, points, disc = max(choices, key=lambda t: t[1])[0]
        if kind == 2:
            wd.bank(c, points, disc)
        else:
            wd.take(kind == 1)
        left = n - wd.pos
        m, b = wd.m, wd.b
        keys = (m[0] | b[0] << 7, m[1] | b[1] << 7, m[2] | b[2] << 7)
        value = net.value(*keys, wd.square, left)
        feats = net.features(*keys, wd.square, left) if left > 0 else None
        if alpha and prev is not None:
            net.update(prev, alpha * (wd.score - prev_score + value - prev_value))
        prev, prev_value, prev_score = feats, value, wd.score
        if wd.after_action():
            if alpha and prev is not None:
                net.update(prev, alpha * (wd.score - prev_score - prev_value))
            return wd.score


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
    tests = [deal(test_rng) for _ in range(test_games)]
    curve: list[tuple[int, float, float]] = []
    done = 0
    while done < episodes:
        batch = min(every, episodes - done)
        step = alpha_at(done, episodes, alpha)
        total = sum(episode(net, deal(rng), step, informed) for _ in range(batch))
        done += batch
        test = sum(episode(net, p, 0.0, informed) for p in tests) / len(tests) if tests else 0.0
        point = (done, total / batch, test)
        curve.append(point)
        if progress:
            progress(*point)
    return curve
