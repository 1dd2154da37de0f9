"""Recto Verso at the table server: both partners act at once, the server's clock times the
rounds out, every move is stamped, and no payload to a partner carries the other side (R17)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Any

import pytest
from fastapi import FastAPI

from otherside.games import rectoverso
from otherside.games.rectoverso.cards import standard_card
from otherside.games.rectoverso.flow import LEVEL_LIMITS
from otherside.server.clock import ManualClock
from otherside.server.live.inbox import handle
from otherside.server.tables.hub import TableHub
from otherside.server.tables.live import LiveTable
from tests.server.conftest import Player, Recorder, hub_of, people, running, settle, watched


async def _table(
    app: FastAPI, players: list[Player], count: int = 2, bots: int = 0
) -> tuple[TableHub, LiveTable, list[Recorder]]:
    host = players[0].http
    made = await host.post(
        "/api/tables",
        json={"game": "rectoverso", "players": count, "options": {"difficulty": "easy"}},
    )
    assert made.status_code == 201, made.text
    table_id = made.json()["id"]
    for person in players[1:]:
        assert (await person.http.post(f"/api/tables/{table_id}/join", json={})).status_code == 200
    if bots:
        filled = await host.post(f"/api/tables/{table_id}/bots", json={"bot": "random"})
        assert filled.status_code == 200, filled.text
    assert (await host.post(f"/api/tables/{table_id}/start")).status_code == 200
    return await watched(app, table_id, players)


async def _revealed(app: FastAPI) -> tuple[TableHub, LiveTable, list[Recorder]]:
    """Two people at a cooperative table watched by a spectator, the first card revealed."""
    hub, live, conns = await _table(app, await people(app, 2))
    assert await _act(hub, live, conns[0], "reveal") == {}
    return hub, live, conns


@asynccontextmanager
async def _restarted(url: str, clock: ManualClock, table_id: str) -> AsyncIterator[LiveTable]:
    """Table ``table_id`` as a server started again on the same database and clock loads it."""
    async with running(url, clock=clock, run_scheduler=False) as again:
        yield await hub_of(again).live(table_id)


async def _act(hub: TableHub, live: LiveTable, conn: Recorder, action: str) -> dict[str, Any]:
    conn.clear()
    message = {"type": "action", "version": live.info.version, "action": action}
    await handle(hub, live, conn, json.dumps(message))
    errors = [m for m in conn.messages if m["type"] == "error"]
    return errors[0] if errors else {}


def _solution(card_number: int) -> list[str]:
    """The placements of a matching construction, in an order that can be built (R5)."""
    construction = rectoverso.solve(standard_card(card_number))
    assert construction is not None
    todo, built, order = list(construction.placements), rectoverso.Construction(), []
    while todo:
        placement = next(p for p in todo if built.check_place(p) is None)
        todo.remove(placement)
        built = built.place(placement)
        order.append(f"place {placement}")
    return order


async def test_both_partners_build_at_once_and_the_round_scores(database_url: str) -> None:
    clock = ManualClock()
    async with running(database_url, clock=clock, run_scheduler=False) as app:
        players = await people(app, 2)
        hub, live, (recto, verso, spectator) = await _table(app, players)
        assert await _act(hub, live, recto, "reveal") == {}
        card = live.state.card  # the server's own state: the spectator is not shown it (R17)
        assert spectator.last("view")["view"]["card"] is None
        moves = _solution(card)
        stale = live.info.version
        for index, action in enumerate(moves):
            clock.advance(seconds=2)
            conn = recto if index % 2 == 0 else verso
            # An action made on an older version is still applied while both build.
            conn.clear()
            await handle(
                hub, live, conn, json.dumps({"type": "action", "version": stale, "action": action})
            )
            assert not [m for m in conn.messages if m["type"] == "error"], conn.messages
        clock.advance(seconds=1)
        assert await _act(hub, live, verso, "done") == {}
        assert verso.last("view")["legal"] == [] and recto.last("view")["legal"][-1] == "done"
        # A second "done" (a double click) is told what the game says, not a turn order.
        again = await _act(hub, live, verso, "done")
        assert again["code"] == "illegal", again
        assert again["message"] == "you have said you are done this round"
        assert await _act(hub, live, recto, "done") == {}
        # A piece moved as the round ended arrives too late: the round is over, not a turn.
        late = {"type": "action", "version": stale, "action": moves[0].replace("place", "remove")}
        verso.clear()
        await handle(hub, live, verso, json.dumps(late))
        (error,) = [m for m in verso.messages if m["type"] == "error"]
        assert error["code"] == "stale" and error["message"].startswith("too late"), error
        view = spectator.last("view")["view"]
        (result,) = view["rounds"]
        seconds = 2 * len(moves) + 1
        built = sorted(m.removeprefix("place ") for m in moves)
        assert sorted(result["placements"]) == built  # the round whole, once it is over
        assert {k: v for k, v in result.items() if k != "placements"} == {
            "card": card,
            "recto": 0,
            "verso": 1,
            "seconds": float(seconds),
            "matched": True,
            "points": 1,
            "reason": "both done",
        }
        assert view["level"] == 1 and view["phase"] == "start"
        # Each move keeps the server's time, so the game so far shows the build as it happened.
        history = (await players[0].http.get(f"/api/tables/{live.id}/history")).json()["views"]
        assert [v["clock"]["elapsed"] for v in history[: len(moves) + 1]] == [
            2.0 * k for k in range(len(moves) + 1)
        ]


async def test_a_round_times_out_on_the_servers_clock(database_url: str) -> None:
    clock = ManualClock()
    async with running(database_url, clock=clock, run_scheduler=False) as app:
        hub, live, (recto, verso, spectator) = await _revealed(app)
        limit = LEVEL_LIMITS[0]
        assert live.info.deadline_at == clock.now() + timedelta(seconds=limit)
        first = _solution(live.state.card)[0]
        clock.advance(seconds=limit - 1)
        assert await app.state.scheduler.run_due() == 0
        assert await _act(hub, live, verso, first) == {}
        clock.advance(seconds=2)
        # Too late: the engine only has the timeout left, and the server plays it.
        error = await _act(hub, live, recto, "done")
        assert error["code"] == "illegal" and "time is up" in error["message"]
        assert await app.state.scheduler.run_due() == 1
        (result,) = spectator.last("view")["view"]["rounds"]
        assert result["reason"] == "time is up" and result["points"] == 0
        # Between rounds the table waits for the people (R16): no player clock runs.
        assert live.info.deadline_at is None


async def test_a_round_in_progress_resumes_after_a_restart_on_time(database_url: str) -> None:
    clock = ManualClock()
    async with running(database_url, clock=clock, run_scheduler=False) as app:
        _hub, live, _conns = await _revealed(app)
        clock.advance(seconds=30)
        table_id = live.id
    clock.advance(seconds=20)
    async with _restarted(database_url, clock, table_id) as live:
        state = live.state
        assert state is not None and state.elapsed() == 50.0
        assert live.info.deadline_at == clock.now() + timedelta(seconds=LEVEL_LIMITS[0] - 50)


async def test_a_round_cut_short_by_a_resignation_stops_its_time(database_url: str) -> None:
    """A game resigned mid-round is seen as it stood when it ended: the round's elapsed time
    does not run on with the server's clock, neither later nor after a restart."""
    clock = ManualClock()
    async with running(database_url, clock=clock, run_scheduler=False) as app:
        hub, live, (_recto, verso, spectator) = await _revealed(app)
        clock.advance(seconds=12)
        await handle(hub, live, verso, json.dumps({"type": "resign"}))
        assert live.info.status == "over"
        assert spectator.last("view")["view"]["clock"]["elapsed"] == 12.0
        clock.advance(seconds=30)
        assert [live.view(seat)["clock"]["elapsed"] for seat in (0, 1, None)] == [12.0] * 3
        table_id = live.id
    clock.advance(seconds=20)
    async with _restarted(database_url, clock, table_id) as live:
        assert live.view(0)["clock"]["elapsed"] == 12.0


