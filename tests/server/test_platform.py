"""Around every table: chat, the game so far after a reload, forfeits in bigger games, rematch,
the rules pages' text."""

from __future__ import annotations

import json

from fastapi import FastAPI

from otherside.guide import rules_text
from otherside.server.clock import ManualClock
from otherside.server.live.inbox import handle
from otherside.server.live.protocol import CHAT_CHARS
from otherside.server.tables.chat import CHAT_HISTORY
from otherside.server.tables.forfeits import Resign
from otherside.server.tables.play import Play
from tests.server.conftest import (
    Recorder,
    client,
    hub_of,
    people,
    registered,
    running,
    settle,
    table_with,
)


async def test_chat_is_stored_passed_on_as_text_and_limited(app: FastAPI) -> None:
    players = await people(app, 2)
    table_id = await table_with(app, players, options={"first_player": 0})
    hub = hub_of(app)
    first, second, spectator = players[0].recorder(), players[1].recorder(), Recorder(None)
    live = await hub.attach(table_id, first)
    await hub.attach(table_id, second)
    await handle(hub, live, first, json.dumps({"type": "chat", "text": "  <b>hi</b>   there "}))
    line = second.last("chat")["lines"][0]
    assert line["text"] == "<b>hi</b> there" and line["name"] == players[0].user.name
    assert line["seat"] == 0
    # A newcomer gets the recent lines at once; a spectator without an account cannot talk.
    await hub.attach(table_id, spectator)
    assert spectator.last("chat")["lines"][0]["text"] == "<b>hi</b> there"
    await handle(hub, live, spectator, json.dumps({"type": "chat", "text": "boo"}))
    assert spectator.last("error")["code"] == "chat"
    too_long = json.dumps({"type": "chat", "text": "x" * (CHAT_CHARS + 1)})
    await handle(hub, live, first, too_long)
    assert first.last("error")["code"] == "malformed"
    for _ in range(hub.limits.chat_lines_per_minute - 1):
        await handle(hub, live, second, json.dumps({"type": "chat", "text": "spam"}))
    second.clear()
    await handle(hub, live, second, json.dumps({"type": "chat", "text": "one more"}))
    await handle(hub, live, second, json.dumps({"type": "chat", "text": "and more"}))
    assert [m["type"] for m in second.messages] == ["chat", "error"]
    assert "a minute" in second.last("error")["message"]


async def test_a_newcomer_gets_the_last_lines_as_stored(database_url: str) -> None:
    # One process alone writes this table's chat, so it keeps the recent lines in memory: a
    # newcomer must get exactly what the database holds, the oldest beyond CHAT_HISTORY gone.
    clock = ManualClock()
    async with running(database_url, clock=clock, run_scheduler=False) as app:
        players = await people(app, 2)
        table_id = await table_with(app, players, options={"first_player": 0})
        hub = hub_of(app)
        speakers = [players[0].recorder(), players[1].recorder()]
        live = await hub.attach(table_id, speakers[0])
        await hub.attach(table_id, speakers[1])
        per_minute = hub.limits.chat_lines_per_minute
        for n in range(CHAT_HISTORY + 3):
            if n and n % per_minute == 0:
                clock.advance(seconds=61)
            said = json.dumps({"type": "chat", "text": f"line {n}"})
            await handle(hub, live, speakers[n % 2], said)
        newcomer = Recorder(None)
        await hub.attach(table_id, newcomer)
        got = newcomer.last("chat")["lines"]
        assert [line["text"] for line in got] == [f"line {n}" for n in range(3, CHAT_HISTORY + 3)]
        stored = await hub.services.store.recent_chat(table_id, CHAT_HISTORY)
        assert got == [
            {"name": r.name, "seat": r.seat, "text": r.text, "at": r.at.isoformat()} for r in stored
        ]


