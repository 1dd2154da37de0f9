"""A German reader walks the API through the bad requests the lobby, the table, the account,
the tokens, the events, the lessons and the analysis pages can make: each is refused with a
stable code, and its words are German — not English, and not the English words again."""

from __future__ import annotations

import re
from typing import Any

import httpx
from fastapi import FastAPI

from tests.server.conftest import client, guest, registered, sqlite_only
from tests.server.test_browser_languages import _english

GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}
ENGLISH = {"Accept-Language": "en"}
# What a refusal quotes (the reader's own input, a value the API takes as written) is left as
# it was given; the words around it are what must be German.
QUOTED = re.compile(r"'[^']*'|„[^“]*“|\"[^\"]*\"")

# (who asks, method, path, JSON body or None, the refusal's code)
Ask = tuple[str, str, str, Any, str]
SETUP = {"game": "versus", "players": 2}
BAD: list[Ask] = [
    # Signing up and in.
    ("nobody", "POST", "/api/signup", {"name": "a b", "password": "long-enough"}, "bad_name"),
    ("nobody", "POST", "/api/signup", {"name": "Bea", "password": "x"}, "short_password"),
    ("nobody", "POST", "/api/signup", {"name": "Bea", "password": "x" * 300}, "invalid"),
    ("nobody", "POST", "/api/signup", {"name": "Bea"}, "invalid"),
    ("nobody", "POST", "/api/signup", {"name": "Ada", "password": "long-enough"}, "name_taken"),
    ("nobody", "POST", "/api/signin", {"name": "Ada", "password": "wrong-one"}, "wrong_password"),
    ("nobody", "POST", "/api/signin", [1, 2], "invalid"),
    ("nobody", "POST", "/api/tables", SETUP, "signed_out"),
    ("nobody", "POST", "/api/language", {"language": "xx"}, "no_language"),
    # Settings and tokens.
    ("nobody", "PUT", "/api/me/settings", {"confirm_moves": True}, "not_signed_in"),
    ("ada", "PUT", "/api/me/settings", {"confirm_moves": "yes"}, "invalid"),
    ("ada", "POST", "/api/me/email", {"email": "ada@"}, "bad_email"),
    ("ada", "POST", "/api/tokens", {"label": " ", "scopes": ["play"]}, "bad_label"),
    ("ada", "POST", "/api/tokens", {"label": "mine", "scopes": ["fly"]}, "bad_scopes"),
    ("ada", "DELETE", "/api/tokens/999", None, "no_token"),
    ("guest", "POST", "/api/account/bot", None, "guest_bot"),
    # The lobby: finding tables, players, rules, ratings.
    ("nobody", "GET", "/api/tables?status=dancing", None, "bad_status"),
    ("nobody", "GET", "/api/tables?status=%01", None, "control_character"),
    ("nobody", "GET", "/api/tables/nope", None, "no_table"),
    ("nobody", "GET", "/api/tables/nope/replay", None, "no_table"),
    ("nobody", "GET", "/api/players/nobody-here", None, "no_player"),
    ("nobody", "GET", "/api/rules/chess", None, "no_rules"),
    ("nobody", "GET", "/api/nothing-here", None, "not_found"),
    ("nobody", "DELETE", "/api/health", None, "method_not_allowed"),
    ("nobody", "GET", "/api/ratings?game=chess", None, "bad_request"),
    # Making a table: its game, players, options, pace.
    ("ada", "POST", "/api/tables", {"game": "chess", "players": 2}, "bad_request"),
    ("ada", "POST", "/api/tables", {"game": "versus", "players": 3}, "bad_request"),
    ("ada", "POST", "/api/tables", {**SETUP, "options": {"colour": "red"}}, "bad_request"),
    ("ada", "POST", "/api/tables", {**SETUP, "pace": {"kind": "sprint"}}, "bad_request"),
    ("ada", "POST", "/api/tables", {**SETUP, "pace": {"kind": "rounds"}}, "bad_request"),
    (
        "ada",
        "POST",
        "/api/tables",
        {**SETUP, "pace": {"kind": "live", "minutes": 0}},
        "bad_request",
    ),
    (
        "ada",
        "POST",
        "/api/tables",
        {**SETUP, "pace": {"kind": "turn", "days": 2, "remind_days": 5}},
        "bad_request",
    ),
    (
        "ada",
        "POST",
        "/api/tables",
        {"game": "rectoverso", "players": 2, "options": {"difficulty": "brutal"}},
        "bad_request",
    ),
    # At the table ({table}: Ada's waiting VERSUS table).
    ("ada", "POST", "/api/tables/{table}/bots", {"seat": 1, "bot": "nobody"}, "bad_bot"),
    ("ada", "POST", "/api/tables/{table}/bots", {"seat": 1, "bot": "search:think"}, "bad_bot"),
    ("ada", "POST", "/api/tables/{table}/bots", {"seat": 1, "bot": "search:think=99"}, "bad_bot"),
    ("ada", "POST", "/api/tables/{table}/bots", {"seat": 7, "bot": "greedy"}, "no_such_seat"),
    ("ada", "POST", "/api/tables/{table}/start", None, "seats_empty"),
    ("guest", "POST", "/api/tables/{table}/bots", {"seat": 1, "bot": "greedy"}, "not_host"),
    ("guest", "POST", "/api/tables/{table}/join", {"seat": 0}, "seat_not_free"),
    ("ada", "POST", "/api/tables/{table}/analysis", None, "game_not_over"),
    # Lessons and events.
    ("nobody", "GET", "/api/lessons/chess", None, "no_lesson"),
    ("ada", "POST", "/api/lessons/versus/nope", {"action": "0:-4>0:-3"}, "no_step"),
    ("nobody", "GET", "/api/tournaments/nope", None, "no_event"),
    ("ada", "POST", "/api/tournaments/nope/join", None, "no_event"),
    ("ada", "POST", "/api/tournaments", {"game": "chess", "rounds": 3}, "bad_game"),
    ("guest", "POST", "/api/tournaments", {"game": "versus", "rounds": 3}, "guests_cannot_enter"),
    (
        "ada",
        "POST",
        "/api/tournaments",
        {"game": "versus", "rounds": 3, "pace": {"kind": "live", "minutes": 0}},
        "bad_request",
    ),
]


