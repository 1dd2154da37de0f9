"""Who is at a table, across server processes.

A player "away" from a table without player clocks may be handed to a bot (a partner's
play-on, :mod:`otherside.server.tables.absence`; an event's absentees,
:mod:`otherside.server.tournaments.absentees`). With several processes a player's websocket
may be on any of them, so each process writes who is connected to which table through it into
``table_presence`` (one row per table, user and process: ``here``, or since when not), and the
process judging an absence reads the others' rows beside its own connections
(:func:`away_since`).

**What the pages show.** Each write also tells the other processes, by a ``NOTIFY``
(:data:`PRESENCE`, one announcement per table whose players came or went), and so does the
process that marks a dead process's players gone (:func:`mark_gone`): a process with watchers
at such a table reads its rows once and keeps them for the ``table`` message
(:mod:`.away_marks`), so that a partner connected through another process is not shown away.

**How stale it can be.** A process writes a player's coming or going as soon as it happens
(the writes of one moment go in one statement; a failed write is retried until it succeeds).
A process that dies cannot say its players went: its rows count as here only while it holds
its liveness lock (:mod:`.liveness`), and the first other process to see the lock gone marks
them gone at that moment (it looks every :data:`~.liveness.LOOK_EVERY` s). So another process
counts a player here at most one write too long after they left a live process, and at most
the liveness bound (:data:`~.liveness.VANISHED_SECONDS` for a host that vanished with its
connection open, half a second after a crash) after their process died — both far below the
minute a player must be away. A process whose own lock connection was lost (its rows marked
gone meanwhile) writes all its players again once it holds the lock again.

Times are the injected clock's (:mod:`otherside.server.clock`), the same as the local
``LiveTable.gone`` they are compared with.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Protocol

from sqlalchemy import delete, func, select, text, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from otherside.server.clock import Clock
from otherside.server.cluster.liveness import HELD_HERE, NAMESPACE, LivenessLock, owner_key
from otherside.server.store.batched import BatchedRead
from otherside.server.store.db import Database
from otherside.server.store.models import GameTable, TablePresence
from otherside.server.store.outage import log_failure
from otherside.server.store.writer import notify
from otherside.server.tasks import cancel

if TYPE_CHECKING:
    from otherside.server.tables.live import LiveTable

log = logging.getLogger("otherside.server")
Told = dict[tuple[str, int], tuple[bool, datetime]]  # (table, user): (here, since when)
RETRY_EVERY = 1.0  # seconds between attempts to write presence while the database is away
SWEEP_EVERY = 60  # looks for gone processes between removals of finished tables' rows
PRESENCE = "presence"  # the announcement that players came or went at a table


@dataclass(frozen=True)
class Seen:
    """A user as the other processes see them at one table: ``here`` (connected through one of
    them now), else ``since`` when they were last connected through any."""

    here: bool
    since: datetime


def combined(here_since: datetime | None, seen: Seen | None) -> datetime | None:
    """Since when a user has had no connection to a table through any process (``None``:
    connected now), from this process's record (``here_since``, ``None``: connected here) and
    the others' (``seen``, ``None``: never connected through them): here anywhere is here,
    else the later "since".

    >>> at, later = datetime(2026, 1, 1, 12), datetime(2026, 1, 1, 13)
    >>> combined(at, Seen(False, later)) == later, combined(at, Seen(True, later))
    (True, None)
    >>> combined(None, Seen(False, later)), combined(at, None) == at
    (None, True)
    """
    if here_since is None or seen is None:
        return here_since
    return None if seen.here else max(here_since, seen.since)


@dataclass
class Elsewhere:
    """A table's users as the other processes were last read to see them (``seen``), kept by a
    process for what its pages show (:mod:`.away_marks`). Reads may end out of order: each is
    numbered as it starts, and one that started before the one kept is not kept."""

    seen: dict[int, Seen] = field(default_factory=dict)
    kept: int = 0  # the number of the read kept

    def keep(self, asked: int, seen: dict[int, Seen]) -> bool:
        """Keep what read number ``asked`` found, unless a later read's is kept already."""
        if asked <= self.kept:
            return False
        self.seen, self.kept = seen, asked
        return True


