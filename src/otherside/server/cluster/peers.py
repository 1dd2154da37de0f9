"""Several server processes on one PostgreSQL database: who owns a table, and how every process
hears of a change.

**Fan-out.** Whatever changes a table (a move, a seat, a start, a forfeit, a chat line) also
sends an announcement on ``NOTIFY otherside_tables`` (the table's id and what changed), in the
same transaction — the writer's batch sends all of its own in one ``NOTIFY``
(:mod:`otherside.server.store.writer`): PostgreSQL delivers it when that transaction commits, to
every process listening. A process that holds
the table in memory (someone watches it there, or it owns it) then brings it up to date and sends
each of its watchers their own view: a move comes with the move itself and is applied from the
notification (:mod:`.moves`); anything else, or a move that does not follow on from what it
holds, is read from the database (:mod:`.catch_up`). No broker is needed.

**Ownership.** What must happen once — bots' moves, clocks running out, reminders, a Recto Verso
round's timer — runs in the process holding the table's *lease*: ``game_tables.lease_owner``
with ``lease_until``, taken by an ``UPDATE`` that only succeeds when the lease is free or has
lapsed, and renewed every :data:`RENEW_EVERY` seconds while the process lives. When a process
dies, its session advisory lock ends with its connection (:mod:`.liveness`): the others see it
gone within half a second and free its leases at once (else they lapse after
:data:`LEASE_SECONDS`), and another process takes its tables over
(it scans for tables whose bots wait for an owner); a move never applies twice, because every
move is written only at the version it was made for.

A single process (SQLite, or PostgreSQL with one worker) uses :class:`SoloCluster`: it owns
everything and has no one to tell.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import func, select, text, update
from sqlalchemy.orm import Session

from otherside.server.clock import Clock, SystemClock
from otherside.server.cluster.liveness import LivenessLock, look_for_gone_owners, processes_alive
from otherside.server.cluster.presence import Presence, PresenceSweeper, SoloPresence
from otherside.server.cluster.receipts import RECEIPT, Receipts
from otherside.server.store.db import Database
from otherside.server.store.models import GameTable
from otherside.server.store.outage import log_failure
from otherside.server.store.writer import NOTIFY
from otherside.server.tasks import reap

log = logging.getLogger("otherside.server")
CHANNEL = "otherside_tables"
LEASE_SECONDS = 6.0
RENEW_EVERY = 2.0
LISTEN_WAIT = 10.0  # seconds a starting process waits for its notification connection
Listener = Callable[[dict[str, Any]], Awaitable[None]]
Orphans = Callable[[list[str]], Awaitable[None]]


def _nothing() -> None:
    """No scheduler to tell."""


def node_name() -> str:
    """This process's name in leases and notifications: host, pid and a random tag."""
    return f"{socket.gethostname()[:32]}:{os.getpid()}:{secrets.token_hex(3)}"


class SoloCluster:
    """One server process: it owns every table, and there is no one to notify."""

    node = "solo"
    shared = False
    presence = SoloPresence()

    def announce(self, session: Session, table_id: str, kind: str, **data: Any) -> None:
        """Nothing to tell: this process is the only one."""

    def message(self, table_id: str, kind: str, **data: Any) -> dict[str, Any] | None:
        """Nothing to tell (``None``)."""
        return None

    async def tell(self, table_id: str, kind: str, **data: Any) -> None:
        """Nothing to tell."""

    def ask(self) -> str:
        """No one to ask for a receipt."""
        return ""

    async def heard_by_all(self, ask: str) -> bool:
        """Every process (this one) has acted already."""
        return True

    def holds(self, table_id: str) -> bool:
        """Every table is this process's."""
        return True

    async def acquire(self, table_id: str) -> bool:
        """Always granted."""
        return True

    def forget(self, table_id: str) -> None:
        """Nothing to forget."""

    async def start(
        self, listener: Listener, orphans: Orphans, deadlines: Callable[[], None] = _nothing
    ) -> None:
        """Nothing runs in the background."""

    async def stop(self) -> None:
        """Nothing to stop."""


