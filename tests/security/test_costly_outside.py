"""Endpoints that cost the server work, flooded by a stranger from outside while two players
play at another table of the same real server process: the players' moves must still be
answered at once."""

from __future__ import annotations

import asyncio
import json
import statistics
import time

import httpx

from tests.security.outside import (
    ATTACKER,
    COOKIE,
    client,
    next_message,
    open_socket,
    shared_fixture,  # noqa: F401 (the fixture "shared")
)
from tests.server.conftest import sqlite_only
from tests.server.processes import Server

MOVES = 12
FLOODERS = 16


async def _move_times(
    api: Server, first: httpx.AsyncClient, second: httpx.AsyncClient
) -> tuple[list[float], list[float]]:
    """Two guests play ``MOVES`` moves of an unrated VERSUS duel; how long each move took
    from being sent to the mover's view of it, and each ``sync`` the mover sent before it
    (ms)."""
    for http in (first, second):
        (await http.post("/api/guest")).raise_for_status()
    made = await first.post("/api/tables", json={"game": "versus", "players": 2, "rated": False})
    table_id = made.json()["id"]
    (await second.post(f"/api/tables/{table_id}/join", json={})).raise_for_status()
    (await first.post(f"/api/tables/{table_id}/start")).raise_for_status()
    sockets = [
        await open_socket(api, table_id, cookie=http.cookies.get(COOKIE))
        for http in (first, second)
    ]
    times: list[float] = []
    syncs: list[float] = []
    try:
        views = [await next_message(ws, "view") for ws in sockets]
        for _ in range(MOVES):
            (mover, view), *_ = [
                (ws, v) for ws, v in zip(sockets, views, strict=True) if v["legal"]
            ]
            # A page that reconnects asks for the table again ("sync": read from the database).
            sent = time.monotonic()
            await mover.send('{"type": "sync"}')
            while (await next_message(mover, "view"))["version"] != view["version"]:
                pass
            syncs.append((time.monotonic() - sent) * 1000)
            sent = time.monotonic()
            action = {"type": "action", "version": view["version"], "action": view["legal"][0]}
            await mover.send(json.dumps(action))
            views = []
            for ws in sockets:
                while (seen := await next_message(ws, "view"))["version"] <= view["version"]:
                    pass
                views.append(seen)
                if ws is mover:
                    times.append((time.monotonic() - sent) * 1000)
    finally:
        for ws in sockets:
            await ws.close()
    return times, syncs


async def _flood(api: Server, path: str, body: dict[str, str] | None, stop: asyncio.Event) -> int:
    """``FLOODERS`` connections of the attacker sending ``body`` to ``path`` (a GET without
    one) until ``stop``; how many requests they sent."""
    sent = 0
    async with client(api, ATTACKER) as http:

        async def one() -> None:
            nonlocal sent
            while not stop.is_set():
                if body is None:
                    answer = await http.get(path)
                else:
                    answer = await http.post(path, json=body)
                assert answer.status_code == 200, answer.text
                sent += 1

        await asyncio.gather(*(one() for _ in range(FLOODERS)))
    return sent


@sqlite_only("shared")  # the lessons touch no database
async def _while_flooded(
    api: Server, path: str, body: dict[str, str] | None
) -> tuple[list[float], list[float], int]:
    """The times of two players' moves and syncs while the attacker floods ``path``; how many
    requests the flood sent."""
    stop = asyncio.Event()
    flood = asyncio.create_task(_flood(api, path, body, stop))
    try:
        await asyncio.sleep(1.5)
        async with client(api) as first, client(api) as second:
            times, syncs = await _move_times(api, first, second)
    finally:
        stop.set()
        sent = await flood
    return times, syncs, sent


async def test_a_flood_of_lesson_moves_leaves_the_players_served(shared: Server) -> None:
    api = shared
    async with client(api, ATTACKER) as http:
        steps = (await http.get("/api/lessons/rectoverso")).json()["steps"]
    step = next(s for s in steps if s["id"] == "support")
    path, body = "/api/lessons/rectoverso/support", {"action": step["legal"][0]}
    times, _syncs, sent = await _while_flooded(api, path, body)
    # Before: each try replayed the step and judged the move on the event loop (10 ms of a
    # Recto Verso step), and a move at the other table took a second (median of twelve).
    assert sent > 100
    assert statistics.median(times) < 250, times


@sqlite_only("shared")
async def test_a_flood_of_lobby_lists_leaves_the_players_served(shared: Server) -> None:
    api = shared
    # A full lobby: fifty waiting tables, made by guests from addresses of their own.
    made = 0
    for number in range(10, 22):
        async with client(api, f"127.0.0.{number}") as host:
            (await host.post("/api/guest")).raise_for_status()
            for _ in range(5):
                table = await host.post("/api/tables", json={"game": "rectoverso", "players": 2})
                made += table.status_code == 201
    assert made >= 50
    _times, syncs, sent = await _while_flooded(api, "/api/tables?status=waiting", None)
    # Before: each request read the list (and the players' ratings) through the database's
    # threads and built fifty summaries on the event loop, and the other table's "sync",
    # which reads the database too, waited 600 ms (median of twelve) instead of 3.
    assert sent > 100
    assert statistics.median(syncs) < 150, syncs


@sqlite_only("shared")
async def test_a_flood_of_a_player_page_leaves_the_players_served(shared: Server) -> None:
    api = shared
    async with client(api, "127.0.0.30") as player:
        (await player.post("/api/guest")).raise_for_status()
        name = (await player.get("/api/me")).json()["user"]["name"]
        for _ in range(5):
            made = await player.post("/api/tables", json={"game": "versus", "players": 2})
            assert made.status_code == 201
    _times, syncs, sent = await _while_flooded(api, f"/api/players/{name}", None)
    # Before: each request read the player's ratings, history, bests and recent tables (six
    # queries through the database's threads), and the other table's "sync" waited 140 ms
    # (median of twelve) instead of 3.
    assert sent > 100
    assert statistics.median(syncs) < 70, syncs
