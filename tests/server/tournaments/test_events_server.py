"""A Swiss event of six entrants run to its end on a real server process: three people who play
through the table websocket (one of them absent from the first round) and three built-in bots,
at VERSUS with a 15-second clock; the pairings, the absentee's loss and the standings."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from otherside.server.store.db import sqlite_url
from tests.security.outside import COOKIE, open_socket, play_to_the_end
from tests.server.processes import REQUEST_SECONDS, Server, free_port
from tests.server.tournaments.checks import assert_standings_of_games

PASSWORD = "a long enough password"
FAST = {"kind": "live", "minutes": 0.25, "increment": 0}  # an absentee is out after 15 s


@pytest.fixture(name="server")
def server_fixture(tmp_path: Path) -> Iterator[Server]:
    process = Server(sqlite_url(tmp_path / "events.db"), free_port(), "--bot-workers", "0")
    try:
        yield process
    finally:
        process.kill()


@contextlib.asynccontextmanager
async def person(server: Server, name: str) -> Any:
    """An HTTP client signed up as ``name``."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        answer = await http.post("/api/signup", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 200, answer.text
        yield http


async def event_of(http: httpx.AsyncClient, event_id: str) -> dict[str, Any]:
    answer = await http.get(f"/api/tournaments/{event_id}")
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def refused(answer: httpx.Response, status: int, code: str) -> None:
    """``answer`` is a refusal with ``status`` and the stable ``code`` (none: FastAPI's own)."""
    assert answer.status_code == status, answer.text
    assert answer.json().get("code", "") == code, answer.text


async def play_my_games(
    server: Server, http: httpx.AsyncClient, event_id: str, me: int, first: int = 1
) -> None:
    """Play every game of entrant ``me`` from round ``first`` on (the first legal action each
    turn) until the event is over."""
    cookie = http.cookies.get(COOKIE)
    played: set[str] = set()
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        event = await event_of(http, event_id)
        if event["status"] == "over":
            return
        mine = [
            g
            for g in event["games"]
            if me in g["entrants"]
            and g["round"] >= first
            and g["table_id"]
            and g["table_id"] not in played
        ]
        for game in mine:
            ws = await open_socket(server, game["table_id"], cookie=cookie)
            try:
                await asyncio.wait_for(play_to_the_end(ws), 120)
            finally:
                await ws.close()
            played.add(game["table_id"])
        await asyncio.sleep(0.2)
    raise AssertionError(f"the event did not end: {await event_of(http, event_id)}")


@pytest.mark.slow
async def test_a_swiss_event_of_people_and_bots_runs_to_its_end(server: Server) -> None:
    async with (
        person(server, "host") as host,
        person(server, "alice") as alice,
        person(server, "bob") as bob,
        person(server, "carol") as carol,
    ):
        body = {"game": "versus", "kind": "swiss", "rounds": 3, "pace": FAST, "max_entrants": 6}
        made = await host.post("/api/tournaments", json=body)
        assert made.status_code == 201, made.text
        event_id = made.json()["id"]
        for http in (alice, bob, carol):
            assert (await http.post(f"/api/tournaments/{event_id}/join")).status_code == 200
        # Greedy bots: against the people's first legal moves a game is some 25 plies, where a
        # random bot draws it out to some 150 (the event's length, and a 15-second clock's risk).
        for bot in ("greedy", "greedy", "greedy"):
            added = await host.post(f"/api/tournaments/{event_id}/bots", json={"bot": bot})
            assert added.status_code == 200, added.text
        event = await event_of(host, event_id)
        names = {e["name"]: e["number"] for e in event["entrant_list"]}
        assert sorted(names) == ["alice", "bob", "carol", "greedy", "greedy 2", "greedy 3"]

        # Full, then refusals that change nothing.
        async with person(server, "dave") as dave:
            refused(await dave.post(f"/api/tournaments/{event_id}/join"), 409, "event_full")
            refused(await dave.post(f"/api/tournaments/{event_id}/start"), 403, "not_host")
        refused(await alice.post(f"/api/tournaments/{event_id}/join"), 409, "already_entered")
        assert (await event_of(host, event_id))["entrant_list"] == event["entrant_list"]

        started = await host.post(f"/api/tournaments/{event_id}/start")
        assert started.status_code == 200, started.text
        assert started.json()["status"] == "playing"
        refused(await carol.post(f"/api/tournaments/{event_id}/leave"), 409, "event_started")
        refused(
            await host.post(f"/api/tournaments/{event_id}/bots", json={"bot": "random"}),
            409,
            "event_started",
        )

        await asyncio.gather(
            play_my_games(server, alice, event_id, names["alice"]),
            play_my_games(server, bob, event_id, names["bob"]),
            # Carol does not show for round 1: her clock runs out. She plays from round 2.
            play_my_games(server, carol, event_id, names["carol"], first=2),
        )
        event = await event_of(host, event_id)

    assert event["status"] == "over" and event["current_round"] == 3
    games = event["games"]
    met: set[frozenset[int]] = set()
    for number in (1, 2, 3):
        tables = [g for g in games if g["round"] == number]
        assert len(tables) == 3 and not any(g["bye"] for g in tables)
        seated = sorted(n for g in tables for n in g["entrants"])
        assert seated == sorted(names.values())  # everyone plays once a round
        for g in tables:
            pair = frozenset(g["entrants"])
            assert pair not in met  # six entrants, three rounds: no repeat is needed
            met.add(pair)
            assert g["points"] is not None and sum(g["points"]) == 1.0
    # Carol did not come to round 1: she lost that game, on time; then she played.
    (absent,) = [g for g in games if names["carol"] in g["entrants"] and g["round"] == 1]
    assert absent["points"][absent["entrants"].index(names["carol"])] == 0.0
    async with httpx.AsyncClient(base_url=server.url, timeout=REQUEST_SECONDS) as anyone:
        table = (await anyone.get(f"/api/tables/{absent['table_id']}")).json()
        assert table["status"] == "over"
        assert table["outcome"]["forfeit"]["reason"] == "timeout"
        seat = absent["entrants"].index(names["carol"])
        assert table["outcome"]["forfeit"]["seat"] == seat
        later = [g for g in games if names["carol"] in g["entrants"] and g["round"] > 1]
        for g in later:
            outcome = (await anyone.get(f"/api/tables/{g['table_id']}")).json()["outcome"]
            assert "forfeit" not in outcome  # played to its end
    # The standings are those of the games as played, with their tie-breaks.
    assert_standings_of_games(event, games)
    assert sum(line["points"] for line in event["standings"]) == 9.0
