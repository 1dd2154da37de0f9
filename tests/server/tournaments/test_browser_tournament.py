"""The tournaments' pages in Chromium: the list reached from the lobby, an event finished by
bots (standings with tie-breaks, every game linked), and an open event a person joins from its
page; each passes axe-core (WCAG 2 A/AA) with no script error, and is photographed at a phone's
and a laptop's size."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from otherside.server.store.db import sqlite_url
from tests.server.axe import report, violations
from tests.server.browsing import shoot
from tests.server.processes import Server, free_port
from tests.server.tournaments.test_bot_events import bot_event, finished
from tests.server.tournaments.test_events_server import PASSWORD

pytestmark = pytest.mark.browser
SIZES = {"phone": (390, 844), "laptop": (1280, 800)}


def clean(page: Any, errors: list[str], where: str) -> None:
    """axe finds nothing on ``page`` as it is now, and the page raised no script error."""
    found = violations(page)
    assert not found, f"{where}:\n{report(found)}"
    assert not errors, errors


@pytest.fixture(name="server")
def server_fixture(tmp_path: Path) -> Iterator[Server]:
    process = Server(sqlite_url(tmp_path / "pages.db"), free_port(), "--bot-workers", "0")
    try:
        yield process
    finally:
        process.kill()


async def events(server: Server) -> tuple[dict[str, Any], str]:
    """A Swiss event of five bots run to its end, and an open event with one person in."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as host:
        signup = {"name": "Hostess", "password": PASSWORD}
        assert (await host.post("/api/signup", json=signup)).status_code == 200
        body = {"name": "Friday blitz", "game": "versus", "kind": "swiss", "rounds": 3}
        done = await bot_event(host, body, ["random", "greedy", "random", "greedy", "random"])
        over = await finished(host, done)
        open_body = {"name": "Sunday cup", "game": "verso", "rounds": 4, "group_size": 4}
        made = await host.post("/api/tournaments", json=open_body)
        assert (await host.post(f"/api/tournaments/{made.json()['id']}/join")).status_code == 200
        return over, str(made.json()["id"])


@pytest.mark.slow
def test_the_pages_show_events_and_let_a_person_join(server: Server, browser: Any) -> None:
    from playwright.sync_api import expect

    # The events are made in a thread of their own: here the shared Chromium's Playwright
    # counts as a running event loop, beside which asyncio.run cannot start one.
    with ThreadPoolExecutor(1) as thread:
        over, open_id = thread.submit(asyncio.run, events(server)).result()
    for size, (width, height) in SIZES.items():
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc, seen=errors: seen.append(str(exc)))
        answer = page.request.post(
            f"{server.url}/api/signup", data={"name": f"ada{size}", "password": PASSWORD}
        )
        assert answer.ok, answer.text()
        page.goto(f"{server.url}/")
        page.get_by_role("link", name="Tournaments", exact=True).click()
        expect(page.locator("table.events tr")).to_have_count(2)
        shoot(page, f"tournaments-list-{size}.png", full_page=True)
        clean(page, errors, f"the list at {width}px")

        page.get_by_role("link", name="Friday blitz").click()
        expect(page.locator("table.standings tbody tr")).to_have_count(5)
        # Every game linked: 3 rounds of two games (and a bye each).
        expect(page.locator("ul.boards a[href^='/replay/']")).to_have_count(6)
        hrefs = page.locator("ul.boards a").evaluate_all("(a) => a.map((x) => x.href)")
        tables = {g["table_id"] for g in over["games"] if not g["bye"]}
        assert {h.rsplit("/", 1)[1] for h in hrefs} == tables
        first = over["standings"][0]
        row = page.locator("table.standings tbody tr").first
        expect(row.locator("td").nth(2)).to_have_text(f"{first['points']:g}")
        shoot(page, f"tournament-over-{size}.png", full_page=True)
        clean(page, errors, f"a finished event at {width}px")

        page.goto(f"{server.url}/tournaments/{open_id}")
        page.get_by_role("button", name="Join").click()
        expect(page.locator("ul.entrants li")).to_have_count(2)
        expect(page.get_by_role("button", name="Leave")).to_be_visible()
        shoot(page, f"tournament-open-{size}.png", full_page=True)
        clean(page, errors, f"an open event at {width}px")
        page.get_by_role("button", name="Leave").click()
        expect(page.locator("ul.entrants li")).to_have_count(1)
        if size == "laptop":
            host_an_event(page, server.url, errors)
        context.close()


def host_an_event(page: Any, url: str, errors: list[str]) -> None:
    """Host from the page: the form makes a VERSUS event, the host enters, adds a bot and
    starts it; round 1's table is linked."""
    from playwright.sync_api import expect

    page.goto(f"{url}/tournaments")
    page.select_option("#ev-game", "versus")
    page.fill("#ev-rounds", "1")
    page.get_by_role("button", name="Create event").click()
    expect(page.locator("#title")).to_have_text("VERSUS Swiss")
    page.get_by_role("button", name="Join").click()
    expect(page.locator("ul.entrants li")).to_have_count(1)
    page.get_by_label("bot to add").select_option("greedy")
    page.get_by_role("button", name="Add bot").click()
    expect(page.locator("ul.entrants li")).to_have_count(2)
    shoot(page, "tournament-host-laptop.png", full_page=True)
    clean(page, errors, "an event seen by its host")
    page.get_by_role("button", name="Start").click()
    expect(page.locator("ul.boards a[href^='/table/']")).to_have_count(1)
    expect(page.locator("table.standings tbody tr")).to_have_count(2)
