"""The liveness lock's session on PostgreSQL: the settings that bound how long a vanished
holder keeps it are in force on that very session, and a holder whose session was ended takes
the lock again and writes its players' presence again (the others had marked them gone)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import text

from otherside.server.clock import ManualClock
from otherside.server.cluster.liveness import IDLE_LIMIT, NAMESPACE, owner_key
from otherside.server.cluster.peers import PostgresCluster
from otherside.server.store.db import Database
from tests.server.conftest import eventually, postgres_database

pytestmark = pytest.mark.postgres


@pytest.fixture
def db() -> Iterator[Database]:
    with postgres_database() as url:
        database = Database(url)
        database.migrate()
        try:
            yield database
        finally:
            database.close()


async def test_the_lock_session_is_ended_by_the_server_when_its_holder_falls_silent(
    db: Database,
) -> None:
    cluster = PostgresCluster(db, db.url)
    await cluster.liveness.start()
    try:
        # Read with SHOW on the lock's own connection: PostgreSQL's own words for them.
        assert await cluster.liveness.session_settings() == {
            "idle_session_timeout": f"{IDLE_LIMIT:g}s",
            "tcp_keepalives_idle": "2",
            "tcp_keepalives_interval": "1",
            "tcp_keepalives_count": "4",
            "tcp_user_timeout": f"{IDLE_LIMIT * 1000:g}",
        }
    finally:
        await cluster.liveness.stop()
    assert await cluster.liveness.session_settings() == {}


def _here(db: Database, node: str) -> list[bool]:
    """What ``node`` has written of its players: here or not."""
    query = text("SELECT here FROM table_presence WHERE node = :n")
    return list(db.transaction(lambda s: s.scalars(query, {"n": node})))


async def test_a_holder_whose_session_ended_writes_its_players_again(db: Database) -> None:
    clock = ManualClock()
    cluster = PostgresCluster(db, db.url, clock=clock)
    await cluster.liveness.start()
    cluster.presence.start()
    try:
        cluster.presence.tell("table1", 7, True, clock.now())
        await eventually(lambda: _here(db, cluster.node) == [True])
        # Another process saw this one's lock gone and marked its players gone; then the
        # server ended the lock's session (as it does after IDLE_LIMIT s of silence).
        db.transaction(lambda s: s.execute(text("UPDATE table_presence SET here = false")))
        backend = db.transaction(
            lambda s: s.scalar(
                text(
                    "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = :c"
                    " AND objid = :k AND objsubid = 2"
                ),
                {"c": NAMESPACE, "k": owner_key(cluster.node)},
            )
        )
        assert backend is not None and cluster.liveness.taken == 1
        db.transaction(lambda s: s.execute(text("SELECT pg_terminate_backend(:p)"), {"p": backend}))
        await eventually(lambda: cluster.liveness.taken == 2)
        await eventually(lambda: _here(db, cluster.node) == [True])
    finally:
        await cluster.presence.stop(clock.now())
        await cluster.liveness.stop()
    assert _here(db, cluster.node) == [False]  # a clean stop: its players went
