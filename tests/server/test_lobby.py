"""The lobby's HTTP API: creating tables, seats, bots, starting, lists, records and replays."""

from __future__ import annotations

from fastapi import FastAPI

from otherside.bots.spec import FALLBACK as FALLBACK_BOT
from otherside.server.tables.play import Play
from tests.server.conftest import hub_of, people, settle, table_with


async def test_games_on_offer_list_verso_with_its_options_and_bots(app: FastAPI) -> None:
    http = (await people(app, 1))[0].http
    games = {g["name"]: g for g in (await http.get("/api/games")).json()}
    verso = games["verso"]
    assert verso["players"] == [1, 2, 3, 4, 5, 6]
    assert {o["name"] for o in verso["options"]} == {
        "allow_duplicate_keep",
        "first_player",
        "bot_accounts",  # the table's own option, offered with every game
    }
    assert FALLBACK_BOT in verso["bots"]


async def test_create_join_leave_and_bots_change_the_seats(app: FastAPI) -> None:
    host, friend, stranger = await people(app, 3)
    table_id = await table_with(app, [host], bots=0, options={}, start=False)
    open_tables = (await stranger.http.get("/api/tables")).json()
    assert [t["id"] for t in open_tables] == [table_id]
    made = (await host.http.get(f"/api/tables/{table_id}")).json()
    assert made["status"] == "waiting" and made["players"] == 1
    assert made["seats"][0]["name"] == host.user.name

    table_id = await table_with(
        app, [host], bots=0, options={"allow_duplicate_keep": True}, start=False
    )
    await host.http.post(f"/api/tables/{table_id}/bots", json={"seat": 0, "bot": "random"})
    resized = await host.http.post(
        "/api/tables", json={"game": "verso", "players": 3, "options": {"first_player": 2}}
    )
    three = resized.json()["id"]
    joined = (await friend.http.post(f"/api/tables/{three}/join", json={"seat": 2})).json()
    assert [s["kind"] for s in joined["seats"]] == ["human", "empty", "human"]
    again = await stranger.http.post(f"/api/tables/{three}/join", json={"seat": 2})
    assert again.status_code == 409 and "not free" in again.json()["detail"]
    left = (await friend.http.post(f"/api/tables/{three}/leave")).json()
    assert [s["kind"] for s in left["seats"]] == ["human", "empty", "empty"]
    refused = await friend.http.post(f"/api/tables/{three}/bots", json={"bot": "random"})
    assert refused.status_code == 403
    put = await host.http.post(f"/api/tables/{three}/bots", json={"seat": 1, "bot": "random"})
    assert [s["kind"] for s in put.json()["seats"]] == ["human", "bot", "empty"]
    emptied = await host.http.post(f"/api/tables/{three}/bots", json={"seat": 1, "bot": None})
    assert [s["kind"] for s in emptied.json()["seats"]] == ["human", "empty", "empty"]
    # Filled with bots, the table has nobody left to wait for: the game starts at once.
    filled = (await host.http.post(f"/api/tables/{three}/bots", json={"bot": "random"})).json()
    assert [s["kind"] for s in filled["seats"]] == ["human", "bot", "bot"]
    assert filled["status"] == "playing"
    mine = {t["id"] for t in (await host.http.get("/api/my/tables")).json()}
    assert three in mine


async def test_bad_tables_and_bad_starts_are_refused_with_reasons(app: FastAPI) -> None:
    host, friend = await people(app, 2)
    cases = [
        ({"game": "chess", "players": 2}, "no game 'chess'"),
        ({"game": "verso", "players": 7}, "not 7"),
        ({"game": "verso", "players": 2, "options": {"speed": 3}}, "has no option 'speed'"),
        ({"game": "verso", "players": 2, "options": {"first_player": 5}}, "seat from 0 to 1"),
        ({"game": "verso", "players": 2, "options": {"allow_duplicate_keep": "yes"}}, "true or"),
    ]
    for body, words in cases:
        refused = await host.http.post("/api/tables", json=body)
        assert refused.status_code == 422 and words in refused.json()["detail"], refused.text
    table_id = await table_with(app, [host], bots=0, start=False)
    two = (await host.http.post("/api/tables", json={"game": "verso", "players": 2})).json()["id"]
    empty = await host.http.post(f"/api/tables/{two}/start")
    assert empty.status_code == 409 and "empty" in empty.json()["detail"]
    unknown = await host.http.post(f"/api/tables/{two}/bots", json={"bot": "deep-blue"})
    assert unknown.status_code == 422 and "no bot 'deep-blue'" in unknown.json()["detail"]
    await friend.http.post(f"/api/tables/{two}/join", json={})
    not_host = await friend.http.post(f"/api/tables/{two}/start")
    assert not_host.status_code == 403
    assert (await host.http.post(f"/api/tables/{two}/start")).status_code == 200
    twice = await host.http.post(f"/api/tables/{two}/start")  # a retry: the game goes on
    assert twice.status_code == 200 and twice.json()["status"] == "playing"
    missing = await host.http.post("/api/tables/nope/join", json={})
    assert missing.status_code == 404
    secret = await host.http.get(f"/api/tables/{two}/record")
    assert secret.status_code == 409 and "over" in secret.json()["detail"]
    # Leaving a started game gives it up: a bot plays the seat on so the host can finish.
    late = await friend.http.post(f"/api/tables/{two}/leave")
    assert late.status_code == 200, late.text
    seat = late.json()["seats"][1]
    assert late.json()["status"] == "playing"
    assert seat["forfeit"] == "left" and seat["kind"] == "bot" and seat["bot"] == "greedy"
    again = await friend.http.post(f"/api/tables/{two}/leave")  # a retry: answered, not refused
    assert again.status_code == 200 and again.json()["seats"][1] == seat
    assert table_id


