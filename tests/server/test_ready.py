"""A person says when a bot partner reveals Recto Verso's next card (R13, R16): the bot waits
for their ``ready``, or for its pause on the server's clock, and never reveals while the person
still reads the last result; a ``ready`` that no bot waits for is refused and changes nothing.
Also when the person's socket is on another server process than the bot's."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi import FastAPI

from otherside.core.simultaneous import legal_actions_of
from otherside.games.rectoverso.flow import LEVEL_LIMITS, ROUND_LIMIT
from otherside.server.clock import ManualClock
from otherside.server.live import fanout
from otherside.server.live.inbox import handle
from otherside.server.store.records import SeatInfo, TableInfo
from otherside.server.tables.adapters import RECTOVERSO, register_adapter
from otherside.server.tables.hub import TableHub
from otherside.server.tables.live import GameClock, LiveTable
from tests.server.conftest import (
    ADA,
    BOB,
    Player,
    Recorder,
    eventually,
    hub_of,
    people,
    running,
)

PAUSE = RECTOVERSO.ready_pause
NOW = datetime(2026, 1, 2, 12, tzinfo=UTC)


@pytest.fixture
def quick_partner() -> Iterator[None]:
    """Recto Verso's bots paced by the server's bot delay alone, not 1.5 s an action: the test
    waits for no bot's building (the wait for ``ready`` is the adapter's, unchanged)."""
    register_adapter(replace(RECTOVERSO, bot_pace=0.0))
    yield
    register_adapter(RECTOVERSO)


async def _with_bot(app: FastAPI, person: Player) -> str:
    """A started 2-player Recto Verso table: ``person`` at seat 0, a random bot at seat 1."""
    made = await person.http.post("/api/tables", json={"game": "rectoverso", "players": 2})
    table_id = str(made.json()["id"])
    bot = {"seat": 1, "bot": "random"}
    assert (await person.http.post(f"/api/tables/{table_id}/bots", json=bot)).status_code == 200
    assert (await person.http.post(f"/api/tables/{table_id}/start")).status_code == 200
    return table_id


async def _three_with_a_bot(app: FastAPI) -> tuple[Player, Player, str]:
    """A started 3-player Recto Verso table: two people at seats 0 and 2, a random bot at 1."""
    ada, sam = await people(app, 2)
    options = {"game": "rectoverso", "players": 3, "options": {"difficulty": "easy"}}
    table_id = str((await ada.http.post("/api/tables", json=options)).json()["id"])
    bot = {"seat": 1, "bot": "random"}
    assert (await ada.http.post(f"/api/tables/{table_id}/bots", json=bot)).is_success
    assert (await sam.http.post(f"/api/tables/{table_id}/join", json={"seat": 2})).is_success
    assert (await ada.http.post(f"/api/tables/{table_id}/start")).is_success
    return ada, sam, table_id


async def _send(hub: TableHub, live: LiveTable, conn: Recorder, message: Any) -> dict[str, Any]:
    """``conn`` sends ``message``: the error it gets, or ``{}``."""
    conn.clear()
    await handle(hub, live, conn, message if isinstance(message, str) else json.dumps(message))
    errors = [m for m in conn.messages if m["type"] == "error"]
    return errors[0] if errors else {}


def _phase(live: LiveTable) -> str:
    return str(live.state.phase)  # type: ignore[union-attr]


async def _time_out(app: FastAPI, clock: ManualClock, live: LiveTable) -> None:
    """The round runs out of time on the server's clock: the next card is to be revealed."""
    clock.advance(seconds=LEVEL_LIMITS[0] + 1)
    await app.state.scheduler.run_due()
    await eventually(lambda: _phase(live) == "start")


async def _waiting(live: LiveTable) -> None:
    """The bot to reveal is waiting (its pause started on the server's clock)."""
    await eventually(lambda: live.ready_wake is not None)
    assert _phase(live) == "start" and live.bot_waits()


