"""Recto Verso for 3 to 6 (R12–R15) in a real server process: a bot to turn its token waits for
a person's ``ready`` or for its pause on the server's clock, as a bot partner waits to reveal
the cooperative game's card (``tests/server/test_ready.py``); the person and every seat's view
know until when. A ``ready`` that is stale, or a spectator's, is refused and changes nothing.
The server's time is the test's (``tests/server/stepped_clock.py``): nothing sleeps 10 s."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import websockets

from otherside.games.rectoverso.flow import ROUND_LIMIT
from otherside.server.tables.adapters import RECTOVERSO
from tests.server.conftest import sqlite_only
from tests.server.processes import REQUEST_SECONDS
from tests.server.stepped_clock import SteppedTime, stepped_server

PAUSE = RECTOVERSO.ready_pause
COOKIE = "otherside_session"
View = dict[str, Any]


class Socket:
    """A websocket to the table, with the last ``view`` and ``error`` it was sent."""

    def __init__(self, ws: websockets.ClientConnection) -> None:
        self.ws = ws
        self.view: View = {}

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def until(self, accept: Callable[[View], bool], seconds: float = 20) -> View:
        """The first view (this one included) that ``accept`` takes."""
        async with asyncio.timeout(seconds):
            while not (self.view and accept(self.view)):
                await self._next()
        return self.view

    async def refused(self, message: dict[str, Any]) -> dict[str, Any]:
        """The error answering ``message``."""
        await self.send(message)
        async with asyncio.timeout(10):
            while (got := await self._next())["type"] != "error":
                pass
        return got

    async def now(self) -> View:
        """The view as the table is now (a ``sync`` answered)."""
        await self.send({"type": "sync"})
        async with asyncio.timeout(10):
            while (await self._next())["type"] != "view":
                pass
        return self.view

    async def table(self, accept: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The first ``table`` message from now that ``accept`` takes."""
        async with asyncio.timeout(10):
            while (got := await self._next())["type"] != "table" or not accept(got["table"]):
                pass
        return dict(got["table"])

    async def _next(self) -> dict[str, Any]:
        message = json.loads(await self.ws.recv())
        if message["type"] == "view":
            self.view = message
        return dict(message)


async def _socket(server: str, client: httpx.AsyncClient, table: str) -> Socket:
    url = server.replace("http://", "ws://") + f"/ws/tables/{table}"
    cookie = client.cookies.get(COOKIE)
    return Socket(
        await websockets.connect(url, additional_headers={"Cookie": f"{COOKIE}={cookie}"})
    )


def _phase(view: View) -> str:
    return str(view["view"]["phase"])


def _bot_to_turn(view: View) -> bool:
    """Between rounds, a bot (seat 1 or 2) to turn its token."""
    return _phase(view) == "start" and view["view"]["active"] != 0


async def _round_ends(me: Socket, time: SteppedTime) -> View:
    """The round under way ends as its time runs out (nobody says done: the person does not,
    and the bots are the launcher's ``steady`` ones), then and not a moment before."""
    await me.until(lambda v: _phase(v) == "build")
    time.advance(ROUND_LIMIT + 1)
    return await me.until(lambda v: _phase(v) != "build")


@asynccontextmanager
async def _guests_at_a_table(
    database_url: str, tmp_path: Path
) -> AsyncIterator[tuple[Any, SteppedTime, httpx.AsyncClient, httpx.AsyncClient, str]]:
    """A server on a stepped clock (bots paced, played in the server), Ada and Sam signed in
    as guests, and the Recto Verso table for three Ada made."""
    args = ("--bot-workers", "0")
    with stepped_server(database_url, tmp_path, *args, bot_delay=0.05) as (server, time):
        async with (
            httpx.AsyncClient(base_url=server.url, timeout=REQUEST_SECONDS) as ada,
            httpx.AsyncClient(base_url=server.url, timeout=REQUEST_SECONDS) as sam,
        ):
            for person in (ada, sam):
                assert (await person.post("/api/guest")).status_code == 200
            made = await ada.post(
                "/api/tables",
                json={"game": "rectoverso", "players": 3, "options": {"difficulty": "easy"}},
            )
            yield server, time, ada, sam, str(made.json()["id"])


