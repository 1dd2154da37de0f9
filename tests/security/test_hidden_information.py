"""R17 attacked from outside, against a real server process over real sockets: a builder who
watches their own Recto Verso table from a second, signed-out window, who asks the HTTP routes
for the round being played, or who probes the partner's hidden pieces with placements that
collide with them, learns nothing their own seat does not show (issue 31)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from otherside.server.store.db import sqlite_url
from tests.server.processes import Server, free_port

COOKIE = "otherside_session"
PIECES = ("black", "white", "grey", "brown", "green", "pink", "violet", "orange", "yellow", "blue")
# Verso (the back) builds a black cube with white on it and grey in front of it: black is then
# hidden from recto (not on top of its column, not nearest the front), seen by verso.
VERSO_BUILDS = ("place black 1,1,0", "place white 1,1,1", "place grey 1,0,0")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    started = Server(sqlite_url(tmp_path / "otherside.db"), free_port())
    try:
        yield started
    finally:
        started.kill()


class Window:
    """A websocket on one table, signed in with ``cookie`` or signed out (``None``)."""

    def __init__(self, ws: websockets.ClientConnection) -> None:
        self.ws = ws
        self.views: list[dict[str, Any]] = []  # every view message received, in order

    async def next(self, kind: str = "view") -> dict[str, Any]:
        """The next message of ``kind`` (``view`` or ``error``); views are kept."""
        while True:
            message = json.loads(await self.ws.recv())
            if message["type"] == "view":
                self.views.append(message)
            if message["type"] == kind:
                return message

    async def act(self, action: str) -> None:
        version = self.views[-1]["version"] if self.views else 0
        await self.ws.send(json.dumps({"type": "action", "version": version, "action": action}))


async def _open(server: Server, table: str, cookie: str | None) -> Window:
    headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie else {}
    url = f"ws://127.0.0.1:{server.port}/ws/tables/{table}"
    window = Window(await websockets.connect(url, additional_headers=headers))
    await window.next()
    return window


async def _settle(*windows: Window, version: int) -> None:
    """Read each window until it has seen ``version``."""
    for window in windows:
        while window.views[-1]["version"] < version:
            await window.next()


def _reason(message: str) -> str:
    """The refusal's reason: without the action tried (if named) and the legal alternatives."""
    return message.split(" is illegal: ")[-1].split("; legal:")[0]


async def test_a_builder_s_second_window_and_the_http_routes_show_only_what_both_see(
    server: Server,
) -> None:
    async with (
        httpx.AsyncClient(base_url=server.url) as recto_http,
        httpx.AsyncClient(base_url=server.url) as verso_http,
        httpx.AsyncClient(base_url=server.url) as stranger,
    ):
        await recto_http.post("/api/guest")
        await verso_http.post("/api/guest")
        made = await recto_http.post("/api/tables", json={"game": "rectoverso", "players": 2})
        table = made.json()["id"]
        assert (await verso_http.post(f"/api/tables/{table}/join", json={})).status_code == 200
        assert (await recto_http.post(f"/api/tables/{table}/start")).status_code == 200
        recto = await _open(server, table, recto_http.cookies.get(COOKIE))
        verso = await _open(server, table, verso_http.cookies.get(COOKIE))
        # Recto's own second window, signed out: a spectator.
        second = await _open(server, table, None)
        await recto.act("reveal")
        await _settle(recto, verso, second, version=1)
        for number, action in enumerate(VERSO_BUILDS, start=2):
            await verso.act(action)
            await _settle(recto, verso, second, version=number)

        # The second window: what both builders see, no card, no side, no placement, no move.
        seen = second.views[-1]
        assert seen["view"]["phase"] == "build" and seen["legal"] == []
        assert seen["view"]["top"] == recto.views[-1]["view"]["top"]
        for message in second.views:
            assert message["view"]["card"] is None and message["view"]["construction"] is None
            assert "placements" not in json.dumps(message)
        assert set(recto.views[-1]["view"]["card"]) == {"front"}

        # The HTTP routes during the round: history as the caller's seat saw it, the public
        # view to a stranger; no record or replay; the table's summary holds no game.
        history = await stranger.get(f"/api/tables/{table}/history")
        assert history.status_code == 200 and len(history.json()["views"]) == 4
        for view in history.json()["views"]:
            assert view["card"] is None and view["construction"] is None
        own = (await recto_http.get(f"/api/tables/{table}/history")).json()["views"]
        assert all(set(v["card"]) == {"front"} for v in own if v["phase"] == "build")
        assert "placements" not in json.dumps(own)
        for route in ("record", "replay"):
            assert (await stranger.get(f"/api/tables/{table}/{route}")).status_code == 409
            assert (await recto_http.get(f"/api/tables/{table}/{route}")).status_code == 409
        summary = (await stranger.get(f"/api/tables/{table}")).text
        assert "placements" not in summary and "black 1,1,0" not in summary

        # Probing the hidden black cube: felt as occupied, never named, no extra list.
        sent = recto.views[-1]["legal"]
        assert "remove black" not in sent and "remove white" in sent
        await recto.act("place brown 1,1,0")
        occupied = (await recto.next("error"))["message"]
        assert _reason(occupied) == "those cells are taken (R4)"
        await recto.act("remove black")
        held = (await recto.next("error"))["message"]
        assert "black" not in _reason(occupied)
        for refusal in (occupied, held):
            reason = _reason(refusal)
            assert not any(name in reason for name in PIECES if name != "black"), reason
            # The alternatives listed are the ones recto's seat was sent, no more.
            listed = refusal.split("; legal: ")[1].split(", … (")[0].split(", ")
            assert listed == sent[: len(listed)]

        # Once the round is over, everyone sees it whole: a delay of one round.
        await recto.act("done")
        await _settle(recto, verso, second, version=5)
        await verso.act("done")
        await _settle(recto, verso, second, version=6)
        (finished,) = second.views[-1]["view"]["rounds"]
        assert sorted(finished["placements"]) == sorted(a[len("place ") :] for a in VERSO_BUILDS)
        after = (await stranger.get(f"/api/tables/{table}/history")).json()["views"]
        assert after[-1]["rounds"][0]["card"] == finished["card"]
        for window in (recto, verso, second):
            await window.ws.close()
