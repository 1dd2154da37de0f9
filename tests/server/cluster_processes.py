"""Several real server processes on one PostgreSQL database, and people connected to a chosen
one of them, for the tests of the cluster (:mod:`tests.server.test_cluster`,
:mod:`tests.server.test_cluster_presence`, :mod:`tests.server.test_cluster_away_marks`):
:func:`started` starts them, :func:`guest` signs a guest in through one, :func:`watch` opens a
table's websocket there (:func:`until` waits for a message on it), :func:`heard` keeps every
message of one (read in the background: the server never waits for this client);
:func:`partners_table` makes a Recto Verso table of two, :func:`connected` counts who the
processes wrote is connected to it. The pair of
processes a module shares (``pair``, ``two``) is in :mod:`tests.server.conftest`."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import httpx
import websockets
from sqlalchemy import create_engine, text

from tests.server.processes import REQUEST_SECONDS, Server, free_port

WAIT = 60.0  # seconds a message may take on a loaded machine
Wanted = Callable[[dict[str, Any]], Any]


def started(database: str, count: int, *extra: str) -> list[Server]:
    """``count`` server processes on ``database`` (``extra``: more arguments of ``serve``),
    started side by side and up."""
    servers = [
        Server(database, free_port(), "--bot-workers", "1", *extra, bot_delay=0.05, wait=False)
        for _ in range(count)
    ]
    for server in servers:
        server.wait_up()
    return servers


async def guest(port: int) -> tuple[httpx.AsyncClient, str]:
    """A new guest signed in through the process on ``port``: their client, and their cookie
    as a websocket's header gives it."""
    http = httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=REQUEST_SECONDS)
    (await http.post("/api/guest")).raise_for_status()
    return http, f"otherside_session={http.cookies.get('otherside_session')}"


@asynccontextmanager
async def watch(port: int, table: str, cookie: str) -> AsyncIterator[Any]:
    """The websocket of ``table`` through the process on ``port`` (``cookie``: whose; empty
    for a spectator)."""
    url = f"ws://127.0.0.1:{port}/ws/tables/{table}"
    async with websockets.connect(url, additional_headers={"Cookie": cookie}) as ws:
        yield ws


async def until(ws: Any, wanted: Wanted, timeout: float = WAIT) -> dict[str, Any]:
    """The first message ``wanted(message)`` accepts."""

    async def scan() -> dict[str, Any]:
        async for raw in ws:
            message = json.loads(raw)
            if wanted(message):
                return message
        raise AssertionError("the connection closed")

    return await asyncio.wait_for(scan(), timeout)


async def partners_table(host: httpx.AsyncClient, partner: httpx.AsyncClient) -> str:
    """A Recto Verso table of two people (``host`` in seat 0, ``partner`` in seat 1), in play."""
    made = await host.post(
        "/api/tables",
        json={"game": "rectoverso", "players": 2, "options": {"difficulty": "easy"}},
    )
    assert made.status_code == 201, made.text
    table = str(made.json()["id"])
    assert (await partner.post(f"/api/tables/{table}/join", json={})).status_code == 200
    assert (await host.post(f"/api/tables/{table}/start")).status_code == 200
    return table


def scalar(database: str, query: str, **params: Any) -> Any:
    """The one value ``query`` reads from ``database``."""
    engine = create_engine(database)
    try:
        with engine.connect() as db:
            return db.execute(text(query), params).scalar()
    finally:
        engine.dispose()


def connected(database: str, table: str) -> int:
    """How many players some process has written are connected to ``table``."""
    here = "SELECT count(*) FROM table_presence WHERE table_id = :t AND here"
    return int(scalar(database, here, t=table))


def view_at(version: int) -> Wanted:
    """A ``view`` at ``version`` or later."""
    return lambda m: m["type"] == "view" and m["version"] >= version


class Heard:
    """Every message of a websocket, in order (:func:`heard`)."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.messages: list[dict[str, Any]] = []
        self.read_to = 0  # how many messages :meth:`until` went through to the last it found
        self._more = asyncio.Event()

    async def read_on(self) -> None:
        """Keep what comes until the connection closes."""
        async for raw in self.ws:
            self.messages.append(json.loads(raw))
            self._more.set()

    async def until(self, wanted: Wanted, since: int = 0, timeout: float = WAIT) -> dict[str, Any]:
        """The first message from number ``since`` on that ``wanted`` accepts, waiting for it."""

        async def scan() -> dict[str, Any]:
            looked = since
            while True:
                for number, message in enumerate(self.messages[looked:], looked):
                    if wanted(message):
                        self.read_to = number + 1
                        return message
                looked = max(looked, len(self.messages))
                self._more.clear()
                await self._more.wait()

        return await asyncio.wait_for(scan(), timeout)


@asynccontextmanager
async def heard(port: int, table: str, cookie: str) -> AsyncIterator[Heard]:
    """:func:`watch`, each message kept as it comes."""
    async with watch(port, table, cookie) as ws:
        kept = Heard(ws)
        reader = asyncio.create_task(kept.read_on())
        try:
            yield kept
        finally:
            reader.cancel()
