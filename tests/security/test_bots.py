"""Bots from outside: one client's bot matches must not take the machine from everyone else.

Each test runs ``otherside serve`` as a real process (one searching bot worker beside the quick
lane) and speaks to it over real sockets: searching bot tables must not hold up a greedy bot at
another table, the host cannot raise the think cap, games with bots only are limited per
account, stoppable by their host alone and ended after a number of moves, and no worker process
outlives its server — killed with ``kill -9`` or stopped with SIGTERM.

The tests that do not stop their server share one for the module, with every limit they test
(a start costs seconds of CPU; each test signs in guests of its own and looks only at their
tables). The test of the greedy bot's replies comes first, while the searching worker has
nothing else to do, and the tests that start searching games stop them when done.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from otherside.server.bots.process import MODULE, workers_of
from otherside.server.store.db import sqlite_url
from otherside.testing.servers import STARTUP_SECONDS, shared_tls
from tests.server.conftest import postgres_database
from tests.server.processes import SRC, Server, free_port

COOKIE = "otherside_session"
CAP = 4.0  # the server's think cap in these tests: what a search table's every move costs
MOVES = 6  # the moves after which a game of bots only ends


@pytest.fixture
def database(tmp_path: Path) -> str:
    return sqlite_url(tmp_path / "otherside.db")


def serve(database: str, *limits: str, workers: int = 1) -> Server:
    """The server with one searching worker and ``NAME=VALUE`` limits."""
    args = [a for limit in limits for a in ("--limit", limit)]
    return Server(database, free_port(), "--bot-workers", str(workers), *args)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The module's server: one searching worker, the think cap, at most two games of bots
    only per account, each ended after ``MOVES`` moves."""
    database = sqlite_url(tmp_path_factory.mktemp("bots") / "otherside.db")
    process = serve(
        database, f"bot_think_cap={CAP}", "all_bot_tables_per_user=2", f"all_bot_moves={MOVES}"
    )
    try:
        yield process
    finally:
        process.kill()


async def stop_all(http: httpx.AsyncClient, tables: list[str]) -> None:
    """Stop the host's games of bots only (the searching worker is free for the next test)."""
    for table_id in tables:
        (await http.post(f"/api/tables/{table_id}/stop")).raise_for_status()


async def signed_in(process: Server) -> httpx.AsyncClient:
    """A new guest's client."""
    http = httpx.AsyncClient(base_url=process.url, timeout=30, verify=shared_tls())
    (await http.post("/api/guest")).raise_for_status()
    return http


async def bots_only_table(http: httpx.AsyncClient, bot: str, start: bool = True) -> httpx.Response:
    """A VERSUS table whose host left their seat and filled both with ``bot``; the answer to
    its start (the filling starts it; ``start=False``: only the filling's answer)."""
    made = await http.post("/api/tables", json={"game": "versus", "players": 2})
    made.raise_for_status()
    table_id = made.json()["id"]
    (await http.post(f"/api/tables/{table_id}/leave")).raise_for_status()
    filled = await http.post(f"/api/tables/{table_id}/bots", json={"bot": bot})
    # Filling the last seats starts the game (a refused start answers the filling).
    if not start or filled.status_code != 200 or filled.json()["status"] == "playing":
        return filled
    return await http.post(f"/api/tables/{table_id}/start")


async def table(http: httpx.AsyncClient, table_id: str) -> dict[str, Any]:
    found = await http.get(f"/api/tables/{table_id}")
    found.raise_for_status()
    return dict(found.json())


