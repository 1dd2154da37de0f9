"""Several real server processes on loopback sharing the test PostgreSQL database: a move made
through one reaches a watcher connected to another; ``kill -9`` of the process owning a table
hands it (its bots and its clocks) to another, with no move lost or doubled; ``--workers``.

The tests of two processes share one pair for the module (a start costs seconds of CPU; each
test makes its own tables and looks only at those); a test that kills the first gets a new
first one in the next test that needs two, so a hand-over is always between exactly two."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from datetime import datetime
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text

from otherside.games import verso
from otherside.server.cluster.liveness import LivenessLock, processes_alive
from otherside.server.cluster.peers import PostgresCluster, _psycopg_url, node_name
from otherside.server.store.db import Database
from tests.server.cluster_processes import WAIT, guest, until, view_at, watch
from tests.server.conftest import postgres_database
from tests.server.processes import REQUEST_SECONDS, SRC, Server, free_port

pytestmark = pytest.mark.postgres
LATE = 20.0  # seconds a clock that ran out may take to be acted on, on a loaded machine


async def test_a_move_through_one_process_reaches_watchers_of_another(two: Any) -> None:
    _database, servers = two
    first, second = (server.port for server in servers)
    ada, ada_cookie = await guest(first)
    bob, bob_cookie = await guest(second)
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
        watch(first, table, ada_cookie) as ada_ws,
        watch(second, table, bob_cookie) as bob_ws,
        watch(second, table, "") as spectator,
    ):
        assert (await ada.post(f"/api/tables/{table}/start")).status_code == 200
        # The start, made through the first process, reaches the second one's watchers.
        await until(bob_ws, lambda m: m["type"] == "table" and m["table"]["status"] == "playing")
        await until(ada_ws, view_at(0))
        await ada_ws.send(json.dumps({"type": "action", "version": 0, "action": "flip"}))
        seen = await until(bob_ws, view_at(1))
        assert seen["legal"] and seen["seat"] == 1
        assert (await until(spectator, view_at(1)))["legal"] == []
        await bob_ws.send(json.dumps({"type": "action", "version": 1, "action": "flip"}))
        back = await until(ada_ws, view_at(2))
        assert back["legal"] and back["view"]["tableaux"][1]["cards"]
        await bob_ws.send(json.dumps({"type": "chat", "text": "hello from the other process"}))
        line = await until(ada_ws, lambda m: m["type"] == "chat")
        assert line["lines"][0]["text"] == "hello from the other process"
    await ada.aclose()
    await bob.aclose()


@pytest.mark.slow
async def test_kill_9_of_the_owner_hands_bots_and_clocks_to_another(two: Any) -> None:
    database, servers = two
    first, second = (server.port for server in servers)
    ada, cookie = await guest(first)
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
        async with watch(second, table, cookie) as ws:
            # The bots play, in the first process, until it is Ada's turn: then no bot waits
            # for an owner, only her clock (the second process loaded the table, maybe after
            # the bots' moves, with her deadline already set).
            turn = await until(ws, lambda m: m["type"] == "view" and m["legal"])
            with engine.connect() as db:
                owner = db.execute(
                    text("SELECT lease_owner FROM game_tables WHERE id = :t"), {"t": table}
                ).scalar()
            assert owner and f":{servers[0].pid}:" in owner
            servers[0].kill()  # kill -9: no goodbye, its lease simply lapses
            # Ada never moves: the second process runs her clock out when it ends (not at
            # its scheduler's next look, up to a minute later), a bot takes her seat, and the
            # bots finish the game there.
            clock = turn["clock"]
            ends, now = (datetime.fromisoformat(clock[key]) for key in ("deadline_at", "now"))
            left = (ends - now).total_seconds()
            forfeit = await until(
                ws,
                lambda m: m["type"] == "table" and m["table"]["seats"][0]["forfeit"],
                timeout=left + LATE,
            )
            assert forfeit["table"]["seats"][0]["forfeit"] == "timeout"
            end = await until(ws, lambda m: m["type"] == "view" and m["view"]["outcome"])
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


def _counts(port: int) -> dict[str, int]:
    """How the process on ``port`` followed the others' moves (its health says)."""
    with httpx.Client(timeout=REQUEST_SECONDS) as probe:
        counts: dict[str, int] = probe.get(f"http://127.0.0.1:{port}/api/health").json()["catch_up"]
    return counts


