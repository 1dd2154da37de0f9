"""The event stream of programs is pushed, not polled: an idle stream reads nothing from the
database (its queries counted during a minute of the injected clock and a few real seconds),
says only its keep-alive lines (as the clock moves), and wakes when its account sits down
somewhere (the table found at once, its start told), when its token is revoked (it ends) —
in one process (SQLite and PostgreSQL), and across two server processes on PostgreSQL, where a
seat taken and a token revoked through one process reach a stream opened on the other."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import event

from otherside.server.clock import ManualClock
from otherside.server.http.feed import KEEP_ALIVE_SECONDS, Feed
from otherside.server.http.tokens import token_still_valid
from otherside.server.live.nudges import token_credential
from tests.security.outside import bearer
from tests.server.conftest import postgres_database, registered, running
from tests.server.processes import Server, free_port

FEED_TABLES = ("api_tokens", "seats")  # what a stream reads: its token, its account's tables
LOOK = "SELECT game_tables.id FROM game_tables JOIN seats"  # a read of the account's tables


async def next_event(lines: AsyncIterator[bytes]) -> dict[str, Any]:
    """The stream's next event (no keep-alive line comes: the test does not move the clock)."""
    line = await asyncio.wait_for(anext(lines), 20)
    assert line.strip(), "a keep-alive line though the clock stood still"
    found: dict[str, Any] = json.loads(line)
    return found


async def keep_alive(lines: AsyncIterator[bytes], clock: ManualClock) -> bytes:
    """The stream's next line, the clock moved on a keep-alive's time until it comes (the
    stream starts its wait when asked for a line: the clock moves once it waits)."""
    line = asyncio.ensure_future(anext(lines))
    for _ in range(500):
        await asyncio.sleep(0.01)
        if line.done():
            return line.result()
        clock.advance(seconds=KEEP_ALIVE_SECONDS)
    raise AssertionError("no keep-alive line")


async def test_an_idle_stream_reads_nothing_and_wakes_when_its_account_sits_down(
    database_url: str,
) -> None:
    clock = ManualClock()
    async with running(database_url, clock=clock, run_scheduler=False) as app:
        host, program = await registered(app, "Host", "Program")
        made = await program.http.post("/api/tokens", json={"label": "b", "scopes": ["play"]})
        token = made.json()
        reads: list[str] = []

        def counted(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
            if any(table in statement for table in FEED_TABLES):
                reads.append(statement)

        event.listen(app.state.db.engine, "before_cursor_execute", counted)
        state = app.state
        feed = Feed(
            state.hub,
            state.db,
            clock,
            state.nudges,
            program.user,
            token_credential(token["id"]),
            lambda: token_still_valid(state, token["token"]),
            "en",
        )
        # The stream opens (its token checked, its tables read once, before the answer's
        # status) and waits: the first keep-alive comes when the clock has moved on.
        assert await feed.open()
        lines = feed.lines()
        assert await keep_alive(lines, clock) == b"\n"
        opened = len(reads)
        assert opened >= 2  # the token, the tables

        # Idle: a minute of the clock, and real seconds (the old stream looked every second).
        start = clock.now()
        while (clock.now() - start).total_seconds() < 60:
            assert await keep_alive(lines, clock) == b"\n"
        await asyncio.sleep(2.5)
        assert reads[opened:] == []
        assert state.nudges.open_count() == 1

        # The account sits down at a table: the stream finds it at once (nothing polls).
        table = (await host.http.post("/api/tables", json={"game": "versus", "players": 2})).json()
        joined = await program.http.post(f"/api/tables/{table['id']}/join", json={})
        assert joined.status_code == 200, joined.text
        assert (await host.http.post(f"/api/tables/{table['id']}/start")).status_code == 200
        start = await next_event(lines)
        assert start["type"] == "tableStart" and start["table"]["id"] == table["id"]
        assert start["seat"] == 1
        # One look at the account's tables, when it sat down (the rest: the seats' writes).
        looks = [r for r in reads[opened:] if LOOK in " ".join(r.split())]
        assert len(looks) == 1, looks

        # The token is revoked: the stream ends, without waiting for anything.
        revoked = await program.http.delete(f"/api/tokens/{token['id']}")
        assert revoked.status_code == 200
        with pytest.raises(StopAsyncIteration):
            while True:
                line = await asyncio.wait_for(anext(lines), 10)
                assert line.strip() == b"" or json.loads(line)["type"] == "yourTurn"
        assert state.nudges.open_count() == 0
        for person in (host, program):
            await person.http.aclose()


@pytest.fixture
def two() -> Iterator[list[Server]]:
    with postgres_database() as url:
        servers = [Server(url, free_port(), "--bot-workers", "0", wait=False) for _ in range(2)]
        try:
            for server in servers:
                server.wait_up()
            yield servers
        finally:
            for server in servers:
                server.kill()


@pytest.mark.postgres
async def test_a_stream_hears_of_seats_and_revocations_made_through_another_process(
    two: list[Server],
) -> None:
    first, second = two
    async with (
        httpx.AsyncClient(base_url=first.url, timeout=30) as host,
        httpx.AsyncClient(base_url=first.url, timeout=30) as owner,
        httpx.AsyncClient(base_url=second.url, timeout=30) as program,
    ):
        for http, name in ((host, "Host"), (owner, "Owner")):
            signed = await http.post("/api/signup", json={"name": name, "password": "secret-pw"})
            assert signed.status_code == 200
        made = (await owner.post("/api/tokens", json={"label": "b", "scopes": ["play"]})).json()
        async with program.stream(
            "GET", "/api/stream/events", headers=bearer(made["token"])
        ) as stream:
            lines = stream.aiter_lines()
            async with asyncio.timeout(20):
                assert await anext(lines) == ""  # open, idle: a keep-alive line
            # Seated and started through the first process; told on the second.
            table = (await host.post("/api/tables", json={"game": "versus", "players": 2})).json()
            joined = await host.post(
                f"/api/tables/{table['id']}/join", headers=bearer(made["token"]), json={}
            )
            assert joined.status_code == 200, joined.text
            assert (await host.post(f"/api/tables/{table['id']}/start")).status_code == 200
            async with asyncio.timeout(20):
                line = await anext(lines)
                while not line:
                    line = await anext(lines)
            start = json.loads(line)
            assert start["type"] == "tableStart" and start["table"]["id"] == table["id"]
            # Revoked through the first process: the stream on the second ends.
            assert (await owner.delete(f"/api/tokens/{made['id']}")).status_code == 200
            async with asyncio.timeout(20):
                rest = [line async for line in lines]
            assert all(not line or json.loads(line)["type"] == "yourTurn" for line in rest)