async def next_view(ws: websockets.ClientConnection, version: int) -> dict[str, Any]:
    """The first view at ``version`` or later."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 60))
        if message["type"] == "view" and message["version"] >= version:
            return dict(message)


async def greedy_replies(process: Server, player: httpx.AsyncClient, moves: int) -> list[float]:
    """Play up to ``moves`` plies against a greedy bot at a new VERSUS table; the seconds each
    of its replies took (fewer if the game ends first)."""
    made = await player.post("/api/tables", json={"game": "versus", "players": 2})
    table_id = made.json()["id"]
    await player.post(f"/api/tables/{table_id}/bots", json={"seat": 1, "bot": "greedy"})
    (await player.post(f"/api/tables/{table_id}/start")).raise_for_status()
    cookie = f"{COOKIE}={player.cookies.get(COOKIE)}"
    url = f"ws://127.0.0.1:{process.port}/ws/tables/{table_id}"
    took: list[float] = []
    async with websockets.connect(url, additional_headers={"Cookie": cookie}) as ws:
        seen = await next_view(ws, 0)
        if seen["view"]["player"] != seen["seat"]:
            seen = await next_view(ws, 1)  # the bot opened
        for _ in range(moves):
            plies = [a for a in seen["legal"] if ">" in a]
            if not plies:
                break  # the game is over
            started = time.perf_counter()
            action = {"type": "action", "version": seen["version"], "action": plies[0]}
            await ws.send(json.dumps(action))
            seen = await next_view(ws, seen["version"] + 2)
            took.append(time.perf_counter() - started)
    return took


async def test_search_tables_do_not_hold_up_a_greedy_bot_elsewhere(server: Server) -> None:
    player = await signed_in(server)
    floods = [await signed_in(server) for _ in range(2)]
    await greedy_replies(server, player, 1)  # the workers start
    quiet = await greedy_replies(server, player, 5)
    # Two accounts, two tables each of searches at the cap: the one searching worker is busy
    # for good, every table waiting CAP seconds a move for its turn.
    for flood in floods:
        for _ in range(2):
            (await bots_only_table(flood, f"search:think={CAP:g}")).raise_for_status()
    await asyncio.sleep(1.0)
    busy = await greedy_replies(server, player, 5)
    assert len(quiet) >= 3 and len(busy) >= 3, (quiet, busy)
    bound = max(5 * statistics.median(quiet), 1.5)
    print(f"greedy reply quiet {quiet}, beside 4 search tables {busy}, bound {bound:.2f} s")
    assert max(busy) < bound, (quiet, busy)
    for flood in floods:
        await flood.aclose()
    await player.aclose()


async def test_the_host_cannot_raise_the_think_cap(server: Server) -> None:
    host = await signed_in(server)
    games = (await host.get("/api/games")).json()
    offered = [c["spec"] for g in games if g["name"] == "versus" for c in g["bot_choices"]]
    assert "search:think=2" in offered and "search:think=5" not in offered
    for bad, words in (
        ("search:think=5", f"from 0.1 to {CAP:g} s (this server's cap)"),
        ("search:think=1000", f"from 0.1 to {CAP:g} s"),
        ("search:depth=60", "no option 'depth'"),  # a factory keyword, not a table option
        ("greedy:think=1", "no option 'think'"),
    ):
        refused = await bots_only_table(host, bad, start=False)
        assert refused.status_code == 422, refused.text
        assert words in refused.json()["detail"]
    started = await bots_only_table(host, f"search:think={CAP:g}")
    assert started.status_code == 200
    await stop_all(host, [started.json()["id"]])
    await host.aclose()


async def test_games_with_bots_only_are_limited_per_account(server: Server) -> None:
    host, other = await signed_in(server), await signed_in(server)
    search = f"search:think={CAP:g}"
    # Searching bots: their games last long enough to be running at once.
    running = []
    for _ in range(2):
        started = await bots_only_table(host, search)
        assert started.status_code == 200
        running.append(started.json()["id"])
    third = await bots_only_table(host, search)
    assert third.status_code == 429
    assert "you already run 2 games with bots only" in third.json()["detail"]
    assert (await table(host, third.request.url.path.split("/")[-2]))["status"] == "waiting"
    # Another account has its own two; a game with a person seated does not count.
    theirs = await bots_only_table(other, search)
    assert theirs.status_code == 200
    made = await host.post("/api/tables", json={"game": "versus", "players": 2})
    with_me = made.json()["id"]
    await host.post(f"/api/tables/{with_me}/bots", json={"bot": "greedy"})
    assert (await host.post(f"/api/tables/{with_me}/start")).status_code == 200
    await stop_all(host, running)
    await stop_all(other, [theirs.json()["id"]])
    await host.aclose()
    await other.aclose()


async def test_the_host_stops_a_game_with_bots_only_and_nobody_else_can(server: Server) -> None:
    host, stranger = await signed_in(server), await signed_in(server)
    started = await bots_only_table(host, f"search:think={CAP:g}")
    table_id = started.json()["id"]
    refused = await stranger.post(f"/api/tables/{table_id}/stop")
    assert refused.status_code == 403 and "only the table's host" in refused.json()["detail"]
    assert (await table(host, table_id))["status"] == "playing"
    # A game with a person seated is for its players to resign or leave, not to stop.
    made = await stranger.post("/api/tables", json={"game": "versus", "players": 2})
    theirs = made.json()["id"]
    await stranger.post(f"/api/tables/{theirs}/bots", json={"bot": "greedy"})
    await stranger.post(f"/api/tables/{theirs}/start")
    assert (await stranger.post(f"/api/tables/{theirs}/stop")).status_code == 409
    stopped = await host.post(f"/api/tables/{table_id}/stop")
    assert stopped.status_code == 200, stopped.text
    info = stopped.json()
    assert info["status"] == "over" and not info["rated"]
    assert info["outcome"]["aborted"] == "stopped" and info["outcome"]["winners"] == []
    version = info["version"]
    await asyncio.sleep(CAP + 1)  # a bot mid-search would have moved by now
    assert (await table(host, table_id))["version"] == version
    assert (await host.post(f"/api/tables/{table_id}/stop")).status_code == 409
    await host.aclose()
    await stranger.aclose()


async def test_a_game_with_bots_only_ends_after_the_move_limit(server: Server) -> None:
    host = await signed_in(server)
    table_id = (await bots_only_table(host, "greedy")).json()["id"]
    deadline = time.monotonic() + 120
    while (info := await table(host, table_id))["status"] == "playing":
        assert time.monotonic() < deadline, info
        await asyncio.sleep(0.2)
    assert info["version"] == MOVES and info["outcome"]["aborted"] == "move_limit"
    assert info["outcome"]["winners"] == []
    # The limit is free again: a new game with bots only may start.
    again = await bots_only_table(host, "greedy")
    assert again.status_code == 200
    await stop_all(host, [again.json()["id"]])
    await host.aclose()


def group_members(group: int) -> list[int]:
    """Processes still running in process group ``group`` (the server's session)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[2]) == group:
            found.append(int(entry.name))
    return found


def gone_within(seconds: float, still: Any) -> list[int]:
    """Poll ``still()`` until it is empty or ``seconds`` have passed; what is left."""
    deadline = time.monotonic() + seconds
    while (left := still()) and time.monotonic() < deadline:
        time.sleep(0.1)
    return list(left)


async def _thinking(process: Server) -> tuple[list[int], set[int]]:
    """Start a game of searching bots and another of greedy ones (both kinds of worker busy);
    the worker processes' ids, and the server's process group, read in one look."""
    host = await signed_in(process)
    (await bots_only_table(host, f"search:think={CAP:g}")).raise_for_status()
    (await bots_only_table(host, "greedy")).raise_for_status()
    await host.aclose()
    # The workers and the group are read in the same look, and looked at again until they
    # agree: a worker over its cap (the searching one, on a loaded machine) is killed and
    # replaced at any time, and one that left between the two reads failed the test once.
    found: list[int] = []
    group: set[int] = set()

    def both() -> list[int]:
        found[:] = workers_of(process.pid)
        group.clear()
        group.update(group_members(process.pid))
        return [] if len(found) >= 2 and set(found) <= group else [0]

    gone_within(30, both)
    return list(found), set(group)


@pytest.mark.slow
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "sigterm"])
async def test_no_process_outlives_its_server(database: str, how: signal.Signals) -> None:
    process = serve(database, f"bot_think_cap={CAP}")
    try:
        workers, group = await _thinking(process)
        assert len(workers) == 2, workers  # the quick lane and the searching worker
        assert set(workers) <= group, (workers, group)
        os.kill(process.pid, how)  # the server alone, not its group
        process.process.wait(timeout=30)
        assert gone_within(10, lambda: workers_of(process.pid)) == []
        # Nothing else it started either (a resource tracker, a uvicorn worker).
        assert gone_within(10, lambda: group_members(process.pid)) == []
    finally:
        process.kill()


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "sigterm"])
async def test_no_process_outlives_a_server_of_two_workers(how: signal.Signals) -> None:
    with postgres_database() as url:
        process = Server(url, free_port(), "--workers", "2", "--bot-workers", "1")
        try:
            host = await signed_in(process)
            (await bots_only_table(host, f"search:think={CAP:g}")).raise_for_status()
            await host.aclose()
            # uvicorn's two workers, and the bot workers of the one that plays the table.
            found = gone_within(60, lambda: [] if _bot_workers_in(process.pid) else [0])
            assert found == [] and len(group_members(process.pid)) >= 4
            os.kill(process.pid, how)
            process.process.wait(timeout=30)
            assert gone_within(30, lambda: group_members(process.pid)) == []
        finally:
            process.kill()


