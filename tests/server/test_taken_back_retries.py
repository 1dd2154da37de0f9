"""Actions sent again, or late, across a takeback (:mod:`otherside.server.tables.positions`).

A takeback lowers a table's version, so a version comes again for a position chosen anew: an
action sent with the view's count of ``takebacks`` is refused ``stale`` once a takeback has come
since — a move sent before it, delivered or retried after it at the very version it brought
back (the same board, but the player meant the line taken back), and an answer to a request
that was taken back with its move — and changes nothing. An action sent again after it was
applied, and still standing, is the same action: answered with the view, played once (also
across a takeback of later moves, and through a process that had not heard of it yet). A
program's stream tells its turn again when a takeback brings its version back. A process that
has not heard of a takeback neither writes a move on the old line (the database's version
being the same again) nor follows a move of the new one as if it were of its line.

Over real websockets against a real server process on SQLite and on PostgreSQL (where the
takeback is accepted through another process, and the count outlives a restart); the cases
that need two processes to disagree for a moment use two apps on one SQLite file, which do not
hear each other (``SoloCluster``), as :mod:`tests.server.test_stale_processes` does."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi import FastAPI

from otherside.core.simultaneous import legal_actions_of
from otherside.server.cluster.catch_up import Follow, Refresh
from otherside.server.cluster.moves import NotedMove
from otherside.server.http.feed import FeedWatch
from otherside.server.store.db import sqlite_url
from otherside.server.store.records import Timing
from otherside.server.tables.errors import Refused
from otherside.server.tables.hub import TableHub
from otherside.server.tables.live import LiveTable
from otherside.server.tables.play import Play
from otherside.server.tables.takebacks import Takeback
from tests.server.cluster_processes import scalar
from tests.server.conftest import Player, hub_of, people, running, table_with
from tests.server.processes import Server, free_port
from tests.server.takeback_tables import (
    WAIT,
    Seat,
    Served,
    board_ply,
    position,
    postgres_served_fixture,  # noqa: F401 (the fixture "postgres_served")
    served_fixture,  # noqa: F401 (the fixture "served")
    signed_in,
    sit,
    sqlite_served_fixture,  # noqa: F401 (the fixture "sqlite_served")
    versus_table,
)


async def _until(seat: Seat, holds: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The next view of ``seat`` for which ``holds`` (those before it are passed over)."""
    while not holds(view := await seat.next("view")):
        pass
    return view


async def _answered(seat: Seat, **message: Any) -> dict[str, Any]:
    """Send ``message``: it is answered with the view and no error (the last view before the
    ``pong`` of a ``ping`` sent after it)."""
    await seat.send(**message)
    await seat.send(type="ping")
    last = None
    while (got := json.loads(await asyncio.wait_for(seat.ws.recv(), WAIT)))["type"] != "pong":
        assert got["type"] != "error", (message, got)
        last = got if got["type"] == "view" else last
    assert last is not None, message
    return last


