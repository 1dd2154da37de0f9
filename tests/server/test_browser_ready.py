"""Recto Verso for 3 to 6 in Chromium, a person with two bots (tables/ready.py): between rounds
a bot to turn its token waits for the reader, who is offered "Next round" and told how long
until it goes on by itself — counted from the deadline and the server's time the view carries,
not from the device's clock, set an hour wrong here — in one short message with the button; a
spectator is told how long too, with no button, and "Describe the position" says it to both.
A server of its own, whose time the test steps (``tests/server/stepped_clock.py``).
Screenshots (when asked) of the round's result with the countdown, the reader's and the
spectator's, on a phone and a desktop."""

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
# A phone's browser context: its screen, at twice the pixels, touched.
ON_A_PHONE: dict[str, Any] = {
    "viewport": PHONE,
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
# The device's clock an hour fast: a countdown read from it would be an hour off.
WRONG_CLOCK = "(() => { const real = Date.now; Date.now = () => real() + 3600000; })();"
# What "Describe the position" says of the wait, to the reader and to a spectator alike.
WAIT_SAID = re.compile(r"The next round starts when a player is ready, or in ([1-9]|10) s\.")


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


def _described(page: Any) -> list[str]:
    """The sentences of the page's "Describe the position"."""
    page.click("#describe")
    page.locator("[data-testid=position] p").first.wait_for()
    return list(page.locator("[data-testid=position] p").all_inner_texts())


def test_a_bot_to_turn_its_token_counts_down_and_goes_when_the_reader_is_ready(
    stepped: tuple[str, SteppedTime], browser: Any
) -> None:
    server, time = stepped
    errors: list[str] = []
    phone = browser.new_context(**ON_A_PHONE)
    assert phone.request.post(server + "/api/guest").ok
    made = phone.request.post(
        server + "/api/tables",
        data={"game": "rectoverso", "players": 3, "options": {"difficulty": "easy"}},
    ).json()
    path = f"/api/tables/{made['id']}"
    for seat in (1, 2):
        assert phone.request.post(server + path + "/bots", data={"seat": seat, "bot": "steady"}).ok
    assert phone.request.post(server + path + "/start").ok
    url = f"{server}/table/{made['id']}"
    me = _page(phone, errors, url)
    # Someone watching, with no seat, on a desktop.
    watching = browser.new_context(viewport=DESKTOP)
    assert watching.request.post(server + "/api/guest").ok
    spectator = _page(watching, errors, url)
    pages = [me]
    if TAKE_SHOTS:  # the same reader on a desktop, the spectator on a phone, for screenshots
        desktop = browser.new_context(viewport=DESKTOP, storage_state=phone.storage_state())
        pages.append(_page(desktop, errors, url))
        small = browser.new_context(**ON_A_PHONE, storage_state=watching.storage_state())
        pages.append(_page(small, errors, url))
    # The reader turns the first token and builds with the bot it names (one of the launcher's
    # ``steady`` bots, which never say done) until the round's time runs out on the server's
    # clock, then and not before.
    me.tap(".rv[data-phase=start] [data-testid=next-round]")
    me.wait_for_selector(".rv[data-phase=build] [data-testid=done]")
    time.advance(ROUND_LIMIT + 1)
    # Seat 1, a bot, turns the next token: it waits for the reader, and says until when.
    for page in [spectator, *pages]:
        page.wait_for_selector(".rv[data-phase=start] [data-testid=ready-countdown]", timeout=20000)
    button = me.locator("[data-testid=ready]")
    assert button.inner_text() == "Next round"
    countdown = me.locator("[data-testid=ready-countdown]")
    expect(countdown).to_have_text(re.compile(r"Steady bot 1 turns a token in (10|9) s\."))
    # One message beside the button: when by itself (the countdown), and sooner if pressed.
    words = me.locator(".rv-next").inner_text()
    assert "Sooner if you press the button." in words, words
    assert words.count("Steady bot 1") == 2, words  # the countdown, and whose partner
    # "Describe the position" says it too (and no level: levels are the game for two's, R16).
    said = _described(me)
    assert any(WAIT_SAID.fullmatch(line) for line in said), said
    assert not any(line.startswith("Level") for line in said), said
    # The spectator sees the countdown, without a button to press.
    watched = spectator.locator("[data-testid=ready-countdown]")
    expect(watched).to_have_text(re.compile(r"Steady bot 1 turns a token in ([1-9]|10) s\."))
    assert spectator.locator("[data-testid=ready]").count() == 0
    assert "Sooner if a player is ready." in spectator.locator(".rv-next").inner_text()
    said = _described(spectator)
    assert any(WAIT_SAID.fullmatch(line) for line in said), said
    # It counts down on the page while the server's time stands still.
    expect(countdown).to_have_text(re.compile(r".+ turns a token in [1-7] s\."), timeout=6000)
    shoot(me, "table-rv3-phone-countdown")
    shoot(spectator, "table-rv3-desktop-spectator-countdown")
    if TAKE_SHOTS:
        for page, name in (
            (pages[1], "desktop-countdown"),
            (pages[2], "phone-spectator-countdown"),
        ):
            expect(page.locator("[data-testid=ready-countdown]")).to_have_text(
                re.compile(r"in \d+ s")
            )
            shoot(page, f"table-rv3-{name}")
    # The reader is ready: the bot turns its token at once, the server's clock unmoved.
    button.tap()
    me.wait_for_selector(".rv[data-phase=build]", timeout=5000)
    assert me.locator("[data-testid=ready-countdown]").count() == 0
    spectator.wait_for_selector(".rv[data-phase=build]", timeout=5000)
    assert spectator.locator("[data-testid=ready-countdown]").count() == 0
    assert not errors, errors
