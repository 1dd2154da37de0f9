"""Telling at once that another server process is gone: each process holds a session-level
PostgreSQL advisory lock, keyed by its node name, on a connection of its own. The lock lasts
exactly as long as that connection: when the process dies (``kill -9`` included), PostgreSQL
ends its session and releases the lock, and the others see it missing from ``pg_locks`` on
their next look (every :data:`LOOK_EVERY` seconds) instead of waiting for its leases to lapse.

**A host that vanishes with its connection open** (a network partition, a frozen VM, a process
stopped with SIGSTOP) would keep its session, and the lock, until PostgreSQL noticed the dead
TCP connection: with the system's keepalive defaults, hours. The lock's session is therefore
set up so that PostgreSQL ends it by itself:

- ``idle_session_timeout`` = :data:`IDLE_LIMIT`: the holder says ``SELECT 1`` every
  :data:`CHECK_EVERY` s, and a session that said nothing for :data:`IDLE_LIMIT` s is ended by
  the server. This is the application's heartbeat and lease, kept by PostgreSQL, and the only
  line that catches a process frozen on a live host (its kernel still answers TCP).
- ``tcp_keepalives_idle/interval/count`` and ``tcp_user_timeout`` on the session (server side)
  and the same as libpq keepalives (client side): a peer whose host or network is gone is
  found dead by TCP within :data:`IDLE_LIMIT` s too, on either end, even while a statement is
  under way; and a holder that gets no answer to its heartbeat for :data:`IDLE_LIMIT` s counts
  its lock as lost (it takes no leases) and connects again.

So the others see such a process gone at most :data:`VANISHED_SECONDS` after it last spoke
(the limit, plus a look), where its tables' deadlines waited up to a minute before. The price:
a process whose event loop stalls for :data:`IDLE_LIMIT` s loses its lock and its tables (as it
would its leases, :data:`~.peers.LEASE_SECONDS`), and takes the lock again when it wakes.

The lease rows stay the record of who owns what (:mod:`.peers`); this only lets a lease whose
holder has no lock any more end at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select, text, update
from sqlalchemy.orm import Session

from otherside.server.store.db import Database
from otherside.server.store.models import GameTable
from otherside.server.store.outage import log_failure
from otherside.server.tasks import cancel

log = logging.getLogger("otherside.server")
NAMESPACE = 0x07E5_0D1E & 0x7FFFFFFF  # the first key of every otherside process lock
LOOK_EVERY = 0.5  # seconds between looks for owners that are gone
CHECK_EVERY = 1.0  # seconds between heartbeats on the lock's connection
IDLE_LIMIT = 6.0  # seconds without a heartbeat after which PostgreSQL ends the lock's session
VANISHED_SECONDS = IDLE_LIMIT + LOOK_EVERY  # the most a vanished process is still seen alive
# The lock's session: ended by the server when idle too long, or its peer silent too long.
SESSION_SETTINGS = {
    "idle_session_timeout": f"{IDLE_LIMIT * 1000:.0f}",  # milliseconds
    "tcp_keepalives_idle": "2",  # seconds of silence before the first probe
    "tcp_keepalives_interval": "1",  # seconds between probes
    "tcp_keepalives_count": "4",  # probes unanswered: 2 + 4 x 1 = IDLE_LIMIT
    "tcp_user_timeout": f"{IDLE_LIMIT * 1000:.0f}",  # milliseconds data may go unacknowledged
}
# The same on this side of the connection (libpq's parameters).
CLIENT_KEEPALIVES: dict[str, Any] = {
    "keepalives": 1,
    "keepalives_idle": 2,
    "keepalives_interval": 1,
    "keepalives_count": 4,
    "tcp_user_timeout": int(IDLE_LIMIT * 1000),
}


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
        self.taken = 0  # how many times the lock was taken (again after a lost connection)
        self._conn: Any = None  # the lock's connection while it is held
        self._task: asyncio.Task[None] | None = None

    async def start(self, wait: float = 10.0) -> None:
        """Take the lock (waiting up to ``wait`` seconds for it) and keep it."""
        self._task = asyncio.create_task(self._hold(), name="otherside-liveness")
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(wait):
                await self.held.wait()

    async def session_settings(self) -> dict[str, str]:
        """What the lock's session says of :data:`SESSION_SETTINGS` (``SHOW``; empty while
        the lock is not held): what bounds the time a vanished holder keeps it."""
        conn = self._conn
        if conn is None or not self.held.is_set():
            return {}
        shown = {}
        for name in SESSION_SETTINGS:
            row = await (await conn.execute(f"SHOW {name}")).fetchone()
            shown[name] = str(row[0]) if row else ""
        return shown

    async def stop(self) -> None:
        """Let the lock go (the connection closes)."""
        await cancel(self._task, Exception)
        self.held.clear()

    async def _hold(self) -> None:
        import psycopg

        delay = 0.2
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self.conninfo, autocommit=True, **CLIENT_KEEPALIVES
                ) as conn:
                    for name, value in SESSION_SETTINGS.items():
                        await conn.execute("SELECT set_config(%s, %s, false)", (name, value))
                    await conn.execute("SELECT pg_advisory_lock(%s, %s)", (NAMESPACE, self.key))
                    self._conn = conn
                    self.taken += 1
                    self.held.set()
                    delay = 0.2
                    while True:
                        await asyncio.sleep(CHECK_EVERY)
                        # No answer within the limit: the server has ended our session by now.
                        async with asyncio.timeout(IDLE_LIMIT):
                            await conn.execute("SELECT 1")
            except asyncio.CancelledError:
                raise
            except Exception:
                self.held.clear()
                self._conn = None
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
    gone (their leases freed now), and ``waiting``, those among them whose bots wait for an
    owner (to adopt at once). The others' deadlines (a human's clock) were their owner's to
    schedule: the survivors' schedulers must look at them again."""

    tables: list[str] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)