def _unquoted(text: str) -> str:
    return QUOTED.sub(" ", text)


@sqlite_only()
async def test_every_bad_request_is_refused_in_german_with_its_code(app: FastAPI) -> None:
    (ada,) = await registered(app, "Ada")
    guest_http, _guest = await guest(app)
    who: dict[str, httpx.AsyncClient] = {
        "ada": ada.http,
        "guest": guest_http,
        "nobody": client(app),
    }
    made = await ada.http.post("/api/tables", json=SETUP)
    table = made.json()["id"]
    english_words = []
    for asker, method, path, body, code in BAD:
        url = path.format(table=table)
        said = {}
        for name, headers in (("de", GERMAN), ("en", ENGLISH)):
            answer = await who[asker].request(method, url, json=body, headers=headers)
            assert 400 <= answer.status_code < 500, (url, body, answer.text)
            data = answer.json()
            assert data["code"] == code, (url, body, data)
            assert isinstance(data["detail"], str) and isinstance(data["params"], dict), data
            said[name] = data["detail"]
        assert said["de"] != said["en"], (url, body, said)
        if _english(_unquoted(said["de"])):
            english_words.append((url, body, said["de"]))
    assert not english_words, english_words
    # Nothing was changed by any of them: Ada's table is still waiting with one empty seat.
    table_now = (await ada.http.get(f"/api/tables/{table}")).json()
    assert table_now["status"] == "waiting"
    assert [s["kind"] for s in table_now["seats"]] == ["human", "empty"]
    assert (await client(app).post("/api/signin", json={"name": "Bea", "password": "x"})).json()[
        "code"
    ] == "wrong_password"  # no account "Bea" was made
