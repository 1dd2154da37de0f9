"""Answers about finished games, computed once and fetched at a bounded rate.

Replaying a game to rebuild its views costs real CPU (a long game, a quarter of a second), and a
finished game never changes, so each answer about a finished game is kept in a bounded LRU cache
(``replay_cache`` entries). Every fetch of the routes that replay a game
(:mod:`otherside.server.http.replays`) also counts against its address (``replays_per_minute``;
429 with ``Retry-After`` beyond), so that neither cached nor uncached fetches can crowd out the
players.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Any

from otherside.i18n import N_
from otherside.server.accounts.limiter import Quota


class FinishedGames:
    """The LRU cache of answers about finished games, and the per-address fetch quota."""

    def __init__(self, entries: int, per_minute: int) -> None:
        self.entries = entries
        self.quota = Quota(
            "replays", per_minute, 60.0, N_("replays and histories from your address")
        )
        self._cache: OrderedDict[Hashable, asyncio.Future[Any]] = OrderedDict()

    async def answer(self, key: Hashable, compute: Callable[[], Awaitable[Any]]) -> Any:
        """The cached answer of ``key`` (about a finished game), computed on the first ask;
        asks that come while it is computed wait for that one computation."""
        task = self._cache.get(key)
        if task is None:
            task = asyncio.ensure_future(compute())
            self._cache[key] = task
            while len(self._cache) > self.entries:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(key)
        try:
            return await asyncio.shield(task)
        except Exception:
            if self._cache.get(key) is task:  # a failure is not kept: the next ask tries again
                del self._cache[key]
            raise