async def test_the_game_so_far_is_what_each_seat_was_sent(app: FastAPI) -> None:
    players = await people(app, 2)
    table_id = await table_with(app, players, options={"first_player": 0})
    hub = hub_of(app)
    conns = [players[0].recorder(), players[1].recorder(), Recorder(None)]
    live = None
    for conn in conns:
        live = await hub.attach(table_id, conn)
    assert live is not None and live.state is not None
    for _ in range(6):
        seat = live.state.current_player
        await hub.ask(live.id, Play(players[seat].user, live.info.version, "flip"))
    for seat, conn in enumerate(conns[:2]):
        sent = [m["view"] for m in conn.messages if m["type"] == "view"][1:]
        got = (await players[seat].http.get(f"/api/tables/{table_id}/history")).json()["views"]
        assert got == sent and len(got) == 6
    async with client(app) as anonymous:
        public = (await anonymous.get(f"/api/tables/{table_id}/history")).json()["views"]
    assert public == [m["view"] for m in conns[2].messages if m["type"] == "view"][1:]


async def test_a_player_who_leaves_a_bigger_game_is_replaced_by_a_bot(app: FastAPI) -> None:
    ada, bob, cy = await registered(app, "Ada", "Bob", "Cy")
    table_id = await table_with(app, [ada, bob, cy], options={"first_player": 2})
    hub = hub_of(app)
    live = await hub.live(table_id)
    assert live.info.rated
    left = await cy.http.post(f"/api/tables/{table_id}/leave")
    assert left.status_code == 200, left.text
    seat = left.json()["seats"][2]
    assert seat["forfeit"] == "left" and seat["kind"] == "bot" and seat["name"] == "Cy"
    await settle(hub, table_id)
    live = await hub.live(table_id)
    assert live.info.version >= 1 and live.info.status == "playing"
    # Cy can no longer act; the others play on to the end with the bot.
    # A leave retried changes nothing more: the seat stays the bot's.
    again = await cy.http.post(f"/api/tables/{table_id}/leave")
    assert again.status_code == 200 and again.json()["seats"][2]["kind"] == "bot"
    while live.info.status == "playing":
        await settle(hub, table_id)
        state = live.state
        if state is None or state.is_over:
            break
        person = [ada, bob][state.current_player]
        await hub.ask(live.id, Play(person.user, live.info.version, str(state.legal_actions()[0])))
    await settle(hub, table_id)
    board = {r["name"]: r for r in (await ada.http.get("/api/ratings?game=verso")).json()}
    assert set(board) == {"Ada", "Bob", "Cy"} and board["Cy"]["rating"] < 1500
    assert all(r["games"] == 1 for r in board.values())


async def test_rematch_with_the_same_seats(app: FastAPI) -> None:
    players = await people(app, 2)
    table_id = await table_with(app, players, options={"first_player": 0})
    early = await players[1].http.post(f"/api/tables/{table_id}/rematch")
    assert early.status_code == 409
    hub = hub_of(app)
    await hub.ask(table_id, Resign(players[1].user))
    made = await players[1].http.post(f"/api/tables/{table_id}/rematch")
    assert made.status_code == 201, made.text
    again = made.json()
    assert again["status"] == "waiting" and again["owner"] == players[1].user.name
    assert [s["user_id"] for s in again["seats"]] == [p.user.id for p in players]
    assert again["options"]["first_player"] == 1
    same = await players[0].http.post(f"/api/tables/{table_id}/rematch")
    assert same.json()["id"] == again["id"]
    old = (await players[0].http.get(f"/api/tables/{table_id}")).json()
    assert old["rematch"] == again["id"]
    (stranger,) = await people(app, 1)
    assert (await stranger.http.post(f"/api/tables/{table_id}/rematch")).status_code == 403


async def test_the_rules_texts_are_served(app: FastAPI) -> None:
    (someone,) = await people(app, 1)
    for game in ("verso", "versus", "rectoverso"):
        page = await someone.http.get(f"/api/rules/{game}")
        assert page.status_code == 200 and page.text == rules_text(game)
        assert (await someone.http.get(f"/rules/{game}")).status_code == 200
    assert (await someone.http.get("/api/rules/chess")).status_code == 404


