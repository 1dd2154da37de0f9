"""A seat's name is made once, by the server (:func:`otherside.server.live.wire.seat_names`),
and every answer that names a seat carries that name: a table, the lobby's lists, the ``table``
message, a replay, a finished game's record, a player's recent games. A bot is numbered among
the table's bots alike, only when there are several, in the reader's language; a person, a bot
account and a player whose seat a bot took over keep their names."""

from __future__ import annotations

import json
from typing import Any

import httpx
from fastapi import FastAPI
from fastapi.testclient import TestClient

from otherside.server.app import create_app
from otherside.server.live.wire import seat_names
from otherside.server.store.db import sqlite_url
from otherside.server.store.records import SeatInfo
from tests.server.conftest import hub_of, people, settle, sqlite_only

GERMAN = {"Accept-Language": "de"}


def test_bots_are_numbered_among_alike_bots_and_people_keep_their_names() -> None:
    seats = [
        SeatInfo(0, bot="random"),
        SeatInfo(1, bot="search:think=2"),
        SeatInfo(2, 7, "ada", bot="random", forfeit="left"),  # a bot plays on for Ada
        SeatInfo(3, 8, "Robo", bot_account=True),
        SeatInfo(4, bot="search:think=1"),
        SeatInfo(5, bot="random"),
        SeatInfo(6),
    ]
    # Two random bots (Ada's seat is hers, whoever plays it on); two search bots that think
    # differently are told apart by their words, not by numbers.
    assert seat_names(seats) == [
        "Random bot 1",
        "Search bot · 2 s a move",
        "ada",
        "Robo",
        "Search bot · 1 s a move",
        "Random bot 2",
        None,
    ]
    assert seat_names(seats[:2], "de") == ["Zufalls-Bot", "Such-Bot · 2 s pro Zug"]
    # One bot whatever way its spec is written.
    twice = [SeatInfo(0, bot="search:think=2"), SeatInfo(1, bot="search:think=2.0")]
    assert seat_names(twice, "fr") == [
        "Bot chercheur 1 · 2 s par coup",
        "Bot chercheur 2 · 2 s par coup",
    ]


async def _bots(http: httpx.AsyncClient, table_id: str, bots: dict[int, str | None]) -> None:
    for seat, bot in bots.items():
        seated = await http.post(f"/api/tables/{table_id}/bots", json={"seat": seat, "bot": bot})
        assert seated.status_code == 200, seated.text


def _names(table: dict[str, Any]) -> list[str | None]:
    return [seat["name"] for seat in table["seats"]]


@sqlite_only()
async def test_every_answer_names_a_tables_bots_as_the_pages_do(app: FastAPI) -> None:
    (host,) = await people(app, 1)
    made = await host.http.post("/api/tables", json={"game": "verso", "players": 5})
    table_id = made.json()["id"]
    await _bots(host.http, table_id, {1: "random", 2: "greedy", 3: "random"})
    me = host.user.name
    for headers, expected in (
        ({}, [me, "Random bot 1", "Greedy bot", "Random bot 2", None]),
        (GERMAN, [me, "Zufalls-Bot 1", "Gieriger Bot", "Zufalls-Bot 2", None]),
    ):
        one = (await host.http.get(f"/api/tables/{table_id}", headers=headers)).json()
        listed = (await host.http.get("/api/tables", headers=headers)).json()
        mine = (await host.http.get("/api/my/tables", headers=headers)).json()
        player = (await host.http.get(f"/api/players/{me}", headers=headers)).json()
        assert _names(one) == expected
        assert [_names(t) for t in listed if t["id"] == table_id] == [expected]
        assert [_names(t) for t in mine if t["id"] == table_id] == [expected]
        # A player's recent games, where the open seat was "—" and a bot "random bot".
        assert [g["players"] for g in player["recent"] if g["id"] == table_id] == [expected]
    # The one random bot left is not numbered.
    await _bots(host.http, table_id, {3: None})
    one = (await host.http.get(f"/api/tables/{table_id}")).json()
    assert _names(one) == [me, "Random bot", "Greedy bot", None, None]


@sqlite_only()
async def test_a_finished_games_record_and_replay_name_its_bots_as_the_table(app: FastAPI) -> None:
    (host,) = await people(app, 1)
    made = await host.http.post("/api/tables", json={"game": "verso", "players": 3})
    table_id = made.json()["id"]
    assert (await host.http.post(f"/api/tables/{table_id}/leave")).status_code == 200
    await _bots(host.http, table_id, {0: "random", 1: "greedy", 2: "random"})
    assert (await host.http.post(f"/api/tables/{table_id}/start")).status_code == 200
    await settle(hub_of(app), table_id)
    for headers, expected in (
        ({}, ["Random bot 1", "Greedy bot", "Random bot 2"]),
        (GERMAN, ["Zufalls-Bot 1", "Gieriger Bot", "Zufalls-Bot 2"]),
    ):
        table = (await host.http.get(f"/api/tables/{table_id}", headers=headers)).json()
        replay = (await host.http.get(f"/api/tables/{table_id}/replay", headers=headers)).json()
        record = (await host.http.get(f"/api/tables/{table_id}/record", headers=headers)).json()
        assert table["status"] == "over"
        # The record said "Random bot 1", "Greedy bot 2", "Random bot 3": by seat.
        assert _names(table) == _names(replay["table"]) == record["names"] == expected


def test_the_table_message_names_the_bots_in_the_watchers_language(tmp_path: Any) -> None:
    app = create_app(sqlite_url(tmp_path / "ws.db"), bot_workers=0, run_scheduler=False)
    with TestClient(app) as http:
        assert http.post("/api/guest").status_code == 200
        made = http.post("/api/tables", json={"game": "verso", "players": 3}).json()
        for seat, bot in ((1, "random"), (2, "random")):
            seated = http.post(f"/api/tables/{made['id']}/bots", json={"seat": seat, "bot": bot})
            assert seated.status_code == 200, seated.text
        with http.websocket_connect(f"/ws/tables/{made['id']}", headers=GERMAN) as socket:
            message = json.loads(socket.receive_text())
    assert message["type"] == "table"
    assert _names(message["table"])[1:] == ["Zufalls-Bot 1", "Zufalls-Bot 2"]
