"""axe-core over every page (issue 34, "open to every player"): WCAG 2 A/AA and axe's best
practices find nothing on the welcome, the lobby, each game's table (waiting and while a game
is on), the player page, the replay and the rules pages, on a desktop and on a phone.

Real Chromium, a real server process; the engine is ``tests/server/axe.py``. The API docs
(``/api/docs``) are Swagger UI's page, not ours, and are left out.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.axe import report, violations

pytestmark = pytest.mark.browser
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
WAIT = 30000  # a loaded machine (the suite runs beside others) is slow to draw


def _page(browser: Any, viewport: dict[str, int] = DESKTOP, storage: Any = None) -> Any:
    context = browser.new_context(
        viewport=viewport,
        device_scale_factor=2 if viewport == PHONE else 1,
        storage_state=storage,
        # No animation half way (a card fading in) is judged: the pages honour this setting.
        reduced_motion="reduce",
    )
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    return page


def _post(page: Any, server: str, path: str, body: dict[str, Any] | None = None) -> Any:
    response = page.request.post(server + path, data=body or {})
    assert response.ok, response.text()
    return response.json()


def _clean(page: Any, where: str) -> None:
    """axe finds nothing on ``page`` as it is now, and the page raised no script error."""
    found = violations(page)
    assert not found, f"{where}:\n{report(found)}"
    assert not page.errors, page.errors


def _both_sizes(browser: Any, page: Any, url: str, ready: str, where: str) -> None:
    """``url`` for ``page``'s user checked on a desktop (``page``) and on a phone (one phone
    page of the same user for all of a test's pages: a context is a second to make on a
    loaded machine, and what one page leaves in it does not change what axe finds on the next)."""
    if getattr(page, "phone", None) is None:
        page.phone = _page(browser, PHONE, page.context.storage_state())
    for viewport, seen in ((DESKTOP, page), (PHONE, page.phone)):
        seen.goto(url)
        seen.wait_for_selector(ready, timeout=WAIT)
        _clean(seen, f"{where} at {viewport['width']}px")


def test_the_welcome_and_the_lobby_pass_axe(server: str, browser: Any) -> None:
    # A lobby with something in each list: a table of one's own, an open one, one being played.
    other = _page(browser)
    _post(other, server, "/api/guest")
    _post(other, server, "/api/tables", {"game": "versus", "players": 2})
    for viewport in (DESKTOP, PHONE):
        page = _page(browser, viewport)
        page.goto(server + "/")
        page.wait_for_selector("#welcome:not(.hidden) .game-card")
        _clean(page, f"welcome at {viewport['width']}px")
        page.click("#play-now")
        page.wait_for_selector("#lobby:not(.hidden) #game option", state="attached")
        mine = _post(page, server, "/api/tables", {"game": "verso", "players": 2})["id"]
        _post(page, server, f"/api/tables/{mine}/bots", {"bot": "random"})
        _post(page, server, f"/api/tables/{mine}/start")
        _post(page, server, "/api/tables", {"game": "rectoverso", "players": 2})
        page.reload()
        page.wait_for_selector("#my-tables a, #my-tables button", timeout=WAIT)
        page.wait_for_selector("#open-tables button, #open-tables a", timeout=WAIT)
        _clean(page, f"lobby at {viewport['width']}px")
        page.context.close()


def test_the_rules_pages_pass_axe(server: str, browser: Any) -> None:
    page = _page(browser)
    for game in ("verso", "versus", "rectoverso"):
        _both_sizes(browser, page, f"{server}/rules/{game}", "#rules h1", f"rules of {game}")


@pytest.mark.slow
def test_each_games_table_passes_axe_while_waiting_and_playing(server: str, browser: Any) -> None:
    host = _page(browser)
    _post(host, server, "/api/guest")
    for game, bot, ready in (
        ("verso", "random", "[data-testid=pile-size]"),
        ("versus", "random", "#board .vs-svg"),
    ):
        table = _post(host, server, "/api/tables", {"game": game, "players": 2})["id"]
        url = f"{server}/table/{table}"
        _both_sizes(browser, host, url, "#waiting:not(.hidden) .seat", f"{game} waiting room")
        _post(host, server, f"/api/tables/{table}/bots", {"bot": bot})
        _post(host, server, f"/api/tables/{table}/start")
        _both_sizes(browser, host, url, ready, f"{game} table")
    partner = _page(browser)
    _post(partner, server, "/api/guest")
    table = _post(host, server, "/api/tables", {"game": "rectoverso", "players": 2})["id"]
    _post(partner, server, f"/api/tables/{table}/join", {"seat": 1})
    _post(host, server, f"/api/tables/{table}/start")
    url = f"{server}/table/{table}"
    _both_sizes(browser, host, url, ".rv[data-phase=start]", "Recto Verso before a round")
    host.click("[data-testid=next-round]")
    host.wait_for_selector(".rv[data-phase=build]", timeout=WAIT)
    _both_sizes(browser, host, url, ".rv[data-phase=build]", "Recto Verso while building")


def test_the_player_page_and_the_replay_pass_axe(server: str, browser: Any) -> None:
    page = _page(browser)
    _post(page, server, "/api/signup", {"name": "AxeAnna", "password": "pw-axe-anna"})
    made = _post(
        page,
        server,
        "/api/tables",
        {"game": "verso", "players": 2, "pace": {"kind": "live", "minutes": 5, "increment": 2}},
    )
    _post(page, server, f"/api/tables/{made['id']}/bots", {"bot": "random"})
    _post(page, server, f"/api/tables/{made['id']}/start")
    page.goto(f"{server}/table/{made['id']}")
    page.wait_for_selector("#resign", timeout=WAIT)
    page.click("#resign")
    page.click("#confirm-yes")
    page.wait_for_selector("#rematch", timeout=WAIT)
    _clean(page, "a finished Verso table")
    _both_sizes(browser, page, f"{server}/player/AxeAnna", "#recent a", "player page")
    _both_sizes(browser, page, f"{server}/replay/{made['id']}", "#summary div", "replay")