def _first_card(*seats: SeatInfo, pause: float = PAUSE) -> LiveTable:
    """A Recto Verso table of ``len(seats)`` in play before its first round (seat 0 starts it:
    reveals the card of the cooperative game, turns a token at 3 to 6)."""
    players = len(seats)
    info = TableInfo(
        id="t1", game="rectoverso", players=players, options={}, status="playing", owner_id=1,
        owner_name="Ada", seats=seats, version=0, outcome=None, created_at=NOW, updated_at=NOW,
    )  # fmt: skip
    clock = GameClock(ManualClock(NOW))
    state = RECTOVERSO.new_state(players, RECTOVERSO.clean_options({}, players))
    return LiveTable(
        info, RECTOVERSO, RECTOVERSO.game, clock, state, ready_pause=pause, moved_at=NOW
    )


def test_only_a_bot_to_start_a_round_beside_a_person_waits() -> None:
    bot, ada = SeatInfo(0, bot="partner"), SeatInfo(1, user_id=1, user_name="Ada")
    assert _first_card(bot, ada).bot_waits()
    # Bots playing each other, a person revealing, a program's account beside the bot, and a
    # server that does not pace its bots (its pause 0): nobody waits.
    assert not _first_card(bot, SeatInfo(1, bot="random")).bot_waits()
    assert not _first_card(SeatInfo(0, user_id=1, user_name="Ada"), bot).bot_waits()
    program = SeatInfo(1, user_id=2, user_name="Prog", bot_account=True)
    assert not _first_card(bot, program).bot_waits()
    assert not _first_card(bot, ada, pause=0.0).bot_waits()


def test_a_bot_to_turn_its_token_beside_a_person_waits_until_its_deadline() -> None:
    """At 3 to 6 a round starts with the active player's token turned (R13): a bot to turn it
    waits as a bot partner to reveal does, whichever seat the person has (the partner the
    token names is not known yet), until the pause after the game reached its position (here
    its start)."""
    bot, other = SeatInfo(0, bot="partner"), SeatInfo(1, bot="random")
    ada = SeatInfo(2, user_id=1, user_name="Ada")
    waiting = _first_card(bot, other, ada)
    assert [str(a) for a in legal_actions_of(waiting.state, 0)] == ["turn"]
    assert waiting.bot_waits()
    assert waiting.ready_deadline() == NOW + timedelta(seconds=PAUSE)
    # Bots alone, a person to turn their own token, a program's account: nobody waits.
    alone = _first_card(bot, other, SeatInfo(2, bot="greedy"))
    person_first = _first_card(SeatInfo(0, user_id=1, user_name="Ada"), other, bot)
    program = _first_card(bot, other, SeatInfo(2, user_id=2, user_name="Prog", bot_account=True))
    for table in (alone, person_first, program):
        assert not table.bot_waits() and table.ready_deadline() is None


def test_a_broadcast_asks_once_whether_a_bot_waits_and_tells_everyone_until_when() -> None:
    """Every view of one broadcast carries the deadline, a spectator's and a forfeited
    player's (they watch now) too, but only a seated person's says the bot waits for them;
    whether a bot waits, which reads the legal actions of each seat to act, is asked once."""
    bot, other = SeatInfo(0, bot="partner"), SeatInfo(1, bot="random")
    ada, bob = SeatInfo(2, user_id=1, user_name="Ada"), SeatInfo(3, bot="random")
    left = replace(bob, user_id=2, user_name="Bob", forfeit="left")
    live = _first_card(bot, other, ada, left)
    me, gone, spectator = Recorder(ADA), Recorder(BOB), Recorder(None)
    live.watchers.update({me, gone, spectator})
    asked: list[bool] = []
    waits = live.bot_waits

    def counted() -> bool:
        asked.append(waits())
        return asked[-1]

    live.bot_waits = counted  # type: ignore[method-assign]
    fanout.broadcast(live, NOW, table=False, view=True)
    assert asked == [True]
    until = (NOW + timedelta(seconds=PAUSE)).isoformat()
    views = [conn.last("view") for conn in (me, gone, spectator)]
    assert [(v["seat"], v["bot_waits"], v["bot_waits_until"]) for v in views] == [
        (2, True, until),
        (None, False, until),
        (None, False, until),
    ]


