"""Floods from one client against a real server process over real sockets: a thousand
websockets, a thousand slow-header connections, a replay flood. Each must leave another
client's requests served, and be refused with a clear answer (a 4xx/503 JSON body, or a socket
closed with 1013) — the server started with 256 descriptors and small caps so that the tests
stay fast."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from pathlib import Path

import pytest
import websockets
from websockets.exceptions import ConnectionClosed, InvalidMessage, InvalidStatus

from otherside.server.store.db import sqlite_url
from tests.security.outside import (
    ATTACKER,
    client,
    database_fixture,  # noqa: F401 (the fixture "database")
    guest_table,
    next_message,
    open_socket,
    play_to_the_end,
    server,
)
from tests.server.conftest import sqlite_only
from tests.server.processes import Server

FLOOD = 1000


async def _hold(
    process: Server, table_id: str, address: str, held: list[websockets.ClientConnection]
) -> str:
    """Open one websocket and keep it if the server lets it watch; how it ended."""
    try:
        ws = await open_socket(process, table_id, address)
    except InvalidStatus as refused:
        return f"http {refused.response.status_code}"
    except InvalidMessage:
        # Cut off before its handshake was read (a loaded machine: the request timeout).
        return "cut off"
    except (OSError, TimeoutError):
        return "connect failed"
    try:
        await next_message(ws, "table")
    except ConnectionClosed as closed:
        return f"closed {closed.rcvd.code if closed.rcvd else None}"
    held.append(ws)
    return "held"


async def _served(process: Server, table_id: str, socket: bool = True) -> None:
    """The honest client's requests all succeed, and (``socket``) its websocket gets the
    table."""
    async with client(process) as honest:
        for _ in range(20):
            assert (await honest.get("/api/tables")).status_code == 200
            assert (await honest.get(f"/api/tables/{table_id}")).status_code == 200
    if not socket:
        return
    ws = await open_socket(process, table_id)
    try:
        assert (await next_message(ws, "table"))["table"]["id"] == table_id
    finally:
        await ws.close()


@sqlite_only("database")
async def test_a_thousand_websockets_from_one_address_leave_others_served(
    database: str,
) -> None:
    # A long request timeout: on a loaded machine the handshakes queue behind the flood's.
    guards = ("websockets_per_address=20", "connections_per_address=40", "request_seconds=60")
    with server(database, *guards) as api:
        async with client(api) as host:
            table_id = await guest_table(api, host)
        held: list[websockets.ClientConnection] = []
        outcomes = Counter(
            await asyncio.gather(*(_hold(api, table_id, ATTACKER, held) for _ in range(FLOOD)))
        )
        try:
            assert outcomes["held"] == 20, outcomes
            # The rest were turned away clearly: over the socket cap (1013) or, while too many
            # of its connections were open at once, before HTTP (503).
            refused = outcomes["closed 1013"] + outcomes["http 503"] + outcomes["cut off"]
            assert refused == FLOOD - 20, outcomes
            assert outcomes["closed 1013"] > 0, outcomes
            await _served(api, table_id)
        finally:
            await asyncio.gather(*(ws.close() for ws in held))


@sqlite_only("database")
async def test_sockets_from_many_addresses_stop_below_the_descriptor_limit(
    database: str,
) -> None:
    # 256 descriptors: 192 connections, of which 144 websockets; 30 addresses ask for 300.
    with server(database, "websockets_per_address=20", "request_seconds=60") as api:
        async with client(api) as host:
            table_id = await guest_table(api, host)
        held: list[websockets.ClientConnection] = []
        attackers = [f"127.0.0.{10 + n}" for n in range(30)]
        outcomes = Counter(
            await asyncio.gather(
                *(_hold(api, table_id, address, held) for address in attackers for _ in range(10))
            )
        )
        try:
            assert outcomes["held"] == 144, outcomes
            # The rest: over the socket cap (1013), or over the connections while others were
            # still being turned away (503).
            refused = outcomes["closed 1013"] + outcomes["http 503"] + outcomes["cut off"]
            assert refused == 300 - 144, outcomes
            # Full of sockets, the server still answers requests, and says it is full.
            await _served(api, table_id, socket=False)
            full = await open_socket(api, table_id)
            with pytest.raises(ConnectionClosed) as closed:
                await next_message(full, "table")
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
            assert "full" in closed.value.rcvd.reason
        finally:
            await asyncio.gather(*(ws.close() for ws in held))
        # Their sockets closed, room again.
        await asyncio.sleep(0.5)
        await _served(api, table_id)


async def _slow_loris(port: int, started: float) -> tuple[str, float]:
    """A request whose headers come one byte a second; how it ended and when."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(ATTACKER, 0))
    except OSError:
        return "connect failed", time.monotonic() - started
    answer = b""
    try:
        writer.write(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        for _ in range(30):
            try:
                data = await asyncio.wait_for(reader.read(4096), 1.0)
            except TimeoutError:
                writer.write(b"a")
                continue
            if not data:
                break
            answer += data
        else:
            return "still open", time.monotonic() - started
    except (ConnectionError, OSError):
        pass
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()
    status = answer.split(b" ", 2)[1].decode() if answer else "cut off"
    return status, time.monotonic() - started


async def test_a_thousand_slow_header_connections_are_cut_off(tmp_path: Path) -> None:
    """On SQLite only: a request that never finishes its headers is cut off by the connection
    guard before any route, and so before the database, is reached (the honest client's few
    reads are what every other test of both databases makes)."""
    database = sqlite_url(tmp_path / "otherside.db")
    with server(database, "request_seconds=2", "connections_per_address=40") as api:
        async with client(api) as host:
            table_id = await guest_table(api, host)
        started = time.monotonic()
        flood = asyncio.gather(*(_slow_loris(api.port, started) for _ in range(FLOOD)))
        await asyncio.sleep(1)
        await _served(api, table_id)
        ends = await flood
        outcomes = Counter(status for status, _ in ends)
        # 40 at a time were let in and cut off after 2 s without an answer (more than 40 in
        # all when the flood took longer than that to open); the rest refused at once.
        assert set(outcomes) == {"cut off", "503"}, outcomes
        assert 40 <= outcomes["cut off"] < FLOOD / 2, outcomes
        assert max(at for _, at in ends) < 25


@sqlite_only("database")
async def test_finished_replays_are_throttled_per_address(
    database: str,
) -> None:
    with server(database, "replays_per_minute=20") as api:
        async with client(api) as host:
            table_id = await guest_table(api, host)
            await host.post(f"/api/tables/{table_id}/bots", json={"bot": "random"})
            (await host.post(f"/api/tables/{table_id}/start")).raise_for_status()
            ws = await open_socket(api, table_id, cookie=host.cookies.get("otherside_session"))
            await play_to_the_end(ws)
            await ws.close()
            first = await host.get(f"/api/tables/{table_id}/replay")
            assert first.status_code == 200 and len(first.json()["steps"]) > 20
            for _ in range(9):
                again = await host.get(f"/api/tables/{table_id}/replay")
                assert again.json()["steps"] == first.json()["steps"]
        async with client(api, ATTACKER) as attacker:
            answers = [
                await attacker.get(f"/api/tables/{table_id}/{route}")
                for route in ("replay", "history", "record") * 10
            ]
        statuses = Counter(answer.status_code for answer in answers)
        assert statuses == {200: 20, 429: 10}, statuses
        refused = answers[-1]
        assert int(refused.headers["Retry-After"]) > 0
        assert refused.json()["detail"].startswith("too many replays")
        async with client(api) as host:
            assert (await host.get(f"/api/tables/{table_id}/replay")).status_code == 200
            assert (await host.get("/api/tables")).status_code == 200
