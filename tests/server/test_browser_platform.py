"""Browser tests of what surrounds every game: the lobby (pace, my games waiting for me,
leaderboards, the reminder address), the table's chrome (players and clocks, chat shown as text,
resign with a confirmation, the log after a reload, rematch), the connection banner, the
player and rules pages. Real Chromium, real server processes; screenshots go to ``SHOTS``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from otherside.server.store.db import sqlite_url
from tests.server.browsing import shoot
from tests.server.processes import Server, free_port

pytestmark = pytest.mark.browser
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
WAIT = 15000


def _person(browser: Any, server: str, name: str | None, viewport: dict[str, int] = DESKTOP) -> Any:
    """A page signed up as ``name`` (a guest when ``None``)."""
    context = browser.new_context(
        viewport=viewport, device_scale_factor=2 if viewport == PHONE else 1
    )
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.on("console", lambda m: "Content Security Policy" in m.text and page.errors.append(m.text))
    if name is None:
        assert page.request.post(server + "/api/guest").ok
    else:
        made = page.request.post(
            server + "/api/signup", data={"name": name, "password": "secret-" + name}
        )
        assert made.ok, made.text()
    return page


def _post(page: Any, server: str, path: str, body: dict[str, Any] | None = None) -> Any:
    response = page.request.post(server + path, data=body or {})
    assert response.ok, response.text()
    return response.json()


def _shoot(page: Any, name: str) -> None:
    page.evaluate("window.scrollTo(0, 0)")  # else the sticky header lands mid-page
    shoot(page, f"{name}.png", full_page=True)


def test_the_lobby_makes_a_turn_based_table_and_shows_whose_turn(server: str, browser: Any) -> None:
    ada = _person(browser, server, "AdaL")
    bob = _person(browser, server, "BobL", PHONE)
    ada.goto(server + "/")
    ada.wait_for_selector("#lobby:not(.hidden)")
    ada.select_option("#game", "versus")
    # VERSUS comes turn-based by default, with the sheet's 4 and 7 days.
    assert ada.input_value("#pace") == "turn" and ada.input_value("#days") == "7"
    assert ada.input_value("#remind") == "4" and ada.is_visible("#pace-turn")
    ada.fill("#days", "5")
    ada.fill("#remind", "2")
    ada.click("#create-btn")
    ada.wait_for_url("**/table/*")
    table = ada.url.rsplit("/", 1)[1]
    summary = json.loads(ada.request.get(f"{server}/api/tables/{table}").text())
    assert summary["pace"] == {"kind": "turn", "days": 5.0, "remind_days": 2.0}
    assert "null" not in ada.inner_text("#waiting") and "null" not in ada.inner_text("#summary")
    _post(bob, server, f"/api/tables/{table}/join", {})
    ada.wait_for_selector("#start:not([disabled])")
    ada.click("#start")
    ada.wait_for_selector("#board[data-ply='0']")
    assert "Turn-based · 5 days a move" in ada.inner_text("#summary")
    assert "7 d" not in ada.inner_text("#players") and "left" in ada.inner_text("#players")
    bob.goto(server + "/")
    bob.wait_for_selector("#my-tables tr")
    assert bob.is_hidden("#waiting-count")
    ada.goto(server + "/")
    ada.wait_for_selector("#waiting-count:not(.hidden)")
    assert ada.inner_text("#waiting-count") == "1 waiting for you"
    assert "your turn" in ada.inner_text("#my-tables")
    ada.fill("#email", "ada@example.org")
    ada.click("#email-form button")
    ada.wait_for_selector(".toast")
    me = json.loads(ada.request.get(server + "/api/me").text())
    assert me["user"]["email"] == "ada@example.org"
    _shoot(ada, "platform-lobby")
    _shoot(bob, "platform-lobby-phone")
    assert not ada.errors and not bob.errors, ada.errors + bob.errors


def test_the_lobby_names_bots_and_guests_as_the_table_does(server: str, browser: Any) -> None:
    # The lobby said "Random bot" for each of two random bots, where the table says "Random
    # bot 1" and "Random bot 2", and did not mark a guest, as the table does. The server named
    # them by seat ("Random bot 2", "Random bot 4"), the player's page "random bot", and an
    # open seat "—": every page now shows the server's one name.
    host = _person(browser, server, None)
    made = _post(host, server, "/api/tables", {"game": "verso", "players": 5})
    for seat, bot in ((1, "random"), (2, "greedy"), (3, "random")):
        _post(host, server, f"/api/tables/{made['id']}/bots", {"seat": seat, "bot": bot})
    name = made["seats"][0]["name"]
    table = json.loads(host.request.get(f"{server}/api/tables/{made['id']}").text())
    bots = ["Random bot 1", "Greedy bot", "Random bot 2"]
    assert [s["name"] for s in table["seats"]] == [name, *bots, None]
    reader = _person(browser, server, "ReaderL")
    phone = _person(browser, server, "ReaderP", PHONE)
    for page in (reader, phone):
        page.goto(server + "/")
        row = page.locator("#open-tables tr", has_text=name)
        row.wait_for(timeout=WAIT)
        seats = row.locator("td").nth(1).inner_text()
        assert f"{name} (guest), {', '.join(bots)}, open seat" in seats, seats
    _shoot(reader, "names-lobby")
    _shoot(phone, "names-lobby-phone")
    host.goto(f"{server}/table/{made['id']}")
    host.wait_for_selector("#waiting:not(.hidden)")
    at_table = host.inner_text("#seats")
    assert all(bot in at_table for bot in bots), at_table
    # The players list beside it: the open seat said so ("seat 5" beside its number 5).
    listed = host.locator("#players .pl")
    assert listed.all_inner_texts() == [
        f"1\n{name} (you) · guest",
        *[f"{seat}\n{bot}" for seat, bot in enumerate(bots, 2)],
        "5\nopen seat",
    ]
    _shoot(host, "names-table")
    phone.goto(f"{server}/table/{made['id']}")
    phone.wait_for_selector("#waiting:not(.hidden)")
    _shoot(phone, "names-table-phone")
    phone.click("[data-open=table]")
    _shoot(phone, "names-table-players-phone")
    host.goto(f"{server}/player/{name}")
    recent = host.locator("#recent tr", has_text=name)
    recent.wait_for(timeout=WAIT)
    assert f"{name}, {', '.join(bots)}, open seat" in recent.inner_text(), recent.inner_text()
    _shoot(host, "names-player")
    assert not host.errors and not reader.errors and not phone.errors, host.errors + reader.errors


def test_chat_clocks_resign_reload_and_rematch_at_a_table(server: str, browser: Any) -> None:
    ada = _person(browser, server, None)
    bob = _person(browser, server, None, PHONE)
    made = _post(
        ada,
        server,
        "/api/tables",
        {
            "game": "verso",
            "players": 2,
            "options": {"first_player": 0},
            "pace": {"kind": "live", "minutes": 3, "increment": 2},
        },
    )
    table = made["id"]
    _post(bob, server, f"/api/tables/{table}/join", {})
    _post(ada, server, f"/api/tables/{table}/start")
    for page in (ada, bob):
        page.goto(f"{server}/table/{table}")
        page.wait_for_selector("[data-testid=pile-size]")
    # The clock of the player to move runs; the other's stands at the full three minutes.
    ada.wait_for_selector("[data-testid=clock-0].running")
    assert bob.inner_text("[data-testid=clock-1]") == "3:00"
    ada.get_by_role("button", name="Flip & take").click()
    bob.wait_for_selector(".status.mine")
    bob.get_by_role("button", name="Flip & take").click()
    ada.wait_for_selector(".status.mine")
    # Chat: shown as text, never as HTML.
    ada.fill("#chat-text", "<img src=x onerror=alert(1)> good luck")
    ada.press("#chat-text", "Enter")
    # On the phone the last line shows in the dock; the whole chat is a drawer.
    bob.wait_for_selector("#dock-chat-line:has-text('good luck')")
    bob.click("[data-open=chat]")
    bob.wait_for_selector("#chat-lines li")
    assert "<img src=x onerror=alert(1)> good luck" in bob.inner_text("#chat-lines")
    assert bob.locator("#chat-lines img").count() == 0
    # After a reload the log has the game so far.
    before = ada.locator("#log li").count()
    assert before >= 2
    ada.reload()
    ada.wait_for_selector("#log li")
    assert ada.locator("#log li").count() == before
    assert "good luck" in ada.inner_text("#chat-lines")
    _shoot(ada, "platform-table")
    _shoot(bob, "platform-table-phone")
    # Resign asks first; cancelling changes nothing, confirming ends the game.
    bob.click("[data-open=table]")
    bob.click("#resign")
    assert "loss for you" in bob.inner_text("#confirm-text")
    bob.click("#confirm-no")
    assert bob.is_visible("#resign")
    bob.click("#resign")
    bob.click("#confirm-yes")
    for page in (ada, bob):
        page.wait_for_selector("#rematch")
    assert "resigned" in ada.inner_text("#summary")
    ada.click("#rematch")
    ada.wait_for_url(lambda url: "/table/" in url and not url.endswith(table))
    ada.wait_for_selector("#waiting:not(.hidden)")
    bob.wait_for_selector("text=Go to the rematch")
    # On the phone it is in sight above the board, not only in the Players drawer.
    bob.click("[data-open=table]")  # closed again
    assert bob.get_attribute("body", "data-drawer") is None
    bob.evaluate("window.scrollTo(0, 0)")
    assert bob.locator("#result [data-testid=to-rematch]").is_visible()
    # The replay's move list follows the step shown.
    bob.goto(f"{server}/replay/{table}")
    bob.wait_for_selector("#log li")
    bob.click("#next")
    bob.click("#next")
    assert bob.locator("#log li.current").count() == 1
    assert bob.locator("#log li").nth(1).get_attribute("class") == "current"
    assert not ada.errors and not bob.errors, ada.errors + bob.errors


def test_the_banner_says_the_connection_dropped_and_came_back(browser: Any, tmp_path: Path) -> None:
    port = free_port()
    url = sqlite_url(tmp_path / "otherside.db")
    # Bots think in threads: no pool of bot processes to start, three times.
    process = Server(url, port, "--bot-workers", "0")
    base = f"http://127.0.0.1:{port}"
    try:
        page = _person(browser, base, None)
        made = _post(page, base, "/api/tables", {"game": "verso", "players": 1})
        _post(page, base, f"/api/tables/{made['id']}/start")
        page.clock.install()  # the page's timers, moved on below (the server's time is real)
        page.goto(f"{base}/table/{made['id']}")
        page.wait_for_selector("[data-testid=pile-size]")
        assert page.is_hidden("#offline")
        # A process that dies has its tables taken over by the others at once: its pages try
        # again within a tenth of a second (spread at random), not after half a second.
        page.clock.pause_at(page.evaluate("Date.now()") + 1000)  # the page's timers wait
        process.kill()
        page.wait_for_selector("#offline:not(.hidden)", timeout=WAIT)
        assert "reconnecting" in page.inner_text("#offline")
        _shoot(page, "platform-offline")
        process = Server(url, port, "--bot-workers", "0")
        page.clock.run_for(100)  # the retry is due within the spread
        page.wait_for_selector("#offline.hidden", state="attached", timeout=WAIT)
        # Away for longer: the page tries again and again, waiting longer after each failure.
        page.clock.resume()
        process.kill()
        page.wait_for_selector("#offline:not(.hidden)", timeout=WAIT)
        process = Server(url, port, "--bot-workers", "0")
        # The server is back: the page's next try, up to 8 s away, comes now. It reconnects
        # to the new process, and says so.
        page.clock.fast_forward(8000)
        page.wait_for_selector("#offline.hidden", state="attached", timeout=30000)
        assert page.inner_text("[data-testid=pile-size]") == "35"
    finally:
        process.kill()


def test_player_and_rules_pages(server: str, browser: Any) -> None:
    cy = _person(browser, server, "CyP")
    dee = _person(browser, server, "DeeP", PHONE)
    for loser in (dee, cy, dee):
        table = _post(cy, server, "/api/tables", {"game": "versus", "players": 2})["id"]
        _post(dee, server, f"/api/tables/{table}/join", {})
        _post(cy, server, f"/api/tables/{table}/start")
        _post(loser, server, f"/api/tables/{table}/leave")
    cy.goto(f"{server}/player/CyP")
    card = cy.locator(".rating-card[data-game=versus]")
    card.wait_for()
    assert card.locator("circle").count() == 4  # the start and three games
    assert card.locator(".big-rating").inner_text() == "1515"
    assert cy.locator("#recent tr").count() == 3 and "Replay" in cy.inner_text("#recent")
    dee.goto(f"{server}/player/CyP")
    dee.wait_for_selector(".rating-card")
    _shoot(cy, "platform-player")
    _shoot(dee, "platform-player-phone")
    for game, title in (("verso", "Verso"), ("versus", "VERSUS"), ("rectoverso", "Recto Verso")):
        cy.goto(f"{server}/rules/{game}")
        cy.wait_for_selector("#rules h1")
        assert cy.inner_text("#rules h1") == title and cy.locator("#rules h2").count() >= 3
    _shoot(cy, "platform-rules")
    cy.goto(f"{server}/player/nobody-here")
    cy.wait_for_selector("text=No such player")
    assert not cy.errors and not dee.errors, cy.errors + dee.errors


def test_the_verso_log_shows_the_star_of_a_series(server: str, browser: Any) -> None:
    page = browser.new_context(bypass_csp=True).new_page()
    page.goto(server + "/")
    words = page.evaluate(
        """async () => {
            const verso = await import('/static/js/games/verso/board.js');
            return verso.describe({type: 'series', player: 0, colour: 'blue', values: [3, 4, 5],
                                   star: 4, points: 9}, ['Ada']);
        }"""
    )
    assert words == "Ada banked blue 3-★4-5 for 9 VP."
