"""Bad input against a real server process over real sockets: bodies too large (413, without
reading them), JSON too deep (400, where it used to raise ``RecursionError``), text with control
characters (422, where NUL used to reach PostgreSQL). Each refusal is a JSON body with a stable
``code`` and changes nothing; the server goes on serving."""

from __future__ import annotations

import asyncio
import json
import time

import httpx

from tests.security.outside import (
    MIB,
    client,
    fresh,
    guest_table,
    next_message,
    open_socket,
    raw_connection,
    refusal,
    resident,
    shared_fixture,  # noqa: F401 (the fixture "shared")
)
from tests.server.processes import Server


async def test_bodies_over_the_limit_are_refused_without_being_read(shared: Server) -> None:
    api = shared  # its body_bytes: 65536, the default
    # A declared 100 MiB: refused on the headers alone.
    head = (
        b"POST /api/signup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: " + str(100 * MIB).encode() + b"\r\n\r\n"
    )
    reader, writer = await raw_connection(api.port, head)
    answer = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    assert answer.startswith(b"HTTP/1.1 413"), answer
    assert b'"code": "body_too_large"' in answer
    # A chunked body with no declared length: refused as soon as it passes the limit.
    reader, writer = await raw_connection(
        api.port,
        b"POST /api/signup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n",
    )
    chunk = b"%x\r\n%s\r\n" % (16384, b" " * 16384)
    sent = 0
    answer = b""
    deadline = time.monotonic() + 20
    try:
        while not answer and sent < 100 * MIB and time.monotonic() < deadline:
            writer.write(chunk)
            await writer.drain()
            sent += 16384
            try:
                answer = await asyncio.wait_for(reader.read(4096), 0.01)
            except TimeoutError:
                continue
    except ConnectionError:
        answer = answer or await reader.read()
    writer.close()
    assert answer.startswith(b"HTTP/1.1 413"), answer
    assert sent < 8 * MIB
    async with client(api) as http:
        over = await http.post("/api/signup", json={"name": "Ada", "password": "x" * 200_000})
        assert refusal(over, 413, "body_too_large")["params"]["limit"] == 65536
        # Three 100 MiB bodies: cut off unread (the client may see the 413 or the reset
        # of a connection closed under its feet); the server's memory stays put.
        before = resident(api.pid)
        for _ in range(3):
            try:
                huge = await http.post("/api/signup", content=b"x" * 100 * MIB)
                refusal(huge, 413, "body_too_large")
            except (httpx.WriteError, httpx.ReadError, httpx.RemoteProtocolError):
                pass
        assert resident(api.pid) < before + 30 * MIB
        assert (await http.get("/api/health")).status_code == 200
        fine = await http.post("/api/signup", json={"name": fresh("Ada"), "password": "lovelace"})
        assert fine.status_code == 200


async def test_deep_json_is_refused_on_http_and_on_the_websocket(shared: Server) -> None:
    deep = "[" * 2000 + "]" * 2000
    api, ada = shared, fresh("Ada")
    async with client(api) as http:
        table_id = await guest_table(api, http)
        listed = (await http.get("/api/tables")).json()
        for path in ("/api/signup", "/api/tables", f"/api/tables/{table_id}/bots"):
            refused = await http.post(
                path,
                content=f'{{"name": "{ada}", "options": {deep}}}',
                headers={"Content-Type": "application/json"},
            )
            assert refusal(refused, 400, "json_too_deep")["params"]["depth"] == 2001
        assert (await http.get("/api/tables")).json() == listed  # no table more
        assert (
            await http.post("/api/signin", json={"name": ada, "password": "x" * 6})
        ).status_code == 401
        ws = await open_socket(api, table_id, cookie=http.cookies.get("otherside_session"))
        try:
            await next_message(ws, "table")
            await ws.send(deep)
            error = await next_message(ws, "error")
            assert error["code"] == "malformed" and "2000 levels" in error["message"]
            # The socket is still served.
            await ws.send('{"type": "ping"}')
            assert (await next_message(ws, "pong"))["type"] == "pong"
        finally:
            await ws.close()


