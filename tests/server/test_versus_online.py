"""VERSUS at the table server: play, resign, draw offers, turn-based days with reminders by
e-mail and the 7-day rule, Elo ratings — on SQLite and PostgreSQL, time from a manual clock."""

from __future__ import annotations

import asyncio
import json
import random
from datetime import timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from otherside.bots import make_bot
from otherside.games import versus
from otherside.server.clock import ManualClock
from otherside.server.live.inbox import handle
from otherside.server.ratings import elo
from otherside.server.store.models import Move, RatingChange
from otherside.server.tables.deadlines import time_left
from otherside.server.tables.hub import TableHub
from otherside.server.tables.live import LiveTable
from otherside.server.tables.play import Play
from tests.server.conftest import (
    PUBLIC_URL,
    Mailbox,
    Player,
    Recorder,
    hub_of,
    people,
    registered,
    reminding,
    running,
    settle,
    table_with,
    watched,
)

TURN = {"kind": "turn", "days": 7, "remind_days": 4}


async def _versus(
    app: FastAPI, players: list[Player], pace: dict[str, Any] | None = None
) -> tuple[TableHub, LiveTable, list[Recorder]]:
    """A VERSUS game of the two ``players`` (turn-based unless ``pace`` says otherwise),
    started, and watched by them and a spectator (:func:`watched`)."""
    table_id = await table_with(app, players, game="versus", pace=pace or TURN)
    return await watched(app, table_id, players)


async def _send(hub: TableHub, live: LiveTable, conn: Recorder, message: dict[str, Any]) -> None:
    await handle(hub, live, conn, json.dumps(message))


async def _moves(app: FastAPI, table_id: str) -> int:
    return await app.state.db.run(
        lambda s: s.scalar(select(func.count()).select_from(Move).where(Move.table_id == table_id))
    )


async def test_two_players_play_to_the_end_and_the_record_replays(database_url: str) -> None:
    clock = ManualClock()
    async with running(database_url, clock=clock, run_scheduler=False) as app:
        players = await people(app, 2)
        hub, live, conns = await _versus(app, players)
        bot, rng = make_bot("versus", "greedy"), random.Random(3)
        while live.info.status == "playing":
            seat = live.info.to_move[0]
            view = conns[seat].last("view")
            assert view["legal"] and conns[1 - seat].last("view")["legal"] == []
            plies = [a for a in view["legal"] if ">" in a]
            choice = str(bot.choose(view["view"], [versus.parse_action(p) for p in plies], rng))
            clock.advance(minutes=5)
            await _send(
                hub,
                live,
                conns[seat],
                {"type": "action", "version": view["version"], "action": choice},
            )
        record = (await players[0].http.get(f"/api/tables/{live.id}/record")).json()
        assert record["names"] == [p.user.name for p in players]
        replayed = versus.replay(record)
        assert replayed.is_over and replayed.outcome.to_json() == {
            k: v for k, v in live.info.outcome.items() if k in ("scores", "winners", "reason")
        }
        final = conns[2].last("view")["view"]
        assert final["outcome"] == replayed.outcome.to_json()
        steps = (await players[0].http.get(f"/api/tables/{live.id}/replay")).json()["steps"]
        assert len(steps) == len(record["plies"]) + 1
        # Every move is stamped with the server's clock, five minutes apart.
        first, second = steps[1]["at"], steps[2]["at"]
        assert versus_time(second) - versus_time(first) == timedelta(minutes=5), (first, second)


def versus_time(iso: str) -> Any:
    from datetime import datetime

    return datetime.fromisoformat(iso)


async def test_bad_input_gets_a_clear_error_and_changes_nothing(app: FastAPI) -> None:
    players = await people(app, 2)
    hub, live, (blue, brown, spectator) = await _versus(app, players)
    cases = [
        (brown, {"type": "action", "version": 0, "action": "0:4>0:3"}, "not_your_turn", "turn"),
        (blue, {"type": "action", "version": 3, "action": "0:-4>0:-3"}, "stale", "version 0"),
        (blue, {"type": "action", "version": 0, "action": "accept-draw"}, "illegal", "no draw"),
        (
            blue,
            {"type": "action", "version": 0, "action": "0:-4>0:-1"},
            "illegal",
            "exactly one cell",
        ),
        (blue, {"type": "action", "version": 0, "action": "9:9>0:0"}, "illegal", "not a cell"),
        (spectator, {"type": "action", "version": 0, "action": "0:-4>0:-3"}, "not_seated", "seat"),
        (spectator, {"type": "resign"}, "not_seated", "no seat"),
        (brown, {"type": "action", "version": 0, "action": "resign"}, "not_your_turn", "turn"),
    ]
    for conn, message, code, words in cases:
        before = (live.state, live.info)
        conn.clear()
        await _send(hub, live, conn, message)
        error = conn.messages[0]
        assert error["type"] == "error" and error["code"] == code, (message, error)
        assert words in error["message"], (message, error)
        assert (live.state, live.info) == before and await _moves(app, live.id) == 0


