"""Recto Verso for 3 to 6 in Chromium, a person with two bots (tables/ready.py): between rounds
a bot to turn its token waits for the reader, who is offered "Next round" and told how long
until it goes on by itself — counted from the deadline and the server's time the view carries,
not from the device's clock, set an hour wrong here. A server of its own, whose time the test
steps (``tests/server/stepped_clock.py``). Screenshots (when asked) of the round's result with
the countdown, on a phone and a desktop."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from otherside.games.rectoverso.flow import ROUND_LIMIT
from otherside.server.store.db import sqlite_url
from tests.server.browsing import TAKE_SHOTS, shoot
from tests.server.stepped_clock import SteppedTime, stepped_server

pytestmark = pytest.mark.browser
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
# The device's clock an hour fast: a countdown read from it would be an hour off.
WRONG_CLOCK = "(() => { const real = Date.now; Date.now = () => real() + 3600000; })();"


@pytest.fixture
def stepped(tmp_path: Path) -> Iterator[tuple[str, SteppedTime]]:
    """A server whose time the test moves (bots waiting 0.05 s, thinking in threads)."""
    url = sqlite_url(tmp_path / "otherside.db")
    with stepped_server(url, tmp_path, "--bot-workers", "0", bot_delay=0.05) as (server, time):
        yield server.url, time


def _page(context: Any, errors: list[str], url: str) -> Any:
    context.add_init_script(WRONG_CLOCK)
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    return page


def test_a_bot_to_turn_its_token_counts_down_and_goes_when_the_reader_is_ready(
    stepped: tuple[str, SteppedTime], browser: Any
) -> None:
    server, time = stepped
    errors: list[str] = []
    phone = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    assert phone.request.post(server + "/api/guest").ok
    made = phone.request.post(
        server + "/api/tables",
        data={"game": "rectoverso", "players": 3, "options": {"difficulty": "easy"}},
    ).json()
    path = f"/api/tables/{made['id']}"
    for seat in (1, 2):
        assert phone.request.post(server + path + "/bots", data={"seat": seat, "bot": "steady"}).ok
    assert phone.request.post(server + path + "/start").ok
    me = _page(phone, errors, f"{server}/table/{made['id']}")
    pages = [me]
    if TAKE_SHOTS:  # the same reader on a desktop, for its screenshot
        desktop = browser.new_context(viewport=DESKTOP, storage_state=phone.storage_state())
        pages.append(_page(desktop, errors, f"{server}/table/{made['id']}"))
    # The reader turns the first token and builds with the bot it names (one of the launcher's
    # ``steady`` bots, which never say done) until the round's time runs out on the server's
    # clock, then and not before.
    me.tap(".rv[data-phase=start] [data-testid=next-round]")
    me.wait_for_selector(".rv[data-phase=build] [data-testid=done]")
    time.advance(ROUND_LIMIT + 1)
    # Seat 1, a bot, turns the next token: it waits for the reader, and says until when.
    for page in pages:
        page.wait_for_selector(".rv[data-phase=start] [data-testid=ready]", timeout=20000)
    button = me.locator("[data-testid=ready]")
    assert button.inner_text() == "Next round"
    assert "turns a token when you press the button" in me.locator(".rv-next").inner_text()
    countdown = me.locator("[data-testid=ready-countdown]")
    expect(countdown).to_have_text(re.compile(r"Steady bot 1 turns a token in (10|9) s\."))
    # It counts down on the page while the server's time stands still: 8 s, then 7 s.
    expect(countdown).to_have_text(re.compile(r".+ turns a token in 7 s\."), timeout=6000)
    shoot(me, "table-rv3-phone-countdown")
    if TAKE_SHOTS:
        expect(pages[1].locator("[data-testid=ready-countdown]")).to_have_text(
            re.compile(r"in \d+ s")
        )
        shoot(pages[1], "table-rv3-desktop-countdown")
    # The reader is ready: the bot turns its token at once, the server's clock unmoved.
    button.tap()
    me.wait_for_selector(".rv[data-phase=build]", timeout=5000)
    assert me.locator("[data-testid=ready-countdown]").count() == 0
    assert not errors, errors