async def test_no_payload_to_a_partner_carries_the_other_side(database_url: str) -> None:
    clock = ManualClock()
    async with running(database_url, clock=clock, run_scheduler=False) as app:
        players = await people(app, 3)
        hub, live, conns = await _table(app, players, count=3)
        spectator = conns[3]
        for _round in range(3):
            state = live.state
            assert state is not None
            active = state.active
            await _act(hub, live, conns[active], "turn")
            state = live.state
            recto, verso = state.recto, state.verso
            idle = ({0, 1, 2} - {recto, verso}).pop()
            card = state.current_card.to_json()
            moves = _solution(card["number"])
            for index, action in enumerate(moves):
                clock.advance(seconds=1)
                await _act(hub, live, conns[recto if index % 2 else verso], action)
                for seat, conn in enumerate(conns[:3]):
                    message = conn.last("view")
                    view = message["view"]
                    text = json.dumps(message)
                    if seat == recto:
                        assert set(view["card"]) == {"front"} and set(view["construction"]) == {
                            "front"
                        }
                        assert (
                            "back" not in view["card"] and "placements" not in view["construction"]
                        )
                        assert json.dumps(card["back"]) not in text and '"number"' not in text
                    elif seat == verso:
                        assert set(view["card"]) == {"back"} and set(view["construction"]) == {
                            "back"
                        }
                        assert json.dumps(card["front"]) not in text and '"number"' not in text
                    else:
                        assert seat == idle and view["card"] == card
                        assert set(view["construction"]) == {"front", "back", "placements"}
                    # A partner's legal actions are their own; their view keeps the secret.
                    if seat in (recto, verso):
                        assert message["legal"] and all(
                            a.startswith(("place", "remove", "done")) for a in message["legal"]
                        )
                # Without a seat: neither side, no placement, no card (R17, issue 31).
                watched = spectator.last("view")
                assert watched["view"]["card"] is None and watched["view"]["construction"] is None
                assert len(watched["view"]["rounds"]) == _round and watched["legal"] == []
            for conn in (conns[recto], conns[verso]):
                await _act(hub, live, conn, "done")
            assert spectator.last("view")["view"]["rounds"][-1]["matched"]


