"""The lessons in a real browser, as a newcomer takes them: VERSUS on a phone (each step's words
and board, a wrong move explained, "Show me", every step done by clicking the board, the
progress still there after a reload), Verso on a desktop and every Recto Verso step built by
hand on a phone, in Dutch. Screenshots go to the temporary directory."""

from __future__ import annotations

from typing import Any

import pytest

from otherside.games.rectoverso.notation import parse_placement
from otherside.lessons import lesson
from tests.server.browsing import shoot
from tests.server.test_browser_rectoverso import _place

pytestmark = pytest.mark.browser
WAIT = 15000
PHONE = {"width": 390, "height": 844}


def _click_ply(page: Any, ply: str) -> None:
    origin, target = ply.split(">")
    page.click(f'.lesson-board [data-cell="{origin}"]')
    page.wait_for_selector(f'.lesson-board .vs-hit.choice[data-cell="{target}"]', timeout=WAIT)
    page.click(f'.lesson-board [data-cell="{target}"]')
    # A board that asks to confirm a chosen move (the player's setting) gets its confirmation.
    confirm = page.locator(".lesson-board button", has_text="Confirm")
    if confirm.count():
        confirm.first.click()


def test_a_newcomer_takes_the_versus_lesson_on_a_phone(browser: Any, server: str) -> None:
    _game, taught = lesson("versus")
    context = browser.new_context(viewport=PHONE, locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/learn/versus")
    page.wait_for_selector(".lesson-board [data-cell]", timeout=WAIT)
    assert page.locator("h1").inner_text() == "Learn VERSUS"
    assert page.locator(".lesson-step").count() == len(taught.steps)
    shoot(page, "learn-phone-first.png", full_page=True)
    # A wrong move: the VERSUS, where a stone was asked for. Explained, and "Show me" helps.
    _click_ply(page, "2:-5>0:-5")
    feedback = page.locator(".lesson-feedback")
    feedback.filter(has_text="not a stone").wait_for(timeout=WAIT)
    page.get_by_role("button", name="Show me").click()
    feedback.filter(has_text=taught.steps[0].solution).wait_for(timeout=WAIT)
    shoot(page, "learn-phone-wrong.png", full_page=True)
    for index, step in enumerate(taught.steps):
        page.locator(".lesson-step[aria-current='step']").filter(has_text=step.title).wait_for(
            timeout=WAIT
        )
        page.wait_for_selector(".lesson-board [data-cell]", timeout=WAIT)
        _click_ply(page, step.solution)
        page.locator(".lesson-feedback.done").wait_for(timeout=WAIT)
        if index == 2:
            shoot(page, "learn-phone-done.png", full_page=True)
        page.locator(".lesson-actions button:not([hidden])").last.click()
        if index + 1 < len(taught.steps):
            page.wait_for_selector(".lesson-feedback:empty", state="attached", timeout=WAIT)
    page.wait_for_url(f"{server}/", timeout=WAIT)
    page.goto(f"{server}/learn/versus")
    page.wait_for_selector(".lesson-mark.done", timeout=WAIT)
    assert page.locator(".lesson-mark.done").count() == len(taught.steps)
    assert errors == []
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    context.close()


def test_the_lesson_on_a_desktop_in_german(browser: Any, server: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="de-DE")
    page = context.new_page()
    page.goto(f"{server}/learn/versus")
    page.wait_for_selector(".lesson-board [data-cell]", timeout=WAIT)
    assert page.locator("h1").inner_text() == "VERSUS lernen"
    assert "Ein Stein zieht ein Feld" in page.locator(".lesson h2").inner_text()
    shoot(page, "learn-desktop-de.png", full_page=True)
    context.close()


def test_the_recto_verso_lesson_lays_its_pieces_out_on_a_desktop(browser: Any, server: str) -> None:
    # The lesson's board was 560 px wide, so its build fell into the phone's layout: the pieces
    # in one row scrolled sideways, half of them out of sight. Wide, they have a column.
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    page = context.new_page()
    page.goto(f"{server}/learn/rectoverso")
    page.wait_for_selector(".lesson-board .rv-piece", timeout=WAIT)
    tray = page.locator(".lesson-board .rv-pieces")
    assert tray.evaluate("(e) => e.scrollWidth <= e.clientWidth"), "the pieces scroll sideways"
    box = tray.bounding_box()
    assert box is not None
    for piece in page.locator(".lesson-board .rv-piece").all():
        inner = piece.bounding_box()
        assert inner is not None
        assert box["x"] <= inner["x"] and inner["x"] + inner["width"] <= box["x"] + box["width"]
    shoot(page, "learn-rectoverso-desktop.png", full_page=True)
    context.close()


def _verso_move(page: Any, solution: str) -> None:
    board = page.locator(".lesson-board")
    if solution == "flip":
        board.get_by_role("button", name="Flip & take").click()
    elif solution == "draw":
        board.get_by_role("button", name="Draw", exact=False).first.click()
    else:  # a blue series: choose every blue card of the tableau, then bank
        cards = board.locator(".player.me .crow.blue .card")
        for index in range(cards.count()):
            cards.nth(index).click()
        board.get_by_role("button", name="Bank", exact=False).first.click()


def test_the_verso_lesson_is_played_with_the_tables_own_board(browser: Any, server: str) -> None:
    _game, taught = lesson("verso")
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/learn/verso")
    for index, step in enumerate(taught.steps):
        page.locator(".lesson-step[aria-current='step']").filter(has_text=step.title).wait_for(
            timeout=WAIT
        )
        page.wait_for_selector(".lesson-board .player.me", timeout=WAIT)
        _verso_move(page, step.solution)
        page.locator(".lesson-feedback.done").wait_for(timeout=WAIT)
        if index == 3:
            shoot(page, "learn-verso-desktop.png", full_page=True)
        page.locator(".lesson-actions button:not([hidden])").last.click()
    page.wait_for_url(f"{server}/", timeout=WAIT)
    assert errors == []
    context.close()


def test_a_wrong_move_on_a_phone_shows_its_buttons_and_trying_again_keeps_the_focus(
    browser: Any, server: str
) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{server}/learn/verso")
    # The first step asks for the 3-point face: drawing the 1-point one is explained as wrong.
    page.locator(".lesson-board [data-act=draw]").click()
    page.locator(".lesson-feedback.wrong").wait_for(timeout=WAIT)
    for name in ("Try again", "Show me"):
        box = page.get_by_role("button", name=name).bounding_box()
        # (to a pixel: a scroll goes by whole pixels, the row may lie at a fraction of one)
        assert box and box["y"] + box["height"] <= PHONE["height"] + 1, f"{name} cut off: {box}"
    page.get_by_role("button", name="Try again").click()
    # The button is hidden by the new try: the focus is on the board's first move, not lost.
    assert page.evaluate("document.activeElement.dataset.act") == "draw"
    page.keyboard.press("Enter")  # drawn again, by the keyboard this time
    page.locator(".lesson-feedback.wrong").wait_for(timeout=WAIT)
    page.get_by_role("button", name="Show me").click()
    assert page.evaluate("document.activeElement.dataset.act") == "draw"
    context.close()


def test_an_answer_that_comes_after_show_me_is_not_drawn(browser: Any, server: str) -> None:
    # The answer to a try the reader has left (they pressed "Show me" while it was on its way)
    # used to be drawn over the new board: it put "wrong" back and took the keyboard focus.
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/learn/verso")
    page.locator(".lesson-board [data-act=draw]").click()
    page.locator(".lesson-feedback.wrong").wait_for(timeout=WAIT)
    page.get_by_role("button", name="Try again").click()
    held: list[Any] = []
    page.route("**/api/lessons/**", lambda route: held.append(route))
    page.locator(".lesson-board [data-act=draw]").click()  # wrong again, its answer held
    for _ in range(200):
        if held:
            break
        page.wait_for_timeout(25)
    assert held, "the second try was never sent"
    page.get_by_role("button", name="Show me").click()
    shown = page.inner_text(".lesson-feedback")
    board = page.inner_html(".lesson-board")
    held[0].continue_()
    page.unroute("**/api/lessons/**")
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(200)  # time for the answer to be drawn, were it drawn
    assert page.get_attribute(".lesson-feedback", "class") == "lesson-feedback hint"
    assert page.inner_text(".lesson-feedback") == shown
    assert page.inner_html(".lesson-board") == board
    assert page.evaluate("document.activeElement.dataset.act") == "draw"
    assert errors == []
    context.close()


def test_a_newcomer_builds_every_recto_verso_step_on_a_phone(browser: Any, server: str) -> None:
    _game, taught = lesson("rectoverso")
    context = browser.new_context(viewport=PHONE, locale="nl-NL", has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/learn/rectoverso")
    page.wait_for_selector(".lesson-board [data-testid=done]", timeout=WAIT)
    assert page.locator("h1").inner_text() == "Recto Verso leren"
    for index, step in enumerate(taught.steps):
        page.locator(".lesson-steps li").nth(index).locator(
            ".lesson-step[aria-current='step']"
        ).wait_for(timeout=WAIT)
        if step.solution == "done":
            page.locator(".lesson-board [data-testid=done]").click()
            page.locator(".lesson-board [data-testid=done-yes]").click()
        else:
            # The learner builds recto: the piece picked, turned and put on the site by hand.
            placement = parse_placement(step.solution.removeprefix("place "))
            _place(page, placement, "front", "click")
        page.locator(".lesson-feedback.done").wait_for(timeout=WAIT)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        if index == 0:
            shoot(page, "learn-rectoverso-phone-nl.png", full_page=True)
        page.locator(".lesson-actions button:not([hidden])").last.click()
    page.wait_for_url(f"{server}/", timeout=WAIT)
    assert errors == []
    context.close()