@sqlite_only()
async def test_a_bot_turns_its_token_when_a_person_is_ready_or_after_its_pause(
    database_url: str, tmp_path: Path
) -> None:
    async with _guests_at_a_table(database_url, tmp_path) as (server, time, ada, sam, table):
        for seat in (1, 2):
            bot = {"seat": seat, "bot": "steady"}
            assert (await ada.post(f"/api/tables/{table}/bots", json=bot)).status_code == 200
        assert (await ada.post(f"/api/tables/{table}/start")).status_code == 200
        me, spectator = (
            await _socket(server.url, ada, table),
            await _socket(server.url, sam, table),
        )

        # Ada turns the first token herself: no bot waits, a "ready" is refused.
        view = await me.until(lambda v: _phase(v) == "start")
        assert view["seat"] == 0 and view["legal"] == ["turn"]
        assert view["bot_waits"] is False and view["bot_waits_until"] is None
        ready = {"type": "ready", "version": view["version"]}
        assert (await me.refused(ready))["code"] == "not_waiting"
        await me.send({"type": "action", "version": view["version"], "action": "turn"})

        # Round 2 is seat 1's, a bot's: it waits for Ada, 10 s on the server's clock at most.
        view = await _round_ends(me, time)
        assert _bot_to_turn(view), view["view"]
        version = view["version"]
        assert view["bot_waits"] is True and view["legal"] == []
        assert time.between(view["clock"]["now"], view["bot_waits_until"]) == timedelta(
            seconds=PAUSE
        )
        # The spectator is told until when too, and is not asked to be ready.
        watched = await spectator.until(lambda v: v["version"] == version)
        assert watched["bot_waits"] is False
        assert watched["bot_waits_until"] == view["bot_waits_until"]
        time.advance(PAUSE - 1)
        await asyncio.sleep(0.5)  # ten times a bot's delay: it would have turned by now
        # A stale "ready" and a spectator's are refused, and change nothing.
        stale = await me.refused({"type": "ready", "version": version - 1})
        assert stale["code"] == "stale", stale
        watching = await spectator.refused({"type": "ready", "version": version})
        assert watching["code"] == "not_seated", watching
        assert watching["message"], watching
        still = await me.now()
        assert (still["version"], _phase(still), still["bot_waits"]) == (version, "start", True)
        assert still["bot_waits_until"] == view["bot_waits_until"]
        # Ada is ready: the bot turns its token at once, no more time on the server's clock.
        await me.send(ready | {"version": version})
        started = await me.until(lambda v: v["version"] > version, seconds=5)
        assert _phase(started) == "build" and started["view"]["recto"] == 1
        assert started["bot_waits"] is False and started["bot_waits_until"] is None

        # Round 3 is seat 2's, a bot's again, and nobody says "ready": it turns once the
        # pause is over on the server's clock, not a moment before.
        view = await _round_ends(me, time)
        assert _bot_to_turn(view) and view["view"]["active"] == 2, view["view"]
        version = view["version"]
        time.advance(PAUSE - 0.5)
        await asyncio.sleep(0.5)
        still = await me.now()
        assert (still["version"], _phase(still)) == (version, "start")
        time.advance(0.5)
        started = await me.until(lambda v: v["version"] > version, seconds=5)
        assert _phase(started) == "build" and started["view"]["recto"] == 2
        for socket in (me, spectator):
            await socket.ws.close()


@sqlite_only()
async def test_a_seat_handed_to_a_bot_during_the_wait_does_not_move_its_deadline(
    database_url: str, tmp_path: Path
) -> None:
    """The wait counts from the move that ended the round, not from the table's last change:
    a player who leaves while a bot waits (a bot plays their seat on) moves neither the
    deadline the others are shown nor the moment the bot turns its token."""
    async with _guests_at_a_table(database_url, tmp_path) as (server, time, ada, sam, table):
        bot = {"seat": 1, "bot": "steady"}
        assert (await ada.post(f"/api/tables/{table}/bots", json=bot)).status_code == 200
        assert (await sam.post(f"/api/tables/{table}/join", json={"seat": 2})).is_success
        assert (await ada.post(f"/api/tables/{table}/start")).status_code == 200
        me, other = await _socket(server.url, ada, table), await _socket(server.url, sam, table)
        view = await me.until(lambda v: _phase(v) == "start")
        await me.send({"type": "action", "version": view["version"], "action": "turn"})

        # Round 2 is the bot's (seat 1): both people are told the same deadline.
        view = await _round_ends(me, time)
        assert _bot_to_turn(view) and view["bot_waits"] is True, view
        version, until = view["version"], view["bot_waits_until"]
        assert time.between(view["clock"]["now"], until) == timedelta(seconds=PAUSE)
        theirs = await other.until(lambda v: v["version"] == version)
        assert theirs["bot_waits"] is True and theirs["bot_waits_until"] == until
        # Three seconds on, Sam leaves: a bot plays his seat from now.
        time.advance(3)
        await other.send({"type": "resign"})
        gone = await other.table(lambda t: t["seats"][2].get("forfeit") is not None)
        assert gone["seats"][2]["kind"] == "bot", gone
        still = await me.now()
        assert (still["version"], _phase(still), still["bot_waits"]) == (version, "start", True)
        assert still["bot_waits_until"] == until
        # The bot turns its token at the deadline first shown, not three seconds later.
        time.advance(PAUSE - 3 - 0.5)
        await asyncio.sleep(0.5)  # ten times a bot's delay: it would have turned by now
        assert _phase(await me.now()) == "start"
        time.advance(0.5)
        started = await me.until(lambda v: v["version"] > version, seconds=5)
        assert _phase(started) == "build" and started["view"]["recto"] == 1
        for socket in (me, other):
            await socket.ws.close()