class Presences(Protocol):
    """What the tables ask of presence (:class:`SoloPresence` in a single process)."""

    def tell(self, table_id: str, user_id: int, here: bool, at: datetime) -> None:
        """``user_id`` now has (``here``) or has no more a connection to ``table_id`` here."""
        ...

    async def elsewhere(self, table_id: str) -> dict[int, Seen]:
        """The users of ``table_id`` as the other processes see them."""
        ...


class SoloPresence:
    """One process: its own connections are all there is."""

    def tell(self, table_id: str, user_id: int, here: bool, at: datetime) -> None:
        """Nobody else to tell."""

    async def elsewhere(self, table_id: str) -> dict[int, Seen]:
        """No other process (empty)."""
        return {}


class Presence:
    """This process's connections, written for the others, and theirs, read.

    Args:
        db: the shared database (PostgreSQL).
        node: this process's node name.
        liveness: this process's liveness lock (its rows count only while it is held).
        channel: the ``NOTIFY`` channel the tables whose presence changed are told on.
    """

    def __init__(self, db: Database, node: str, liveness: LivenessLock, channel: str) -> None:
        self.db = db
        self.node = node
        self.channel = channel
        self.key = owner_key(node)
        self.liveness = liveness
        self._here: dict[tuple[str, int], datetime] = {}  # connected through this process
        self._unwritten: Told = {}
        self._wake = asyncio.Event()
        self._written_for = -1  # the lock's ``taken`` count our rows were last written under
        self._task: asyncio.Task[None] | None = None
        self._elsewhere = BatchedRead(db, self._read)

    def tell(self, table_id: str, user_id: int, here: bool, at: datetime) -> None:
        """``user_id`` now has (``here``) or has no more a connection to ``table_id`` through
        this process, since ``at``: written for the others at once (never blocks)."""
        key = (table_id, user_id)
        if here:
            self._here[key] = at
        else:
            self._here.pop(key, None)
        self._unwritten[key] = (here, at)
        self._wake.set()

    async def elsewhere(self, table_id: str) -> dict[int, Seen]:
        """The users of ``table_id`` as the other processes see them (many tables' in one
        read when many are asked at once: :mod:`otherside.server.store.batched`)."""
        return await self._elsewhere.get(table_id) or {}

    def _read(self, session: Session, table_ids: list[str]) -> dict[str, dict[int, Seen]]:
        rows = session.execute(
            select(
                TablePresence.table_id,
                TablePresence.user_id,
                func.bool_or(TablePresence.here),
                func.max(TablePresence.seen_at),
            )
            .where(TablePresence.table_id.in_(table_ids), TablePresence.node != self.node)
            .group_by(TablePresence.table_id, TablePresence.user_id)
        )
        seen: dict[str, dict[int, Seen]] = {}
        for table_id, user, here, since in rows:
            seen.setdefault(table_id, {})[user] = Seen(bool(here), since)
        return seen

    def start(self) -> None:
        """Write this process's comings and goings until :meth:`stop`."""
        self._task = asyncio.create_task(self._write_on(), name="otherside-presence")

    async def stop(self, at: datetime) -> None:
        """Stop writing, and tell the others that this process's players went at ``at`` (a
        clean shutdown; a crash is told by the others, :func:`mark_gone`)."""
        await cancel(self._task, Exception)
        node, channel = self.node, self.channel

        def went(session: Session) -> None:
            tables = session.scalars(
                update(TablePresence)
                .where(TablePresence.node == node, TablePresence.here)
                .values(here=False, seen_at=at)
                .returning(TablePresence.table_id)
            )
            tell(session, channel, node, set(tables))

        with contextlib.suppress(Exception):
            await self.db.run(went)
        self._here.clear()

    async def _write_on(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                # Woken by a change; else a look now and then whether the lock was taken again.
                async with asyncio.timeout(RETRY_EVERY):
                    await self._wake.wait()
            self._wake.clear()
            taken = self.liveness.taken
            if not self.liveness.held.is_set():
                continue  # written once the lock is ours again (the others would unmark them)
            batch = self._unwritten
            if taken != self._written_for:
                # Our rows may have been marked gone while we had no lock: all of them again.
                batch = {**{key: (True, at) for key, at in self._here.items()}, **batch}
            if not batch:
                continue
            self._unwritten = {}
            try:
                await self.db.run(partial(self._write, batch=batch))
                self._written_for = taken
            except asyncio.CancelledError:
                raise
            except Exception:
                # Keep what was told meanwhile: it is newer than this batch.
                self._unwritten = {**batch, **self._unwritten}
                log_failure(log, "could not write who is connected; again in %.1f s", RETRY_EVERY)
                await asyncio.sleep(RETRY_EVERY)
                self._wake.set()

    def _write(self, session: Session, *, batch: Told) -> None:
        rows = [
            {
                "table_id": table_id,
                "user_id": user_id,
                "node": self.node,
                "node_key": self.key,
                "here": here,
                "seen_at": at,
            }
            for (table_id, user_id), (here, at) in batch.items()
        ]
        upsert = insert(TablePresence).values(rows)
        session.execute(
            upsert.on_conflict_do_update(
                index_elements=["table_id", "user_id", "node"],
                set_={"here": upsert.excluded.here, "seen_at": upsert.excluded.seen_at},
            )
        )
        tell(session, self.channel, self.node, {table_id for table_id, _user in batch})


class PresenceSweeper:
    """What the process looking for gone peers does about presence: their players went when
    it saw them gone (:func:`mark_gone`); now and then the rows of finished games go."""

    def __init__(self, clock: Clock, channel: str) -> None:
        self.clock = clock
        self.channel = channel
        self._looks = 0

    def __call__(self, session: Session) -> None:
        """One look (in the session of the look for gone owners)."""
        mark_gone(session, self.clock.now(), self.channel)
        self._looks += 1
        if self._looks % SWEEP_EVERY == 0:
            finished = select(GameTable.id).where(GameTable.status == "over")
            session.execute(delete(TablePresence).where(TablePresence.table_id.in_(finished)))


def mark_gone(session: Session, at: datetime, channel: str) -> int:
    """Players counted here by processes that no longer hold their liveness lock went ``at``;
    how many. Their tables are told on ``channel`` in the gone process's name, so that every
    live process hears it (this one too: it does not hear its own)."""
    rows = session.execute(
        text(
            "UPDATE table_presence SET here = false, seen_at = :at WHERE here AND node_key"
            f" NOT IN (SELECT objid::bigint {HELD_HERE}) RETURNING table_id, node"
        ),
        {"at": at, "namespace": NAMESPACE},
    ).all()
    by_node: dict[str, set[str]] = {}
    for table_id, node in rows:
        by_node.setdefault(node, set()).add(table_id)
    for node, tables in by_node.items():
        tell(session, channel, node, tables)
    return len(rows)


def tell(session: Session, channel: str, node: str, tables: set[str]) -> None:
    """Announce on ``channel``, when ``session`` commits, that players came or went at
    ``tables`` through ``node`` (:data:`PRESENCE`, one announcement a table)."""
    notes = [{"table": table_id, "kind": PRESENCE, "node": node} for table_id in sorted(tables)]
    notify(session, channel, notes)


async def away_since(
    presence: Presences, live: LiveTable, user_ids: list[int]
) -> dict[int, datetime | None]:
    """Since when each of ``user_ids`` has had no connection to ``live``'s table through any
    process (``None``: connected now): the later of this process's own record
    (``LiveTable.away_since``) and the others' (one read, only if someone is away here)."""
    found = {user: live.away_since(user) for user in user_ids}
    if all(since is None for since in found.values()):
        return found
    others = await presence.elsewhere(live.id)
    return {user: combined(since, others.get(user)) for user, since in found.items()}