async def test_the_bot_reveals_when_its_person_is_ready_or_after_its_pause(
    database_url: str, quick_partner: None
) -> None:
    clock = ManualClock()
    async with running(database_url, clock=clock, run_scheduler=False, bot_delay=0.01) as app:
        (person,) = await people(app, 1)
        table_id = await _with_bot(app, person)
        hub = hub_of(app)
        me, spectator = person.recorder(), Recorder(None)
        live = await hub.attach(table_id, me)
        await hub.attach(table_id, spectator)
        ready = {"type": "ready", "version": live.info.version}
        # The person reveals their own card: no bot waits, so a "ready" is refused.
        assert me.last("view")["bot_waits"] is False
        refused = await _send(hub, live, me, ready)
        assert refused["code"] == "not_waiting", refused
        assert await _send(hub, live, me, {**ready, "type": "action", "action": "reveal"}) == {}
        await _time_out(app, clock, live)
        # The bot's turn to reveal: it waits, on the server's clock, and the person is told.
        await _waiting(live)
        version = live.info.version
        assert me.last("view")["bot_waits"] is True
        # Until the pause after the round's end, on the server's clock.
        until = (clock.now() + timedelta(seconds=PAUSE)).isoformat()
        assert me.last("view")["bot_waits_until"] == until
        # A spectator is told when the next card comes too, and may not say ready.
        assert spectator.last("view")["bot_waits_until"] == until
        assert spectator.last("view")["bot_waits"] is False
        clock.advance(seconds=PAUSE - 1)
        for wrong, code in [
            ({"type": "ready", "version": version - 1}, "stale"),
            ({"type": "ready", "version": str(version)}, "malformed"),
            ({"type": "ready", "version": True}, "malformed"),
            ({"type": "ready", "version": float(version)}, "malformed"),
            ({"type": "ready"}, "malformed"),
            ({"type": "ready", "version": version, "seat": 1}, "malformed"),
        ]:
            assert (await _send(hub, live, me, wrong))["code"] == code, wrong
        refused = await _send(hub, live, spectator, {"type": "ready", "version": version})
        assert refused["code"] == "not_seated", refused
        # Nothing changed: the bot still waits, nobody said ready.
        assert live.ready_version is None and live.ready_wake is not None
        assert live.info.version == version and _phase(live) == "start"
        # The person is ready: the card comes at once, with no more time on the clock.
        assert await _send(hub, live, me, {"type": "ready", "version": version}) == {}
        await eventually(lambda: _phase(live) == "build")
        (revealed,) = await hub.services.store.moves_after(live.id, version, upto=version + 1)
        assert (revealed.seat, revealed.action) == (1, "reveal")
        assert me.last("view")["bot_waits"] is False
        # Round 3 is the person's to reveal; round 4 the bot's again, and nobody says ready:
        # the bot reveals once its pause is over, not a moment before.
        await _time_out(app, clock, live)
        assert (
            await _send(
                hub, live, me, {"type": "action", "version": live.info.version, "action": "reveal"}
            )
            == {}
        )
        await _time_out(app, clock, live)
        await _waiting(live)
        clock.advance(seconds=PAUSE - 0.5)
        await asyncio.sleep(0.05)  # the bot task's turn to run, were it woken
        assert _phase(live) == "start" and live.ready_wake is not None
        clock.advance(seconds=0.5)
        await eventually(lambda: _phase(live) == "build")


@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
async def test_a_ready_said_through_another_process_reaches_the_bots_owner(
    database_url: str, quick_partner: None
) -> None:
    clock = ManualClock()
    settings: dict[str, Any] = {"clock": clock, "run_scheduler": False, "bot_delay": 0.01}
    async with (
        running(database_url, **settings) as owner,
        running(database_url, **settings) as other,
    ):
        (person,) = await people(owner, 1)
        table_id = await _with_bot(owner, person)
        owned = await hub_of(owner).live(table_id)
        # The person's first card through the owner: the bot builds there, holding the lease.
        reveal = {"type": "action", "version": owned.info.version, "action": "reveal"}
        assert await _send(hub_of(owner), owned, person.recorder(), reveal) == {}
        await _time_out(owner, clock, owned)
        await _waiting(owned)
        # The person's socket is on the other process, which does not own the table.
        hub, me = hub_of(other), person.recorder()
        live = await hub.attach(table_id, me)
        assert not hub.cluster.holds(table_id) and hub_of(owner).cluster.holds(table_id)
        assert live.info.version == owned.info.version and me.last("view")["bot_waits"] is True
        # Both processes tell the same deadline: the one the owner's bot waits for.
        deadline = owned.ready_deadline()
        assert deadline is not None and me.last("view")["bot_waits_until"] == deadline.isoformat()
        assert await _send(hub, live, me, {"type": "ready", "version": live.info.version}) == {}
        await eventually(lambda: _phase(owned) == "build")  # no time passed on the clock
        await eventually(lambda: _phase(live) == "build")