async def test_a_move_sent_before_a_takeback_is_stale_after_it_and_a_retry_is_played_once(
    served: Served,
) -> None:
    server, port = served.server, served.port
    async with AsyncExitStack() as stack:
        blue_http = await stack.enter_async_context(signed_in(server.url))
        brown_http = await stack.enter_async_context(signed_in(server.url))
        table = await versus_table(blue_http, brown_http)
        blue, brown = [await sit(stack, port, table, h) for h in (blue_http, brown_http)]
        start = await blue.now()
        assert start["version"] == 0 and start["takebacks"] == 0
        first = board_ply(start)
        move = {"type": "action", "version": 0, "takebacks": 0, "action": first}
        await blue.send(**move)
        one = await _until(brown, lambda v: v["version"] == 1)

        # Sent again (its answer lost): the same move, answered with the view, played once.
        again = await _answered(blue, **move)
        assert again["version"] == 1 and position(again) == position(one)
        assert (await brown.now())["version"] == 1
        assert (await blue_http.get(f"/api/tables/{table}")).json()["version"] == 1

        # Blue takes it back, Brown agrees: the start is back, one takeback counted.
        await blue.send(type="takeback", version=1, takebacks=0, step="ask")
        await _until(brown, lambda v: v["takeback"] is not None)
        await brown.send(type="takeback", version=1, takebacks=0, step="accept")
        for seat in (blue, brown):
            back = await _until(seat, lambda v: v["version"] == 0)
            assert back["takebacks"] == 1 and position(back) == position(start)

        # The move sent before the takeback, delivered now: the version and the board are
        # those it was sent at, but it was chosen in the line taken back.
        await blue.refused("stale", **move)
        assert (await brown.now())["version"] == 0

        # Chosen again from the view after the takeback, it is a new move, played.
        await blue.send(type="action", version=0, takebacks=1, action=first)
        for seat in (blue, brown):
            await _until(seat, lambda v: v["version"] == 1)
        # Blue asks again; Brown's answer to the first request, delivered late, is refused.
        await blue.send(type="takeback", version=1, takebacks=1, step="ask")
        await _until(brown, lambda v: v["takeback"] is not None)
        await brown.refused("stale", type="takeback", version=1, takebacks=0, step="accept")
        await brown.send(type="takeback", version=1, takebacks=1, step="decline")
        await _until(blue, lambda v: v["takeback"] is None)

        # Brown replies and takes the reply back, Blue agreeing: the reply sent again is
        # stale; Blue's move (which stands) sent again is that move, nothing changes.
        mine = await brown.now()
        reply = {"type": "action", "version": 1, "takebacks": 1, "action": board_ply(mine)}
        await brown.send(**reply)
        for seat in (blue, brown):
            await _until(seat, lambda v: v["version"] == 2)
        await brown.send(type="takeback", version=2, takebacks=1, step="ask")
        await _until(blue, lambda v: v["takeback"] is not None)
        await blue.send(type="takeback", version=2, takebacks=1, step="accept")
        for seat in (blue, brown):
            back = await _until(seat, lambda v: v["version"] == 1)
            assert back["takebacks"] == 2 and position(back) == position(mine)
        await brown.refused("stale", **reply)
        kept = await _answered(blue, type="action", version=0, takebacks=1, action=first)
        assert kept["version"] == 1 and kept["takebacks"] == 2
        assert position(kept) == position(mine)

    # The count is stored: after a restart the reply chosen before the takeback is still stale.
    served.restart()
    async with AsyncExitStack() as stack:
        brown = await sit(stack, port, table, brown_http)
        resumed = await brown.now()
        assert resumed["version"] == 1 and resumed["takebacks"] == 2
        assert position(resumed) == position(mine)
        await brown.refused("stale", **reply)
        http = await stack.enter_async_context(signed_in(served.server.url))
        assert (await http.get(f"/api/tables/{table}")).json()["version"] == 1


@pytest.mark.postgres
async def test_a_takeback_accepted_through_another_process_makes_a_move_sent_before_it_stale(
    postgres_served: Served,
) -> None:
    url = postgres_served.database
    ports = [free_port(), postgres_served.port]
    other = Server(url, ports[0])
    try:
        async with AsyncExitStack() as stack:
            blue_http = await stack.enter_async_context(signed_in(other.url))
            brown_http = await stack.enter_async_context(signed_in(postgres_served.server.url))
            table = await versus_table(blue_http, brown_http)
            # Blue plays through the first process, Brown through the second.
            blue = await sit(stack, ports[0], table, blue_http)
            brown = await sit(stack, ports[1], table, brown_http)
            start = await blue.now()
            move = {"type": "action", "version": 0, "takebacks": 0, "action": board_ply(start)}
            await blue.send(**move)
            await _until(brown, lambda v: v["version"] == 1)
            await blue.send(type="takeback", version=1, takebacks=0, step="ask")
            await _until(brown, lambda v: v["takeback"] is not None)
            await brown.send(type="takeback", version=1, takebacks=0, step="accept")
            # The first process hears of it and reads the count with the table.
            back = await _until(blue, lambda v: v["version"] == 0)
            assert back["takebacks"] == 1 and position(back) == position(start)
            await blue.refused("stale", **move)
            # Sent again through the process that accepted the takeback: stale there too.
            again = await sit(stack, ports[1], table, blue_http)
            await again.refused("stale", **move)
            assert (await brown.now())["version"] == 0
    finally:
        other.stop()


