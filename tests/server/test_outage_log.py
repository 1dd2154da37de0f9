"""A database outage is logged as one line a failure, a bug with its whole traceback."""

from __future__ import annotations

import logging

import psycopg
import pytest
from sqlalchemy.exc import OperationalError

from otherside.server.store.outage import is_outage, log_failure, short

log = logging.getLogger("otherside.server")


def _driver_error() -> OperationalError:
    orig = psycopg.OperationalError(
        'connection failed: connection to server at "127.0.0.1", port 5432 failed: '
        "Connection refused\n\tIs the server running on that host and accepting TCP/IP "
        "connections?"
    )
    return OperationalError("SELECT 1", {}, orig)


def test_an_outage_is_one_line_without_a_traceback(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="otherside.server"):
        try:
            raise _driver_error()
        except OperationalError:
            log_failure(log, "could not save move %d of table %s", 12, "abc")
    (record,) = caplog.records
    assert record.levelno == logging.WARNING and record.exc_info is None
    said = record.getMessage()
    assert said.startswith("could not save move 12 of table abc: database unavailable (")
    assert "Connection refused" in said and "\n" not in said and "SELECT" not in said


def test_a_bug_keeps_its_traceback(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="otherside.server"):
        try:
            raise KeyError("seat")
        except KeyError:
            log_failure(log, "the actor of table %s failed; restarting it", "abc")
    (record,) = caplog.records
    assert record.levelno == logging.ERROR and record.exc_info is not None
    assert record.getMessage() == "the actor of table abc failed; restarting it"


def test_what_counts_as_an_outage() -> None:
    assert is_outage(_driver_error())
    assert not is_outage(KeyError("seat")) and not is_outage(None)
    # The cluster's own connections (notifications, the liveness lock) are psycopg's.
    assert is_outage(psycopg.errors.AdminShutdown("terminating connection"))
    assert short(_driver_error()).startswith("OperationalError: connection failed")
    assert len(short(OperationalError("x", {}, psycopg.OperationalError("y" * 500)))) == 160
