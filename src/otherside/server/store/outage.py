"""The database out of reach: how to tell it from a bug, and how to log it.

While the database restarts or drops its connections, every write and every background loop
fails at once, and keeps failing until it is back: a traceback each time said nothing new and
buried the log (one chaos run: 955 tracebacks of "could not save move", 7 MB in 90 s).
:func:`log_failure` logs such a failure as one line, with the driver's first line, and keeps
the whole traceback for everything else.
"""

from __future__ import annotations

import logging
import sys

import psycopg
from sqlalchemy.exc import DBAPIError, DisconnectionError, PendingRollbackError
from sqlalchemy.exc import TimeoutError as PoolTimeout

# What the database (or the pool in front of it) raises when it cannot be reached or used now;
# psycopg's own for the connections the cluster holds outside SQLAlchemy (notifications, the
# liveness lock).
OUTAGE_ERRORS: tuple[type[Exception], ...] = (
    DBAPIError,
    DisconnectionError,
    PendingRollbackError,
    PoolTimeout,
    psycopg.OperationalError,
)
SHORT_CHARS = 160


def is_outage(exc: BaseException | None) -> bool:
    """Whether ``exc`` says the database is out of reach (rather than a bug of ours)."""
    return isinstance(exc, OUTAGE_ERRORS)


def driver_line(exc: BaseException) -> tuple[BaseException, str]:
    """The driver's own error inside ``exc`` (SQLAlchemy wraps it) and its first line, without
    SQLAlchemy's SQL and links (empty if it said nothing)."""
    cause = getattr(exc, "orig", None) or exc
    lines = [line.strip() for line in str(cause).splitlines() if line.strip()]
    return cause, lines[0] if lines else ""


def short(exc: BaseException) -> str:
    """The driver's first line of ``exc``, with its error's name, in a log line's length."""
    cause, first = driver_line(exc)
    text = f"{type(cause).__name__}: {first}"
    return text if len(text) <= SHORT_CHARS else text[: SHORT_CHARS - 1] + "…"


def log_failure(log: logging.Logger, message: str, *args: object) -> None:
    """Log the exception being handled: one warning line if the database is out of reach,
    else ``message`` with its traceback (an error)."""
    exc = sys.exc_info()[1]
    if exc is not None and is_outage(exc):
        log.warning(message + ": database unavailable (%s)", *args, short(exc))
    else:
        log.exception(message, *args)