async def test_a_whole_game_across_two_processes_is_followed_without_reading_it_back(
    two: Any,
) -> None:
    _database, servers = two
    ports = [server.port for server in servers]
    ada, ada_cookie = await guest(ports[0])
    bob, bob_cookie = await guest(ports[1])
    made = await ada.post(
        "/api/tables", json={"game": "verso", "players": 2, "options": {"first_player": 0}}
    )
    table = made.json()["id"]
    assert (await bob.post(f"/api/tables/{table}/join", json={})).status_code == 200
    async with (
        watch(ports[0], table, ada_cookie) as ada_ws,
        watch(ports[1], table, bob_cookie) as bob_ws,
        watch(ports[0], table, "") as here,
        watch(ports[1], table, "") as there,
    ):
        assert (await ada.post(f"/api/tables/{table}/start")).status_code == 200
        players = [ada_ws, bob_ws]
        views = [await until(ws, view_at(0)) for ws in players]
        for ws in (here, there):
            await until(ws, view_at(0))
        before = [_counts(port) for port in ports]
        made_on = [0, 0]  # moves made through each process
        version, over = 0, False
        while not over:
            # Whoever may act plays an action of theirs.
            movers = [i for i, view in enumerate(views) if view["legal"]]
            assert len(movers) == 1, views
            mover = movers[0]
            action = views[mover]["legal"][len(views[mover]["legal"]) // 2]
            await players[mover].send(
                json.dumps({"type": "action", "version": version, "action": action})
            )
            made_on[mover] += 1
            version += 1
            views = [await until(ws, view_at(version)) for ws in players]
            # The spectators of both processes see the same game at every version: the one
            # that applied the move from its notification plays it exactly as its maker did.
            seen = [await until(ws, view_at(version)) for ws in (here, there)]
            assert seen[0]["version"] == seen[1]["version"] == version
            assert seen[0]["view"] == seen[1]["view"]
            assert seen[0]["clock"]["to_move"] == seen[1]["clock"]["to_move"]
            over = not seen[0]["clock"]["to_move"]
            assert version < 400, "the game does not end"
        after = [_counts(port) for port in ports]
    for i in (0, 1):
        other = 1 - i
        # Every move made through the other process but the last was applied from its
        # notification; the last ended the game (outcome, ratings) and was read back, once.
        assert after[i]["followed"] - before[i]["followed"] >= made_on[other] - 1, (after, made_on)
        assert after[i]["reads"] - before[i]["reads"] <= 1, (before, after)
    assert min(made_on) > 3
    await ada.aclose()
    await bob.aclose()


async def test_a_table_whose_owner_dies_plays_on_within_seconds(two: Any) -> None:
    database, servers = two
    first, second = (server.port for server in servers)
    ada, cookie = await guest(first)
    made = await ada.post(
        "/api/tables", json={"game": "verso", "players": 2, "options": {"first_player": 0}}
    )
    table = made.json()["id"]
    await ada.post(f"/api/tables/{table}/bots", json={"bot": "greedy"})
    assert (await ada.post(f"/api/tables/{table}/start")).status_code == 200
    engine = create_engine(database)
    try:
        async with watch(first, table, cookie) as here:
            # Ada's first move through the first process, the only one holding the table: it
            # takes the lease and its bot answers. (Were the table held in the second too, both
            # would reach for the lease when the bot's turn came, and either might get it.)
            mine = await until(here, lambda m: m["type"] == "view" and m["legal"])
            await here.send(
                json.dumps({"type": "action", "version": 0, "action": mine["legal"][0]})
            )
            await until(here, lambda m: m["type"] == "view" and m["legal"] and m["version"] > 0)
        async with watch(second, table, cookie) as there:
            mine = await until(there, lambda m: m["type"] == "view" and m["legal"])
            with engine.connect() as db:
                owner = db.execute(
                    text("SELECT lease_owner FROM game_tables WHERE id = :t"), {"t": table}
                ).scalar()
            assert owner and f":{servers[0].pid}:" in owner
            servers[0].kill()  # kill -9: its lease still runs for seconds
            killed = time.monotonic()
            action = {"type": "action", "version": mine["version"], "action": mine["legal"][0]}
            await there.send(json.dumps(action))
            moved = mine["version"] + 1
            # The bot answers from the second process: its lock told it at once that the
            # owner is gone, without waiting for the lease to lapse.
            await until(there, lambda m: m["type"] == "view" and m["version"] > moved)
            took = time.monotonic() - killed
        print(f"bot's next move {took:.2f} s after kill -9 of its owner")
        assert took < 4.0, took
    finally:
        engine.dispose()
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
    server = Server(database, free_port(), "--workers", "2")
    port = server.port
    try:
        # Both workers answer before the test starts (the kernel spreads connections).
        nodes: set[str] = set()
        deadline = time.monotonic() + 90
        while len(nodes) < 2 and time.monotonic() < deadline:
            with httpx.Client(timeout=REQUEST_SECONDS) as probe:
                nodes.add(probe.get(f"{server.url}/api/health").json()["node"])
        assert len(nodes) == 2, nodes
        ada, cookie = await guest(port)
        bob, bob_cookie = await guest(port)
        made = await ada.post("/api/tables", json={"game": "versus", "players": 2})
        table = made.json()["id"]
        assert (await bob.post(f"/api/tables/{table}/join", json={})).status_code == 200
        # Several connections: the kernel spreads them over the workers; each sees each move.
        async with watch(port, table, cookie) as blue, watch(port, table, bob_cookie) as brown:
            try:
                # Started through either worker, whether or not it has heard of Bob yet.
                started = await ada.post(f"/api/tables/{table}/start")
                assert started.status_code == 200, started.text
                await until(blue, view_at(0))
                await blue.send(json.dumps({"type": "action", "version": 0, "action": "0:-4>0:-3"}))
                for ws in (blue, brown):
                    assert (await until(ws, view_at(1)))["view"]["last"] == "0:-4>0:-3"
            except TimeoutError:
                pytest.fail(f"no view in time; the server said:\n{server.log()}")
        await ada.aclose()
        await bob.aclose()
    finally:
        server.kill()


async def test_a_change_that_cannot_be_acted_on_does_not_stop_the_others(database: str) -> None:
    db = Database(database)
    await asyncio.to_thread(db.migrate)
    heard: list[dict[str, Any]] = []

    async def listener(message: dict[str, Any]) -> None:
        heard.append(message)
        if message.get("table") == "broken":
            raise RuntimeError("this table cannot catch up")

    async def no_orphans(table_ids: list[str]) -> None:
        """No table waits for an owner here."""

    async def hears(table: str | None) -> None:
        while table not in [m.get("table") for m in heard]:
            await asyncio.sleep(0.05)

    listening = PostgresCluster(db, database)
    speaking = PostgresCluster(db, database)
    await listening.start(listener, no_orphans)
    try:
        await asyncio.wait_for(hears(None), WAIT)  # the resync of a new connection
        for table in ("broken", "fine"):
            await db.run(lambda s, t=table: speaking.announce(s, t, "move"))
        await asyncio.wait_for(hears("fine"), WAIT)
        # Heard on the same connection: it was not dropped (a new one would resync).
        assert [m.get("table") for m in heard] == [None, "broken", "fine"]
    finally:
        await listening.stop()
        db.close()


async def test_only_the_processes_on_this_database_are_its_peers(database: str) -> None:
    # A sign-out waits for a receipt from every other process alive: one on another database
    # of the same PostgreSQL (another site; the tests of another run) sends none, and each
    # sign-out waited its full two seconds for it.
    with postgres_database() as elsewhere:
        here, there = Database(database), Database(elsewhere)
        locks = [LivenessLock(_psycopg_url(url), node_name()) for url in (database, elsewhere)]
        try:
            for lock in locks:
                await lock.start()
            assert await here.run(processes_alive) == 1
            assert await there.run(processes_alive) == 1
        finally:
            for lock in locks:
                await lock.stop()
            here.close()
            there.close()
