"""The site in the reader's language: the pages, the switcher (a cookie, and the account's
choice brought back by signing in), refusals over HTTP and the websocket (their code and
parameters unchanged), the catalogs' JSON for the pages' modules, and the reminder mail."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from fastapi import FastAPI, WebSocketDisconnect
from fastapi.testclient import TestClient
from sqlalchemy import select

from otherside.server.app import create_app
from otherside.server.clock import ManualClock
from otherside.server.live.inbox import handle
from otherside.server.store.db import sqlite_url
from otherside.server.store.models import User
from tests.server.conftest import (
    PUBLIC_URL,
    Mailbox,
    client,
    people,
    registered,
    reminding,
    sqlite_only,
    table_with,
    watched,
)

GERMAN = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}
GERMAN_DAYS = ["Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"]
GERMAN_MONTHS = "Januar Februar März April Mai Juni Juli August September Oktober November Dezember"
GERMAN_MONTHS_LIST = GERMAN_MONTHS.split()


@sqlite_only()
async def test_a_page_is_in_the_browser_language_until_the_switcher_says_otherwise(
    app: FastAPI,
) -> None:
    http = client(app)
    german = await http.get("/", headers=GERMAN)
    assert german.status_code == 200
    assert '<html lang="de"' in german.text
    assert "Neuer Tisch" in german.text and "New table" not in german.text
    assert '<option value="de" lang="de" selected>Deutsch</option>' in german.text
    assert 'aria-label="Sprache"' in german.text
    # The brand and the games' names are marked translate="no" and stay as they are.
    assert ">Recto Verso</a>" in german.text and "other<span>side</span>" in german.text
    table = await http.get("/table/abc", headers={"Accept-Language": "nl"})
    assert '<html lang="nl"' in table.text and "Wachtkamer" in table.text
    unknown = await http.get("/", headers={"Accept-Language": "ja, zh;q=0.8"})
    assert '<html lang="en"' in unknown.text and "New table" in unknown.text
    chose = await http.post("/api/language", json={"language": "fr"})
    assert chose.status_code == 200 and chose.cookies.get("lang") == "fr"
    french = await http.get("/", headers=GERMAN)
    assert '<html lang="fr"' in french.text and "Nouvelle table" in french.text
    assert german.headers["vary"] == "Cookie, Accept-Language"


async def test_the_account_keeps_the_choice_and_signing_in_brings_it_back(app: FastAPI) -> None:
    (ada,) = await registered(app, "Ada")
    refused = await ada.http.post("/api/language", json={"language": "xx"}, headers=GERMAN)
    assert refused.status_code == 422
    assert refused.json() == {
        "detail": "keine Sprache „xx“; bekannt: en, de, fr, nl",
        "code": "no_language",
        "params": {"language": "xx", "known": "en, de, fr, nl"},
    }
    assert (await ada.http.post("/api/language", json={"language": "nl"})).status_code == 200
    stored = await app.state.db.run(
        lambda s: s.scalar(select(User.language).where(User.id == ada.user.id))
    )
    assert stored == "nl"
    elsewhere = client(app)  # another browser: no cookie yet
    signed = await elsewhere.post("/api/signin", json={"name": "Ada", "password": "secret-Ada"})
    assert signed.status_code == 200 and signed.cookies.get("lang") == "nl"
    page = await elsewhere.get("/", headers=GERMAN)
    assert '<html lang="nl"' in page.text and "Nieuwe tafel" in page.text


@sqlite_only()
async def test_refusals_say_their_words_in_the_reader_language_beside_the_same_code(
    app: FastAPI,
) -> None:
    host, friend, stranger = await people(app, 3)
    made = await host.http.post("/api/tables", json={"game": "verso", "players": 3})
    table_id = made.json()["id"]
    assert (await friend.http.post(f"/api/tables/{table_id}/join", json={"seat": 1})).is_success
    said = {}
    for language in ("en", "de", "fr", "nl"):
        taken = await stranger.http.post(
            f"/api/tables/{table_id}/join", json={"seat": 1}, headers={"Accept-Language": language}
        )
        assert taken.status_code == 409
        body = taken.json()
        assert (body["code"], body["params"]) == ("seat_not_free", {"seat": 1, "free": [2]})
        said[language] = body["detail"]
    assert said == {
        "en": "seat 2 is not free; free seats: 3",
        "de": "Platz 2 ist nicht frei; freie Plätze: 3",
        "fr": "la place 2 n’est pas libre ; places libres : 3",
        "nl": "plaats 2 is niet vrij; vrije plaatsen: 3",
    }
    nobody = await client(app).post(
        "/api/tables", json={"game": "verso", "players": 2}, headers=GERMAN
    )
    assert nobody.status_code == 401
    assert nobody.json()["detail"] == "melde dich zuerst an oder spiele als Gast"
    wrong = await client(app).post(
        "/api/signin", json={"name": "nobody", "password": "x"}, headers={"Accept-Language": "fr"}
    )
    assert wrong.status_code == 401
    assert wrong.json()["detail"] == "nom ou mot de passe incorrect"
    assert wrong.json()["code"] == "wrong_password"


@sqlite_only()
async def test_the_catalog_of_a_language_is_json_built_once_and_revalidated(
    app: FastAPI,
) -> None:
    http = client(app)
    german = await http.get("/api/i18n/de")
    assert german.status_code == 200
    data = german.json()
    assert data["language"] == "de"
    assert data["messages"]["Create table"] == "Tisch anlegen"
    assert data["messages"]["{count} game"] == ["{count} Partie", "{count} Partien"]
    assert ["nl", "Nederlands"] in data["languages"]
    etag = german.headers["etag"]
    again = await http.get("/api/i18n/de", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    english = (await http.get("/api/i18n/en")).json()
    assert english["messages"] == {}
    assert (await http.get("/api/i18n/klingon")).json()["language"] == "en"


def test_a_websocket_refusal_is_in_the_socket_reader_language(tmp_path: Any) -> None:
    app = create_app(sqlite_url(tmp_path / "ws.db"), bot_workers=0, run_scheduler=False)
    with TestClient(app) as http:
        assert http.post("/api/guest").status_code == 200
        made = http.post("/api/tables", json={"game": "verso", "players": 2})
        table_id = made.json()["id"]
        said = {}
        for headers, code in ((GERMAN, "de"), ({"Accept-Language": "fr-CA"}, "fr")):
            with http.websocket_connect(f"/ws/tables/{table_id}", headers=headers) as socket:
                socket.receive_text()  # the table
                socket.send_text(json.dumps({"type": "chat", "text": "   "}))
                while (message := json.loads(socket.receive_text()))["type"] != "error":
                    pass
                assert message["code"] == "chat"
                said[code] = message["message"]
        assert said == {
            "de": "eine leere Zeile wird nicht gesendet",
            "fr": "une ligne vide n’est pas envoyée",
        }
        with (
            http.websocket_connect("/ws/tables/nothing") as socket,
            pytest.raises(WebSocketDisconnect),
        ):
            socket.receive_text()


async def test_the_reminder_mail_is_in_the_recipient_language(
    database_url: str, mailbox: Mailbox
) -> None:
    clock = ManualClock()
    async with reminding(database_url, mailbox, clock) as (app, ada, bob):
        assert (await bob.http.post("/api/language", json={"language": "de"})).is_success
        pace = {"kind": "turn", "days": 7, "remind_days": 4}
        table_id = await table_with(app, [ada, bob], game="versus", pace=pace)
        hub, live, (blue, _brown, _) = await watched(app, table_id, [ada, bob])
        move = {"type": "action", "version": 0, "action": "0:-4>0:-3"}
        await handle(hub, live, blue, json.dumps(move))
        clock.advance(days=4)
        assert await app.state.scheduler.run_due() == 1
        (mail,) = mailbox.messages
        assert mail["Subject"] == "otherside: Du bist am Zug in VERSUS gegen Ada"
        body = mail.get_content().replace("\r\n", "\n")
        assert body.startswith("Hallo Bob,\n\ndeine Partie VERSUS gegen Ada wartet seit 4 Tagen")
        assert f"{PUBLIC_URL}/table/{table_id}" in body and "7 Tage ohne Zug" in body
        end = live.info.turn_started_at + timedelta(days=7)
        weekday = GERMAN_DAYS[end.weekday()]
        assert f"{weekday}, {end.day}. {GERMAN_MONTHS_LIST[end.month - 1]} {end.year}" in body
