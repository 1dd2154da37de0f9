"""A database outage under a real server process on PostgreSQL: while the database is down,
lobby calls answer 503 with ``Retry-After``, a new table websocket is closed with code 1013
(try again later) and no client sees the driver's words; when it is back, the server serves
again and the tables play on."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets

from tests.server.private_postgres import PrivatePostgres, private_postgres
from tests.server.processes import REQUEST_SECONDS, Server, free_port

pytestmark = pytest.mark.postgres
WAIT = 60.0
DRIVER_WORDS = ("psycopg", "sqlalchemy", "OperationalError", "connection", "127.0.0.1")


@pytest.fixture
def outage_db() -> Iterator[PrivatePostgres]:
    with private_postgres() as cluster:
        yield cluster


def _clean(text: str) -> None:
    """No driver text reaches a client."""
    lowered = text.lower()
    for words in DRIVER_WORDS:
        assert words.lower() not in lowered, text


async def _next(ws: Any, wanted: Any, timeout: float = WAIT) -> dict[str, Any]:
    async def scan() -> dict[str, Any]:
        async for raw in ws:
            _clean(raw)
            message = json.loads(raw)
            if wanted(message):
                return message
        raise AssertionError("the connection closed")

    return await asyncio.wait_for(scan(), timeout)


async def _play_my_turn(ws: Any, version: int) -> dict[str, Any]:
    """Wait for a view at ``version`` or later where I may act, act, return the view."""
    view = await _next(ws, lambda m: m["type"] == "view" and m["version"] >= version and m["legal"])
    await ws.send(
        json.dumps({"type": "action", "version": view["version"], "action": view["legal"][0]})
    )
    return view


async def test_a_database_outage_answers_503_and_1013_then_play_resumes(
    outage_db: PrivatePostgres,
) -> None:
    server = Server(outage_db.url, free_port(), "--bot-workers", "1", bot_delay=0.05)
    base = f"http://127.0.0.1:{server.port}"
    try:
        async with httpx.AsyncClient(base_url=base, timeout=REQUEST_SECONDS) as ada:
            assert (await ada.post("/api/guest")).status_code in (200, 201)
            cookie = {"Cookie": f"otherside_session={ada.cookies.get('otherside_session')}"}
            tables = []
            for _ in range(2):
                made = await ada.post("/api/tables", json={"game": "verso", "players": 2})
                table = made.json()["id"]
                await ada.post(f"/api/tables/{table}/bots", json={"bot": "random"})
                assert (await ada.post(f"/api/tables/{table}/start")).status_code == 200
                tables.append(table)
            url = f"ws://127.0.0.1:{server.port}/ws/tables/"
            async with websockets.connect(url + tables[0], additional_headers=cookie) as ws:
                before = await _play_my_turn(ws, 0)
                mine = await _next(
                    ws,
                    lambda m: (
                        m["type"] == "view" and m["version"] > before["version"] and m["legal"]
                    ),
                )

                outage_db.stop()
                # Lobby calls: 503, Retry-After, our words.
                for path in (
                    "/api/tables?status=playing",
                    "/api/my/tables",
                    f"/api/tables/{tables[1]}",
                ):
                    answer = await ada.get(path)
                    assert answer.status_code == 503, (path, answer.text)
                    assert int(answer.headers["retry-after"]) > 0
                    assert answer.json()["code"] == "unavailable"
                    _clean(answer.text)
                made = await ada.post("/api/tables", json={"game": "verso", "players": 2})
                assert made.status_code == 503
                _clean(made.text)
                # A new websocket: closed with 1013, not dropped.
                async with websockets.connect(url + tables[1], additional_headers=cookie) as other:
                    with pytest.raises(websockets.ConnectionClosed) as closed:
                        await asyncio.wait_for(other.recv(), WAIT)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
                _clean(closed.value.rcvd.reason)
                # A move on a socket already open: refused in our words, the socket stays.
                action = {"type": "action", "version": mine["version"], "action": mine["legal"][0]}
                await ws.send(json.dumps(action))
                refused = await _next(ws, lambda m: m["type"] == "error")
                assert refused["code"] == "server_error"
                # Then the table as it was, to act on again.
                again = await _next(ws, lambda m: m["type"] == "view")
                assert again["version"] == mine["version"] and again["legal"] == mine["legal"]
                outage_db.start()

            # Back: the server serves again, and both tables play on.
            deadline = time.monotonic() + WAIT
            while (await ada.get("/api/my/tables")).status_code != 200:
                assert time.monotonic() < deadline, "the server did not recover"
                await asyncio.sleep(0.2)
            for table in tables:
                async with websockets.connect(url + table, additional_headers=cookie) as ws:
                    start = await _play_my_turn(ws, 0)
                    after = await _play_my_turn(ws, start["version"] + 1)
                    # The bot answered, and my move after it was taken.
                    await _next(
                        ws, lambda m, v=after["version"]: m["type"] == "view" and m["version"] > v
                    )
    finally:
        server.stop()
