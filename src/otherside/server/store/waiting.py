"""Waiting for the database at start: a server process that starts while its PostgreSQL is
down, restarting or "starting up" waits for it rather than exit.

The first connection and the migrations are tried again after a pause that doubles from
:data:`FIRST_PAUSE` up to :data:`LONGEST_PAUSE` seconds, each attempt logged in one line
("waiting for the database: Connection refused …", the driver's dump left out), for at most
the server's ``database_wait`` seconds (``otherside serve --database-wait``); then the process
stops with a clear message (:class:`DatabaseAway`). Until then it does not listen, so its health
check answers nothing. What waiting cannot mend fails at once: a SQLite file that cannot be
opened, a PostgreSQL role or database that does not exist, a refused password. A process asked
to stop while it waits (``SIGTERM``, Ctrl-C) stops at once, not after the wait (uvicorn's own
handlers hear the signal only once the start is over).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

from sqlalchemy import make_url
from sqlalchemy.exc import DBAPIError, DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from otherside.server.clock import Clock, seconds
from otherside.server.store.db import Database
from otherside.server.store.outage import SHORT_CHARS, driver_line

log = logging.getLogger("otherside.server")
DATABASE_WAIT = 120.0
"""Seconds a starting server waits for its database by default."""
FIRST_PAUSE = 0.5
LONGEST_PAUSE = 5.0
FOR_GOOD = (
    "does not exist",  # a role or a database: nobody makes it while we wait
    "password authentication failed",
    "no pg_hba.conf entry",
    "permission denied",
)
"""Words of a refusal that waiting cannot mend (lower case)."""


class DatabaseAway(RuntimeError):
    """The database could not be opened: it did not come in time, or refused for good."""


class QuietGiveUp:
    """ASGI middleware: a start that gave up on its database (:class:`DatabaseAway`, its one
    line logged already) fails without the traceback that Starlette would send uvicorn to log
    (a page of frameworks' frames under the clear line)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "lifespan":
            await self.app(scope, receive, send)
            return

        async def told(message: Any) -> None:
            # Starlette sends this from the block that caught the exception: it is current.
            if message["type"] == "lifespan.startup.failed" and isinstance(
                sys.exc_info()[1], DatabaseAway
            ):
                message = {"type": message["type"], "message": ""}
            await send(message)

        await self.app(scope, receive, told)


def short_reason(exc: BaseException) -> str:
    """The driver's reason in a few words, without its dump (SQL, hints, documentation links;
    shorter than :func:`~otherside.server.store.outage.short`: a failed connection's reason
    only, not the host and port the operator gave).

    >>> short_reason(OSError('connection failed: connection to server at "h", port 1 failed: '
    ...     'FATAL:  the database system is starting up\\n\\tIs the server running?'))
    'the database system is starting up'
    """
    inner, first = driver_line(exc)
    if not first:
        return type(inner).__name__
    reason = first.rpartition("failed: ")[2].strip()
    reason = reason.removeprefix("FATAL:").strip() or first
    return reason[:SHORT_CHARS]


def passing(exc: BaseException) -> bool:
    """Whether ``exc`` (met opening a PostgreSQL database) may pass if we wait: the server is
    not there yet, is starting or stopping, or dropped the connection."""
    if isinstance(exc, DBAPIError) and exc.connection_invalidated:
        return True
    if not isinstance(exc, (OperationalError, InterfaceError, DisconnectionError, PoolTimeout)):
        return False
    words = short_reason(exc).lower()
    return not any(marker in words for marker in FOR_GOOD)


def _open_sqlite(url: str) -> tuple[Database, str]:
    """A SQLite database migrated and its session key, or :class:`DatabaseAway` at once."""
    path = make_url(url).database or ""
    try:
        db = Database(url)
    except OSError as exc:
        raise DatabaseAway(
            f"cannot open the SQLite database {Path(path)}: {exc.strerror or exc}"
        ) from None
    try:
        db.migrate()
        return db, db.secret("session_key")
    except DBAPIError as exc:
        db.close()
        raise DatabaseAway(f"cannot open the SQLite database {path}: {short_reason(exc)}") from None


@contextlib.contextmanager
def stop_asked() -> Iterator[asyncio.Event]:
    """An event set when the process is asked to stop (``SIGTERM``, ``SIGINT``) during the
    block; the handlers there before (uvicorn's, which stop the server once it has started)
    are still called. Signals are heard in the main thread only: elsewhere it is never set."""
    asked = asyncio.Event()
    if threading.current_thread() is not threading.main_thread():
        yield asked
        return
    loop = asyncio.get_running_loop()
    before: dict[int, Any] = {}

    def heard(number: int, frame: FrameType | None) -> None:
        loop.call_soon_threadsafe(asked.set)
        previous = before.get(number)
        if callable(previous) and previous is not signal.default_int_handler:
            previous(number, frame)

    for stop in (signal.SIGTERM, signal.SIGINT):
        before[stop] = signal.signal(stop, heard)
    try:
        yield asked
    finally:
        for stop in (signal.SIGTERM, signal.SIGINT):
            signal.signal(stop, before[stop])


async def _pause(clock: Clock, pause: float, asked: asyncio.Event) -> bool:
    """Wait ``pause`` seconds of ``clock``; ``False`` if a stop was asked for meanwhile."""
    sleeping = asyncio.ensure_future(clock.sleep(pause))
    stopping = asyncio.ensure_future(asked.wait())
    try:
        await asyncio.wait({sleeping, stopping}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        sleeping.cancel()
        stopping.cancel()
    return not asked.is_set()


async def ready_database(url: str, wait: float, clock: Clock) -> tuple[Database, str]:
    """The database at ``url``, migrated, and its session key; waits up to ``wait`` seconds
    of ``clock`` for a PostgreSQL server that is not there yet.

    Raises:
        DatabaseAway: the database did not come within ``wait`` seconds, or refused for good.
    """
    if make_url(url).get_backend_name() == "sqlite":
        try:
            return await asyncio.to_thread(_open_sqlite, url)
        except DatabaseAway as exc:
            log.error("%s; the server stops", exc)
            raise
    with stop_asked() as asked:
        return await _wait_for(url, wait, clock, asked)


async def _wait_for(
    url: str, wait: float, clock: Clock, asked: asyncio.Event
) -> tuple[Database, str]:
    db = Database(url)
    deadline = seconds(clock) + wait
    pause, attempt = FIRST_PAUSE, 0
    while True:
        attempt += 1
        try:
            await asyncio.to_thread(db.migrate)
            return db, await asyncio.to_thread(db.secret, "session_key")
        except Exception as exc:
            reason = short_reason(exc)
            left = deadline - seconds(clock)
            if not passing(exc) or left <= 0:
                db.close()
                if not passing(exc):
                    words = f"the database refused the server: {reason}"
                else:
                    words = f"the database did not come within {wait:g} s (last: {reason})"
                log.error("%s; the server stops", words)
                raise DatabaseAway(words) from None
            next_pause = min(pause, left)
            log.warning(
                "waiting for the database: %s (attempt %d; again in %.1f s)",
                reason,
                attempt,
                next_pause,
            )
            if not await _pause(clock, next_pause, asked):
                db.close()
                words = "asked to stop while waiting for the database"
                log.error("%s; the server stops", words)
                raise DatabaseAway(words) from None
            pause = min(pause * 2, LONGEST_PAUSE)
