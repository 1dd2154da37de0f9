"""The database: engine, migrations, and running blocking SQL off the event loop.

SQLite (the default, a file) and PostgreSQL (by URL) behave the same. SQLAlchemy's sessions are
blocking, so every unit of work runs in a small thread pool through :meth:`Database.run`, one
transaction per call. SQLite gets a single worker and runs in WAL mode with
``synchronous=NORMAL``: a committed transaction survives the server being killed (``kill -9``);
only a power cut can lose the last commits.

The group-committing writer of moves (``store/writer.py``) is the exception on SQLite: its
transactions are short and local (no network, no fsync in WAL mode with ``NORMAL``), so it runs
them on the event loop itself, through :meth:`Database.writing`, instead of paying two thread
hops per batch (about half of a move's reply time, and more when the loop holds the GIL), on one
connection it keeps open (a checkout from the pool and back cost as much as the batch's
statements). Its transactions start with ``BEGIN IMMEDIATE``: they take the write lock first
and wait for it (``busy_timeout``), never failing half-way. The thread pool's transactions keep
pysqlite's own control, which begins a transaction at the first write, so they too only ever
wait for the lock (its reads before that are not a snapshot that the writer's commit could make
stale).

On PostgreSQL two transactions can wait on each other's row locks (a deadlock: the writer's
batch of one process locks tables and accounts in its works' order, which another process's
batch or a request may cross); PostgreSQL then aborts one of them. Such an abort, or a
serialization failure, changed nothing and is not the database being out of reach: the
transaction is run again (:func:`retried`), up to :data:`TRANSIENT_TRIES` times, and only then
does it fail.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event, make_url, select, text
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from otherside.server.store.models import ServerSecret

T = TypeVar("T")
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
POSTGRES_WORKERS = 4
MIGRATION_LOCK = 7_461_101  # the advisory lock held while a process migrates the schema
TRANSIENT_TRIES = 3  # runs of a transaction that PostgreSQL aborted for a deadlock, in all
RETRY_PAUSE = 0.01  # seconds before the second run (three times that before the third)
log = logging.getLogger("otherside.server")


def transient(exc: BaseException) -> bool:
    """Whether ``exc`` is PostgreSQL rolling a transaction back for another's sake (a
    deadlock, a serialization failure: SQLSTATE class 40), which run again succeeds."""
    state = getattr(exc.orig, "sqlstate", None) if isinstance(exc, DBAPIError) else None
    return isinstance(state, str) and state.startswith("40")


def retried(attempt: Callable[[], T], tries: int = TRANSIENT_TRIES) -> T:
    """``attempt()`` (one transaction, blocking), run again after a moment while PostgreSQL
    rolls it back for another transaction's sake (:func:`transient`), ``tries`` times at most."""
    for run in range(1, tries + 1):
        try:
            return attempt()
        except DBAPIError as exc:
            if run == tries or not transient(exc):
                raise
            log.info("a transaction was rolled back (%s); running it again", exc.orig)
            # The other side of a deadlock goes on meanwhile: 10 ms, then 30 ms.
            time.sleep(RETRY_PAUSE * 3 ** (run - 1))
    raise AssertionError("unreachable")


def sqlite_url(path: str | Path) -> str:
    """The SQLAlchemy URL of a SQLite file.

    >>> sqlite_url("/tmp/x.db")
    'sqlite:////tmp/x.db'
    """
    return f"sqlite:///{Path(path)}"


def private_file(path: Path) -> None:
    """Make sure the SQLite file ``path`` exists readable by its owner only (it holds password
    hashes and the session key): a new directory ``0700``, the file ``0600`` (also an existing
    one). SQLite gives its ``-wal`` and ``-shm`` files the database file's permissions."""
    if not path.parent.exists():
        path.parent.mkdir(parents=True, mode=0o700)
    descriptor = os.open(path, os.O_CREAT | os.O_RDWR, 0o600)
    os.close(descriptor)
    os.chmod(path, 0o600)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def _begin_immediate(connection: Any) -> None:
    # Straight to the driver: SQLAlchemy's execution of a statement costs more than SQLite's
    # BEGIN itself, and this one has no parameters nor result.
    connection.connection.driver_connection.execute("BEGIN IMMEDIATE")


