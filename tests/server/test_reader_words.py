"""A table's pace and its bots in the reader's words over the API and the websocket, beside the
machine fields that stay the same in every language (``pace``, a seat's ``bot``)."""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from otherside.server.app import create_app
from otherside.server.live.reader_words import bot_words, numbered_words, pace_words
from otherside.server.store.db import sqlite_url
from otherside.server.tables.pace import Pace
from tests.server.conftest import client, people, sqlite_only

LANGUAGES = {"en": "en", "de": "de-DE,de;q=0.9", "fr": "fr-CA", "nl": "nl"}


@sqlite_only()
async def test_the_table_says_its_pace_and_bots_in_each_readers_language(app: FastAPI) -> None:
    (host,) = await people(app, 1)
    pace = {"kind": "live", "minutes": 2.5, "increment": 3}
    made = await host.http.post("/api/tables", json={"game": "verso", "players": 3, "pace": pace})
    table_id = made.json()["id"]
    seated = await host.http.post(f"/api/tables/{table_id}/bots", json={"seat": 1, "bot": "greedy"})
    assert seated.status_code == 200, seated.text
    said: dict[str, tuple[Any, ...]] = {}
    for language, header in LANGUAGES.items():
        headers = {"Accept-Language": header}
        one = (await host.http.get(f"/api/tables/{table_id}", headers=headers)).json()
        listed = (await host.http.get("/api/tables", headers=headers)).json()
        mine = (await host.http.get("/api/my/tables", headers=headers)).json()
        assert [t for t in listed if t["id"] == table_id] == [one]
        assert mine[0]["pace_text"] == one["pace_text"]
        bot = one["seats"][1]
        # The machine fields do not change with the language.
        assert one["pace"] == {"kind": "live", "minutes": 2.5, "increment": 3.0}
        assert (bot["kind"], bot["bot"], bot["bot_name"]) == ("bot", "greedy", "greedy")
        said[language] = (one["pace_text"], bot["bot_label"], bot["name"])
    assert said == {
        # One bot of its kind at the table: not numbered (it was by its seat, "Greedy bot 2").
        "en": ("Live · 2.5 min + 3 s a move", "Greedy bot", "Greedy bot"),
        "de": ("Live · 2,5 Min. + 3 s pro Zug", "Gieriger Bot", "Gieriger Bot"),
        "fr": ("En direct · 2,5 min + 3 s par coup", "Bot glouton", "Bot glouton"),
        "nl": ("Live · 2,5 min + 3 s per zet", "Gretige bot", "Gretige bot"),
    }


def test_the_websocket_sends_each_watcher_the_table_in_their_language(tmp_path: Any) -> None:
    app = create_app(sqlite_url(tmp_path / "ws.db"), bot_workers=0, run_scheduler=False)
    with TestClient(app) as http:
        assert http.post("/api/guest").status_code == 200
        pace = {"kind": "turn", "days": 3, "remind_days": 1}
        made = http.post("/api/tables", json={"game": "versus", "players": 2, "pace": pace})
        table_id = made.json()["id"]
        bot = {"seat": 1, "bot": "search:think=0.5"}
        assert http.post(f"/api/tables/{table_id}/bots", json=bot).status_code == 200
        german = {"Accept-Language": "de"}
        with (
            http.websocket_connect(f"/ws/tables/{table_id}", headers=german) as first,
            http.websocket_connect(
                f"/ws/tables/{table_id}", headers={"Accept-Language": "nl"}
            ) as second,
        ):
            tables = [json.loads(first.receive_text()), json.loads(second.receive_text())]
            # A change reaches both watchers, each in their own words.
            assert http.post(f"/api/tables/{table_id}/start").status_code == 200
            for socket, seen in ((first, tables), (second, tables)):
                while (message := json.loads(socket.receive_text()))["type"] != "table":
                    pass
                seen.append(message)
    words = [(m["table"]["pace_text"], m["table"]["seats"][1]["bot_label"]) for m in tables]
    german_words = ("Rundenbasiert · 3 Tage pro Zug", "Such-Bot · 0,5 s pro Zug")
    dutch_words = ("Beurt voor beurt · 3 dagen per zet", "Zoekbot · 0,5 s per zet")
    assert words == [german_words, dutch_words, german_words, dutch_words]
    assert {m["table"]["seats"][1]["bot"] for m in tables} == {"search:think=0.5"}
    assert tables[2]["table"]["status"] == "playing"


def test_the_words_follow_the_pages_words_for_every_kind_of_pace_and_bot() -> None:
    assert pace_words(Pace(kind="live", minutes=5, increment=0), "de") == (
        "Live · 5 Min. für die Partie"
    )
    assert pace_words(Pace(kind="rounds"), "fr") == (
        "Manches chronométrées — pas de pendule par joueur"
    )
    assert pace_words(Pace(kind="turn", days=1, remind_days=0.5), "fr") == (
        "Au tour par tour · 1 jour par coup"
    )
    assert pace_words(Pace(kind="turn", days=1.5, remind_days=1), "de") == (
        "Rundenbasiert · 1,5 Tage pro Zug"
    )
    assert bot_words("partner", "nl") == "Bot-partner"
    assert bot_words("newcomer", "de") == "Newcomer-Bot"  # a bot the words do not know
    assert numbered_words("ismcts:think=2", 3, "fr") == "Bot à arbre de recherche 3 · 2 s par coup"


@sqlite_only()
async def test_the_lobbys_bot_choices_are_labelled_in_the_readers_language(app: FastAPI) -> None:
    http = client(app)
    german = (await http.get("/api/games", headers={"Accept-Language": "de"})).json()
    english = (await http.get("/api/games", headers={"Accept-Language": "en"})).json()
    versus = {c["spec"]: c for c in next(g for g in german if g["name"] == "versus")["bot_choices"]}
    english_versus = next(g for g in english if g["name"] == "versus")["bot_choices"]
    assert [c["spec"] for c in english_versus] == list(versus)  # the machine fields, unchanged
    assert versus["greedy"]["label"] == "Gieriger Bot"
    thinking = [spec for spec in versus if spec.startswith("search:think=")]
    assert thinking and all(versus[s]["label"].endswith(" s pro Zug") for s in thinking)
    assert {c["spec"]: c["label"] for c in english_versus}["greedy"] == "Greedy bot"