async def test_out_of_time_a_bot_takes_the_seat_and_the_player_loses(database_url: str) -> None:
    clock = ManualClock()
    async with running(database_url, clock=clock, run_scheduler=False) as app:
        ada, bob = await registered(app, "Ada", "Bob")
        made = await ada.http.post(
            "/api/tables",
            json={
                "game": "verso",
                "players": 2,
                "options": {"first_player": 1},
                "pace": {"kind": "live", "minutes": 1, "increment": 0},
            },
        )
        table_id = made.json()["id"]
        await bob.http.post(f"/api/tables/{table_id}/join", json={})
        await ada.http.post(f"/api/tables/{table_id}/start")
        hub = hub_of(app)
        live = await hub.live(table_id)
        assert live.info.rated and live.info.to_move == (1,)
        clock.advance(seconds=60)
        assert await app.state.scheduler.run_due() == 1
        seat = live.info.seats[1]
        assert seat.forfeit == "timeout" and seat.bot == "greedy" and seat.user_id == bob.user.id
        await settle(hub, table_id)
        while live.info.status == "playing":
            state = live.state
            assert state is not None and state.current_player == 0
            await hub.ask(live.id, Play(ada.user, live.info.version, str(state.legal_actions()[0])))
            await settle(hub, table_id)
        board = {
            r["name"]: r["rating"] for r in (await ada.http.get("/api/ratings?game=verso")).json()
        }
        assert board == {"Ada": 1516, "Bob": 1484}  # whatever the scores, Bob lost


async def test_a_players_page_has_ratings_with_history_bests_and_recent_games(app: FastAPI) -> None:
    ada, bob = await registered(app, "Ada", "Bob")
    hub = hub_of(app)
    for loser in (bob, bob, ada):
        table_id = await table_with(app, [ada, bob], game="versus")
        await hub.ask(table_id, Resign(loser.user))
    solo = await table_with(app, [ada], game="verso")
    live = await hub.live(solo)
    while live.state is not None and not live.state.is_over:
        await hub.ask(
            live.id, Play(ada.user, live.info.version, str(live.state.legal_actions()[0]))
        )
    page = (await bob.http.get("/api/players/ada")).json()
    assert page["name"] == "Ada" and not page["guest"]
    (versus,) = page["ratings"]
    assert versus["game"] == "versus" and versus["games"] == 3
    history = [h["rating"] for h in versus["history"]]
    assert history[0] == 1516.0 and history[1] > history[0] > history[2]
    assert round(history[-1]) == versus["rating"]
    (best,) = page["bests"]
    score = live.state.scores[0]
    assert best == {
        "game": "verso",
        "title": "Solo Verso",
        "unit": "VP",
        "games": 1,
        "best": score,
        "average": float(score),
        "scores": [score],
    }
    results = [g["result"] for g in page["recent"]]
    assert results[0] == f"{score} VP" and results[1:4] == ["resigned", "won", "won"]
    assert page["recent"][1]["change"] < 0 and page["recent"][1]["rated"]
    assert (await bob.http.get("/api/players/nobody")).status_code == 404
    assert (await bob.http.get("/player/Ada")).status_code == 200


async def test_bad_paces_are_refused_with_reasons(app: FastAPI) -> None:
    (host,) = await people(app, 1)
    cases = [
        ({"kind": "blitz"}, "'live' or 'turn'"),
        ({"kind": "live", "minutes": 0}, "minutes is a number from 0.25 to 180"),
        ({"kind": "live", "increment": -1}, "increment"),
        ({"kind": "live", "days": 3}, "'live' has no setting 'days'"),
        ({"kind": "turn", "days": 31}, "days is a number from 1 to 30"),
        ({"kind": "turn", "days": 3, "remind_days": 3}, "must come before the end"),
        ({"kind": "turn", "days": "7"}, "days is a number"),
        ("fast", "'pace' must be a JSON object"),  # the body schema refuses it first
    ]
    for pace, words in cases:
        refused = await host.http.post(
            "/api/tables", json={"game": "versus", "players": 2, "pace": pace}
        )
        assert refused.status_code == 422 and words in str(refused.json()["detail"]), (
            pace,
            refused.text,
        )
    made = await host.http.post(
        "/api/tables", json={"game": "versus", "players": 2, "pace": {"kind": "live"}}
    )
    assert made.json()["pace"] == {"kind": "live", "minutes": 10.0, "increment": 5.0}
    default = await host.http.post("/api/tables", json={"game": "versus", "players": 2})
    assert default.json()["pace"] == {"kind": "turn", "days": 7.0, "remind_days": 4.0}