async def test_text_with_control_characters_is_refused_everywhere(shared: Server) -> None:
    api, ada = shared, fresh("Ada")
    async with client(api) as http:
        table_id = await guest_table(api, http)
        others = [t["id"] for t in (await http.get("/api/tables")).json() if t["id"] != table_id]
        refusals = [
            await http.post("/api/signup", json={"name": f"{ada}\u0000", "password": "lovelace"}),
            await http.post("/api/signin", json={"name": f"{ada}\u0000", "password": "lovelace"}),
            await http.post("/api/me/email", json={"email": "ada\u0000@example.org"}),
            await http.post(
                "/api/tables",
                json={"game": "verso", "players": 2, "options": {"first_player\u0007": 0}},
            ),
            await http.post(
                "/api/tables", json={"game": "verso\u0000", "players": 2, "options": {}}
            ),
            await http.post(f"/api/tables/{table_id}/bots", json={"bot": "greedy\u001b[31m"}),
            await http.post(
                "/api/signup",
                content=b'{"name": "%s\\ud800", "password": "lovelace"}' % ada.encode(),
                headers={"Content-Type": "application/json"},
            ),
            await http.get("/api/tables/abc%00def"),
            await http.get(f"/api/players/{ada}%00"),
            await http.get("/api/tables", params={"status": "over\u0000"}),
        ]
        for refused in refusals:
            body = refusal(refused, 422, "control_character")
            assert body["params"]["character"].startswith("U+")
        # Nothing changed: no account, no table, no e-mail, no bot.
        assert (await http.get("/api/me")).json()["user"]["email"] is None
        tables = (await http.get("/api/tables")).json()
        assert sorted(t["id"] for t in tables) == sorted([table_id, *others])
        (mine,) = (t for t in tables if t["id"] == table_id)
        assert all(seat["kind"] != "bot" for seat in mine["seats"])
        signin = await http.post("/api/signin", json={"name": ada, "password": "lovelace"})
        assert signin.status_code == 401
        # Chat over the websocket: refused, and no line is kept.
        ws = await open_socket(api, table_id, cookie=http.cookies.get("otherside_session"))
        try:
            await next_message(ws, "table")
            await ws.send(json.dumps({"type": "chat", "text": "hi\u0000there"}))
            error = await next_message(ws, "error")
            assert error["code"] == "malformed" and "U+0000" in error["message"]
            await ws.send(json.dumps({"type": "chat", "text": "hello"}))
            line = await next_message(ws, "chat")
            assert [each["text"] for each in line["lines"]] == ["hello"]
        finally:
            await ws.close()
        again = await open_socket(api, table_id)
        try:
            recent = await next_message(again, "chat")
            assert [each["text"] for each in recent["lines"]] == ["hello"]
        finally:
            await again.close()


async def test_json_no_parser_can_read_is_refused_with_a_code(shared: Server) -> None:
    api, ada = shared, fresh("Ada")
    async with client(api) as http:
        await http.post("/api/guest")
        before = (await http.get("/api/my/tables")).json()
        bodies = [
            # An integer of 5,000 digits: Python's parser refuses it (over 4,300).
            b'{"game": "verso", "players": ' + b"9" * 5000 + b"}",
            # Bytes that are no UTF-8.
            b'{"game": "verso\xff\xfe", "players": 2}',
        ]
        for body in bodies:
            refused = await http.post(
                "/api/tables", content=body, headers={"Content-Type": "application/json"}
            )
            # Before: 400 "There was an error parsing the body", with no code.
            refusal(refused, 400, "unreadable_json")
        signup = await http.post(
            "/api/signup",
            content=b'{"name": "%s\xc3", "password": "lovelace"}' % ada.encode(),
            headers={"Content-Type": "application/json"},
        )
        refusal(signup, 400, "unreadable_json")
        assert (await http.get("/api/my/tables")).json() == before  # no table made
        signin = await http.post("/api/signin", json={"name": ada, "password": "lovelace"})
        assert signin.status_code == 401  # no account made
