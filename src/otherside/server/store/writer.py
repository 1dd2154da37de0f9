"""Group commit: the writes of every table that arrive while a transaction is in flight go into
the next one.

A move costs little to decide (the rules engine takes microseconds) and much to store: a
transaction, a commit, an fsync. One :class:`Writer` per server process takes every small write
(moves, clocks, seats, chat lines) as a *work* — a function of a :class:`Batch` — and runs all the
works queued so far in one transaction, with one commit (so one fsync) and, on PostgreSQL, one
``NOTIFY`` carrying every announcement of the batch. Whoever awaits :meth:`Writer.write` is
answered only once the transaction holding their write has committed: a player sees a move
only when it is durable, so a server killed at any moment loses no acknowledged move.

Rows a work passes to :meth:`Batch.add` are not written at once: at the end of the batch the
rows of each statement go out together, as one ``executemany`` of the driver's cursor. SQLAlchemy
compiles each such statement once per database, and gives the processors of its parameters (a
date as SQLite stores it, JSON); the rows are turned into the driver's parameters here, without
building an execution context and a result for every batch (that bookkeeping cost more than the
statements themselves). A row may say how many rows it must change (an update at the version the
server applied a move to); if the total of a statement falls short, some table changed under its
writer (another server process) and the batch is checked write by write, below.

A batch that PostgreSQL rolls back for another transaction's sake (a deadlock with another
process's batch: see ``store/db.py``) runs again whole. When a batch fails otherwise, no write
of it is lost silently and none fails for another's sake: the transaction is rolled back, then
each of its writes runs again alone, in a transaction of its own, and gets its own result —
committed, or its own error (``StaleWrite``, a constraint broken, the database down). A caller
retries, or not, by its own policy. Works may therefore run twice and must only touch the
database through the batch they are given.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Generic, TypeVar

from sqlalchemy import Connection, Executable, text
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import Session

from otherside.server.store.db import Database, retried
from otherside.server.store.records import StaleWrite

T = TypeVar("T")
log = logging.getLogger("otherside.server")
MOST_WRITES = 500  # per transaction: a bound on how long one commit keeps its callers waiting
NOTIFY_BYTES = 7900  # PostgreSQL refuses a NOTIFY payload of 8000 bytes or more
NOTIFY = text("SELECT pg_notify(:channel, :payload)")  # sent when the transaction commits


@dataclass(frozen=True)
class _Prepared:
    """A statement compiled for one database: its SQL, and for each parameter in the driver's
    order its name, its value when the statement itself gives it (``status="over"``) and its
    processor (``None``: the value goes as it is)."""

    sql: str
    positional: bool
    columns: tuple[tuple[str, Any, Callable[[Any], Any] | None], ...]

    @classmethod
    def compile(cls, statement: Executable, dialect: Dialect, keys: list[str]) -> _Prepared | None:
        """``statement`` for rows of ``keys``; ``None`` if SQLAlchemy must compute some of its
        values as it runs (a column's Python default), which only its own execution does."""
        compiled = statement.compile(dialect=dialect, column_keys=keys)  # type: ignore[attr-defined]
        if compiled.insert_prefetch or compiled.update_prefetch:
            return None
        names = compiled.positiontup if dialect.positional else list(compiled.binds)
        columns = []
        for name in names:
            bind = compiled.binds[name]
            process = bind.type.dialect_impl(dialect).bind_processor(dialect)
            columns.append((name, bind.effective_value, process))
        return cls(compiled.string, bool(dialect.positional), tuple(columns))

    def params(self, row: dict[str, Any]) -> tuple[Any, ...] | dict[str, Any]:
        """``row`` as the driver takes it (a tuple in order, or a mapping by name)."""
        values = []
        for name, given, process in self.columns:
            value = row.get(name, given)
            # As SQLAlchemy does: a processor sees None too (JSON writes it as null).
            values.append(value if process is None else process(value))
        if self.positional:
            return tuple(values)
        return dict(zip((c[0] for c in self.columns), values, strict=True))


# Compiled once per statement, database and row keys (statements are module constants, dialects
# live as long as their engine).
_PREPARED: dict[tuple[Executable, Dialect, tuple[str, ...]], _Prepared | None] = {}


def _executemany(connection: Connection, statement: Executable, rows: list[dict[str, Any]]) -> int:
    """Run ``statement`` once per row on ``connection``'s driver cursor, in its transaction
    (through SQLAlchemy's execution when it must compute values itself); the number of rows
    changed in all."""
    keys = tuple(rows[0])
    key = (statement, connection.dialect, keys)
    if key not in _PREPARED:
        _PREPARED[key] = _Prepared.compile(statement, connection.dialect, list(keys))
    prepared = _PREPARED[key]
    if prepared is None:
        return int(connection.execute(statement, rows).rowcount)
    cursor = connection.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    try:
        cursor.executemany(prepared.sql, [prepared.params(row) for row in rows])  # type: ignore[arg-type]
        return int(cursor.rowcount)
    finally:
        cursor.close()


@dataclass
class _Rows:
    """The rows of one statement queued in a batch, and how many rows they must change."""

    statement: Executable
    params: list[dict[str, Any]] = field(default_factory=list)
    expect: int = 0
    checked: bool = False


class Batch:
    """What the works of one transaction write through: ``session`` for statements run at once,
    :meth:`add` for rows written together at the end, :meth:`notify` for announcements.

    The transaction is ``connection``'s; an ORM session joins it only when a work asks for one
    (a batch of moves alone needs none, and a session's bookkeeping per batch cost as much as
    its statements)."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self._session: Session | None = None
        self._rows: dict[int, _Rows] = {}
        self.notes: list[dict[str, Any]] = []

    @property
    def session(self) -> Session:
        """An ORM session in the batch's transaction (it commits with the batch, not alone)."""
        if self._session is None:
            self._session = Session(
                bind=self.connection,
                expire_on_commit=False,
                join_transaction_mode="rollback_only",
            )
        return self._session

    def close(self) -> None:
        """Let the session go (its objects keep what they loaded)."""
        if self._session is not None:
            self._session.close()

    def add(self, statement: Executable, params: dict[str, Any], expect: int | None = None) -> None:
        """Queue one row of ``statement`` (built once, at import: the same object every time).

        Args:
            statement: an insert or update with bind parameters.
            params: this row's parameters (every row of a statement has the same keys).
            expect: the number of rows this one must change; if the statement's rows change
                fewer in total, the batch is retried write by write and the short one raises
                :class:`StaleWrite`.
        """
        rows = self._rows.get(id(statement))
        if rows is None:
            rows = self._rows[id(statement)] = _Rows(statement)
        rows.params.append(params)
        if expect is not None:
            rows.expect += expect
            rows.checked = True

    def notify(self, message: dict[str, Any]) -> None:
        """Tell the other server processes ``message`` once the batch has committed."""
        self.notes.append(message)

    def flush(self) -> None:
        """Write the queued rows, one ``executemany`` per statement in the order first used;
        :class:`StaleWrite` if a statement changed fewer rows than its rows expect."""
        # What the works added through the ORM first: the rows may refer to it.
        if self._session is not None:
            self._session.flush()
        connection = self.connection
        for rows in self._rows.values():
            changed = _executemany(connection, rows.statement, rows.params)
            if rows.checked and changed != rows.expect:
                raise StaleWrite(
                    f"{rows.expect - changed} of {len(rows.params)} rows were not at the "
                    "version they were written for"
                )
        self._rows.clear()


@dataclass
class _Pending(Generic[T]):
    work: Callable[[Batch], T]
    future: asyncio.Future[T]


@dataclass(frozen=True)
class _Outcome:
    value: Any = None
    error: BaseException | None = None


class Writer:
    """The group-committing writer of one server process (see the module docstring).

    Args:
        db: the database; batches run one at a time, on its thread pool (on the event loop
            itself for SQLite).
        channel: the PostgreSQL ``NOTIFY`` channel of announcements (``None``: nobody listens;
            announcements are dropped).
    """

    def __init__(self, db: Database, channel: str | None = None) -> None:
        self.db = db
        self.channel = channel
        self._queue: list[_Pending[Any]] = []
        self._draining: asyncio.Task[None] | None = None
        self.batches = 0  # transactions committed or tried (for tests and benchmarks)

    async def write(self, work: Callable[[Batch], T]) -> T:
        """Run ``work`` in the next transaction; its result once that transaction committed.

        Raises whatever the work raised (``StaleWrite``…) or the database's error; either way
        nothing of this work was written."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.append(_Pending(work, future))
        if self._draining is None or self._draining.done():
            self._draining = asyncio.create_task(self._drain(), name="otherside-writer")
        # A caller that stops waiting does not take its write back: it may commit all the same.
        # Its cancellation cancels only this future, which nobody else awaits (the batch skips
        # a settled future), so no shield is needed: one less future and callback per write.
        return await future

    async def _drain(self) -> None:
        try:
            while self._queue:
                pending = self._queue[:MOST_WRITES]
                del self._queue[:MOST_WRITES]
                try:
                    if self.db.writes_inline:
                        # On the event loop: no thread hops (see store/db.py's docstring).
                        outcomes = self._commit(pending)
                    else:
                        outcomes = await self.db.call(partial(self._commit, pending))
                except asyncio.CancelledError:
                    # Shut down mid-commit: whether it committed is unknown, so nobody is told.
                    for item in [*pending, *self._queue]:
                        item.future.cancel()
                    raise
                except Exception as exc:  # the thread pool is shut down
                    outcomes = [_Outcome(error=exc)] * len(pending)
                _settle(pending, outcomes)
        finally:
            self._draining = None

    def _commit(self, pending: Sequence[_Pending[Any]]) -> list[_Outcome]:
        """One transaction for every write (blocking: on the database thread, or on the event
        loop on SQLite), else each write alone; either run again if PostgreSQL rolled it back
        for a deadlock (:func:`~otherside.server.store.db.retried`)."""
        try:
            return [_Outcome(value) for value in retried(partial(self._transaction, pending))]
        except Exception as exc:
            if len(pending) == 1:
                return [_Outcome(error=exc)]
            log.info("a batch of %d writes failed (%s); writing them one by one", len(pending), exc)
        return [self._alone(p) for p in pending]

    def _alone(self, pending: _Pending[Any]) -> _Outcome:
        try:
            [value] = retried(partial(self._transaction, [pending]))
            return _Outcome(value)
        except Exception as exc:
            return _Outcome(error=exc)

    def _transaction(self, pending: Sequence[_Pending[Any]]) -> list[Any]:
        """Run the works of ``pending`` in one transaction; their results once it committed."""
        self.batches += 1
        with self.db.writing() as connection:
            batch = Batch(connection)
            try:
                values = [p.work(batch) for p in pending]
                batch.flush()
            finally:
                batch.close()
            self._announce(connection, batch.notes)
        return values

    def _announce(self, connection: Connection, notes: list[dict[str, Any]]) -> None:
        if self.channel is not None:
            notify(connection, self.channel, notes)

    async def close(self) -> None:
        """Wait for the writes queued so far to be committed (or to fail)."""
        while self._draining is not None:
            await asyncio.shield(self._draining)


def _settle(pending: Sequence[_Pending[Any]], outcomes: Sequence[_Outcome]) -> None:
    for item, outcome in zip(pending, outcomes, strict=True):
        if item.future.done():
            continue
        if outcome.error is not None:
            item.future.set_exception(outcome.error)
        else:
            item.future.set_result(outcome.value)


def notify(db: Connection | Session, channel: str, notes: list[dict[str, Any]]) -> None:
    """Send ``notes`` on ``channel`` when ``db``'s transaction commits, in as few ``NOTIFY``s
    as their size allows (:func:`payloads`); none for no notes."""
    for payload in payloads(notes):
        db.execute(NOTIFY, {"channel": channel, "payload": payload})


def payloads(notes: list[dict[str, Any]]) -> list[str]:
    """The announcements as JSON arrays, each small enough for one ``NOTIFY``.

    >>> payloads([{"table": "a"}, {"table": "b"}])
    ['[{"table": "a"}, {"table": "b"}]']
    """
    out: list[str] = []
    chunk: list[str] = []
    size = 2
    for note in notes:
        encoded = json.dumps(note)
        if chunk and size + len(encoded) + 2 > NOTIFY_BYTES:
            out.append("[" + ", ".join(chunk) + "]")
            chunk, size = [], 2
        chunk.append(encoded)
        size += len(encoded) + 2
    if chunk:
        out.append("[" + ", ".join(chunk) + "]")
    return out
