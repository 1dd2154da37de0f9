"""``kill -9`` during a saturated load loses no acknowledged move: a real server process, a few
dozen tables of two guests playing as fast as the server answers over websockets, killed
mid-flight, then started again on the same SQLite file. Every move a player saw acknowledged
(the view of its version reached it) is a stored row, and the restarted server replays each
table to at least that version."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sqlite3
from pathlib import Path

import httpx
import websockets

from otherside.testing.servers import LIFTED_GUARDS, REQUEST_SECONDS, ServerProcess

# Every player of the load comes from one address: its per-address connection caps lifted.
LIFTED = [arg for guard in LIFTED_GUARDS for arg in ("--guard", guard)]

TABLES = 24
MOVES_EACH = 6  # acknowledged moves every table has made before the kill
LOAD_LIMIT = 60.0  # seconds for the load to reach that on a slow machine

Acknowledged = tuple[str, int, str]  # (table, version the move made, action)


async def _seat(url: str, cookie: str, table_id: str, rng: random.Random, out: list) -> None:
    """Play one seat at once whenever it may, recording each move acknowledged to it."""
    sent: tuple[int, str] | None = None
    async with websockets.connect(
        f"{url.replace('http', 'ws', 1)}/ws/tables/{table_id}",
        additional_headers={"Cookie": f"otherside_session={cookie}"},
        origin=websockets.Origin(url),
        open_timeout=REQUEST_SECONDS,  # the server is saturated by the load
    ) as ws:
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] != "view":
                continue
            version = message["version"]
            if sent is not None and version > sent[0]:
                out.append((table_id, sent[0] + 1, sent[1]))
                sent = None
            if message["view"].get("outcome") is not None:
                return
            if message["legal"] and sent is None:
                action = rng.choice(message["legal"])
                sent = (version, action)
                await ws.send(json.dumps({"type": "action", "version": version, "action": action}))


async def _pair(url: str, slot: int, out: list[Acknowledged], tables: set[str]) -> None:
    """Two guests playing one table after another until cancelled (or the server dies)."""
    rng = random.Random(slot)
    async with (
        httpx.AsyncClient(base_url=url, timeout=REQUEST_SECONDS) as host,
        httpx.AsyncClient(base_url=url, timeout=REQUEST_SECONDS) as guest,
    ):
        for client in (host, guest):
            (await client.post("/api/guest")).raise_for_status()
        cookies = [c.cookies.get("otherside_session") for c in (host, guest)]
        while True:
            made = await host.post("/api/tables", json={"game": "verso", "players": 2})
            table_id = made.json()["id"]
            tables.add(table_id)
            (await guest.post(f"/api/tables/{table_id}/join", json={})).raise_for_status()
            (await host.post(f"/api/tables/{table_id}/start")).raise_for_status()
            await asyncio.gather(*(_seat(url, c, table_id, rng, out) for c in cookies))


def _going(acknowledged: list[Acknowledged]) -> bool:
    """Every pair's table has moves acknowledged, ``MOVES_EACH`` a table on average."""
    tables = {table for table, _version, _action in acknowledged}
    return len(tables) >= TABLES and len(acknowledged) >= MOVES_EACH * TABLES


def _failed(pairs: list[asyncio.Task[None]]) -> list[BaseException]:
    """What the pairs that stopped on their own raised (none should before the kill)."""
    return [e for task in pairs if task.done() and (e := task.exception()) is not None]


async def _version_served(url: str, cookie: str, table_id: str) -> int:
    async with websockets.connect(
        f"{url.replace('http', 'ws', 1)}/ws/tables/{table_id}",
        additional_headers={"Cookie": f"otherside_session={cookie}"},
        origin=websockets.Origin(url),
        open_timeout=REQUEST_SECONDS,  # the server is saturated by the load
    ) as ws:
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] == "view":
                return int(message["version"])
    raise AssertionError(f"no view of table {table_id}")


async def test_kill_minus_9_under_load_loses_no_acknowledged_move(tmp_path: Path) -> None:
    database = tmp_path / "durable.db"
    url = f"sqlite:///{database}"
    server = ServerProcess(url, None, "--bot-workers", "0", *LIFTED)
    acknowledged: list[Acknowledged] = []
    tables: set[str] = set()
    try:
        pairs = [
            asyncio.create_task(_pair(server.url, slot, acknowledged, tables))
            for slot in range(TABLES)
        ]
        # Played until every table has a few moves acknowledged (a loaded machine is slow to
        # open them all), then killed right after an acknowledgement: in the thick of it.
        deadline = asyncio.get_running_loop().time() + LOAD_LIMIT
        while not _going(acknowledged) and not _failed(pairs):
            assert asyncio.get_running_loop().time() < deadline, "the load never got going"
            await asyncio.sleep(0.05)
        seen = len(acknowledged)
        while len(acknowledged) == seen and not _failed(pairs):
            await asyncio.sleep(0)
        server.kill()
        for task in pairs:
            task.cancel()
        failed = _failed(pairs)
        await asyncio.gather(*pairs, return_exceptions=True)
        assert failed == []
        assert len({table for table, _, _ in acknowledged}) >= TABLES
        with contextlib.closing(sqlite3.connect(database)) as connection:
            stored = {
                (table, number): action
                for table, number, action in connection.execute(
                    "SELECT table_id, number, action FROM moves"
                )
            }
        lost = [move for move in acknowledged if stored.get(move[:2]) != move[2]]
        assert lost == []

        server = ServerProcess(url, server.port, "--bot-workers", "0", *LIFTED)
        highest: dict[str, int] = {}
        for table, version, _action in acknowledged:
            highest[table] = max(highest.get(table, 0), version)
        async with httpx.AsyncClient(base_url=server.url, timeout=REQUEST_SECONDS) as watcher:
            (await watcher.post("/api/guest")).raise_for_status()
            cookie = str(watcher.cookies.get("otherside_session"))
            served = await asyncio.gather(
                *(_version_served(server.url, cookie, table) for table in highest)
            )
        behind = {
            table: (version, seen)
            for (table, version), seen in zip(highest.items(), served, strict=True)
            if seen < version
        }
        assert behind == {}
    finally:
        server.kill()
