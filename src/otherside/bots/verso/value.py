"""A learned value of solo Verso positions: an n-tuple network trained by TD(0) on self-play.

The value of an *afterstate* (the tableau right after the player's action, before the solo
opponent's card, V16) estimates the points still to come: the squares and series of the rest of
the game and the final series (V17). It is the greedy potential of
:mod:`otherside.bots.verso.greedy` plus the sum of a few table entries (an n-tuple network, as in
Szubert & Jaśkowski's 2048 players), each table indexed by one part of the position:

- each colour's key ``mask | big << 7`` (which values it holds, which of them show 3 VP), by how
  many cards are left in the pile;
- each pair of colours' masks, by a coarser count of cards left;
- the three card counts with the square flag and the cards left;
- the best and the second-best series' points, with the cards left.

The tables are learned by temporal-difference learning (Sutton 1988) while the network plays the
honest one-ply policy against itself on the fast model (:mod:`otherside.research.verso_training`,
run by ``otherside verso train-value``); the tables the bots use ship as package data
(``data/verso_value.bin``), written by :meth:`ValueNet.save`.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from functools import cache
from importlib import resources
from pathlib import Path

from otherside.bots.verso.greedy import GREEDY_WEIGHTS, potential
from otherside.games.verso.fast import KEY_CARDS, KEYS, SERIES_BEST
from otherside.games.verso.game import SOLO_PILE

PILE = SOLO_PILE
"""Solo pile size (V4, V16): the cards left run from 0 to 35."""

_BUCKETS = (0, 1, 2, 3, 4, 5, 5, 6, 6, 7, 7, 7, 8, 8, 8, 8, *([9] * 5), *([10] * 7), *([11] * 8))
"""Cards left → bucket of the per-colour table: fine near the end, coarse early on."""
_COARSE = tuple(0 if n <= 2 else 1 if n <= 6 else 2 if n <= 14 else 3 for n in range(PILE + 1))
"""Cards left → bucket of the pair-of-colours table."""
_SIZES = (12 * KEYS, 36 * 2 * 216, 36 * 19 * 19, 4 * KEYS)
_MAGIC = b"OSVV1"


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
        b0, b1, b2 = SERIES_BEST[k0], SERIES_BEST[k1], SERIES_BEST[k2]
        top = max(b0, b1, b2)
        second = b0 + b1 + b2 - top - min(b0, b1, b2)
        m0, m1, m2 = k0 & 127, k1 & 127, k2 & 127
        p = _COARSE[left] * KEYS
        return (
            o + k0,
            o + k1,
            o + k2,
            _counts(KEY_CARDS[k0], KEY_CARDS[k1], KEY_CARDS[k2], square, left),
            (left * 19 + top) * 19 + second,
            p + (m0 | m1 << 7),
            p + (m1 | m2 << 7),
            p + (m2 | m0 << 7),
        )

    def value(self, k0: int, k1: int, k2: int, square: bool, left: int) -> float:
        """Points still to come from an afterstate with ``left`` cards in the pile."""
        if left <= 0:  # the final series (V17)
            return float(max(SERIES_BEST[k0], SERIES_BEST[k1], SERIES_BEST[k2]))
        f = self.features(k0, k1, k2, square, left)
        t, p = self.colours, self.pairs
        learned = t[f[0]] + t[f[1]] + t[f[2]] + self.counts[f[3]] + self.series[f[4]]
        learned += p[f[5]] + p[f[6]] + p[f[7]]
        return learned + potential(k0, k1, k2, square, left, GREEDY_WEIGHTS)

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
    data = resources.files(__package__).joinpath("data/verso_value.bin").read_bytes()
    return ValueNet.from_bytes(data)
