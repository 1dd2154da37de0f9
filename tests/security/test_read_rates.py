"""The rates of costly reads from outside — the lobby's lists, a player's page, a lesson move —
against a real server process over real sockets, with small rates (one a minute or four): past
its rate a caller gets 429 with ``Retry-After`` and words in its language, and nothing is done;
a signed-in person counts on their own account and on their address, nobody signed in on the
address's anonymous share, and another address is served as before. (The windows on the
server's clock, people sharing an address's share, and the pages' own polling:
``tests/server/test_read_rates.py``.)"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest

from otherside.server.store.db import sqlite_url
from tests.security.outside import client, server
from tests.server.processes import Server

RATES = {
    "lobby_lists_per_minute": 4,  # one at once, then one each 15 s
    "player_pages_per_minute": 1,
    "lesson_moves_per_minute": 1,
}
GERMAN = {"Accept-Language": "de"}


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the module (each test comes from addresses of its own)."""
    settings = [arg for name, value in RATES.items() for arg in ("--limit", f"{name}={value}")]
    database = sqlite_url(Path(tmp_path_factory.mktemp("rates")) / "otherside.db")
    with server(database, *settings, guard=False) as process:
        yield process


def _refused(answer: httpx.Response, what: str) -> None:
    """``answer`` is a refusal for too many ``what``, with a wait of at most a rate's step."""
    assert answer.status_code == 429, answer.text
    body = answer.json()
    assert body["code"] == "too_many" and body["params"]["what"] == what, body
    assert 1 <= int(answer.headers["Retry-After"]) <= 60


@asynccontextmanager
async def _guest(api: Server, address: str) -> AsyncIterator[httpx.AsyncClient]:
    """A guest signed in from ``address``."""
    async with client(api, address) as http:
        (await http.post("/api/guest")).raise_for_status()
        yield http


async def test_nobody_signed_in_gets_one_persons_lists_per_address(api: Server) -> None:
    async with client(api, "127.0.0.3") as stranger, client(api, "127.0.0.4") as other:
        assert (await stranger.get("/api/tables?status=waiting")).status_code == 200
        refused = await stranger.get("/api/tables?status=playing", headers=GERMAN)
        _refused(refused, "lists of tables from your address")
        # In the reader's language.
        assert refused.json()["detail"].startswith("zu viele Tischlisten von deiner Adresse")
        # Another address is served as before.
        assert (await other.get("/api/tables?status=waiting")).status_code == 200
    # Signed in, at the same address, a person has a rate of their own.
    async with _guest(api, "127.0.0.3") as person:
        assert (await person.get("/api/tables?status=waiting")).status_code == 200


async def test_a_player_page_past_the_rate_is_refused(api: Server) -> None:
    async with _guest(api, "127.0.0.7") as owner:
        name = (await owner.get("/api/me")).json()["user"]["name"]
        assert (await owner.get(f"/api/players/{name}")).status_code == 200
        _refused(await owner.get(f"/api/players/{name}"), "player pages")
    async with client(api, "127.0.0.7") as stranger:
        assert (await stranger.get(f"/api/players/{name}")).status_code == 200
        _refused(await stranger.get(f"/api/players/{name}"), "player pages from your address")


async def test_a_lesson_move_refused_is_not_judged_nor_remembered(api: Server) -> None:
    async with _guest(api, "127.0.0.8") as learner:
        step = (await learner.get("/api/lessons/verso")).json()["steps"][0]
        path = f"/api/lessons/verso/{step['id']}"
        tried = await learner.post(path, json={"action": "no such move"})
        assert tried.status_code == 200 and tried.json()["outcome"] == "refused"
        solution = tried.json()["solution"]
        _refused(await learner.post(path, json={"action": solution}), "lesson moves")
        # The step the refused move would have done is not remembered as done.
        assert (await learner.get("/api/lessons/verso")).json()["done"] == []
