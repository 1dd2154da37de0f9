"""A server process that starts while its database is away: on PostgreSQL it waits (logging
one short line an attempt, its health check silent) and serves once the database comes; past
its ``--database-wait`` it stops, non-zero, saying why; a refusal that waiting cannot mend and
a SQLite file that cannot be opened stop it at once. Real server processes, and a PostgreSQL
cluster of the test's own that it starts late or never."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import make_url

from otherside.server.clock import SystemClock
from otherside.server.store.waiting import DatabaseAway, ready_database
from otherside.testing.servers import healthy
from tests.server.private_postgres import POSTGRES_ENV, PrivatePostgres, private_postgres
from tests.server.processes import REQUEST_SECONDS, Server, free_port

WAITING = "waiting for the database: "
DRIVER_DUMP = "Is the server running"  # psycopg's hint, part of its message


@pytest.fixture
def stopped_db() -> Iterator[PrivatePostgres]:
    with private_postgres() as cluster:
        cluster.stop()
        yield cluster


def _log_says(server: Server, words: str, limit: float = 90.0) -> None:
    deadline = time.monotonic() + limit
    while words not in server.log():
        assert server.running(), server.log()
        assert time.monotonic() < deadline, server.log()
        time.sleep(0.2)


@pytest.mark.postgres
def test_a_server_started_before_its_database_waits_then_serves(
    stopped_db: PrivatePostgres,
) -> None:
    server = Server(stopped_db.url, None, "--bot-workers", "0", wait=False)
    try:
        _log_says(server, WAITING + "Connection refused (attempt 2;")
        assert server.running() and not healthy(server.url)  # not ready: no answer at all
        stopped_db.start()
        server.wait_up()
        with httpx.Client(base_url=server.url, timeout=REQUEST_SECONDS) as client:
            assert client.post("/api/guest").status_code in (200, 201)
            assert client.get("/api/tables").status_code == 200
        assert DRIVER_DUMP not in server.log()
    finally:
        server.kill()


@pytest.mark.postgres
def test_a_database_that_never_comes_stops_the_server_with_a_clear_message(
    stopped_db: PrivatePostgres,
) -> None:
    server = Server(stopped_db.url, None, "--database-wait", "2", "--bot-workers", "0", wait=False)
    try:
        code = server.process.wait(timeout=120)
        text = server.log()
        assert code != 0, text
        assert WAITING + "Connection refused (attempt 1; again in 0.5 s)" in text
        assert "the database did not come within 2 s (last: Connection refused)" in text
        assert DRIVER_DUMP not in text and "Traceback" not in text
    finally:
        server.kill()


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_a_server_asked_to_stop_while_it_waits_stops_at_once(stop: signal.Signals) -> None:
    # Nothing listens on the port: "Connection refused" for as long as it waits (120 s).
    nowhere = f"postgresql+psycopg://otherside@127.0.0.1:{free_port()}/postgres"
    server = Server(nowhere, None, "--bot-workers", "0", wait=False)
    try:
        _log_says(server, WAITING + "Connection refused (attempt 2;")
        asked = time.monotonic()
        os.kill(server.pid, stop)
        server.process.wait(timeout=60)
        assert time.monotonic() - asked < 10  # before: only once the 120 s were over
        text = server.log()
        assert "asked to stop while waiting for the database; the server stops" in text
        assert "Traceback" not in text
    finally:
        server.kill()


def test_a_sqlite_file_that_cannot_be_opened_stops_the_server_at_once() -> None:
    server = Server(
        "sqlite:////proc/no-such-folder/otherside.db", None, "--bot-workers", "0", wait=False
    )
    try:
        code = server.process.wait(timeout=120)
        text = server.log()
        assert code != 0, text
        assert "cannot open the SQLite database /proc/no-such-folder/otherside.db" in text
        assert WAITING not in text and "Traceback" not in text
    finally:
        server.kill()


@pytest.mark.postgres
async def test_a_refusal_that_waiting_cannot_mend_fails_at_once() -> None:
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        pytest.skip(f"{POSTGRES_ENV} is not set")
    nobody = make_url(url).set(username="nobody_at_all").render_as_string(hide_password=False)
    started = time.monotonic()
    with pytest.raises(DatabaseAway, match='role "nobody_at_all" does not exist'):
        await ready_database(nobody, 120.0, SystemClock())
    assert time.monotonic() - started < 30  # not the 120 s of waiting