@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
async def test_a_seat_handed_over_through_another_process_moves_no_deadline(
    database_url: str, quick_partner: None
) -> None:
    """At 3 to 6, a player leaving through another process while a bot waits: both processes
    still show (and the owner's bot still waits for) the deadline the round's end set, the
    owner after its catch-up of the hand-over too."""
    clock = ManualClock()
    settings: dict[str, Any] = {"clock": clock, "run_scheduler": False, "bot_delay": 0.01}
    async with (
        running(database_url, **settings) as owner,
        running(database_url, **settings) as other,
    ):
        ada, sam, table_id = await _three_with_a_bot(owner)
        owned, me = await hub_of(owner).live(table_id), ada.recorder()
        await hub_of(owner).attach(table_id, me)
        turn = {"type": "action", "version": owned.info.version, "action": "turn"}
        assert await _send(hub_of(owner), owned, me, turn) == {}
        # The round runs out of time: seat 1's bot waits to turn its token, in the owner.
        clock.advance(seconds=ROUND_LIMIT + 1)
        await owner.state.scheduler.run_due()
        await eventually(lambda: _phase(owned) == "start")
        await _waiting(owned)
        deadline = owned.ready_deadline()
        assert deadline == clock.now() + timedelta(seconds=PAUSE)
        # Sam watches through the other process, and leaves there three seconds later.
        hub, his = hub_of(other), sam.recorder()
        live = await hub.attach(table_id, his)
        assert not hub.cluster.holds(table_id)
        assert his.last("view")["bot_waits_until"] == deadline.isoformat()
        clock.advance(seconds=3)
        assert await _send(hub, live, his, {"type": "resign"}) == {}
        assert live.info.seats[2].bot is not None and live.ready_deadline() == deadline
        await eventually(lambda: owned.info.seats[2].bot is not None)  # the owner caught up
        assert owned.ready_deadline() == deadline and owned.ready_wake is not None
        assert me.last("view")["bot_waits_until"] == deadline.isoformat()
        # The bot turns its token at that deadline, not three seconds after it.
        clock.advance(seconds=PAUSE - 3)
        await eventually(lambda: _phase(owned) == "build")


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_the_last_person_leaving_during_the_wait_lets_the_bots_go_on_at_once(
    database_url: str, quick_partner: None
) -> None:
    """At 3 to 6, the people leave while a bot waits for one of them to be ready: with nobody
    left to read the result, the bot turns its token at once, not at the deadline."""
    clock = ManualClock()
    settings: dict[str, Any] = {"clock": clock, "run_scheduler": False, "bot_delay": 0.01}
    async with running(database_url, **settings) as app:
        ada, sam, table_id = await _three_with_a_bot(app)
        hub, hers, his = hub_of(app), ada.recorder(), sam.recorder()
        live = await hub.attach(table_id, hers)
        await hub.attach(table_id, his)
        turn = {"type": "action", "version": live.info.version, "action": "turn"}
        assert await _send(hub, live, hers, turn) == {}
        clock.advance(seconds=ROUND_LIMIT + 1)
        await app.state.scheduler.run_due()
        await eventually(lambda: _phase(live) == "start")
        await _waiting(live)
        waited_at = live.info.version
        # Sam leaves: Ada is still there to read the result, the bot still waits.
        assert await _send(hub, live, his, {"type": "resign"}) == {}
        await asyncio.sleep(0.05)  # the bot task's turn to run, were it woken
        assert live.bot_waits() and live.ready_wake is not None and _phase(live) == "start"
        # Ada leaves too: nobody to wait for, and no time passes on the clock.
        assert await _send(hub, live, hers, {"type": "resign"}) == {}
        await eventually(lambda: live.info.version > waited_at + 2 or live.info.status == "over")
        assert live.ready_wake is None and not live.bot_waits()
