"""The table websocket's protocol attacked from outside, against a real server process (SQLite,
then PostgreSQL): messages of the wrong types, numbers no table was ever at, frames that are
no JSON, another seat's turn, a spectator acting, a table id no table has. Each gets an
``error`` message with a code (or a close frame with a code and our words), no driver or
Python text, and changes nothing."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import websockets

from tests.security.outside import (
    ATTACKER,
    COOKIE,
    client,
    close_code,
    next_message,
    open_socket,
    shared_fixture,  # noqa: F401 (the fixture "shared")
)
from tests.server.processes import Server

LEAKS = ("Traceback", "pydantic", "input_value", "psycopg", "sqlalchemy", "errors.pydantic")


async def _duel(api: Server, first: httpx.AsyncClient, second: httpx.AsyncClient) -> str:
    """An unrated VERSUS duel of two guests, started; its id."""
    for http in (first, second):
        (await http.post("/api/guest")).raise_for_status()
    made = await first.post("/api/tables", json={"game": "versus", "players": 2, "rated": False})
    table_id = str(made.json()["id"])
    (await second.post(f"/api/tables/{table_id}/join", json={})).raise_for_status()
    (await first.post(f"/api/tables/{table_id}/start")).raise_for_status()
    return table_id


async def _refused(ws: websockets.ClientConnection, message: str | bytes | dict[str, Any]) -> str:
    """Send ``message``; the code of the ``error`` it gets (checked for leaked text)."""
    await ws.send(json.dumps(message) if isinstance(message, dict) else message)
    async with asyncio.timeout(10):
        error = await next_message(ws, "error")
    assert error["message"] and not any(leak in error["message"] for leak in LEAKS), error
    return str(error["code"])


async def test_wrong_types_and_numbers_are_refused_and_change_nothing(shared: Server) -> None:
    api = shared
    async with client(api) as host, client(api) as guest, client(api, ATTACKER) as stranger:
        table_id = await _duel(api, host, guest)
        (await stranger.post("/api/guest")).raise_for_status()
        sockets = [
            await open_socket(api, table_id, cookie=http.cookies.get(COOKIE))
            for http in (host, guest)
        ]
        watcher = await open_socket(api, table_id, ATTACKER, stranger.cookies.get(COOKIE))
        try:
            views = [await next_message(ws, "view") for ws in sockets]
            ((mover, view),) = [(ws, v) for ws, v in zip(sockets, views, strict=True) if v["legal"]]
            (waiter,) = [ws for ws in sockets if ws is not mover]
            legal = view["legal"][0]
            assert view["version"] == 0
            # A version of the wrong JSON type: Pydantic's lax mode took "0", false and 0.0
            # for the number 0, and the move was played.
            wrong = [
                {"type": "action", "version": "0", "action": legal},
                {"type": "action", "version": False, "action": legal},
                {"type": "action", "version": 0.0, "action": legal},
                {"type": "action", "version": 0, "takebacks": "0", "action": legal},
                {"type": "action", "version": 0, "takebacks": False, "action": legal},
                {"type": "takeback", "version": "0", "step": "ask"},
            ]
            for message in wrong:
                assert await _refused(mover, message) == "malformed", message
            # Numbers no table was ever at, and frames that are no message.
            for message in (
                {"type": "action", "version": 2**31, "action": legal},
                {"type": "action", "version": 10**30, "action": legal},
                {"type": "action", "version": -1, "action": legal},
                {"type": "action", "version": 0, "takebacks": 2**63, "action": legal},
                b"\x00\x01\x02",
                b'{"type": "ping"}',
                "[" * 40 + "]" * 40,
                '{"type": "action", "version": NaN, "action": "x"}',
            ):
                assert await _refused(mover, message) == "malformed", message
            for message in ({"type": "dance"}, {"type": ["action"]}, {"version": 0}):
                assert await _refused(mover, message) == "unknown_type", message
            # Another seat's turn, and a spectator acting.
            assert (
                await _refused(waiter, {"type": "action", "version": 0, "action": legal})
                == "not_your_turn"
            )
            for message in (
                {"type": "action", "version": 0, "action": legal},
                {"type": "resign"},
                {"type": "takeback", "version": 0, "step": "accept"},
            ):
                assert await _refused(watcher, message) == "not_seated", message
            # The programs' HTTP route to act is as strict.
            act = await host.post(
                f"/api/tables/{table_id}/act", json={"version": "0", "action": legal}
            )
            assert act.status_code == 422, act.text
            assert (await host.get(f"/api/tables/{table_id}")).json()["version"] == 0
            # Nothing changed, and the right message is played.
            await mover.send(json.dumps({"type": "action", "version": 0, "action": legal}))
            while (await next_message(mover, "view"))["version"] != 1:
                pass
        finally:
            for ws in (*sockets, watcher):
                await ws.close()


async def test_a_table_id_with_a_control_character_is_refused_in_our_words(
    shared: Server,
) -> None:
    api = shared
    # On PostgreSQL the NUL reached the database, which refused it: the socket was closed with
    # 1013, "the server is busy; try again shortly", and the log said the database was away.
    ws = await websockets.connect(f"ws://127.0.0.1:{api.port}/ws/tables/abc%00def")
    assert await close_code(ws) == 4404
    assert ws.close_reason == "path holds the control character U+0000; text may not hold one"
    assert "database unavailable" not in api.log()
    async with client(api) as http:
        assert (await http.get("/api/health")).status_code == 200
