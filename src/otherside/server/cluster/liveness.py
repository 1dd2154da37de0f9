"""Telling at once that another server process is gone: each process holds a session-level
PostgreSQL advisory lock, keyed by its node name, on a connection of its own. The lock lasts
exactly as long as that connection: when the process dies (``kill -9`` included), PostgreSQL
ends its session and releases the lock, and the others see it missing from ``pg_locks`` on
their next look (every :data:`LOOK_EVERY` seconds) instead of waiting for its leases to lapse.

The lease rows stay the record of who owns what (:mod:`.peers`); this only lets a lease whose
holder has no lock any more lapse at once. A host that vanishes without its connection being
closed is still caught by the lease's own expiry.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select, text, update
from sqlalchemy.orm import Session

from otherside.server.store.models import GameTable
from otherside.server.store.outage import log_failure

log = logging.getLogger("otherside.server")
NAMESPACE = 0x07E5_0D1E & 0x7FFFFFFF  # the first key of every otherside process lock
LOOK_EVERY = 0.5  # seconds between looks for owners that are gone
CHECK_EVERY = 1.0  # seconds between checks that our own lock connection is still there


def owner_key(node: str) -> int:
    """The second key of ``node``'s lock (31 bits, so that it reads the same in ``pg_locks``).

    >>> owner_key("host:1:abc") == owner_key("host:1:abc")
    True
    """
    return int.from_bytes(hashlib.blake2b(node.encode(), digest_size=4).digest()) & 0x7FFFFFFF


class LivenessLock:
    """This process's lock, held on its own connection (psycopg, autocommit) and taken again
    if that connection is lost.

    Args:
        conninfo: the database, as psycopg takes it.
        node: this process's node name.
    """

    def __init__(self, conninfo: str, node: str) -> None:
        self.conninfo = conninfo
        self.key = owner_key(node)
        self.held = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self, wait: float = 10.0) -> None:
        """Take the lock (waiting up to ``wait`` seconds for it) and keep it."""
        self._task = asyncio.create_task(self._hold(), name="otherside-liveness")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.held.wait(), wait)

    async def stop(self) -> None:
        """Let the lock go (the connection closes)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        self.held.clear()

    async def _hold(self) -> None:
        import psycopg

        delay = 0.2
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self.conninfo, autocommit=True
                ) as conn:
                    await conn.execute("SELECT pg_advisory_lock(%s, %s)", (NAMESPACE, self.key))
                    self.held.set()
                    delay = 0.2
                    while True:
                        await asyncio.sleep(CHECK_EVERY)
                        await conn.execute("SELECT 1")
            except asyncio.CancelledError:
                raise
            except Exception:
                self.held.clear()
                log_failure(log, "lost the liveness lock's connection; again in %.1f s", delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)


# The locks of this database's processes: ``pg_locks`` lists every database of the cluster, and
# otherside servers on another database of it (another site, the tests of another run) are not
# this one's peers.
HELD_HERE = (
    "FROM pg_locks WHERE locktype = 'advisory' AND classid = :namespace AND objsubid = 2"
    " AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
)


def processes_alive(session: Session) -> int:
    """How many otherside processes on this database hold their liveness lock now (this one
    included)."""
    return int(session.scalar(text(f"SELECT count(*) {HELD_HERE}"), {"namespace": NAMESPACE}) or 0)


@dataclass(frozen=True)
class Released:
    """What :func:`release_gone_owners` found: ``tables``, the tables in play whose owner is
    gone (their leases lapsed now), and ``waiting``, those among them whose bots wait for an
    owner (to adopt at once). The others' deadlines (a human's clock) were their owner's to
    schedule: the survivors' schedulers must look at them again."""

    tables: list[str] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)


def release_gone_owners(session: Session, node: str) -> Released:
    """Let the leases of processes whose lock is gone lapse now (:class:`Released` says which
    tables)."""
    now = func.now()
    owners = set(
        session.scalars(
            select(GameTable.lease_owner)
            .where(
                GameTable.status == "playing",
                GameTable.lease_owner.is_not(None),
                GameTable.lease_owner != node,
                GameTable.lease_until >= now,
            )
            .distinct()
        )
    )
    if not owners:
        return Released()
    alive = set(
        session.scalars(text(f"SELECT objid::bigint {HELD_HERE}"), {"namespace": NAMESPACE})
    )
    gone: list[Any] = [owner for owner in owners if owner_key(str(owner)) not in alive]
    if not gone:
        return Released()
    log.info("server process(es) gone: %s; their tables are free", ", ".join(map(str, gone)))
    rows = session.execute(
        update(GameTable)
        .where(GameTable.lease_owner.in_(gone), GameTable.status == "playing")
        .values(lease_until=now - text("interval '1 second'"))
        .returning(GameTable.id, GameTable.bots_to_act)
    ).all()
    return Released([row.id for row in rows], [row.id for row in rows if row.bots_to_act])