def release_gone_owners(session: Session, node: str) -> Released:
    """Free the leases of processes whose lock is gone (:class:`Released` says which tables).

    Lapsed leases too: a process frozen with its connection open keeps its lock about as long
    as its leases last, and a lease that lapsed by itself tells no one that its table's
    deadlines are nobody's now (the survivors' schedulers slept past them, up to a minute).
    Freed, not only lapsed, so that each gone owner's tables are told of once."""
    owners = set(
        session.scalars(
            select(GameTable.lease_owner)
            .where(
                GameTable.status == "playing",
                GameTable.lease_owner.is_not(None),
                GameTable.lease_owner != node,
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
        .values(lease_owner=None, lease_until=None)
        .returning(GameTable.id, GameTable.bots_to_act)
    ).all()
    return Released([row.id for row in rows], [row.id for row in rows if row.bots_to_act])


async def look_for_gone_owners(
    db: Database,
    node: str,
    orphans: Callable[[list[str]], Awaitable[None]],
    deadlines: Callable[[], None],
    also: Callable[[Session], object],
) -> None:
    """Every :data:`LOOK_EVERY` s, let the leases of processes gone lapse
    (:func:`release_gone_owners`): ``orphans`` is given their tables whose bots wait for an
    owner, ``deadlines`` is called when there were any of theirs; then ``also`` (in a session
    of its own: their players, :mod:`.presence`)."""
    while True:
        await asyncio.sleep(LOOK_EVERY)
        try:
            released = await db.run(lambda session: release_gone_owners(session, node))
            if released.tables:
                # A clock of theirs (a human to move) runs out in no process's schedule:
                # this one's scheduler may sleep past it, so it reads the deadlines again.
                deadlines()
            if released.waiting:
                await orphans(released.waiting)
            await db.run(also)
        except asyncio.CancelledError:
            raise
        except Exception:
            log_failure(log, "could not look for server processes that are gone")
