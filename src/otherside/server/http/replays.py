"""Finished games' replays, histories and records: computed once, fetched at a bounded rate.

Replaying a game to rebuild its views costs real CPU (a long game, a quarter of a second), and a
finished game never changes, so each answer about a finished game is kept in a bounded LRU cache
(``replay_cache`` entries). Every fetch of these routes also counts against its address
(``replays_per_minute``; 429 with ``Retry-After`` beyond), so that neither cached nor uncached
fetches can crowd out the players.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Any

from fastapi import Request

from otherside.server.accounts.addresses import client_key
from otherside.server.accounts.limiter import Quota


class FinishedGames:
    """The LRU cache of answers about finished games, and the per-address fetch window."""

    def __init__(self, entries: int, per_minute: int) -> None:
        self.entries = entries
        self.quota = Quota("replays", per_minute, 60.0, "replays and histories from your address")
        self._cache: OrderedDict[Hashable, asyncio.Future[Any]] = OrderedDict()

    async def count(self, request: Request) -> None:
        """Count one fetch from the request's address (in the limiter every server process
        shares); HTTP 429 when over the limit."""
        await request.app.state.throttles.limiter.reserve(self.quota, client_key(request))

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


async def count_fetch(request: Request) -> None:
    """Dependency of the replay, history and record routes: the per-address limit."""
    finished: FinishedGames = request.app.state.finished_games
    await finished.count(request)