async def test_a_player_may_resign_on_either_turn(app: FastAPI) -> None:
    players = await people(app, 2)
    hub, live, (blue, brown, spectator) = await _versus(app, players)
    # Out of turn: the engine has no resign for Brown now, so the table ends the game.
    await _send(hub, live, brown, {"type": "resign"})
    assert live.info.status == "over" and live.info.outcome["winners"] == [0]
    assert "resigned" in live.info.outcome["reason"]
    assert spectator.last("table")["table"]["status"] == "over"
    record = (await players[0].http.get(f"/api/tables/{live.id}/record")).json()
    assert record["result"]["winners"] == [0] and record["plies"] == []
    blue.clear()
    await _send(hub, live, blue, {"type": "resign"})
    assert blue.messages[0]["code"] == "game_over"
    # On one's own turn the engine's resign is played, so the record itself says it.
    hub2, live2, (blue2, _brown2, _) = await _versus(app, players)
    await _send(hub2, live2, blue2, {"type": "resign"})
    record2 = (await players[0].http.get(f"/api/tables/{live2.id}/record")).json()
    assert record2["plies"] == ["resign"] and versus.replay(record2).outcome.winners == (1,)


async def test_draw_offers_declined_then_accepted(app: FastAPI) -> None:
    players = await people(app, 2)
    hub, live, (blue, brown, _) = await _versus(app, players)
    await _send(hub, live, blue, {"type": "action", "version": 0, "action": "offer-draw"})
    assert brown.last("view")["legal"] == ["accept-draw", "decline-draw"]
    assert brown.last("view")["view"]["draw_offer"] == 0
    await _send(hub, live, brown, {"type": "action", "version": 1, "action": "decline-draw"})
    assert "offer-draw" not in blue.last("view")["legal"] and live.info.status == "playing"
    await _send(hub, live, blue, {"type": "action", "version": 2, "action": "0:-4>0:-3"})
    await _send(hub, live, brown, {"type": "action", "version": 3, "action": "offer-draw"})
    await _send(hub, live, blue, {"type": "action", "version": 4, "action": "accept-draw"})
    assert live.info.status == "over" and live.info.outcome["winners"] == []
    assert live.info.outcome["reason"] == "draw agreed"


async def test_turn_based_reminder_on_day_4_and_loss_on_day_7(
    database_url: str, mailbox: Mailbox
) -> None:
    clock = ManualClock()
    async with reminding(database_url, mailbox, clock) as (app, ada, bob):
        hub, live, (blue, _brown, _) = await _versus(app, [ada, bob])
        scheduler = app.state.scheduler
        await _send(hub, live, blue, {"type": "action", "version": 0, "action": "0:-4>0:-3"})
        turn = live.info.turn_started_at
        assert live.info.deadline_at == turn + timedelta(days=4)
        clock.advance(days=4, seconds=-1)
        assert await scheduler.run_due() == 0 and mailbox.messages == []
        clock.advance(seconds=1)
        assert await scheduler.run_due() == 1 and len(mailbox.messages) == 1
        mail = mailbox.messages[0]
        assert mail["To"] == "bob@example.org" and "VERSUS" in mail["Subject"]
        body = mail.get_content()
        assert f"{PUBLIC_URL}/table/{live.id}" in body and "7 days" in body
        mine = (await bob.http.get("/api/my/tables")).json()
        assert mine[0]["your_turn"] and mine[0]["reminded"]
        assert live.info.deadline_at == turn + timedelta(days=7)
        clock.advance(days=2, hours=23)
        assert await scheduler.run_due() == 0 and live.info.status == "playing"
        clock.advance(hours=1)
        assert await scheduler.run_due() == 1
        over = (await ada.http.get(f"/api/tables/{live.id}")).json()
        assert over["status"] == "over" and over["outcome"]["winners"] == [0]
        assert "ran out of time" in over["outcome"]["reason"]
        record = (await ada.http.get(f"/api/tables/{live.id}/record")).json()
        assert record["plies"] == ["0:-4>0:-3", "resign"]  # Bob, to move, lost by the rule
        assert len(mailbox.messages) == 1
        board = (await ada.http.get("/api/ratings?game=versus")).json()
        high, low = elo.duel(elo.START, elo.START, 1.0)
        assert board == [
            {"name": "Ada", "rating": round(high), "games": 1},
            {"name": "Bob", "rating": round(low), "games": 1},
        ]
        # The result says what the game did to each rating; the store keeps it for a table
        # loaded afresh (after a restart, or on another process).
        told = {s["name"]: s["rating_change"] for s in blue.last("table")["table"]["seats"]}
        assert told == {"Ada": round(high - elo.START), "Bob": round(low - elo.START)}
        assert told["Ada"] > 0 > told["Bob"]
        held = await hub.services.store.held(live.id)
        assert held is not None and held.changes == live.rating_changes