WORKER_WHOSE_COMMAND_DIED = """
import json, os, sys, time
from otherside.server.app import CONFIG_ENV, app_from_environment
os.environ[CONFIG_ENV] = json.dumps({"database_url": sys.argv[1], "command_pid": int(sys.argv[2])})
app_from_environment()
time.sleep(60)
"""


def test_a_worker_whose_command_died_while_it_started_stops_at_once(tmp_path: Path) -> None:
    """A uvicorn worker of ``serve --workers N`` is told which process it ends with: one that
    reads its parent only once the command has died (and it belongs to init) must stop too,
    not watch init for ever (seen under load: a worker restarted by uvicorn, its command
    killed while it imported, served on)."""
    gone = subprocess.Popen(["true"])
    gone.wait()  # a command that has died: its id is no parent of anything
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    database = sqlite_url(tmp_path / "otherside.db")
    worker = subprocess.Popen(
        [sys.executable, "-c", WORKER_WHOSE_COMMAND_DIED, database, str(gone.pid)], env=env
    )
    try:
        # It stops itself as on SIGTERM (in a uvicorn worker: a clean shutdown), once it has
        # imported the server: seconds of CPU, which a loaded machine gives slowly.
        assert worker.wait(timeout=STARTUP_SECONDS) == -signal.SIGTERM
    finally:
        worker.kill()


def _bot_workers_in(group: int) -> list[int]:
    """The bot worker processes in process group ``group``."""
    marker = MODULE.encode()
    found = []
    for pid in group_members(group):
        with contextlib.suppress(OSError):
            if marker in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
    return found