@pytest.fixture
async def apps(tmp_path: Any) -> AsyncIterator[tuple[FastAPI, FastAPI, str]]:
    url = sqlite_url(tmp_path / "shared.db")
    async with running(url) as first, running(url) as second:
        yield first, second, url


@dataclass(frozen=True)
class Duel:
    """A started VERSUS table of two people, as the first process holds it: the seat that moves
    first, its player, the other, and the board plies the first may play."""

    table: str
    live: LiveTable
    seat: int
    mover: Player
    other: Player
    plies: list[str]

    async def new_line(self, hub: TableHub) -> None:
        """Through ``hub``: the first move (``plies[0]``, played) taken back, and ``plies[1]``
        played instead, at version 1 again."""
        await hub.ask(self.table, Takeback(self.mover.user, 1, "ask", 0))
        await hub.ask(self.table, Takeback(self.other.user, 1, "accept", 0))
        await hub.ask(self.table, Play(self.mover.user, 0, self.plies[1], 1))


async def _duel(app: FastAPI) -> Duel:
    players = await people(app, 2)
    table = await table_with(app, players, game="versus")
    live = await hub_of(app).live(table)
    assert live.state is not None
    seat = live.info.to_move[0]
    mover, other = (
        next(p for p in players if p.user.id == live.info.seats[s].user_id)
        for s in (seat, 1 - seat)
    )
    plies = [str(a) for a in legal_actions_of(live.state, seat) if ">" in str(a)]
    return Duel(table, live, seat, mover, other, plies)


async def test_a_retry_through_a_process_that_had_not_heard_of_the_move_is_that_move(
    apps: tuple[FastAPI, FastAPI, str],
) -> None:
    first, second, url = apps
    duel = await _duel(first)
    table, mover, plies = duel.table, duel.mover, duel.plies
    here, there = hub_of(first), hub_of(second)
    behind = await there.live(table)
    assert await here.ask(table, Play(mover.user, 0, plies[0], 0)) is True
    # The answer was lost; the page reconnects to the second process, which has not heard of
    # the move yet (its commit finds the table moved on): it is the move played, not a refusal.
    assert behind.info.version == 0
    assert await there.ask(table, Play(mover.user, 0, plies[0], 0)) is False
    assert behind.info.version == 1
    moves = "SELECT count(*) FROM moves WHERE table_id = :t"
    assert scalar(url, moves, t=table) == 1
    # Another move at that version is still refused: the game moved on.
    with pytest.raises(Refused) as refused:
        await there.ask(table, Play(mover.user, 0, plies[1], 0))
    assert refused.value.code == "stale"
    assert scalar(url, moves, t=table) == 1


async def test_a_process_catching_up_after_a_takeback_and_a_new_move_shows_the_new_line(
    apps: tuple[FastAPI, FastAPI, str],
) -> None:
    first, second, _url = apps
    duel = await _duel(first)
    table, live, mover, plies = duel.table, duel.live, duel.mover, duel.plies
    here, there = hub_of(first), hub_of(second)
    await here.ask(table, Play(mover.user, 0, plies[0], 0))
    behind = await there.live(table)  # the second process holds the table at version 1
    assert behind.info.version == 1
    # Through the first: the move is taken back and another played, at version 1 again.
    await duel.new_line(here)
    assert live.info.version == 1 and live.info.takebacks == 1
    # The second catches up at the same version: the game is the new line, not the old one.
    await there.ask(table, Refresh())
    assert behind.info.takebacks == 1 and behind.state is not None
    game = live.game
    assert game.view(behind.state, None) == game.view(live.state, None)
    # And a move chosen there before the takeback is refused there.
    with pytest.raises(Refused) as refused:
        await there.ask(table, Play(mover.user, 0, plies[0], 0))
    assert refused.value.code == "stale"


