"""Where the server's game randomness comes from: the operating system's cryptographic source,
drawn afresh for every game and every bot decision.

A game's seed fixes its whole deal (Verso's pile and hidden backs, Recto Verso's deck and
tokens), and finished records publish it. If seeds came from one seeded generator (a Mersenne
Twister is recovered from 624 of its 32-bit outputs), published seeds would predict the deals
of games still being played. Drawn here from :mod:`secrets`, each seed is independent of every
other: a published one tells nothing about the rest. Nothing in the server keeps a generator
of its own; tests that need a known game replay a record instead.
"""

from __future__ import annotations

import secrets

SEED_BITS = 63  # a game's seed is a non-negative 63-bit integer (what records carry)


def fresh_seed() -> int:
    """A new game's (or a bot decision's) seed, from the OS's cryptographic source."""
    return secrets.randbits(SEED_BITS)


def random_seat(players: int) -> int:
    """A seat drawn uniformly from ``players`` seats (the ``random`` first player)."""
    return secrets.randbelow(players)
