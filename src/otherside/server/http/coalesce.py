"""Answers many clients ask for at once, computed once for all of them: the lobby's lists, a
player's page.

The lobby's list of tables is the same for every reader of a language, and each one read
the database and built fifty tables' summaries on the event loop: sixteen connections of one
stranger asking for it over and over made the moves at another table take 300 ms (a second at
worst) instead of 6. :class:`Coalesced` runs one computation of a key at a time; a caller that
comes while one runs waits for the next one, which every caller that comes meanwhile shares.
So each caller's answer is computed after it asked (nothing it did before is missing from it,
as without sharing), and a flood costs one computation after another instead of one per
request.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from typing import Any


class Coalesced:
    """One computation of a key at a time, shared by every caller that asked before it began
    (see the module)."""

    def __init__(self) -> None:
        self._running: dict[Hashable, asyncio.Task[Any]] = {}
        self._next: dict[Hashable, asyncio.Task[Any]] = {}

    async def answer(self, key: Hashable, compute: Callable[[], Awaitable[Any]]) -> Any:
        """What ``compute`` gives, computed after this call began: the next computation of
        ``key``, shared with the callers that come before it begins."""
        task = self._next.get(key)
        if task is None:
            task = asyncio.ensure_future(self._after(key, self._running.get(key), compute))
            self._next[key] = task
        return await asyncio.shield(task)

    async def _after(
        self, key: Hashable, before: asyncio.Task[Any] | None, compute: Callable[[], Awaitable[Any]]
    ) -> Any:
        if before is not None:
            await asyncio.wait({before})
        me = asyncio.current_task()
        assert me is not None
        # From here on this is the running computation: a caller that comes now waits for
        # the next one.
        if self._next.get(key) is me:
            del self._next[key]
        self._running[key] = me
        try:
            return await compute()
        finally:
            if self._running.get(key) is me:
                del self._running[key]
