"""Browser test of the analysis on the replay page: real Chromium, a real server process, a
finished game between the random bot and the search bot; the player asks for the analysis,
follows its progress, and gets the evaluation graph with the mistakes marked, then the better
move shown on the board. Screenshots on a desktop and a phone go to ``SHOTS``."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from otherside.server.store.db import sqlite_url
from tests.server.browsing import TAKE_SHOTS, shoot
from tests.server.processes import Server, free_port

pytestmark = pytest.mark.browser
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
WAIT = 60000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    url = sqlite_url(tmp_path_factory.mktemp("browser-analysis") / "otherside.db")
    process = Server(url, port, "--analysis-think", "0.1", "--analysis-depth", "2", bot_delay=0.0)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        process.stop()


def _page(browser: Any, server: str, viewport: dict[str, int], phone: bool = False) -> Any:
    context = browser.new_context(
        viewport=viewport, device_scale_factor=2 if phone else 1, has_touch=phone
    )
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.request.post(server + "/api/guest")
    return page


def _finished_bot_game(
    page: Any,
    server: str,
    game: str = "versus",
    bots: tuple[str, str] = ("random", "search:think=0.1"),
) -> str:
    def post(path: str, body: dict[str, Any] | None = None) -> Any:
        answer = page.request.post(server + path, data=body or {})
        assert answer.ok, answer.text()
        return answer.json()

    table = str(post("/api/tables", {"game": game, "players": 2})["id"])
    post(f"/api/tables/{table}/leave")
    for seat, bot in enumerate(bots):
        post(f"/api/tables/{table}/bots", {"bot": bot, "seat": seat})
    post(f"/api/tables/{table}/start")
    deadline = time.monotonic() + 120
    while page.request.get(f"{server}/api/tables/{table}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.3)
    return table


def test_the_replay_page_draws_the_analysis_graph_and_the_better_move(
    browser: Any, server: str
) -> None:
    desktop = _page(browser, server, DESKTOP)
    table = _finished_bot_game(desktop, server)
    desktop.goto(f"{server}/replay/{table}")
    # The replay opens at the game's start: no result yet (the board fell back on the finished
    # table's outcome at every step), the controls in one row as in Verso's replay.
    desktop.wait_for_selector("#board .vs-svg")
    assert desktop.locator("[data-testid=vs-final], .vs-turn.won").count() == 0
    controls = desktop.locator(".replay-controls")
    assert controls.evaluate("(node) => getComputedStyle(node).display") == "flex"
    # An arrow key on the slider is one step (the page's own arrow keys stepped a second time).
    desktop.focus("#slider")
    desktop.keyboard.press("ArrowRight")
    assert desktop.inner_text("#where").startswith("step 1 of ")
    desktop.click("#last")
    desktop.wait_for_selector("[data-testid=vs-final]")
    desktop.get_by_role("button", name="Analyse this game").click()
    desktop.wait_for_selector("#eval-graph .curve", timeout=WAIT)
    # One hit column per ply; the mistakes marked on the graph and in the move list alike.
    plies = desktop.locator("#eval-graph .hit").count()
    assert plies == desktop.locator("#log > li").count()
    marks = desktop.locator("#eval-graph .mark").count()
    assert marks >= 1 and desktop.locator("#log .analysis-note .judgement").count() == marks
    desktop.locator("#log button.better").first.click()
    assert desktop.locator("#board .best-from").count() == 1
    assert desktop.locator("#board .best-to").count() == 1
    assert "preferred" in desktop.locator("#analysis-detail").inner_text()
    shoot(desktop, "analysis-desktop.png", full_page=True)

    phone = _page(browser, server, PHONE, phone=True)
    phone.goto(f"{server}/replay/{table}")
    phone.wait_for_selector("#eval-graph .curve", timeout=WAIT)  # computed once: there at once
    box = phone.locator("#eval-graph").bounding_box()
    assert box is not None and box["width"] <= PHONE["width"]
    phone.locator("#eval-graph .hit").nth(plies // 2).tap()
    phone.wait_for_selector("#analysis-detail strong")
    shoot(phone.locator("#analysis"), "analysis-phone.png")
    shoot(phone, "analysis-phone-page.png", full_page=True)
    phone.emulate_media(media="print")
    assert phone.locator("#eval-graph").is_visible()
    assert not phone.locator("header.top").is_visible()
    phone.emulate_media(media="screen")
    assert desktop.errors == [] and phone.errors == []


def test_the_replay_of_a_game_nobody_has_analysed_logs_no_error(browser: Any, server: str) -> None:
    # The replay page asks for the game's analysis, which nobody had asked for yet: the 404 it
    # got was an error in the browser's console. Now the answer is an offer to ask.
    page = _page(browser, server, DESKTOP)
    problems: list[str] = []
    page.on("console", lambda m: m.type == "error" and problems.append(m.text))
    page.on("requestfailed", lambda r: problems.append(f"failed: {r.url}"))
    page.on("response", lambda r: r.status >= 400 and problems.append(f"{r.status}: {r.url}"))
    table = _finished_bot_game(page, server, "verso", ("random", "random"))
    with page.expect_response(lambda r: r.url.endswith(f"/{table}/analysis")) as asked:
        page.goto(f"{server}/replay/{table}")
    page.wait_for_selector("#ask-analysis")
    page.wait_for_load_state("networkidle")
    assert problems == [] and page.errors == []
    assert asked.value.json()["status"] == "not_requested"


def test_the_replay_page_lists_a_verso_games_costliest_decisions(browser: Any, server: str) -> None:
    page = _page(browser, server, PHONE, phone=True)
    table = _finished_bot_game(page, server, "verso", ("random", "random"))
    page.goto(f"{server}/replay/{table}")
    page.get_by_role("button", name="Analyse this game").click()
    page.wait_for_selector("#costliest li", timeout=WAIT)  # random play gives points away
    assert page.locator("#log .analysis-note").count() >= page.locator("#costliest li").count()
    # The moves are notation, marked as in the move list (in a German sentence "draw" and
    # "series green 1 2" read as words left in English otherwise).
    lines = page.locator("#costliest li").count()
    assert page.locator("#costliest li code.notation").count() == 2 * lines
    notes = page.locator("#log .analysis-note")
    assert notes.locator("code.notation").count() == notes.count()
    # Each note tells which value is the better move's and which the move played's, and the
    # two differ as shown: a cost rounded away ("54 % to win / 54 % to win") was marked too.
    for text in notes.all_inner_texts():
        shown = re.fullmatch(
            r"better: \S+(?: \S+)* \((\d+) % to win; played: (\d+) % to win\)", text
        )
        assert shown and shown.group(1) != shown.group(2), text
    # On the phone a figure stays whole ("24 % to win" was broken after "24"): each is marked
    # to keep to one line, and none is drawn on two.
    figures = page.evaluate(
        """() => [...document.querySelectorAll('#log .analysis-note, #costliest li')].map((item) =>
            [...item.querySelectorAll('.figure')].map((figure) => [figure.textContent,
                getComputedStyle(figure).whiteSpace,
                new Set([...figure.getClientRects()].map((r) => Math.round(r.top))).size]))"""
    )
    assert figures and all(len(item) == 2 for item in figures), figures
    for text, wrap, lines in (figure for item in figures for figure in item):
        assert re.fullmatch(r"\d+ % to win", text) and wrap == "nowrap" and lines == 1, text
    page.locator("#costliest li button").first.click()
    shoot(page.locator("#analysis"), "analysis-verso-phone.png")
    shoot(page, "analysis-verso-phone-notes.png", full_page=True)
    if TAKE_SHOTS:
        desktop = _page(browser, server, DESKTOP)
        desktop.goto(f"{server}/replay/{table}")
        desktop.wait_for_selector("#costliest li", timeout=WAIT)  # computed once: there at once
        shoot(desktop, "analysis-verso-desktop.png", full_page=True)
    assert page.errors == []


def test_a_recto_verso_card_not_completed_shows_the_solvers_building_from_both_sides(
    browser: Any, server: str
) -> None:
    # The random bot builds next to the partner bot: their cards are not completed.
    page = _page(browser, server, DESKTOP)
    table = _finished_bot_game(page, server, "rectoverso", ("random", "partner"))
    page.goto(f"{server}/replay/{table}")
    page.get_by_role("button", name="Analyse this game").click()
    page.wait_for_selector("#missed-cards .rv-missed", timeout=WAIT)
    cards = page.request.get(f"{server}/api/tables/{table}/analysis").json()["cards"]
    assert cards and page.locator("#missed-cards .rv-missed").count() == len(cards)
    for index, card in enumerate(cards):
        item = page.locator("#missed-cards .rv-missed").nth(index)
        assert f"card {card['card']}" in item.locator("h3").inner_text()
        sides = item.locator(".rv-card-side svg")
        assert sides.count() == 2
        # The front drawn as the solver's building shows it from the front, the back from the
        # back, one coloured cube per cube of each side.
        for side, levels in enumerate((card["solution"]["front"], card["solution"]["back"])):
            label = sides.nth(side).get_attribute("aria-label")
            assert label is not None and label.endswith(" / ".join(levels))
            cubes = sum(letter != "." for row in levels for letter in row)
            assert sides.nth(side).locator("rect.rv-cube").count() == cubes > 0
    shoot(page.locator("#analysis"), "analysis-rectoverso-desktop.png")
    # A missed card's heading shows its round on the board: the building as it last stood (the
    # step before the one that ended the round), beside the card, both sides (a replay's view).
    last = cards[-1]
    steps = page.request.get(f"{server}/api/tables/{table}/replay").json()["steps"]
    ended = next(i for i, s in enumerate(steps) if len(s["view"]["rounds"]) >= last["round"])
    page.locator("#missed-cards .rv-missed").nth(len(cards) - 1).locator("h3 button").click()
    assert page.locator("#where").inner_text().startswith(f"step {ended - 1} of ")
    assert page.locator("#board .rv-compare").count() == 2
    assert page.locator("#board [data-testid=sides-hidden]").count() == 0
    assert page.errors == []