async def test_deadlines_live_in_the_database_and_survive_a_restart(database_url: str) -> None:
    clock = ManualClock()
    async with running(database_url, clock=clock, run_scheduler=False) as app:
        ada, bob = await registered(app, "Ada", "Bob")
        _hub, live, _ = await _versus(app, [ada, bob])
        table_id = live.id
    clock.advance(days=7, seconds=1)
    async with running(database_url, clock=clock, run_scheduler=False) as again:
        assert await again.state.scheduler.run_due() == 1
        live = await hub_of(again).live(table_id)
        # Blue, to move, let seven days pass: Brown wins.
        assert live.info.status == "over" and live.info.outcome["winners"] == [1]


async def test_the_scheduler_acts_by_itself_when_the_clock_moves(database_url: str) -> None:
    clock = ManualClock()
    async with running(database_url, clock=clock) as app:
        players = await people(app, 2)
        _hub, live, _ = await _versus(app, players, {"kind": "live", "minutes": 1, "increment": 0})
        scheduler = app.state.scheduler
        clock.advance(seconds=61)
        for _ in range(3):  # the pass after the clock moved ends the game
            await asyncio.wait_for(scheduler.next_pass(), timeout=10)
            if live.info.status == "over":
                break
        assert (
            live.info.outcome["winners"] == [1] and "ran out of time" in live.info.outcome["reason"]
        )


async def test_a_deadline_brought_before_the_schedulers_wake_up_is_acted_on(
    database_url: str,
) -> None:
    # The scheduler sleeps until the earliest deadline; the wake after a start or a move makes
    # it read the database again only when a table held here has a deadline before that.
    clock = ManualClock()
    async with running(database_url, clock=clock) as app:
        scheduler = app.state.scheduler
        players = await people(app, 4)
        _hub, slow, _ = await _versus(app, players[:2], {"kind": "live", "minutes": 10})
        _hub, fast, _ = await _versus(app, players[2:], {"kind": "live", "minutes": 0.25})
        clock.advance(seconds=16)  # the quick game's clock has run out; the slow one's not
        for _ in range(3):
            await asyncio.wait_for(scheduler.next_pass(), timeout=10)
            if fast.info.status == "over":
                break
        assert fast.info.outcome is not None and "ran out of time" in fast.info.outcome["reason"]
        assert slow.info.status == "playing"


async def test_the_scheduler_looks_again_only_for_a_deadline_earlier_than_its_own(
    database_url: str,
) -> None:
    clock = ManualClock()
    async with running(database_url, clock=clock) as app:
        players = await people(app, 2)
        hub, live, (blue, brown, _) = await _versus(
            app, players, {"kind": "live", "minutes": 10, "increment": 0}
        )
        scheduler = app.state.scheduler
        # Told of a deadline 40 s away, the scheduler looks, then sleeps until then.
        scheduler.wake(clock.now() + timedelta(seconds=40))
        await asyncio.wait_for(scheduler.next_pass(), timeout=10)
        passes = scheduler.passes
        # Each move puts the table's deadline ten minutes on: later than the scheduler's next
        # look, so no move sends it to the database again.
        for conn in (blue, brown, blue):
            seat = live.info.to_move[0]
            mover = blue if seat == 0 else brown
            assert conn is mover
            plies = [a for a in mover.last("view")["legal"] if ">" in a]
            await _send(
                hub,
                live,
                mover,
                {"type": "action", "version": live.info.version, "action": plies[0]},
            )
        assert live.info.version == 3
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(scheduler.next_pass(), timeout=0.5)
        assert scheduler.passes == passes
        # A deadline before that look (as a new table with a short clock brings) starts one.
        scheduler.wake(clock.now() + timedelta(seconds=20))
        await asyncio.wait_for(scheduler.next_pass(), timeout=10)
        assert scheduler.passes == passes + 1


