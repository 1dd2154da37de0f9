"""Restart recovery: every move announced was saved first, and every game resumes — after a
clean stop, and after ``kill -9`` of a real server process."""

from __future__ import annotations

import json

import httpx
import websockets

from otherside.server.tables.play import Play
from tests.server.conftest import hub_of, people, running, settle, table_with
from tests.server.processes import REQUEST_SECONDS, Server, free_port


async def test_games_resume_after_a_restart_with_bots_playing_on(database_url: str) -> None:
    async with running(database_url) as app:
        players = await people(app, 2)
        humans_only = await table_with(app, players, options={"first_player": 0})
        with_bots = await table_with(app, players[:1], bots=2, options={"first_player": 1})
        hub = hub_of(app)
        live = await hub.live(humans_only)
        for _ in range(5):
            seat = live.state.current_player
            await hub.ask(live.id, Play(players[seat].user, live.info.version, "flip"))
        before = (await hub.live(humans_only)).state
        bots_live = await hub.live(with_bots)
        await settle(hub, with_bots)
        bots_before = bots_live.info.version
        assert bots_live.state.current_player == 0 and bots_before == 2
    async with running(database_url) as again:
        hub = hub_of(again)
        live = await hub.live(humans_only)
        assert live is not None and live.info.version == 5
        assert live.state.to_record() == before.to_record()
        bots_live = await hub.live(with_bots)
        assert bots_live.info.version == bots_before
        await hub.ask(bots_live.id, Play(players[0].user, bots_before, "draw"))
        await settle(hub, with_bots)
        assert bots_live.state.current_player in (0, None)
        assert bots_live.info.version >= bots_before + 3


async def _next_view(ws: websockets.ClientConnection) -> dict:
    while True:
        message = json.loads(await ws.recv())
        if message["type"] == "view":
            return message


async def test_kill_minus_9_loses_no_announced_move(database_url: str) -> None:
    port = free_port()
    server = Server(database_url, port)
    base = server.url
    try:
        async with (
            httpx.AsyncClient(base_url=base, timeout=REQUEST_SECONDS) as alice,
            httpx.AsyncClient(base_url=base, timeout=REQUEST_SECONDS) as bob,
        ):
            await alice.post("/api/guest")
            await bob.post("/api/guest")
            made = await alice.post(
                "/api/tables", json={"game": "verso", "players": 2, "options": {"first_player": 0}}
            )
            table_id = made.json()["id"]
            await bob.post(f"/api/tables/{table_id}/join", json={})
            await alice.post(f"/api/tables/{table_id}/start")
            cookies = [c.cookies.get("otherside_session") for c in (alice, bob)]
            url = f"ws://127.0.0.1:{port}/ws/tables/{table_id}"
            sockets = [
                await websockets.connect(
                    url, additional_headers={"Cookie": f"otherside_session={c}"}
                )
                for c in cookies
            ]
            views = [await _next_view(ws) for ws in sockets]
            for _ in range(7):
                seat = views[0]["view"]["current_player"]
                mine = views[seat]
                await sockets[seat].send(
                    json.dumps(
                        {"type": "action", "version": mine["version"], "action": mine["legal"][-1]}
                    )
                )
                views = [await _next_view(ws) for ws in sockets]
            seen = views[0]
            server.kill()
            for ws in sockets:
                await ws.close()
            server = Server(database_url, port)
            async with websockets.connect(
                url, additional_headers={"Cookie": f"otherside_session={cookies[0]}"}
            ) as ws:
                back = await _next_view(ws)
            assert back["version"] == seen["version"] == 7
            assert back["view"] == seen["view"]
    finally:
        server.kill()
