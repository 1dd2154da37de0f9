"""Presence across real server processes on the test PostgreSQL database: a player connected
to a table through one process is not "away" for another (Recto Verso's play-on, an event's
absentees), and one gone from every process is, as before; a process stopped with SIGSTOP
(frozen, its database connections open) is seen gone within the liveness bound.

The processes run on the system clock (they are real processes), with ``away_seconds`` lowered
so that an absence is reached in a few seconds; the tests wait for what the processes do with
:func:`eventually`, never for a fixed time."""

from __future__ import annotations

import os
import signal
import time
from datetime import datetime

import httpx
import pytest

from otherside.server.cluster.liveness import VANISHED_SECONDS
from tests.server.cluster_processes import connected, guest, heard, partners_table, scalar, started
from tests.server.conftest import eventually
from tests.server.processes import REQUEST_SECONDS, Server

pytestmark = pytest.mark.postgres
AWAY = 3.0  # the processes' away_seconds
LATE = 10.0  # seconds a loaded machine may add to a bound (start-ups, scheduling)


def _started(database: str, count: int) -> list[Server]:
    return started(database, count, "--limit", f"away_seconds={AWAY:g}")


def _play_on(port: int, cookie: str, table: str) -> httpx.Response:
    with httpx.Client(timeout=REQUEST_SECONDS, headers={"Cookie": cookie}) as http:
        return http.post(f"http://127.0.0.1:{port}/api/tables/{table}/play-on", json={"seat": 1})


async def test_a_partner_connected_through_another_process_is_not_played_on_for(
    database: str,
) -> None:
    servers = _started(database, 2)
    try:
        first, second = (server.port for server in servers)
        ada, ada_cookie = await guest(first)
        bob, bob_cookie = await guest(second)
        # Two tables of the same pair, both made through the first process: at ``present``
        # Bob is connected through the second, at ``absent`` nowhere.
        present = await partners_table(ada, bob)
        absent = await partners_table(ada, bob)
        async with (
            heard(first, present, ada_cookie),
            heard(first, absent, ada_cookie),
            heard(second, present, bob_cookie) as bob_ws,
        ):
            await eventually(lambda: connected(database, present) == 2)  # Ada and Bob
            # Bob never came to ``absent``: once he has been away long enough there (made
            # later than ``present``, so just as long at least), Ada plays on for him.
            tries: list[httpx.Response] = []
            await eventually(
                lambda: (
                    tries.append(_play_on(first, ada_cookie, absent))
                    or tries[-1].status_code == 200
                ),
                within=AWAY + 60,
            )
            assert {r.json()["code"] for r in tries[:-1]} <= {"not_away"}, tries
            assert tries[-1].json()["seats"][1]["forfeit"] == "away"
            # At ``present`` he is connected, through the other process: not away.
            kept = _play_on(first, ada_cookie, present)
            assert kept.status_code == 409 and kept.json()["code"] == "not_away", kept.text
            closed = time.monotonic()
            await bob_ws.ws.close()
            await eventually(lambda: connected(database, present) == 1)  # Ada
            # Gone from both processes now: played on for once away long enough, counted
            # from when he left the second process (the first has not seen him since the table
            # was made, longer ago than that).
            played_on: list[httpx.Response] = []
            await eventually(
                lambda: (
                    played_on.append(_play_on(first, ada_cookie, present))
                    or played_on[-1].status_code == 200
                ),
                within=AWAY + 60,
            )
            assert time.monotonic() - closed >= AWAY
            assert {r.json()["code"] for r in played_on[:-1]} <= {"not_away"}, played_on
            assert played_on[-1].json()["seats"][1]["forfeit"] == "away"
        await ada.aclose()
        await bob.aclose()
    finally:
        for server in servers:
            server.kill()


HOLDERS = (
    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2"
    " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
)


async def test_a_frozen_process_is_seen_gone_and_its_clocks_run_out_elsewhere(
    database: str,
) -> None:
    """SIGSTOP freezes a process while its sockets stay open (as a frozen VM or a partition
    would): PostgreSQL ends its liveness lock's session by itself, and the other process acts
    on its table's deadline — where, before, it slept until its next look, up to a minute."""
    servers = _started(database, 2)
    first = servers[0]
    try:
        ada, _cookie = await guest(first.port)
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
        assert scalar(database, HOLDERS) == 2
        # The bots play in the first process until it is Ada's turn: her clock runs there.
        turn = "SELECT to_move::text = '[0]' FROM game_tables WHERE id = :t"
        await eventually(lambda: bool(scalar(database, turn, t=table)), within=60)
        owner = scalar(database, "SELECT lease_owner FROM game_tables WHERE id = :t", t=table)
        assert owner and f":{first.pid}:" in owner
        os.kill(first.pid, signal.SIGSTOP)
        frozen = time.monotonic()
        await eventually(lambda: scalar(database, HOLDERS) == 1, within=60)
        gone_after = time.monotonic() - frozen
        deadline: datetime = scalar(
            database, "SELECT deadline_at FROM game_tables WHERE id = :t", t=table
        )
        forfeit = "SELECT forfeit FROM seats WHERE table_id = :t AND seat = 0"
        await eventually(lambda: scalar(database, forfeit, t=table) == "timeout", within=90)
        late = time.time() - deadline.timestamp()
        print(f"lock gone {gone_after:.1f} s after SIGSTOP; clock acted on {late:.1f} s late")
        assert gone_after < VANISHED_SECONDS + LATE, gone_after
        assert late < VANISHED_SECONDS + LATE, late
        await ada.aclose()
    finally:
        os.kill(first.pid, signal.SIGCONT)
        for server in servers:
            server.kill()
