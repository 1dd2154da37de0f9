"""The garbage collector of a long-running server process.

A server imports a great deal once (FastAPI, SQLAlchemy, the games, the catalogs) and then makes
short-lived objects by the thousand on every move. With CPython's defaults a collection of the
young objects runs every 700 allocations, and every few of them walk the whole heap of modules
that will never be garbage. :func:`settle` moves what is alive at start out of the collector's
sight (``gc.freeze``) and lets more young objects gather between collections. Reference counting
still frees nearly everything at once; only cycles wait a little longer.
"""

from __future__ import annotations

import gc

YOUNG = 10_000  # allocations between collections of the youngest generation (CPython: 700)


def settle() -> None:
    """Set the collector for serving: call once, after the app is built, before serving."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG, middle, old)
