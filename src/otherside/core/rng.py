"""Seeded randomness. Nothing in ``core`` or ``games`` uses the module-level ``random``."""

from __future__ import annotations

import hashlib
import random


def make_rng(seed: int | random.Random | None) -> random.Random:
    """Return a ``random.Random``: the one given, or a new one seeded with ``seed``.

    ``None`` asks for fresh entropy (only adapters such as the CLI should do that).

    >>> make_rng(7).random() == make_rng(7).random()
    True
    """
    if isinstance(seed, random.Random):
        return seed
    return random.Random(seed)


def derive_seed(seed: int, *keys: object) -> int:
    """A stable 63-bit seed derived from ``seed`` and ``keys`` (same on every machine).

    Used to give game ``i`` of a simulation its own seed, whatever the number of workers.

    >>> derive_seed(1, "game", 0) == derive_seed(1, "game", 0)
    True
    >>> derive_seed(1, "game", 0) != derive_seed(1, "game", 1)
    True
    """
    text = repr((seed, *keys)).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1
