"""Reads batched as the writes are (:mod:`.writer`): one kind of read asked for many keys at
once goes to the database as one transaction for all the keys asked while the previous one was
under way, instead of one transaction each.

A process that dies sends all its players to the others within a second, and each of them
needs their session, their table, who else is there and the table's chat: at 200 tables a
survivor made some 650 transactions of one or two statements, its database threads waited on
PostgreSQL most of the time, and the last table was served again three seconds after the kill.

A read is answered by a transaction begun after it was asked, never by one already under way:
what it finds is at least as recent as a read of its own would have been (a ``sync`` relies
on it, :class:`~otherside.server.cluster.catch_up.Refresh`).
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Hashable, Mapping
from typing import Generic, TypeVar

from sqlalchemy.orm import Session

from otherside.server.store.db import Database
from otherside.server.tasks import unawaited

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
MOST_KEYS = 200  # keys in one read: the rest wait for the next


class BatchedRead(Generic[K, V]):
    """One kind of read, batched (see the module).

    Args:
        db: the database.
        fetch: reads many keys in one transaction; a key it leaves out is answered ``None``.
        most: the most keys one transaction reads.
    """

    def __init__(
        self,
        db: Database,
        fetch: Callable[[Session, list[K]], Mapping[K, V]],
        most: int = MOST_KEYS,
    ) -> None:
        self.db = db
        self.fetch = fetch
        self.most = most
        self._asked: dict[K, asyncio.Future[V | None]] = {}  # for the next transaction
        self._reading: asyncio.Task[None] | None = None
        self.transactions = 0  # how many were made (for the tests)

    async def get(self, key: K) -> V | None:
        """What the next transaction finds for ``key`` (``None``: nothing); its failure, if
        it fails (each asker gets it)."""
        future = self._asked.get(key)
        if future is None:
            future = self._asked[key] = asyncio.get_running_loop().create_future()
        if self._reading is None:
            self._reading = asyncio.create_task(self._read_on())
        return await asyncio.shield(future)

    async def _read_on(self) -> None:
        try:
            while self._asked:
                keys = list(itertools.islice(self._asked, self.most))
                answers = {key: self._asked.pop(key) for key in keys}
                self.transactions += 1
                try:
                    found = await self.db.run(_for(self.fetch, keys))
                except asyncio.CancelledError:
                    for future in answers.values():
                        future.cancel()
                    raise
                except Exception as exc:
                    for future in answers.values():
                        _settle(future, exc)
                    continue
                for key, future in answers.items():
                    _settle(future, found.get(key))
        finally:
            self._reading = None
            for future in self._asked.values():  # cancelled (the loop closing)
                future.cancel()


def _for(
    fetch: Callable[[Session, list[K]], Mapping[K, V]], keys: list[K]
) -> Callable[[Session], Mapping[K, V]]:
    return lambda session: fetch(session, keys)


def _settle(future: asyncio.Future[V | None], answer: V | Exception | None) -> None:
    if future.done():
        return
    if isinstance(answer, Exception):
        future.set_exception(answer)
        future.add_done_callback(unawaited)  # every asker may have gone (a socket closed)
    else:
        future.set_result(answer)
