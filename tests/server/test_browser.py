"""Browser tests: Debian's Chromium driven by Playwright against a real server process.

Sign up, create a Verso table with bots, play it to the end (banking series by clicking cards
when one is available), then replay it step by step. Screenshots go to the temporary directory.
"""

from __future__ import annotations

import json

import pytest

from tests.server.browsing import ARGS, CHROMIUM, MOVES_AT_ONCE, SHOTS, shoot

pytestmark = pytest.mark.browser
# The server and Chromium are the shared fixtures of tests/server/conftest.py (``server``,
# ``browser``); these names stay importable from here for the modules that use them.
__all__ = ["ARGS", "CHROMIUM", "MOVES_AT_ONCE", "SHOTS"]


def _bank_a_series(page: object, legal: list[str]) -> bool:
    series = [a for a in legal if a.startswith("series ")]
    if not series:
        return False
    _, colour, *values = series[-1].split(" ")
    me = page.locator(".player.me")
    for value in values:
        face = f"{colour[0]}*" if value.startswith("*") else None
        cards = me.locator(f".crow.{colour} .card")
        for index in range(cards.count()):
            shown = cards.nth(index).get_attribute("data-face")
            if (face and shown.lower() == face) or (not face and shown[1:] == value):
                cards.nth(index).click()
                break
    page.get_by_role("button", name="Bank", exact=False).first.click()
    return True


def _play_to_the_end(page: object) -> int:
    banked = 0
    for _ in range(400):
        page.wait_for_selector("[data-testid=final], .status.mine", timeout=20000)
        if page.locator("[data-testid=final]").count():
            return banked
        board = page.locator("#board")
        version = board.get_attribute("data-version")
        legal = json.loads(board.get_attribute("data-legal"))
        if _bank_a_series(page, legal):
            banked += 1
        elif "flip" in legal:
            page.get_by_role("button", name="Flip & take").click()
        else:
            page.get_by_role("button", name="Pass").click()
        # A selector, not script: the pages' content policy allows no eval.
        page.wait_for_selector(
            f"#board:not([data-version='{version}'])", state="attached", timeout=20000
        )
    raise AssertionError("the game did not end")


@pytest.mark.slow
def test_sign_up_create_a_table_with_bots_play_to_the_end_and_replay(
    server: str, browser: object
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    # The pages run under their content security policy: nothing of theirs may break it.
    page.on(
        "console",
        lambda m: "Content Security Policy" in m.text and errors.append(m.text),
    )
    page.goto(server + "/")
    page.fill("#name", "Ada")
    page.fill("#password", "lovelace")
    page.click("#signup-btn")
    page.wait_for_selector("#lobby:not(.hidden)")
    page.select_option("#players", "3")
    page.select_option("#bots", "random")
    shoot(page, "lobby.png", full_page=True)
    page.click("#create-btn")
    page.wait_for_url("**/table/*")
    # A table filled with bots starts at once: there is no Start to press.
    page.wait_for_selector("[data-testid=pile-size]")
    page.wait_for_selector(".status.mine", timeout=20000)
    shoot(page, "table.png", full_page=True)
    banked = _play_to_the_end(page)
    final = page.locator("[data-testid=final]")
    assert "won" in final.inner_text()
    assert page.locator("#log li").count() > 40
    shoot(page, "final.png", full_page=True)
    phone = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        storage_state=context.storage_state(),
    )
    small = phone.new_page()
    small.goto(page.url)
    small.wait_for_selector("[data-testid=final]")
    shoot(small, "phone-final.png", full_page=False)
    page.get_by_role("link", name="Replay").click()
    page.wait_for_url("**/replay/*")
    page.wait_for_selector("[data-testid=pile-size]")
    assert page.locator("[data-testid=pile-size]").inner_text() == "45"
    for _ in range(3):
        page.click("#next")
    assert page.locator("#where").inner_text().startswith("step 3 of ")
    shoot(page, "replay.png", full_page=True)
    page.click("#last")
    page.wait_for_selector("[data-testid=final]")
    download = page.locator("#download").get_attribute("href")
    record = page.request.get(server + download).json()
    assert record["game"] == "verso" and len(record["pile"]) == 45
    assert not errors, errors
    assert banked >= 0
    context.close()
    phone.close()
