"""A VERSUS table played over real websockets against a real server process, for the takeback
tests (:mod:`tests.server.test_takebacks`, :mod:`tests.server.test_taken_back_retries`): one
server per database serves a module (``served``: a SQLite file, then PostgreSQL; a module
imports the three fixtures), people signed in over HTTP, and their seats' websockets."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from otherside.server.store.db import sqlite_url
from otherside.testing.servers import shared_tls
from tests.server.conftest import postgres_database
from tests.server.processes import Server, free_port

WAIT = 15.0


class Served:
    """The module's server on one database; a test that restarts it puts the new one here."""

    def __init__(self, database: str) -> None:
        self.database, self.port = database, free_port()
        self.server = Server(database, self.port)

    def restart(self) -> None:
        """A clean stop, then a new process on the same database and port."""
        self.server.stop()
        self.server = Server(self.database, self.port)


@pytest.fixture(scope="module", name="sqlite_served")
def sqlite_served_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    path: Path = tmp_path_factory.mktemp("takebacks") / "otherside.db"
    served = Served(sqlite_url(path))
    yield served
    served.server.stop()


@pytest.fixture(scope="module", name="postgres_served")
def postgres_served_fixture() -> Iterator[Served]:
    with postgres_database() as url:
        served = Served(url)
        yield served
        served.server.stop()


@pytest.fixture(
    scope="module",
    name="served",
    params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)],
)
def served_fixture(request: pytest.FixtureRequest) -> Served:
    """The module's server on a SQLite file, then on PostgreSQL."""
    found: Served = request.getfixturevalue(f"{request.param}_served")
    return found


class Seat:
    """One person's websocket at the table: what it sent and received."""

    def __init__(self, ws: websockets.ClientConnection) -> None:
        self.ws = ws

    async def next(self, kind: str) -> dict[str, Any]:
        """The next message of type ``kind`` (those of other types are passed over)."""
        while True:
            message = json.loads(await asyncio.wait_for(self.ws.recv(), WAIT))
            if message["type"] == kind:
                return message

    async def send(self, **message: Any) -> None:
        await self.ws.send(json.dumps(message))

    async def now(self) -> dict[str, Any]:
        """The view as the server holds it now (asked with ``sync``), once every message sent
        before the answer has been read (a ``ping`` after it: its ``pong`` comes last)."""
        await self.send(type="sync")
        await self.send(type="ping")
        last = None
        while (message := json.loads(await asyncio.wait_for(self.ws.recv(), WAIT)))[
            "type"
        ] != "pong":
            last = message if message["type"] == "view" else last
        assert last is not None
        return last

    async def refused(self, code: str, **message: Any) -> None:
        """``message`` is refused with ``code`` and the view stays exactly as it was."""
        before = await self.now()
        await self.send(**message)
        error = await self.next("error")
        assert error["code"] == code, (message, error)
        after = await self.now()
        for key in ("version", "view", "legal", "takeback"):
            assert after[key] == before[key], (message, key)


@asynccontextmanager
async def signed_in(
    base: str, guest: bool = True, name: str = ""
) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client of the server at ``base``, signed in as a new guest, or (not ``guest``)
    as a new account ``name``."""
    async with httpx.AsyncClient(base_url=base, timeout=WAIT, verify=shared_tls()) as http:
        if guest:
            (await http.post("/api/guest")).raise_for_status()
        else:
            made = await http.post(
                "/api/signup", json={"name": name, "password": "a long password 1"}
            )
            made.raise_for_status()
        yield http


async def versus_table(
    host: httpx.AsyncClient, other: httpx.AsyncClient | None, bot: str = ""
) -> str:
    made = await host.post("/api/tables", json={"game": "versus", "players": 2})
    assert made.status_code == 201, made.text
    table = str(made.json()["id"])
    if other is not None:
        assert (await other.post(f"/api/tables/{table}/join", json={"seat": 1})).status_code == 200
    else:
        added = await host.post(f"/api/tables/{table}/bots", json={"seat": 1, "bot": bot})
        assert added.status_code == 200, added.text
    assert (await host.post(f"/api/tables/{table}/start")).status_code == 200
    return table


async def sit(stack: AsyncExitStack, port: int, table: str, http: httpx.AsyncClient) -> Seat:
    """``http``'s person at ``table``: their websocket, closed with ``stack``."""
    cookie = http.cookies.get("otherside_session")
    ws = await stack.enter_async_context(
        websockets.connect(
            f"ws://127.0.0.1:{port}/ws/tables/{table}",
            additional_headers={"Cookie": f"otherside_session={cookie}"},
        )
    )
    return Seat(ws)


def position(message: dict[str, Any]) -> dict[str, Any]:
    """The position a view message shows, the same for both players (not whose view it is)."""
    return {k: v for k, v in message["view"].items() if k != "player"}


def board_ply(view: dict[str, Any], skip: int = 0) -> str:
    """A board ply of ``view``'s legal actions (the ``skip``-th)."""
    return [a for a in view["legal"] if ">" in a][skip]
