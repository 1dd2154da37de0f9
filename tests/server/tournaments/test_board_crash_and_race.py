"""An event's board is made whole or not at all, on real server processes: a process killed
with ``kill -9`` at the moment its director has made and started a board and then restarted
leaves one table per pairing, every one the event's (no orphan game); and on PostgreSQL, a
second process asked to start, fill or seat an event's table the moment it exists changes
nothing about it (the director's table is born started, seated with the entrants, unrated).

The moments are :mod:`otherside.server.faults`'s, named by the director."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy

from otherside.server.faults import CRASH_AT, HOLD_AT
from otherside.server.store.db import sqlite_url
from otherside.server.tournaments.boards import BOARD_MADE, BOARD_STARTED
from tests.security.outside import COOKIE
from tests.server.conftest import eventually, postgres_database
from tests.server.processes import REQUEST_SECONDS, Server, free_port

PASSWORD = "a long enough password"
SLOW = {"kind": "live", "minutes": 10, "increment": 0}  # nobody plays: the round stays as made


@contextlib.asynccontextmanager
async def person(url: str, name: str) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client of the server at ``url``, signed up as ``name``."""
    async with httpx.AsyncClient(base_url=url, timeout=REQUEST_SECONDS) as http:
        answer = await http.post("/api/signup", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 200, answer.text
        yield http


@contextlib.asynccontextmanager
async def same_person(http: httpx.AsyncClient, url: str) -> AsyncIterator[httpx.AsyncClient]:
    """The person signed in with ``http``, as a client of another server process at ``url``
    (the sessions are in the shared database)."""
    cookies = {COOKIE: http.cookies[COOKIE]}
    async with httpx.AsyncClient(base_url=url, timeout=REQUEST_SECONDS, cookies=cookies) as other:
        yield other


async def open_event(host: httpx.AsyncClient, entrants: list[httpx.AsyncClient]) -> str:
    """A Swiss event of VERSUS, one round, unrated, which ``entrants`` entered; its id."""
    body = {"game": "versus", "kind": "swiss", "rounds": 1, "pace": SLOW, "rated": False}
    made = await host.post("/api/tournaments", json=body)
    assert made.status_code == 201, made.text
    event_id: str = made.json()["id"]
    for http in entrants:
        joined = await http.post(f"/api/tournaments/{event_id}/join")
        assert joined.status_code == 200, joined.text
    return event_id


@contextlib.contextmanager
def database(url: str) -> Iterator[sqlalchemy.Engine]:
    """An engine on the servers' database, for the test's own reads."""
    engine = sqlalchemy.create_engine(url)
    try:
        yield engine
    finally:
        engine.dispose()


def _list(column: Any) -> list[int]:
    """A JSON column read by a raw query: text on SQLite, a list on PostgreSQL."""
    return list(json.loads(column) if isinstance(column, str) else column)


def snapshot(engine: sqlalchemy.Engine, event_id: str) -> dict[str, Any]:
    """In one read: the event's games (round, board, entrants' user ids, table id) and every
    table its host hosts, with status, rating and who sits where: on PostgreSQL, all of it as
    of one moment (its reads in one repeatable-read transaction: read one after the other, a
    board's table committed between them had seats but no table)."""
    level = "REPEATABLE READ" if engine.dialect.name == "postgresql" else "AUTOCOMMIT"
    with engine.connect().execution_options(isolation_level=level) as connection:
        host = connection.execute(
            sqlalchemy.text("SELECT host_id FROM tournaments WHERE id = :e"), {"e": event_id}
        ).scalar_one()
        users = dict(
            connection.execute(
                sqlalchemy.text(
                    "SELECT number, user_id FROM tournament_entrants WHERE tournament_id = :e"
                ),
                {"e": event_id},
            ).all()
        )
        games = [
            {"round": r, "board": b, "users": [users[n] for n in _list(entrants)], "table": t}
            for r, b, entrants, t in connection.execute(
                sqlalchemy.text(
                    "SELECT round, board, entrants, table_id FROM tournament_games"
                    " WHERE tournament_id = :e ORDER BY round, board"
                ),
                {"e": event_id},
            ).all()
        ]
        tables = {
            table_id: {"status": status, "rated": bool(rated), "seats": []}
            for table_id, status, rated in connection.execute(
                sqlalchemy.text("SELECT id, status, rated FROM game_tables WHERE owner_id = :h"),
                {"h": host},
            ).all()
        }
        for table_id, user_id, bot in connection.execute(
            sqlalchemy.text(
                "SELECT s.table_id, s.user_id, s.bot FROM seats s"
                " JOIN game_tables t ON t.id = s.table_id WHERE t.owner_id = :h ORDER BY s.seat"
            ),
            {"h": host},
        ).all():
            tables[table_id]["seats"].append(user_id if bot is None else bot)
    return {"games": games, "tables": tables}


def one_started_table_per_board(found: dict[str, Any]) -> None:
    """Every game has its table, started, unrated, with its entrants and nobody else in it;
    the host hosts no other table (no orphan game)."""
    games, tables = found["games"], found["tables"]
    assert games and all(g["table"] is not None for g in games), found
    assert sorted(tables) == sorted(g["table"] for g in games), found
    for game in games:
        table = tables[game["table"]]
        assert table["status"] == "playing", found
        assert table["seats"] == game["users"], found
        assert table["rated"] is False, found


def all_boards_made(engine: sqlalchemy.Engine, event_id: str) -> bool:
    games = snapshot(engine, event_id)["games"]
    return bool(games) and all(g["table"] is not None for g in games)


async def test_a_crash_between_making_a_board_and_recording_it_leaves_no_orphan_game(
    tmp_path: Path,
) -> None:
    url = sqlite_url(tmp_path / "events.db")
    crashing = Server(url, free_port(), "--bot-workers", "0", env={CRASH_AT: BOARD_STARTED})
    try:
        async with (
            person(crashing.url, "host") as host,
            person(crashing.url, "alice") as alice,
            person(crashing.url, "bob") as bob,
            person(crashing.url, "carol") as carol,
            person(crashing.url, "dave") as dave,
        ):
            event_id = await open_event(host, [alice, bob, carol, dave])
            # The director makes the first board in the start's request, and dies there.
            with pytest.raises(httpx.TransportError):
                await host.post(f"/api/tournaments/{event_id}/start")
        await eventually(lambda: not crashing.running())
    finally:
        crashing.kill()

    with database(url) as engine:
        restarted = Server(url, free_port(), "--bot-workers", "0")
        try:
            await eventually(lambda: all_boards_made(engine, event_id))
            found = snapshot(engine, event_id)
            assert len(found["games"]) == 2
            one_started_table_per_board(found)
        finally:
            restarted.kill()


@pytest.mark.postgres
async def test_another_process_cannot_seat_or_start_an_event_board_as_it_is_made(
    tmp_path: Path,
) -> None:
    go_on = tmp_path / "go-on"
    with postgres_database() as url, database(url) as engine:
        # The director of ``directing`` is held the moment its board's table exists.
        directing = Server(
            url, free_port(), "--bot-workers", "0", env={HOLD_AT: f"{BOARD_MADE}={go_on}"}
        )
        other = Server(url, free_port(), "--bot-workers", "0")
        try:
            async with (
                person(directing.url, "host") as host,
                person(directing.url, "alice") as alice,
                person(directing.url, "bob") as bob,
                person(other.url, "carol") as carol,
                same_person(host, other.url) as host_there,
            ):
                event_id = await open_event(host, [alice, bob])
                starting = asyncio.create_task(host.post(f"/api/tournaments/{event_id}/start"))
                await eventually(lambda: bool(snapshot(engine, event_id)["tables"]))
                (table_id,) = snapshot(engine, event_id)["tables"]
                # From the other process, at once: the host starts it, fills it with bots
                # (which starts it too), puts a bot in a seat; a stranger sits down.
                answers = [
                    await host_there.post(f"/api/tables/{table_id}/start"),
                    await host_there.post(f"/api/tables/{table_id}/bots", json={"bot": "random"}),
                    await host_there.post(
                        f"/api/tables/{table_id}/bots", json={"seat": 1, "bot": "random"}
                    ),
                    await carol.post(f"/api/tables/{table_id}/join", json={}),
                ]
                go_on.touch()
                started = await starting
                assert started.status_code == 200, started.text
                await eventually(lambda: all_boards_made(engine, event_id))
                found = snapshot(engine, event_id)
        finally:
            go_on.touch()
            other.kill()
            directing.kill()
    assert len(found["games"]) == 1
    one_started_table_per_board(found)
    # Nothing changed: the host's start answers with the game as the director started it (as
    # a retry of a start would), the seat changes are refused with their stable code.
    start, *seat_changes = answers
    assert start.status_code == 200, start.text
    assert (start.json()["status"], start.json()["rated"]) == ("playing", False), start.text
    for answer in seat_changes:
        assert answer.status_code == 409, answer.text
        assert answer.json()["code"] == "seats_locked", answer.text


async def test_the_host_cannot_stop_an_event_game_of_bots(tmp_path: Path) -> None:
    # A host may stop their own game of bots in the lobby; stopping an event's would decide
    # its result. The bots think for a minute, so the game is still in play when asked.
    server = Server(sqlite_url(tmp_path / "events.db"), free_port(), bot_delay=60.0)
    try:
        async with person(server.url, "host") as host:
            body = {"game": "versus", "kind": "swiss", "rounds": 1, "open_to": "bots"}
            made = await host.post("/api/tournaments", json=body)
            assert made.status_code == 201, made.text
            event_id = made.json()["id"]
            for bot in ("random", "greedy"):
                added = await host.post(f"/api/tournaments/{event_id}/bots", json={"bot": bot})
                assert added.status_code == 200, added.text
            started = await host.post(f"/api/tournaments/{event_id}/start")
            assert started.status_code == 200, started.text
            (game,) = started.json()["games"]

            stopped = await host.post(f"/api/tables/{game['table_id']}/stop")
            assert stopped.status_code == 409, stopped.text
            assert stopped.json()["code"] == "event_table", stopped.text
            table = await host.get(f"/api/tables/{game['table_id']}")
            assert table.json()["status"] == "playing", table.text
    finally:
        server.kill()
