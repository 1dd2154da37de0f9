"""Presence across processes, in one test process on PostgreSQL with a manual clock: another
process's connections (a second :class:`PostgresCluster`'s presence on the same database) keep
an event's partner from being handed to a bot (:mod:`otherside.server.tournaments.absentees`);
a process that dies with its players connected has them counted gone from when another process
saw it gone, not from when they came (:func:`otherside.server.cluster.presence.mark_gone`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from fastapi import FastAPI
from sqlalchemy import select
from sqlalchemy.orm import Session

from otherside.server.clock import ManualClock
from otherside.server.cluster.peers import PostgresCluster
from otherside.server.store.db import Database
from otherside.server.store.models import TablePresence
from otherside.server.tournaments.absentees import HandOverAbsent
from tests.server.conftest import Player, Recorder, eventually, hub_of, people, running


def _rows(session: Session, table: str, user: int) -> list[tuple[bool, object]]:
    """What is written of ``user`` at ``table``: (here, since when) for each process."""
    found = session.scalars(
        select(TablePresence).where(TablePresence.table_id == table, TablePresence.user_id == user)
    )
    return [(row.here, row.seen_at) for row in found]


async def _partners(app: FastAPI) -> tuple[Player, Player, str]:
    """Ada and Bob, and the Recto Verso table they started."""
    ada, bob = await people(app, 2)
    made = await ada.http.post(
        "/api/tables",
        json={"game": "rectoverso", "players": 2, "options": {"difficulty": "easy"}},
    )
    table = str(made.json()["id"])
    assert (await bob.http.post(f"/api/tables/{table}/join", json={})).status_code == 200
    assert (await ada.http.post(f"/api/tables/{table}/start")).status_code == 200
    return ada, bob, table


@asynccontextmanager
async def _another_process(
    db: Database, url: str, clock: ManualClock
) -> AsyncIterator[PostgresCluster]:
    """Another server process on the database, as the first sees it: its liveness lock and its
    players' presence, both given up at the end."""
    other = PostgresCluster(db, url, clock=clock)
    await other.liveness.start()
    other.presence.start()
    try:
        yield other
    finally:
        await other.presence.stop(clock.now())
        await other.liveness.stop()


@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
async def test_a_partner_connected_elsewhere_is_no_absentee_until_that_process_dies(
    database_url: str,
) -> None:
    clock = ManualClock()
    async with running(database_url, clock=clock, run_scheduler=False) as app:
        ada, bob, table = await _partners(app)
        hub = hub_of(app)
        db = hub.db
        assert db is not None
        await hub.attach(table, ada.recorder())  # Ada here; Bob through the other process

        def bob_rows() -> list[tuple[bool, object]]:
            assert db is not None
            return db.transaction(lambda s: _rows(s, table, bob.user.id))

        async with _another_process(db, database_url, clock) as other:
            other.presence.tell(table, bob.user.id, True, clock.now())
            await eventually(lambda: bob_rows() != [])
            away = app.state.limits.away_seconds
            clock.advance(seconds=away + 1)
            assert await hub.ask(table, HandOverAbsent(away)) == []
            # The other process dies, Bob's row still saying he is there: the first process
            # marks him gone when it sees the lock gone, at its clock's time.
            died = clock.now()
            await other.liveness.stop()
            await eventually(lambda: bob_rows() == [(False, died)])
            clock.advance(seconds=away - 1)
            assert await hub.ask(table, HandOverAbsent(away)) == []
            clock.advance(seconds=2)
            assert await hub.ask(table, HandOverAbsent(away)) == [1]
            live = await hub.live(table)
            assert [seat.forfeit for seat in live.info.seats] == [None, "away"]


def _away(recorder: Recorder) -> list[str | None]:
    """Each seat's ``away_since`` in the last ``table`` message ``recorder`` got."""
    return [seat["away_since"] for seat in recorder.last("table")["table"]["seats"]]


@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
async def test_the_table_shows_a_partner_connected_elsewhere_here_then_gone_since_they_left(
    database_url: str,
) -> None:
    # What the page is told (the ``table`` message), where the tests above check what the
    # server decides: Bob connected through another process is not away from the first
    # message Ada gets; his going, there, reaches her page with the time he went, no move made.
    clock = ManualClock()
    async with running(database_url, clock=clock, run_scheduler=False) as app:
        ada, bob, table = await _partners(app)
        hub = hub_of(app)
        db = hub.db
        assert db is not None

        def bob_rows() -> list[tuple[bool, object]]:
            assert db is not None
            return db.transaction(lambda s: _rows(s, table, bob.user.id))

        async with _another_process(db, database_url, clock) as other:
            other.presence.tell(table, bob.user.id, True, clock.now())
            await eventually(lambda: bob_rows() != [])
            clock.advance(seconds=30)
            seen = ada.recorder()
            await hub.attach(table, seen)
            assert _away(seen) == [None, None]
            clock.advance(seconds=30)
            left = clock.now()
            other.presence.tell(table, bob.user.id, False, left)
            await eventually(lambda: _away(seen) == [None, left.isoformat()])
            clock.advance(seconds=30)
            other.presence.tell(table, bob.user.id, True, clock.now())
            await eventually(lambda: _away(seen) == [None, None])
            assert all(m["type"] != "view" for m in seen.messages[2:])  # no move was made
