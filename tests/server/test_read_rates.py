"""The rates of costly reads (``accounts/rates.py``) on the server's clock, and the pages' own
requests: a read refused is served again once its ``Retry-After`` has passed (the clock moved,
nobody sleeps); people at one address count on their accounts and on the address's share; and
a club of thirty people behind one address, each with the lobby page open — one of them with
three — polling as ``lobby.js`` itself polls, is never refused under the default limits. (The
refusals on the wire: ``tests/security/test_read_rates.py``.)"""

from __future__ import annotations

import asyncio
import re
from contextlib import AsyncExitStack
from dataclasses import replace
from pathlib import Path

import httpx
from fastapi import FastAPI

import otherside
from otherside.server.accounts.limits import Limits
from otherside.server.clock import ManualClock
from tests.server.conftest import GENEROUS, running, sqlite_only

PAGES = Path(otherside.__file__).parent / "web" / "js" / "pages"
CLUB = "10.0.0.9"  # thirty people behind one NAT


def at(app: FastAPI, address: str) -> httpx.AsyncClient:
    """A browser of its own (its own cookies) coming from ``address``."""
    transport = httpx.ASGITransport(app=app, client=(address, 40000))
    return httpx.AsyncClient(transport=transport, base_url="http://testserver")


def lobby_polling() -> tuple[float, list[str]]:
    """The lobby page's timer (seconds) and the lists each of its turns reads, read from
    ``lobby.js`` (a page that polls faster or reads more is a test that fails)."""
    source = (PAGES / "lobby.js").read_text()
    timer = re.search(r"setInterval\(\(\) => \{[^}]*loadLists\(\);[^}]*\}, (\d+)\)", source)
    assert timer is not None, "the lobby page polls its lists with a setInterval"
    body = source[source.index("async function loadLists()") :]
    body = body[: body.index("\n}\n")]
    reads = re.findall(r'api\("GET", "([^"]+)"\)', body)
    assert reads, "loadLists reads the lobby's lists"
    return int(timer.group(1)) / 1000, reads


@sqlite_only()
async def test_a_read_refused_is_served_again_once_its_wait_is_over(database_url: str) -> None:
    clock = ManualClock()
    limits = replace(GENEROUS, lobby_lists_per_minute=4)  # one at once, then one each 15 s
    async with running(database_url, clock=clock, limits=limits) as app, at(app, CLUB) as http:
        assert (await http.get("/api/tables")).status_code == 200
        refused = await http.get("/api/tables")
        assert refused.status_code == 429 and refused.headers["Retry-After"] == "15"
        clock.advance(seconds=14)
        still = await http.get("/api/tables")
        assert still.status_code == 429 and still.headers["Retry-After"] == "1"
        clock.advance(seconds=1)
        assert (await http.get("/api/tables")).status_code == 200


@sqlite_only()
async def test_people_at_one_address_count_on_their_accounts_and_on_the_address(
    database_url: str,
) -> None:
    # A person: one list at once (12 a minute); the address: two people's, two at once.
    limits = replace(GENEROUS, lobby_lists_per_minute=12, people_per_address=2)
    async with (
        running(database_url, clock=ManualClock(), limits=limits) as app,
        AsyncExitStack() as open,
    ):
        ada, bob, cy = [await open.enter_async_context(at(app, CLUB)) for _ in range(3)]
        elsewhere = await open.enter_async_context(at(app, "10.0.0.10"))
        for person in (ada, bob, cy, elsewhere):
            (await person.post("/api/guest")).raise_for_status()
        assert (await ada.get("/api/my/tables")).status_code == 200
        # Ada's own rate is spent: refused, and the address's share is not touched by it.
        refused = await ada.get("/api/tables")
        assert refused.status_code == 429
        assert refused.json()["params"]["what"] == "lists of tables"
        assert (await bob.get("/api/tables")).status_code == 200
        # Two people's rates are the address's: a third person at it waits.
        refused = await cy.get("/api/my/tables")
        assert refused.status_code == 429
        assert refused.json()["params"]["what"] == "lists of tables from your address"
        assert (await elsewhere.get("/api/my/tables")).status_code == 200


@sqlite_only()
async def test_a_club_polling_the_lobby_from_one_address_is_never_refused(
    database_url: str,
) -> None:
    interval, reads = lobby_polling()
    limits = replace(Limits(), guests_per_address=10**6)  # the default rates
    # By the timer alone: three lobby pages of one person, and thirty people's pages at one
    # address, read less a minute than their rates refill.
    per_page = len(reads) * 60 / interval
    assert 3 * per_page <= limits.lobby_lists_per_minute
    assert 30 * per_page <= limits.lobby_lists_per_minute * limits.people_per_address
    clock = ManualClock()
    async with running(database_url, clock=clock, limits=limits) as app, AsyncExitStack() as open:
        people = [await open.enter_async_context(at(app, CLUB)) for _ in range(30)]
        for person in people:
            (await person.post("/api/guest")).raise_for_status()
        pages = [*people, people[0], people[0]]  # the first has the lobby open in three tabs
        # Each page's first load, then half a minute of its timer (a rate a third too small
        # for the three tabs is refused within it; the arithmetic above covers any time).
        for _turn in range(1 + round(30 / interval)):
            answers = await asyncio.gather(*(page.get(path) for page in pages for path in reads))
            assert [a.status_code for a in answers] == [200] * len(answers)
            clock.advance(seconds=interval)


def test_a_player_page_reads_its_player_once() -> None:
    # No timer: a person opens a page, and reads one player; the rate is of pages opened.
    source = (PAGES / "player.js").read_text()
    assert "setInterval" not in source and "setTimeout" not in source
    assert len(re.findall(r"api\(\"GET\", `/api/players/", source)) == 1