class PostgresCluster:
    """A process among several on one PostgreSQL database (see the module docstring).

    Args:
        db: the shared database (PostgreSQL).
        url: its SQLAlchemy URL (the listener opens its own connection with psycopg).
        lease_seconds: how long a lease lasts without renewal.
        renew_every: seconds between renewals (and scans for tables without an owner).
        clock: the server's clock (when players left, :mod:`.presence`).
    """

    shared = True

    def __init__(
        self,
        db: Database,
        url: str,
        lease_seconds: float = LEASE_SECONDS,
        renew_every: float = RENEW_EVERY,
        clock: Clock | None = None,
    ) -> None:
        self.db = db
        self.url = url
        self.node = node_name()
        self.lease_seconds = lease_seconds
        self.renew_every = renew_every
        self._held: set[str] = set()
        self._taken: set[str] = set()  # leases taken while a renewal was reading the held ones
        self._tasks: list[asyncio.Task[None]] = []
        self.receipts = Receipts()
        self.listening = asyncio.Event()  # set while the notification connection listens
        # Held while this process lives: the others tell at once that it is gone.
        self.liveness = LivenessLock(_psycopg_url(url), self.node)
        # Who is connected through this process, for the others (and theirs, for this one).
        self.presence = Presence(db, self.node, self.liveness, CHANNEL)
        self._sweep = PresenceSweeper(clock or SystemClock(), CHANNEL)

    # -- fan-out -------------------------------------------------------------------------------

    def announce(self, session: Session, table_id: str, kind: str, **data: Any) -> None:
        """Tell every other process, when ``session`` commits, that ``table_id`` changed."""
        payload = json.dumps(self.message(table_id, kind, **data))
        session.execute(NOTIFY, {"channel": CHANNEL, "payload": payload})

    def message(self, table_id: str, kind: str, **data: Any) -> dict[str, Any]:
        """What :meth:`announce` tells the others (a writer's batch sends many in one
        ``NOTIFY``: :mod:`otherside.server.store.writer`)."""
        return {"table": table_id, "kind": kind, "node": self.node, **data}

    async def tell(self, table_id: str, kind: str, **data: Any) -> None:
        """Tell every other process now, with nothing written, something of ``table_id`` that
        only its owner acts on (a person's ``ready``, :mod:`otherside.server.tables.ready`)."""
        await self.db.run(lambda session: self.announce(session, table_id, kind, **data))

    def ask(self) -> str:
        """An ``ask`` id to send with an announcement that must be acted on everywhere
        before the request answers (:mod:`.receipts`); then :meth:`heard_by_all`."""
        return self.receipts.ask()

    async def heard_by_all(self, ask: str) -> bool:
        """Wait until every other live process has acted on the announcement sent with
        ``ask`` (``True``), or a couple of seconds (``False``, said in the log)."""
        others = await self.db.run(processes_alive) - 1
        if await self.receipts.wait(ask, others):
            return True
        log.warning("not every process confirmed announcement %s in time", ask)
        return False

    async def _acknowledge(self, message: dict[str, Any]) -> None:
        receipt = json.dumps(self.message("", RECEIPT, ask=message["ask"]))
        await self.db.run(
            lambda session: session.execute(NOTIFY, {"channel": CHANNEL, "payload": receipt})
        )

    async def _listen(self, listener: Listener) -> None:
        import psycopg

        conninfo = _psycopg_url(self.url)
        delay = 0.5
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    delay = 0.5
                    # Whatever was said while we were away: treat every table as changed.
                    await listener({"kind": "resync", "node": ""})
                    async for note in conn.notifies():
                        for message in _messages(note.payload):
                            if message.get("node") == self.node:
                                continue
                            if message.get("kind") == RECEIPT:
                                self.receipts.hear(message)
                                continue
                            await _hear(listener, message)
                            if message.get("ask"):
                                await _hear(self._acknowledge, message)
            except asyncio.CancelledError:
                raise
            except Exception:
                self.listening.clear()
                log_failure(log, "lost the notification connection; reconnecting in %.1f s", delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10.0)

    # -- leases --------------------------------------------------------------------------------

    def holds(self, table_id: str) -> bool:
        """Whether this process owns ``table_id`` now (as of its last renewal)."""
        return table_id in self._held

    async def acquire(self, table_id: str) -> bool:
        """Take the lease of ``table_id`` if it is free, lapsed or already ours (never while
        this process has lost its liveness lock: the others would take it straight back)."""
        if not self.liveness.held.is_set():
            return False
        node, seconds = self.node, self.lease_seconds

        def take(session: Session) -> bool:
            now = func.now()
            until = now + text(f"interval '{seconds} seconds'")
            done = session.execute(
                update(GameTable)
                .where(
                    GameTable.id == table_id,
                    (GameTable.lease_owner.is_(None))
                    | (GameTable.lease_owner == node)
                    | (GameTable.lease_until < now),
                )
                .values(lease_owner=node, lease_until=until)
            )
            return bool(done.rowcount)  # type: ignore[attr-defined]

        if await self.db.run(take):
            self._held.add(table_id)
            self._taken.add(table_id)
            return True
        self._held.discard(table_id)
        return False

    def forget(self, table_id: str) -> None:
        """The game of ``table_id`` ended, and its lease with it (in the same transaction)."""
        self._held.discard(table_id)
        self._taken.discard(table_id)

    async def _renew(self, orphans: Orphans) -> None:
        node, seconds = self.node, self.lease_seconds
        while True:
            try:

                def renew(session: Session) -> tuple[set[str], list[str]]:
                    now = func.now()
                    session.execute(
                        update(GameTable)
                        .where(GameTable.lease_owner == node, GameTable.status == "playing")
                        .values(lease_until=now + text(f"interval '{seconds} seconds'"))
                    )
                    held = set(
                        session.scalars(
                            select(GameTable.id).where(
                                GameTable.lease_owner == node, GameTable.status == "playing"
                            )
                        )
                    )
                    waiting = list(
                        session.scalars(
                            select(GameTable.id).where(
                                GameTable.status == "playing",
                                GameTable.bots_to_act.is_(True),
                                # Ours too: a renewal that failed (the database away) stopped
                                # their bots, and nothing else would start them again.
                                (GameTable.lease_owner.is_(None))
                                | (GameTable.lease_until < now)
                                | (GameTable.lease_owner == node),
                            )
                        )
                    )
                    return held, waiting

                held, waiting = await self.db.run(renew)
                self._held = held
                if waiting:
                    await orphans(waiting)
            except asyncio.CancelledError:
                raise
            except Exception:
                # Unsure whether our leases still stand: own nothing until the next renewal.
                self._held.clear()
                log_failure(log, "could not renew the table leases")
            await asyncio.sleep(self.renew_every)

    # -- life ------------------------------------------------------------------------------------

    async def start(
        self, listener: Listener, orphans: Orphans, deadlines: Callable[[], None] = _nothing
    ) -> None:
        """Hold this process's liveness lock, listen for the other processes' changes, keep
        this process's leases and take over those of processes that are gone: ``orphans`` is
        given the tables whose bots wait for an owner, ``deadlines`` is called when other
        processes' tables became anyone's (this process's scheduler reads their deadlines)."""
        await self.liveness.start()
        self._tasks = [
            asyncio.create_task(self._listen(listener), name="otherside-listen"),
            asyncio.create_task(self._renew(orphans), name="otherside-leases"),
            asyncio.create_task(
                look_for_gone_owners(self.db, self.node, orphans, deadlines, self._sweep),
                name="otherside-gone",
            ),
        ]
        self.presence.start()
        # Serve only once the others' announcements reach us: a sign-out said meanwhile would
        # be missed (its receipt counted on from this process's lock, held already).
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(LISTEN_WAIT):
                await self.listening.wait()

    async def stop(self) -> None:
        """Stop listening and give every lease back (a clean shutdown hands tables over at once)."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            await reap(task, Exception)
        node = self.node

        def give_all(session: Session) -> None:
            session.execute(
                update(GameTable)
                .where(GameTable.lease_owner == node)
                .values(lease_owner=None, lease_until=None)
            )

        with contextlib.suppress(Exception):
            await self.db.run(give_all)
        self._held.clear()
        await self.presence.stop(self._sweep.clock.now())
        await self.liveness.stop()


def _messages(payload: str) -> list[dict[str, Any]]:
    """The announcements in one notification: one object, or a list of them (a batch of the
    writer's, :mod:`otherside.server.store.writer`).

    >>> _messages('[{"table": "a"}, {"table": "b"}]')
    [{'table': 'a'}, {'table': 'b'}]
    >>> _messages('{"table": "a"}'), _messages("not json")
    ([{'table': 'a'}], [])
    """
    try:
        found = json.loads(payload)
    except json.JSONDecodeError:
        return []
    messages = found if isinstance(found, list) else [found]
    return [m for m in messages if isinstance(m, dict)]


async def _hear(listener: Listener, message: dict[str, Any]) -> None:
    """Pass ``message`` on. If acting on it fails, say so and go on: dropping the connection
    for it would lose what is said meanwhile, and one table would stop the others' changes."""
    try:
        await listener(message)
    except Exception:
        log_failure(log, "could not act on the change %s", message)


def _psycopg_url(url: str) -> str:
    """A SQLAlchemy URL as psycopg takes it.

    >>> _psycopg_url("postgresql+psycopg://me@127.0.0.1:5432/db")
    'postgresql://me@127.0.0.1:5432/db'
    """
    from sqlalchemy import make_url

    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
