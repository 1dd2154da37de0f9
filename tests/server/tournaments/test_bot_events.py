"""Events of built-in bots only, on a real server process (SQLite and PostgreSQL): Verso at
tables of three (a Swiss event with a bye each round) and a VERSUS round-robin, both run to
their end."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from itertools import combinations
from typing import Any

import httpx
import pytest

from tests.server.processes import Server
from tests.server.tournaments.test_events_server import PASSWORD, event_of


async def bot_event(http: httpx.AsyncClient, body: dict[str, Any], bots: list[str]) -> str:
    """Create an event of ``bots`` and start it; its id."""
    made = await http.post("/api/tournaments", json={**body, "open_to": "bots"})
    assert made.status_code == 201, made.text
    event_id = str(made.json()["id"])
    for bot in bots:
        added = await http.post(f"/api/tournaments/{event_id}/bots", json={"bot": bot})
        assert added.status_code == 200, added.text
    started = await http.post(f"/api/tournaments/{event_id}/start")
    assert started.status_code == 200, started.text
    return event_id


async def finished(http: httpx.AsyncClient, event_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        event = await event_of(http, event_id)
        if event["status"] == "over":
            return event
        await asyncio.sleep(0.3)
    raise AssertionError(f"the event did not end: {await event_of(http, event_id)}")


async def test_bot_events_run_to_their_end(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as host:
        signup = {"name": "host", "password": PASSWORD}
        assert (await host.post("/api/signup", json=signup)).status_code == 200
        verso = await bot_event(
            host,
            {"game": "verso", "kind": "swiss", "rounds": 2, "group_size": 3},
            ["random"] * 7,
        )
        robin = await bot_event(
            host, {"game": "versus", "kind": "round-robin"}, ["random", "greedy", "random"]
        )
        groups, circle = await asyncio.gather(finished(host, verso), finished(host, robin))

    # Seven at tables of three: two tables and a bye a round, never the same one twice.
    byes = [g["entrants"][0] for g in groups["games"] if g["bye"]]
    assert len(byes) == 2 and len(set(byes)) == 2
    for number in (1, 2):
        tables = [g for g in groups["games"] if g["round"] == number and not g["bye"]]
        assert [len(t["entrants"]) for t in tables] == [3, 3]
        for table in tables:
            # Points by rank at a table of three: 1, ½, 0 (ties shared) — 1.5 in all.
            assert sum(table["points"]) == pytest.approx(1.5)
    assert sum(line["points"] for line in groups["standings"]) == pytest.approx(2 * (3 + 1))

    # A round-robin of three: three rounds, each a game and a bye; everyone meets once.
    assert circle["rounds"] == 3 and circle["current_round"] == 3
    met = Counter(frozenset(g["entrants"]) for g in circle["games"] if not g["bye"])
    numbers = [e["number"] for e in circle["entrant_list"]]
    assert met == Counter({frozenset(p): 1 for p in combinations(numbers, 2)})
    assert sorted(g["entrants"][0] for g in circle["games"] if g["bye"]) == sorted(numbers)
