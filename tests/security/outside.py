"""Attacking a real server process from outside: the server started with a small descriptor
limit (``RLIMIT_NOFILE``, inherited from this process while it starts), and clients that come
from chosen loopback addresses (all of 127.0.0.0/8 is this machine), so that an attacker and an
honest player are different addresses as they would be on the internet."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import resource
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from otherside.server.store.db import sqlite_url
from otherside.testing.servers import shared_tls
from tests.server.conftest import postgres_database
from tests.server.processes import KEEP_IDLE_SECONDS, REQUEST_SECONDS, Server, free_port

HONEST = "127.0.0.1"
ATTACKER = "127.0.0.2"
COOKIE = "otherside_session"
MIB = 1 << 20


@pytest.fixture(
    name="database", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
def database_fixture(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """``database``: a fresh, empty database for a server process: a SQLite file, then
    PostgreSQL (import this into a test module to use it)."""
    if request.param == "sqlite":
        yield sqlite_url(tmp_path / "otherside.db")
        return
    with postgres_database() as url:
        yield url


@pytest.fixture(
    name="shared",
    scope="module",
    params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)],
)
def shared_fixture(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """``shared``: one server as :func:`server` starts it (its default guards), on a SQLite
    file, then on PostgreSQL, for all the tests of a module that need no settings of their own
    (import this into a test module to use it). Each test makes its own accounts (named with
    :func:`fresh`) and tables, and looks only at those: starting a server costs some seconds of
    CPU, a test on a fresh one proves nothing more."""
    if request.param == "sqlite":
        with server(sqlite_url(tmp_path_factory.mktemp("shared") / "otherside.db")) as api:
            yield api
        return
    with postgres_database() as url, server(url) as api:
        yield api


_NUMBERS = itertools.count(1)


def fresh(name: str) -> str:
    """``name`` with a number of its own: the tests on a :func:`shared_fixture` server sign
    up accounts that no other test has (names are unique on a server)."""
    return f"{name}{next(_NUMBERS)}"


@contextlib.contextmanager
def server(
    database: str, *settings: str, descriptors: int = 256, guard: bool = True
) -> Iterator[Server]:
    """``otherside serve`` with ``--guard`` settings ``settings`` (other arguments when not
    ``guard``) and at most ``descriptors`` open files, stopped after the block."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    args = [arg for item in settings for arg in ("--guard", item)] if guard else list(settings)
    resource.setrlimit(resource.RLIMIT_NOFILE, (descriptors, hard))
    try:
        process = Server(database, free_port(), *args, wait=False)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    try:
        process.wait_up()
        yield process
    finally:
        process.kill()


CLIENT_LIMITS = httpx.Limits(
    max_connections=32, max_keepalive_connections=32, keepalive_expiry=KEEP_IDLE_SECONDS
)
"""A client's connections: half its address's share (64), so that connections it closed and
the loaded server has not yet seen end leave room for new ones; idle ones are dropped before
the server's keep-alive ends them."""


def client(process: Server, address: str = HONEST, **kwargs: Any) -> httpx.AsyncClient:
    """An HTTP client of ``process`` coming from ``address``."""
    # The pool's limits are the transport's: httpx ignores a client's ``limits`` once it is
    # given a transport (the client then opened up to 100 connections, past the address's
    # share of 64, and kept idle ones 5 s, as long as the server does).
    limits = kwargs.pop("limits", CLIENT_LIMITS)
    transport = httpx.AsyncHTTPTransport(local_address=address, limits=limits, verify=shared_tls())
    kwargs.setdefault("timeout", REQUEST_SECONDS)
    return httpx.AsyncClient(base_url=process.url, transport=transport, **kwargs)


async def guest_table(process: Server, http: httpx.AsyncClient) -> str:
    """Sign ``http`` in as a guest and open a two-player Verso table; its id."""
    (await http.post("/api/guest")).raise_for_status()
    made = await http.post("/api/tables", json={"game": "verso", "players": 2})
    made.raise_for_status()
    return str(made.json()["id"])


def socket_url(process: Server, table_id: str) -> str:
    """The websocket address of a table."""
    return f"ws://127.0.0.1:{process.port}/ws/tables/{table_id}"


async def open_socket(
    process: Server, table_id: str, address: str = HONEST, cookie: str | None = None
) -> websockets.ClientConnection:
    """A table websocket from ``address`` (signed in with ``cookie``, if given)."""
    headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie else None
    return await websockets.connect(
        socket_url(process, table_id),
        additional_headers=headers,
        local_addr=(address, 0),
        open_timeout=20,
    )


async def close_code(ws: websockets.ClientConnection, within: float = 15) -> int | None:
    """Read ``ws`` until the server closes it (within ``within`` seconds); the close code it
    sent (``None``: no close frame)."""
    with pytest.raises(websockets.ConnectionClosed) as closed:
        async with asyncio.timeout(within):
            while True:
                await ws.recv()
    return closed.value.rcvd.code if closed.value.rcvd is not None else None


async def next_message(ws: websockets.ClientConnection, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` on ``ws``."""
    while True:
        message: dict[str, Any] = json.loads(await ws.recv())
        if message["type"] == kind:
            return message


async def play_to_the_end(ws: websockets.ClientConnection) -> int:
    """Play the first legal action whenever the socket's seat may act, until the game is over;
    how many actions it played."""
    played = 0
    while True:
        message: dict[str, Any] = json.loads(await ws.recv())
        if message["type"] == "table" and message["table"]["status"] == "over":
            return played
        if message["type"] == "view" and message["legal"]:
            action = {
                "type": "action",
                "version": message["version"],
                "action": message["legal"][0],
            }
            await ws.send(json.dumps(action))
            played += 1


def resident(pid: int) -> int:
    """The resident memory of process ``pid``, in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no VmRSS for {pid}")


async def raw_connection(
    port: int, head: bytes
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A plain TCP connection to the server on ``port`` that has sent ``head`` (bytes no HTTP
    client would send)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(head)
    await writer.drain()
    return reader, writer


def bearer(token: str) -> dict[str, str]:
    """The header that signs a request in with ``token``."""
    return {"Authorization": f"Bearer {token}"}


def refusal(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """The JSON body of a refusal, checked: status, stable code, words, no trace."""
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert body["code"] == code and body["detail"], body
    assert "Traceback" not in response.text and "psycopg" not in response.text
    return body