async def test_a_live_clock_charges_each_move_and_refuses_a_late_one(database_url: str) -> None:
    clock = ManualClock()
    async with running(database_url, clock=clock, run_scheduler=False) as app:
        players = await people(app, 2)
        hub, live, (blue, brown, _) = await _versus(
            app, players, {"kind": "live", "minutes": 2, "increment": 3}
        )
        assert [s.time_left_ms for s in live.info.seats] == [120_000, 120_000]
        clock.advance(seconds=30)
        await _send(hub, live, blue, {"type": "action", "version": 0, "action": "0:-4>0:-3"})
        assert [s.time_left_ms for s in live.info.seats] == [93_000, 120_000]
        assert brown.last("view")["clock"]["time_left_ms"] == [93_000, 120_000]
        clock.advance(seconds=119)
        assert time_left(hub.services, live, 1) == 1_000
        clock.advance(seconds=2)
        brown.clear()
        await _send(hub, live, brown, {"type": "action", "version": 1, "action": "0:4>0:3"})
        assert brown.messages[-1]["code"] == "out_of_time"
        assert live.info.status == "over" and live.info.outcome["winners"] == [0]
        assert await _moves(app, live.id) == 2  # Blue's ply and Brown's forced resign


async def test_ratings_count_only_registered_players_and_draws_move_nothing(app: FastAPI) -> None:
    ada, bob = await registered(app, "Ada", "Bob")
    guest = (await people(app, 1))[0]
    hub, live, (blue, brown, _) = await _versus(app, [ada, guest])
    assert not live.info.rated
    await _send(hub, live, blue, {"type": "resign"})
    hub, live, (blue, brown, _) = await _versus(app, [ada, bob])
    assert live.info.rated
    await _send(hub, live, blue, {"type": "action", "version": 0, "action": "offer-draw"})
    await _send(hub, live, brown, {"type": "action", "version": 1, "action": "accept-draw"})
    board = (await ada.http.get("/api/ratings?game=versus")).json()
    assert board == [
        {"name": "Ada", "rating": 1500, "games": 1},
        {"name": "Bob", "rating": 1500, "games": 1},
    ]
    table = (await ada.http.get(f"/api/tables/{live.id}")).json()
    assert [s["rating"] for s in table["seats"]] == [1500, 1500]
    with_bot = await table_with(app, [ada], bots=1, game="versus")
    await settle(hub_of(app), with_bot)
    changes = await app.state.db.run(
        lambda s: s.scalar(select(func.count()).select_from(RatingChange))
    )
    assert changes == 2
    unknown = await ada.http.get("/api/ratings?game=chess")
    assert unknown.status_code == 422


async def test_accounts_may_add_and_remove_a_reminder_address(app: FastAPI) -> None:
    (ada,) = await registered(app, "Ada")
    bad = await ada.http.post("/api/me/email", json={"email": "not-an-address"})
    assert bad.status_code == 422 and "e-mail" in bad.json()["detail"]
    assert (await ada.http.get("/api/me")).json()["user"]["email"] is None
    await ada.http.post("/api/me/email", json={"email": "ada@example.org"})
    me = (await ada.http.get("/api/me")).json()["user"]
    assert me["email"] == "ada@example.org" and me["email_confirmed"] is False  # no link yet
    await ada.http.post("/api/me/email", json={"email": None})
    assert (await ada.http.get("/api/me")).json()["user"]["email"] is None


async def test_the_host_picks_the_search_bots_think_budget(app: FastAPI) -> None:
    (host,) = await people(app, 1)
    made = await host.http.post("/api/tables", json={"game": "versus", "players": 2})
    table_id = made.json()["id"]
    games = (await host.http.get("/api/games")).json()
    choices = next(g for g in games if g["name"] == "versus")["bot_choices"]
    search = next(c for c in choices if c["spec"] == "search:think=2")
    # Parsed by the server: pages read the name and options, they never split the spec.
    assert search["label"] == "Search bot · 2 s a move" and search["players"] == [2]
    assert search["name"] == "search" and search["options"] == {"think": 2.0}
    for bad, words in (
        ("search:think=99", "from 0.1 to 10"),
        ("greedy:think=1", "no option 'think'"),
        ("search:depth=3", "no option 'depth'"),
        ("search:think=fast", "name:key=number"),
        ("alphazero", "versus has no bot 'alphazero'"),
    ):
        refused = await host.http.post(f"/api/tables/{table_id}/bots", json={"seat": 1, "bot": bad})
        assert refused.status_code == 422 and words in refused.json()["detail"], refused.text
    seated = await host.http.post(
        f"/api/tables/{table_id}/bots", json={"seat": 1, "bot": "search:think=0.1"}
    )
    seat = seated.json()["seats"][1]
    assert seat["name"] == "Search bot · 0.1 s a move"  # the one bot: not numbered
    assert seat["bot_name"] == "search" and seat["bot_label"] == "Search bot · 0.1 s a move"
    assert (await host.http.post(f"/api/tables/{table_id}/start")).status_code == 200
    hub = hub_of(app)
    live = await hub.live(table_id)
    await hub.ask(live.id, Play(host.user, 0, "0:-4>0:-3"))
    await settle(hub, table_id)
    assert live.info.version == 2 and live.info.to_move == (0,)
