"""Several real server processes on loopback sharing the test PostgreSQL database: a move made
through one reaches a watcher connected to another; ``kill -9`` of the process owning a table
hands it (its bots and its clocks) to another, with no move lost or doubled; ``--workers``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import create_engine, text

from otherside.games import verso
from tests.server.conftest import POSTGRES_ENV, fresh_postgres_database
from tests.server.test_restart import SRC, _free_port

pytestmark = pytest.mark.postgres
WAIT = 60.0


@pytest.fixture
def database() -> Iterator[str]:
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        pytest.skip(f"{POSTGRES_ENV} is not set (scripts/test starts a throwaway PostgreSQL)")
    url, drop = fresh_postgres_database(base)
    try:
        yield url
    finally:
        drop()


def _start(database: str, port: int, *extra: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    args = [
        sys.executable,
        "-m",
        "otherside",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--database",
        database,
        "--bot-delay",
        "0.05",
        "--bot-workers",
        "1",
        "--limit",
        "guests_per_address=1000",
        *extra,
    ]
    # A session of its own, so that kill -9 takes its bot and uvicorn workers with it; its
    # log goes to a file that a failing test prints.
    log = tempfile.NamedTemporaryFile(prefix="otherside-serve-", suffix=".log", delete=False)
    process = subprocess.Popen(
        [*args, "--log-level", "info"], env=env, stdout=log, stderr=log, start_new_session=True
    )
    process.log_path = log.name  # type: ignore[attr-defined]
    return process


def _log(process: subprocess.Popen[bytes]) -> str:
    with open(process.log_path) as handle:  # type: ignore[attr-defined]
        return handle.read()[-6000:]


def _kill(process: subprocess.Popen[bytes]) -> None:
    """``kill -9`` the server and every process it started."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)


def _wait_up(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited: {_log(process)}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError("the server did not start")


@pytest.fixture
def two(database: str) -> Iterator[tuple[str, list[int], list[subprocess.Popen[bytes]]]]:
    ports = [_free_port(), _free_port()]
    processes = [_start(database, port) for port in ports]
    try:
        for port, process in zip(ports, processes, strict=True):
            _wait_up(port, process)
        yield database, ports, processes
    finally:
        for process in processes:
            _kill(process)


async def _guest(port: int) -> tuple[httpx.AsyncClient, str]:
    http = httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}")
    made = await http.post("/api/guest")
    made.raise_for_status()
    return http, f"otherside_session={http.cookies.get('otherside_session')}"


@asynccontextmanager
async def _watch(port: int, table: str, cookie: str) -> AsyncIterator[Any]:
    url = f"ws://127.0.0.1:{port}/ws/tables/{table}"
    async with websockets.connect(url, additional_headers={"Cookie": cookie}) as ws:
        yield ws


async def _until(ws: Any, wanted: Any, timeout: float = WAIT) -> dict[str, Any]:
    """The first message ``wanted(message)`` accepts."""

    async def scan() -> dict[str, Any]:
        async for raw in ws:
            message = json.loads(raw)
            if wanted(message):
                return message
        raise AssertionError("the connection closed")

    return await asyncio.wait_for(scan(), timeout)


def _view_at(version: int) -> Any:
    return lambda m: m["type"] == "view" and m["version"] >= version


async def test_a_move_through_one_process_reaches_watchers_of_another(two: Any) -> None:
    _database, (first, second), _ = two
    ada, ada_cookie = await _guest(first)
    bob, bob_cookie = await _guest(second)
    made = await ada.post(
        "/api/tables",
        json={
            "game": "verso",
            "players": 2,
            "options": {"first_player": 0},
        },
    )
    table = made.json()["id"]
    assert (await bob.post(f"/api/tables/{table}/join", json={})).status_code == 200
    async with (
        _watch(first, table, ada_cookie) as ada_ws,
        _watch(second, table, bob_cookie) as bob_ws,
        _watch(second, table, "") as spectator,
    ):
        assert (await ada.post(f"/api/tables/{table}/start")).status_code == 200
        # The start, made through the first process, reaches the second one's watchers.
        await _until(bob_ws, lambda m: m["type"] == "table" and m["table"]["status"] == "playing")
        await _until(ada_ws, _view_at(0))
        await ada_ws.send(json.dumps({"type": "action", "version": 0, "action": "flip"}))
        seen = await _until(bob_ws, _view_at(1))
        assert seen["legal"] and seen["seat"] == 1
        assert (await _until(spectator, _view_at(1)))["legal"] == []
        await bob_ws.send(json.dumps({"type": "action", "version": 1, "action": "flip"}))
        back = await _until(ada_ws, _view_at(2))
        assert back["legal"] and back["view"]["tableaux"][1]["cards"]
        await bob_ws.send(json.dumps({"type": "chat", "text": "hello from the other process"}))
        line = await _until(ada_ws, lambda m: m["type"] == "chat")
        assert line["lines"][0]["text"] == "hello from the other process"
    await ada.aclose()
    await bob.aclose()