async def test_a_partner_bot_builds_its_own_side_beside_a_human(database_url: str) -> None:
    async with running(database_url, run_scheduler=False) as app:
        (human,) = await people(app, 1)
        made = await human.http.post("/api/tables", json={"game": "rectoverso", "players": 2})
        table_id = made.json()["id"]
        seated = await human.http.post(
            f"/api/tables/{table_id}/bots", json={"seat": 1, "bot": "partner"}
        )
        assert seated.json()["seats"][1]["name"] == "Bot partner"
        assert (await human.http.post(f"/api/tables/{table_id}/start")).status_code == 200
        hub = hub_of(app)
        live = await hub.live(table_id)
        recto, spectator = human.recorder(), Recorder(None)
        await hub.attach(table_id, recto)
        await hub.attach(table_id, spectator)
        assert await _act(hub, live, recto, "reveal") == {}
        # Left alone, the bot builds until its own side (verso) matches, then says done.
        await settle(hub, table_id, timeout=60)
        view = spectator.last("view")["view"]
        assert view["done"] == [1] and not view["unplaced"]
        state = live.state  # the server's own state: the spectator sees neither side (R17)
        card = state.current_card
        assert state.construction.back_view() == card.back
        assert await _act(hub, live, recto, "done") == {}
        (result,) = spectator.last("view")["view"]["rounds"]
        assert result["matched"] == (state.construction.front_view() == card.front)


async def test_a_table_may_play_generated_hard_cards(app: FastAPI) -> None:
    players = await people(app, 2)
    made = await players[0].http.post(
        "/api/tables",
        json={
            "game": "rectoverso",
            "players": 2,
            "options": {"difficulty": "hard", "cards": "generated"},
        },
    )
    assert made.status_code == 201, made.text
    bad = await players[0].http.post(
        "/api/tables",
        json={"game": "rectoverso", "players": 2, "options": {"cards": "random"}},
    )
    assert bad.status_code == 422 and "standard, generated" in bad.json()["detail"]
    table_id = made.json()["id"]
    await players[1].http.post(f"/api/tables/{table_id}/join", json={})
    await players[0].http.post(f"/api/tables/{table_id}/start")
    hub = hub_of(app)
    live = await hub.live(table_id)
    recto, spectator = players[0].recorder(), Recorder(None)
    await hub.attach(table_id, recto)
    await hub.attach(table_id, spectator)
    await _act(hub, live, recto, "reveal")
    card = live.state.current_card.to_json()
    assert card["number"] > 100 and card["difficulty"] == "hard"
    assert "red" in spectator.last("view")["view"]["unplaced"]


async def test_a_cooperative_game_has_only_its_round_timer(database_url: str) -> None:
    """No chess clock in Recto Verso: a pair who talk between rounds for an hour, or let a
    round run out, are never replaced by bots (R13, R16)."""
    clock = ManualClock()
    async with running(database_url, clock=clock, run_scheduler=False) as app:
        players = await people(app, 2)
        host = players[0].http
        clocked = await host.post(
            "/api/tables",
            json={"game": "rectoverso", "players": 2, "pace": {"kind": "live", "minutes": 0.5}},
        )
        assert clocked.status_code == 422 and "timed by its rounds" in clocked.text
        hub, live, (recto, verso, spectator) = await _table(app, players)
        assert live.info.pace.to_json() == {"kind": "rounds"}
        assert all(seat.time_left_ms is None for seat in live.info.seats)
        clock.advance(minutes=60)  # a long talk before the first card
        assert await app.state.scheduler.run_due() == 0
        assert await _act(hub, live, recto, "reveal") == {}
        clock.advance(seconds=LEVEL_LIMITS[0] + 1)
        assert await app.state.scheduler.run_due() == 1  # the round's own timer, nothing else
        clock.advance(minutes=60)
        assert await app.state.scheduler.run_due() == 0
        assert live.info.status == "playing"
        assert [seat.forfeit for seat in live.info.seats] == [None, None]
        assert [seat.bot for seat in live.info.seats] == [None, None]
        assert spectator.last("table")["table"]["pace"] == {"kind": "rounds"}
        # The same people play on, the partner revealing the next card (R16, taking turns).
        assert await _act(hub, live, verso, "reveal") == {}


