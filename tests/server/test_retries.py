"""A state-changing request sent again after its answer was lost (the page retries) answers
as the first one did, and changes nothing more: join, leave, filling with bots, start and
rematch."""

from __future__ import annotations

from fastapi import FastAPI

from otherside.server.tables.play import Play
from tests.server.conftest import hub_of, people, table_with


async def test_requests_sent_twice_answer_twice_and_change_nothing_more(app: FastAPI) -> None:
    host, friend = await people(app, 2)
    waiting = await host.http.post("/api/tables", json={"game": "verso", "players": 2})
    table = waiting.json()["id"]
    made = (await host.http.post("/api/tables", json={"game": "verso", "players": 3})).json()
    three = made["id"]
    for _ in range(2):
        joined = await friend.http.post(f"/api/tables/{three}/join", json={})
        assert joined.status_code == 200, joined.text
    assert [s["name"] for s in joined.json()["seats"]][:2] == [host.user.name, friend.user.name]
    for _ in range(2):
        filled = await host.http.post(f"/api/tables/{three}/bots", json={"bot": "random"})
        assert filled.status_code == 200, filled.text
        assert filled.json()["status"] == "playing"
    # The friend's join retried once the game started: the table, not "seats locked".
    late = await friend.http.post(f"/api/tables/{three}/join", json={})
    assert late.status_code == 200 and late.json()["status"] == "playing"
    for _ in range(2):
        left = await friend.http.post(f"/api/tables/{three}/leave")
        assert left.status_code == 200, left.text
        assert left.json()["seats"][1]["forfeit"] == "left"
    # A waiting table: leaving twice is leaving once.
    assert (await friend.http.post(f"/api/tables/{table}/join", json={})).status_code == 200
    for _ in range(2):
        gone = await friend.http.post(f"/api/tables/{table}/leave")
        assert gone.status_code == 200 and friend.user.name not in str(gone.json()["seats"])
    # Rematch asked twice: one new table.
    hub = hub_of(app)
    two = await table_with(app, [host, friend])
    live = await hub.live(two)
    while live.info.status == "playing":
        assert live.state is not None
        seat = live.info.to_move[0]
        mover = host if live.info.seats[seat].user_id == host.user.id else friend
        await hub.ask(two, Play(mover.user, live.info.version, str(live.state.legal_actions()[0])))
    first = await host.http.post(f"/api/tables/{two}/rematch")
    again = await host.http.post(f"/api/tables/{two}/rematch")
    assert first.status_code == again.status_code == 201
    assert first.json()["id"] == again.json()["id"]