async def test_kill_9_of_the_owner_hands_bots_and_clocks_to_another(two: Any) -> None:
    database, (first, second), processes = two
    ada, cookie = await _guest(first)
    made = await ada.post(
        "/api/tables",
        json={
            "game": "verso",
            "players": 3,
            "options": {"first_player": 1},
            "pace": {"kind": "live", "minutes": 0.25, "increment": 0},
        },
    )
    table = made.json()["id"]
    await ada.post(f"/api/tables/{table}/bots", json={"bot": "greedy"})
    assert (await ada.post(f"/api/tables/{table}/start")).status_code == 200
    engine = create_engine(database)
    try:
        async with _watch(second, table, cookie) as ws:
            await _until(ws, _view_at(1))  # the bots play, in the first process
            with engine.connect() as db:
                owner = db.execute(
                    text("SELECT lease_owner FROM game_tables WHERE id = :t"), {"t": table}
                ).scalar()
            assert owner and f":{processes[0].pid}:" in owner
            _kill(processes[0])  # kill -9: no goodbye, its lease simply lapses
            # Ada never moves: the second process runs her clock out, a bot takes her seat,
            # and the bots finish the game there.
            forfeit = await _until(
                ws, lambda m: m["type"] == "table" and m["table"]["seats"][0]["forfeit"]
            )
            assert forfeit["table"]["seats"][0]["forfeit"] == "timeout"
            end = await _until(ws, lambda m: m["type"] == "view" and m["view"]["outcome"])
        with engine.connect() as db:
            numbers = [
                row[0]
                for row in db.execute(
                    text("SELECT number FROM moves WHERE table_id = :t ORDER BY number"),
                    {"t": table},
                )
            ]
            owner = db.execute(
                text("SELECT lease_owner FROM game_tables WHERE id = :t"), {"t": table}
            ).scalar()
        assert numbers == list(range(1, end["version"] + 1))  # nothing lost, nothing twice
        assert owner is None  # handed back when the game ended
    finally:
        engine.dispose()
    record = (await ada.get(f"http://127.0.0.1:{second}/api/tables/{table}/record")).json()
    replayed = verso.replay(record)
    assert replayed.is_over and list(replayed.scores) == end["view"]["outcome"]["scores"]
    await ada.aclose()


def test_several_workers_need_postgresql(tmp_path: Any) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "otherside",
            "serve",
            "--workers",
            "2",
            "--database",
            f"sqlite:///{tmp_path / 'x.db'}",
        ],
        env={**os.environ, "PYTHONPATH": str(SRC)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "SQLite is served by one process" in done.stderr


async def test_workers_share_one_port(database: str) -> None:
    port = _free_port()
    process = _start(database, port, "--workers", "2")
    try:
        _wait_up(port, process)
        # Both workers answer before the test starts (the kernel spreads connections).
        nodes: set[str] = set()
        deadline = time.monotonic() + 90
        while len(nodes) < 2 and time.monotonic() < deadline:
            with httpx.Client() as probe:
                nodes.add(probe.get(f"http://127.0.0.1:{port}/api/health").json()["node"])
        assert len(nodes) == 2, nodes
        ada, cookie = await _guest(port)
        bob, bob_cookie = await _guest(port)
        made = await ada.post("/api/tables", json={"game": "versus", "players": 2})
        table = made.json()["id"]
        await bob.post(f"/api/tables/{table}/join", json={})
        # Several connections: the kernel spreads them over the workers; each sees each move.
        async with _watch(port, table, cookie) as blue, _watch(port, table, bob_cookie) as brown:
            watchers = [blue, brown]
            try:
                await ada.post(f"/api/tables/{table}/start")
                await _until(blue, _view_at(0))
                await blue.send(json.dumps({"type": "action", "version": 0, "action": "0:-4>0:-3"}))
                for ws in watchers:
                    assert (await _until(ws, _view_at(1)))["view"]["last"] == "0:-4>0:-3"
            except TimeoutError:
                pytest.fail(f"no view in time; the server said:\n{_log(process)}")
        await ada.aclose()
        await bob.aclose()
    finally:
        _kill(process)