async def test_a_partner_gone_long_may_be_played_on_with_a_bot_by_the_other(
    database_url: str,
) -> None:
    clock = ManualClock()
    async with running(database_url, clock=clock, run_scheduler=False) as app:
        players = await people(app, 3)
        ada, _bob, stranger = players
        hub, live, (recto, verso, _spectator) = await _table(app, players[:2])
        assert await _act(hub, live, recto, "reveal") == {}
        here = await ada.http.post(f"/api/tables/{live.id}/play-on", json={"seat": 1})
        assert here.status_code == 409 and here.json()["code"] == "not_away"
        hub.detach(live, verso)  # Bob closes his tab
        seats = recto.last("table")["table"]["seats"]
        assert seats[1]["away_since"] == clock.now().isoformat()
        assert seats[0]["away_since"] is None
        clock.advance(seconds=30)
        soon = await ada.http.post(f"/api/tables/{live.id}/play-on", json={"seat": 1})
        assert soon.status_code == 409 and "less than 60 s" in soon.text
        clock.advance(seconds=31)
        assert await app.state.scheduler.run_due() == 0  # no timer hands the seat over
        assert live.info.seats[1].bot is None
        outsider = await stranger.http.post(f"/api/tables/{live.id}/play-on", json={"seat": 1})
        assert outsider.status_code == 409 and outsider.json()["code"] == "no_seat"
        mine = await ada.http.post(f"/api/tables/{live.id}/play-on", json={"seat": 0})
        assert mine.status_code == 409 and mine.json()["code"] == "not_a_person"
        played_on = await ada.http.post(f"/api/tables/{live.id}/play-on", json={"seat": 1})
        assert played_on.status_code == 200, played_on.text
        seat = played_on.json()["seats"][1]
        assert seat["kind"] == "bot" and seat["forfeit"] == "away"
        assert live.info.status == "playing"


async def test_a_player_with_a_clock_is_not_played_on_for(database_url: str) -> None:
    async with running(database_url, run_scheduler=False) as app:
        ada, bob = await people(app, 2)
        made = await ada.http.post("/api/tables", json={"game": "verso", "players": 2})
        table_id = made.json()["id"]
        await bob.http.post(f"/api/tables/{table_id}/join", json={})
        await ada.http.post(f"/api/tables/{table_id}/start")
        refused = await ada.http.post(f"/api/tables/{table_id}/play-on", json={"seat": 1})
        assert refused.status_code == 409 and refused.json()["code"] == "has_a_clock"


# What a replay shows is the game's decision, the same on any database.
@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_a_finished_games_replay_shows_each_round_whole_the_live_watcher_did_not(
    app: FastAPI,
) -> None:
    """R17 hides the card and the sides from anyone without a seat while a round is played; once
    the game is over its record (every card) is public, and its replay shows each round whole."""
    (host,) = await people(app, 1)
    made = await host.http.post("/api/tables", json={"game": "rectoverso", "players": 2})
    table_id = made.json()["id"]
    await host.http.post(f"/api/tables/{table_id}/leave")  # the host only watches
    for seat, bot in enumerate(("partner", "partner")):
        await host.http.post(f"/api/tables/{table_id}/bots", json={"bot": bot, "seat": seat})
    await host.http.post(f"/api/tables/{table_id}/start")
    await settle(hub_of(app), table_id, timeout=60)
    assert (await host.http.get(f"/api/tables/{table_id}")).json()["status"] == "over"
    record = (await host.http.get(f"/api/tables/{table_id}/record")).json()
    steps = (await host.http.get(f"/api/tables/{table_id}/replay")).json()["steps"]
    building = [s["view"] for s in steps if s["view"]["phase"] == "build"]
    assert building, "no round was played"
    state = rectoverso.GAME.replay(record)
    for view in building:
        card = standard_card(view["card"]["number"])
        assert view["card"]["front"] == list(card.front)
        assert view["card"]["back"] == list(card.back)
        assert set(view["construction"]) == {"front", "back", "placements"}
    assert {r.card for r in state.results} <= {v["card"]["number"] for v in building}
    # What the watcher's table page was sent stays the public view: no card, no side.
    history = (await host.http.get(f"/api/tables/{table_id}/history")).json()["views"]
    watched_rounds = [v for v in history if v["phase"] == "build"]
    assert watched_rounds and all(
        v["card"] is None and v["construction"] is None for v in watched_rounds
    )