def _no_driver_transactions(dbapi_connection: Any, record: Any) -> None:
    # pysqlite's own BEGIN would come late and deferred; SQLAlchemy's "begin" event issues ours.
    _sqlite_pragmas(dbapi_connection, record)
    dbapi_connection.isolation_level = None


def _add_secret(session: Session, name: str) -> str:
    row = ServerSecret(name=name, value=secrets.token_urlsafe(48))
    session.add(row)
    return row.value


class Database:
    """One database, by SQLAlchemy URL (``sqlite:///path`` or ``postgresql+psycopg://…``)."""

    def __init__(self, url: str) -> None:
        parsed = make_url(url)
        self.url = url
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        on_disk = bool(parsed.database) and parsed.database != ":memory:"
        if self.is_sqlite:
            if on_disk:
                private_file(Path(str(parsed.database)).expanduser())
            self.engine: Engine = create_engine(
                parsed, connect_args={"check_same_thread": False}, pool_pre_ping=False
            )
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            self.engine = create_engine(parsed, pool_size=POSTGRES_WORKERS, pool_pre_ping=True)
        self.write_engine = self.engine
        if self.is_sqlite and on_disk:
            # One connection, kept by the writer on the event loop (see the module docstring).
            # A database in memory is one per connection, so it keeps a single engine.
            self.write_engine = create_engine(
                parsed, connect_args={"check_same_thread": False}, pool_size=1, max_overflow=0
            )
            event.listen(self.write_engine, "connect", _no_driver_transactions)
            event.listen(self.write_engine, "begin", _begin_immediate)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.writes_inline = self.write_engine is not self.engine
        self._kept: Connection | None = None  # the inline writer's connection, once opened
        self._executor = ThreadPoolExecutor(
            max_workers=1 if self.is_sqlite else POSTGRES_WORKERS, thread_name_prefix="otherside-db"
        )

    def migrate(self) -> None:
        """Bring the schema up to the newest Alembic revision (blocking; run at start)."""
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        config.set_main_option("sqlalchemy.url", self.url.replace("%", "%%"))
        with self.engine.begin() as connection:
            if not self.is_sqlite:
                # Processes starting together on one database migrate one after another.
                connection.execute(
                    text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK}
                )
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    @contextmanager
    def writing(self) -> Iterator[Connection]:
        """A transaction of the writer, committed when the block ends (rolled back if it
        raises): on SQLite on the event loop, on the one connection kept for it."""
        if not self.writes_inline:
            with self.write_engine.begin() as connection:
                yield connection
            return
        kept = self._kept
        if kept is None or kept.closed or kept.invalidated:
            if kept is not None:
                kept.close()
            kept = self._kept = self.write_engine.connect()
        with kept.begin():
            yield kept

    def transaction(self, work: Callable[[Session], T]) -> T:
        """Run ``work(session)`` in one transaction, blocking; commit, or roll back on error
        (again, if PostgreSQL rolled it back for a deadlock: see :func:`retried`)."""

        def attempt() -> T:
            with self.sessions.begin() as session:
                return work(session)

        return retried(attempt)

    async def run(self, work: Callable[[Session], T]) -> T:
        """Run ``work(session)`` in one transaction on the database thread pool."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self.transaction, work)

    async def call(self, work: Callable[[], T]) -> T:
        """Run ``work()`` on the database thread pool (it opens its own transactions)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, work)

    def secret(self, name: str) -> str:
        """A named random secret kept in the database, made on first use (blocking)."""

        def load(session: Session) -> str | None:
            return session.scalar(select(ServerSecret.value).where(ServerSecret.name == name))

        value = self.transaction(load)
        if value is not None:
            return value
        try:
            return self.transaction(lambda s: _add_secret(s, name))
        except IntegrityError:
            # Another server on the same database made it first: use theirs.
            return self.transaction(load) or ""

    def close(self) -> None:
        """Stop the thread pool and close every pooled connection."""
        self._executor.shutdown(wait=True)
        if self._kept is not None:
            self._kept.close()
            self._kept = None
        self.engine.dispose()
        self.write_engine.dispose()