async def test_a_program_is_told_its_turn_again_when_a_takeback_brings_its_version_back(
    app: FastAPI,
) -> None:
    duel = await _duel(app)
    table, live, seat, mover, program = duel.table, duel.live, duel.seat, duel.mover, duel.other
    hub = hub_of(app)
    # The other player's stream watches the table as ``/api/stream/events`` does.
    events: asyncio.Queue[dict[str, Any] | str | None] = asyncio.Queue()
    await hub.attach(table, FeedWatch(program.user, events, "en"))

    def turns() -> list[dict[str, Any]]:
        told = []
        while not events.empty():
            event = events.get_nowait()
            if isinstance(event, dict) and event["type"] == "yourTurn":
                told.append(event)
        return told

    await hub.ask(table, Play(mover.user, 0, duel.plies[0], 0))
    (turn,) = turns()
    assert (turn["version"], turn["takebacks"]) == (1, 0)
    await duel.new_line(hub)
    # Version 1 again, another position: the program's turn is told again, with the count it
    # sends back.
    (turn,) = turns()
    assert (turn["version"], turn["takebacks"]) == (1, 1)
    assert turn["view"] == live.game.view(live.state, 1 - seat)
    done = await hub.ask(table, Play(program.user, 1, turn["legal"][0], turn["takebacks"]))
    assert done is True and live.info.version == 2


async def test_a_process_behind_a_takeback_neither_writes_nor_follows_a_move_on_the_old_line(
    apps: tuple[FastAPI, FastAPI, str],
) -> None:
    first, second, url = apps
    duel = await _duel(first)
    table, live, seat, other = duel.table, duel.live, duel.seat, duel.other
    here, there = hub_of(first), hub_of(second)
    await here.ask(table, Play(duel.mover.user, 0, duel.plies[0], 0))
    behind = await there.live(table)  # at version 1 of the first line
    assert behind.state is not None
    old_line = behind.state
    await duel.new_line(here)
    # The second process has heard nothing: to it the table is still at version 1 of the
    # first line. A reply chosen there is not written after the other line's move (the
    # database's version is the same): refused, and the process catches up.
    reply = next(str(a) for a in legal_actions_of(old_line, 1 - seat) if ">" in str(a))
    with pytest.raises(Refused) as refused:
        await there.ask(table, Play(other.user, 1, reply, 0))
    assert refused.value.code == "stale"
    moves = "SELECT count(*) FROM moves WHERE table_id = :t"
    assert scalar(url, moves, t=table) == 1
    assert behind.info.takebacks == 1 and behind.state is not None
    assert live.game.view(behind.state, None) == live.game.view(live.state, None)

    # A move heard from a process that had not seen the takeback (its note counts none) is
    # not followed: the process reads the database instead.
    legal = legal_actions_of(live.state, 1 - seat)
    answer = next(str(a) for a in legal if ">" in str(a))
    await here.ask(table, Play(other.user, 1, answer, 1))
    plan = Timing(live.info.to_move, live.info.turn_started_at, live.info.deadline_at, None, {})
    at = live.info.updated_at or datetime.now(UTC)
    stale_note = NotedMove(2, 1 - seat, answer, at, plan, takebacks=0)
    assert await there.ask(table, Follow(stale_note)) is False
    assert behind.info.version == 1
    # The same move, noted with the count, is followed.
    assert await there.ask(table, Follow(replace(stale_note, takebacks=1))) is True
    assert behind.info.version == 2
    assert live.game.view(behind.state, None) == live.game.view(live.state, None)
