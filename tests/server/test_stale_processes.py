"""Two server processes' view of a waiting table can differ for a moment (a change made through
one reaches the other by a notification). Seats, the start and the rematch are decided on what a
process knows, then written only if the database still agrees; otherwise the process catches up
and decides again, so nobody's seat is overwritten and no game starts on a seat that emptied.

Two apps on one SQLite file stand for two processes whose notifications have not arrived yet
(``SoloCluster`` hears nothing): a deterministic worst case. On PostgreSQL, two apps that do hear
each other race for one seat for real."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import create_engine, text

from otherside.core.simultaneous import legal_actions_of
from otherside.server.cluster.catch_up import Refresh
from otherside.server.store.db import sqlite_url
from otherside.server.store.records import Held
from otherside.server.tables import seating
from otherside.server.tables.hub import TableHub
from otherside.server.tables.play import Play
from tests.server.conftest import (
    Player,
    eventually,
    hub_of,
    people,
    postgres_database,
    running,
    table_with,
)


@pytest.fixture
async def apps(tmp_path: Any) -> AsyncIterator[tuple[FastAPI, FastAPI, str]]:
    url = sqlite_url(tmp_path / "shared.db")
    async with running(url) as first, running(url) as second:
        yield first, second, url


def _seats(url: str, table: str) -> list[tuple[Any, Any]]:
    engine = create_engine(url)
    try:
        with engine.connect() as db:
            query = "SELECT user_id, bot FROM seats WHERE table_id = :t ORDER BY seat"
            return [tuple(row) for row in db.execute(text(query), {"t": table})]
    finally:
        engine.dispose()


def _count(url: str, query: str) -> Any:
    engine = create_engine(url)
    try:
        with engine.connect() as db:
            return db.execute(text(query)).scalar()
    finally:
        engine.dispose()


async def test_a_seat_taken_in_another_process_is_not_given_twice(
    apps: tuple[FastAPI, FastAPI, str],
) -> None:
    first, second, url = apps
    ada, carol = await people(first, 2)
    (bob,) = await people(second, 1)
    made = await ada.http.post("/api/tables", json={"game": "verso", "players": 3})
    table = made.json()["id"]
    await hub_of(first).live(table)  # the first process holds the table: empty seats 2 and 3
    assert (await bob.http.post(f"/api/tables/{table}/join", json={"seat": 1})).status_code == 200
    # The first process has not heard of Bob: it catches up and refuses Carol his seat.
    refused = await carol.http.post(f"/api/tables/{table}/join", json={"seat": 1})
    assert refused.status_code == 409 and "seat 2 is not free" in refused.json()["detail"]
    assert _seats(url, table) == [(ada.user.id, None), (bob.user.id, None), (None, None)]
    # Caught up, it seats her in the free one.
    joined = await carol.http.post(f"/api/tables/{table}/join", json={"seat": 2})
    assert joined.status_code == 200
    assert [s["name"] for s in joined.json()["seats"]] == [
        ada.user.name,
        bob.user.name,
        carol.user.name,
    ]


async def test_no_start_on_a_seat_that_emptied_in_another_process(
    apps: tuple[FastAPI, FastAPI, str],
) -> None:
    first, second, url = apps
    (ada,) = await people(first, 1)
    (bob,) = await people(second, 1)
    made = await ada.http.post("/api/tables", json={"game": "verso", "players": 3})
    table = made.json()["id"]
    assert (await bob.http.post(f"/api/tables/{table}/join", json={})).status_code == 200
    filled = await ada.http.post(f"/api/tables/{table}/bots", json={"seat": 2, "bot": "greedy"})
    assert [s["name"] for s in filled.json()["seats"]][:2] == [ada.user.name, bob.user.name]
    # Bob leaves through the second process, which has not heard of the bot (it catches up).
    assert (await bob.http.post(f"/api/tables/{table}/leave")).status_code == 200
    assert _seats(url, table) == [(ada.user.id, None), (None, None), (None, "greedy")]
    refused = await ada.http.post(f"/api/tables/{table}/start")
    assert refused.status_code == 409 and "seat 2 is empty" in refused.json()["detail"]
    assert _count(url, f"SELECT status FROM game_tables WHERE id = '{table}'") == "waiting"


async def test_one_rematch_when_two_processes_ask_for_it(
    apps: tuple[FastAPI, FastAPI, str],
) -> None:
    first, second, url = apps
    ada, bob = await people(first, 2)
    table = await table_with(first, [ada, bob], game="versus")
    assert (await ada.http.post(f"/api/tables/{table}/leave")).status_code == 200  # she forfeits
    # The second process loads the finished table, then the first makes the rematch.
    assert (await hub_of(second).live(table)).info.rematch_id is None
    one = await ada.http.post(f"/api/tables/{table}/rematch")
    other = await seating.rematch(hub_of(second), table, bob.user)
    assert one.status_code == 201 and other.id == one.json()["id"]
    assert _count(url, "SELECT count(*) FROM game_tables") == 2


async def _move(hub: TableHub, table: str, players: list[Player]) -> None:
    """The player to move at ``table`` plays their first legal action through ``hub``."""
    live = await hub.live(table)
    assert live.state is not None
    seat = live.info.to_move[0]
    user = next(p.user for p in players if p.user.id == live.info.seats[seat].user_id)
    action = legal_actions_of(live.state, seat)[0]
    await hub.ask(live.id, Play(user, live.info.version, str(action)))


async def test_a_move_committed_while_a_process_loads_the_table_is_applied_once(
    apps: tuple[FastAPI, FastAPI, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second, _url = apps
    ada, bob = await people(first, 2)
    table = await table_with(first, [ada, bob])
    mover, reader = hub_of(first), hub_of(second)
    # The second process reads the table (with its moves, in one transaction); a move is
    # committed through the first before the table's actor starts there.
    run = reader.db.run
    pending = [True]

    async def move_in_between(work: Any) -> Any:
        result = await run(work)
        loaded = isinstance(result, dict) and any(isinstance(v, Held) for v in result.values())
        if loaded and pending:  # the table's load (a batch of one, store.batched)
            pending.clear()
            await _move(mover, table, [ada, bob])
        return result

    monkeypatch.setattr(reader.db, "run", move_in_between)
    held = await reader.live(table)
    assert not pending and held.info.version == 0 and held.state is not None
    # Catching up with that move and the next applies each once.
    await _move(mover, table, [ada, bob])
    await reader.ask(held.id, Refresh())
    played = await mover.live(table)
    assert held.info.version == played.info.version == 2
    assert played.state is not None and held.state is not None
    assert held.state.to_record() == played.state.to_record()


@pytest.mark.postgres
async def test_processes_racing_for_one_seat_seat_one_person() -> None:
    with postgres_database() as url:
        async with running(url) as first, running(url) as second:
            (ada,) = await people(first, 1)
            made = await ada.http.post("/api/tables", json={"game": "verso", "players": 2})
            table = made.json()["id"]
            racers = await people(first, 4) + await people(second, 4)
            answers = await asyncio.gather(
                *(p.http.post(f"/api/tables/{table}/join", json={"seat": 1}) for p in racers)
            )
            won = [p for p, a in zip(racers, answers, strict=True) if a.status_code == 200]
            assert len(won) == 1, [a.text for a in answers]
            assert all(a.status_code == 409 for a in answers if a.status_code != 200)
            assert _seats(url, table)[1] == (won[0].user.id, None)


@pytest.mark.postgres
async def test_a_process_follows_only_the_tables_watched_or_owned_there() -> None:
    with postgres_database() as url:
        async with running(url) as first, running(url) as second:
            (ada,) = await people(first, 1)
            (cyd,) = await people(second, 1)
            made = await ada.http.post("/api/tables", json={"game": "verso", "players": 2})
            table = made.json()["id"]
            # The second process serves Cyd's join, then her watching; the game is played in
            # the first.
            joined = await cyd.http.post(f"/api/tables/{table}/join", json={})
            assert joined.status_code == 200
            await ada.http.post(f"/api/tables/{table}/start")
            follower = hub_of(second)
            # Nobody watches it in the second process: hearing of the start, it lets the
            # table go, and loads it afresh when someone comes.
            await eventually(lambda: follower.loaded(table) is None)
            watcher = cyd.recorder()
            live = await follower.attach(table, watcher)
            await _move(hub_of(first), table, [ada, cyd])
            await eventually(lambda: watcher.last("view")["version"] == 1)
            assert follower.loaded(table) is live  # followed now that it is watched
            assert live.info.version == 1 and watcher.last("view")["version"] == 1
