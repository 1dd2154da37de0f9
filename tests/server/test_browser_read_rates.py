"""The pages when a costly read is refused (``accounts/rates.py``: 429): the lobby keeps its
lists and says why above them, a player's page says why under the player's name instead of
"No such player" — neither breaks (no script error). A server of its own with small rates."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from otherside.server.store.db import sqlite_url
from otherside.testing.servers import LIFTED_CREATION
from tests.server.processes import Server, free_port

pytestmark = pytest.mark.browser
# Lists: one at once, then one each 15 s (the lobby reads three at once); pages: one a minute.
RATES = ("lobby_lists_per_minute=4", "player_pages_per_minute=1")


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server with small rates of costly reads."""
    url = sqlite_url(tmp_path_factory.mktemp("rates") / "otherside.db")
    process = Server(url, free_port(), "--bot-workers", "0", limits=(*LIFTED_CREATION, *RATES))
    try:
        yield process.url
    finally:
        process.kill()


def _person(browser: Any, server: str, name: str) -> Any:
    """A signed-up person's page, recording script errors."""
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    made = page.request.post(server + "/api/signup", data={"name": name, "password": "pw-" + name})
    assert made.ok, made.text()
    return page


def test_the_lobby_refused_its_lists_says_why_and_works_on(strict: str, browser: Any) -> None:
    page = _person(browser, strict, "Ada")
    page.goto(strict + "/")
    note = page.locator("#lists-note")
    note.wait_for()
    assert "too many lists of tables" in note.inner_text()
    # The rest of the lobby is there to use.
    assert page.locator("#new-table").is_visible()
    assert page.errors == []


def test_a_player_page_refused_names_the_player_and_says_why(strict: str, browser: Any) -> None:
    page = _person(browser, strict, "Bob")
    page.goto(strict + "/player/Bob")
    page.locator(".rating-cards, #ratings").first.wait_for(state="attached")
    # Waited for by locators: the page's policy forbids eval, which wait_for_function's polling
    # of a string needs (it passed only when the first look already held).
    expect(page).to_have_title(re.compile("Bob"))
    page.goto(strict + "/player/Bob")
    about = page.locator("#about")
    page.locator("#about", has_text="too many").wait_for()
    assert "too many player pages" in about.inner_text()
    assert page.inner_text("#name") == "Bob"
    assert page.locator("[data-testid=to-lobby]").is_visible()
    assert page.errors == []
