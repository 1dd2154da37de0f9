"""Chat lines said now are told apart from the recent lines sent on connecting, against a real
server process over real websockets.

A page counts unread lines by this mark. Without it, the one line a partner says just after the
page's socket opened looks exactly like one recent line, and the phone page (which guessed by
the time since connecting) once in a while did not count it unread.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import websockets

from tests.security.outside import (
    client,
    database_fixture,  # noqa: F401 (the fixture "database")
    guest_table,
    next_message,
    open_socket,
    server,
)
from tests.server.conftest import sqlite_only


async def _say(ws: websockets.ClientConnection, text: str) -> None:
    await ws.send(json.dumps({"type": "chat", "text": text}))


async def _next(ws: websockets.ClientConnection, kind: str) -> dict[str, Any]:
    return await asyncio.wait_for(next_message(ws, kind), 20)


def _texts(message: dict[str, Any]) -> list[str]:
    return [line["text"] for line in message["lines"]]


@sqlite_only("database")
async def test_a_line_said_at_once_after_connecting_is_not_marked_recent(database: str) -> None:
    with server(database) as api:
        async with client(api) as ada, client(api) as bob:
            table_id = await guest_table(api, ada)
            assert (await bob.post("/api/guest")).status_code == 200
            joined = await bob.post(f"/api/tables/{table_id}/join", json={"seat": 1})
            assert joined.status_code == 200, joined.text
            ada_ws = await open_socket(api, table_id, cookie=ada.cookies.get("otherside_session"))
            try:
                await _next(ada_ws, "table")
                await _say(ada_ws, "hello")
                said = await _next(ada_ws, "chat")
                assert _texts(said) == ["hello"] and said["recent"] is False
                bob_cookie = bob.cookies.get("otherside_session")
                bob_ws = await open_socket(api, table_id, cookie=bob_cookie)
                try:
                    # One recent line, then one line said now: the same shape but for the mark.
                    recent = await _next(bob_ws, "chat")
                    assert _texts(recent) == ["hello"] and recent["recent"] is True
                    await _say(ada_ws, "I take the yellow one")
                    now = await _next(bob_ws, "chat")
                    assert _texts(now) == ["I take the yellow one"] and now["recent"] is False
                    # The speaker's own line comes back to them as said now too.
                    mine = await _next(ada_ws, "chat")
                    assert _texts(mine) == ["I take the yellow one"] and mine["recent"] is False
                finally:
                    await bob_ws.close()
                # A line said while Bob is away: on reconnecting it comes among the recent ones.
                await _say(ada_ws, "where are you?")
                await _next(ada_ws, "chat")
                again = await open_socket(api, table_id, cookie=bob_cookie)
                try:
                    back = await _next(again, "chat")
                    assert back["recent"] is True
                    assert _texts(back) == ["hello", "I take the yellow one", "where are you?"]
                finally:
                    await again.close()
            finally:
                await ada_ws.close()