async def test_a_game_with_bots_ends_and_replays_step_by_step(app: FastAPI) -> None:
    (host,) = await people(app, 1)
    made = await host.http.post("/api/tables", json={"game": "verso", "players": 3})
    table_id = made.json()["id"]
    await host.http.post(f"/api/tables/{table_id}/leave")
    await host.http.post(f"/api/tables/{table_id}/bots", json={"bot": "random"})
    await host.http.post(f"/api/tables/{table_id}/start")
    await settle(hub_of(app), table_id)
    over = (await host.http.get(f"/api/tables/{table_id}")).json()
    assert over["status"] == "over" and over["outcome"]["winners"]
    record = await host.http.get(f"/api/tables/{table_id}/record")
    assert record.status_code == 200
    assert "attachment" in record.headers["content-disposition"]
    data = record.json()
    assert data["game"] == "verso" and len(data["pile"]) == 45
    replay = (await host.http.get(f"/api/tables/{table_id}/replay")).json()
    steps = replay["steps"]
    assert len(steps) == len(data["actions"]) + 1
    assert [s["action"] for s in steps[1:]] == data["actions"]
    assert steps[0]["view"]["pile_size"] == 45 and steps[-1]["view"]["phase"] == "over"
    assert steps[-1]["view"]["scores"] == over["outcome"]["scores"]
    finished = (await host.http.get("/api/tables", params={"status": "over"})).json()
    assert table_id in {t["id"] for t in finished}


async def test_toy_game_plugs_in_through_the_same_core(app: FastAPI) -> None:
    host, friend = await people(app, 2)
    table_id = await table_with(app, [host, friend], game="nim")
    hub = hub_of(app)
    live = hub.loaded(table_id)
    assert live is not None and live.state is not None
    while not live.state.is_over:
        seat = live.state.current_player
        mover = [host, friend][seat]
        await hub.ask(live.id, Play(mover.user, live.info.version, "take 1"))
    over = (await host.http.get(f"/api/tables/{table_id}")).json()
    assert over["status"] == "over"


async def test_a_refusal_answers_with_its_status_code_and_parameters(app: FastAPI) -> None:
    host, friend, stranger = await people(app, 3)
    made = await host.http.post("/api/tables", json={"game": "verso", "players": 3})
    table_id = made.json()["id"]
    assert (await friend.http.post(f"/api/tables/{table_id}/join", json={"seat": 1})).is_success
    taken = await stranger.http.post(f"/api/tables/{table_id}/join", json={"seat": 1})
    assert taken.status_code == 409
    assert taken.json() == {
        "detail": "seat 2 is not free; free seats: 3",
        "code": "seat_not_free",
        "params": {"seat": 1, "free": [2]},
    }
    not_host = await friend.http.post(f"/api/tables/{table_id}/start")
    assert (not_host.status_code, not_host.json()["code"]) == (403, "not_host")
    assert not_host.json()["params"] == {"host": host.user.name}
    missing = await host.http.post("/api/tables/nothing/join", json={})
    assert (missing.status_code, missing.json()["code"]) == (404, "no_table")
    # Refused, nothing changed: the seat is still the friend's.
    seats = (await host.http.get(f"/api/tables/{table_id}")).json()["seats"]
    assert [s["name"] for s in seats] == [host.user.name, friend.user.name, None]


async def test_a_host_who_leaves_the_waiting_room_hands_the_table_on(app: FastAPI) -> None:
    host, guest, third = await people(app, 3)
    made = await host.http.post("/api/tables", json={"game": "verso", "players": 3})
    table_id = made.json()["id"]
    await guest.http.post(f"/api/tables/{table_id}/join", json={})
    left = (await host.http.post(f"/api/tables/{table_id}/leave")).json()
    # The one who waits becomes the host, and can do what a host does.
    assert left["owner"] == guest.user.name
    assert [s["kind"] for s in left["seats"]] == ["empty", "human", "empty"]
    refused = await host.http.post(f"/api/tables/{table_id}/bots", json={"bot": "random"})
    assert refused.status_code == 403
    await third.http.post(f"/api/tables/{table_id}/join", json={})
    filled = await guest.http.post(f"/api/tables/{table_id}/bots", json={"bot": "random"})
    assert filled.status_code == 200 and filled.json()["status"] == "playing"
    # Who leaves a waiting table as its last person leaves it out of the lobby's list.
    alone = (await third.http.post("/api/tables", json={"game": "verso", "players": 2})).json()
    await third.http.post(f"/api/tables/{alone['id']}/leave")
    listed = {t["id"] for t in (await host.http.get("/api/tables")).json()}
    assert alone["id"] not in listed


async def test_a_start_retried_answers_with_the_game_under_way(app: FastAPI) -> None:
    host, friend = await people(app, 2)
    table_id = await table_with(app, [host, friend], bots=0, options={}, start=False)
    first = await host.http.post(f"/api/tables/{table_id}/start")
    again = await host.http.post(f"/api/tables/{table_id}/start")
    assert first.status_code == again.status_code == 200
    assert first.json()["version"] == again.json()["version"] == 0
    stranger = await friend.http.post(f"/api/tables/{table_id}/start")
    assert stranger.status_code == 403
