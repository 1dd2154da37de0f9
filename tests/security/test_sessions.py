"""Signing out ends the session everywhere, live sockets included: a websocket opened before
the sign-out is closed (4401) and can no longer act, while the same person's other session
plays on — against a real server process over real sockets."""

from __future__ import annotations

import contextlib
import json

import pytest
from websockets.exceptions import ConnectionClosed

from tests.security.outside import (
    COOKIE,
    client,
    close_code,
    database_fixture,  # noqa: F401 (the fixture "database")
    next_message,
    open_socket,
    server,
)
from tests.server.conftest import postgres_database


async def test_sign_out_closes_that_sessions_websockets(database: str) -> None:
    with server(database) as api:
        async with client(api) as laptop, client(api) as phone:
            account = {"name": "Ada", "password": "lovelace"}
            assert (await laptop.post("/api/signup", json=account)).status_code == 200
            assert (await phone.post("/api/signin", json=account)).status_code == 200
            made = await laptop.post("/api/tables", json={"game": "verso", "players": 2})
            table_id = made.json()["id"]
            await laptop.post(f"/api/tables/{table_id}/bots", json={"bot": "random"})
            assert (await laptop.post(f"/api/tables/{table_id}/start")).status_code == 200
            old = await open_socket(api, table_id, cookie=laptop.cookies.get(COOKIE))
            other = await open_socket(api, table_id, cookie=phone.cookies.get(COOKIE))
            cookie = laptop.cookies.get(COOKIE)
            view = await next_message(old, "view")
            await next_message(other, "view")
            assert (await laptop.post("/api/signout")).status_code == 200
            assert await close_code(old) == 4401
            # The signed-out cookie opens only a spectator's socket, which can't act.
            again = await open_socket(api, table_id, cookie=cookie)
            try:
                seen = await next_message(again, "view")
                assert seen["seat"] is None and seen["legal"] == []
                await again.send(json.dumps({"type": "resign"}))
                assert (await next_message(again, "error"))["code"] == "not_seated"
            finally:
                await again.close()
            # The other session of the same person still plays.
            await other.send('{"type": "ping"}')
            assert (await next_message(other, "pong"))["type"] == "pong"
            await other.send(json.dumps({"type": "resign"}))
            table = await next_message(other, "table")
            await other.close()
            assert view["seat"] == 0 and table["table"]["seats"][0]["forfeit"] is not None


@pytest.mark.slow
@pytest.mark.postgres
async def test_sign_out_reaches_sockets_held_by_another_server_process() -> None:
    with postgres_database() as url, server(url, "--workers", "2", guard=False) as api:
        async with client(api) as laptop:
            account = {"name": "Ada", "password": "lovelace"}
            assert (await laptop.post("/api/signup", json=account)).status_code == 200
            made = await laptop.post("/api/tables", json={"game": "verso", "players": 2})
            table_id = made.json()["id"]
            await laptop.post(f"/api/tables/{table_id}/bots", json={"bot": "random"})
            assert (await laptop.post(f"/api/tables/{table_id}/start")).status_code == 200
            cookie = laptop.cookies.get(COOKIE)
            # Eight sockets: the kernel spreads them over both processes.
            sockets = [await open_socket(api, table_id, cookie=cookie) for _ in range(8)]
            for ws in sockets:
                assert (await next_message(ws, "view"))["seat"] == 0
            assert (await laptop.post("/api/signout")).status_code == 200
            for ws in sockets:
                # Closed at once: here by the sign-out, there when the notification arrives
                # (or at its next message, if that comes first).
                with contextlib.suppress(ConnectionClosed):
                    await ws.send(json.dumps({"type": "resign"}))
                assert await close_code(ws) == 4401
            table = (await laptop.get(f"/api/tables/{table_id}")).json()
            assert table["status"] == "playing" and table["seats"][0]["forfeit"] is None
