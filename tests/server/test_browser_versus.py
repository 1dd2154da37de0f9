"""Browser tests of the VERSUS board page: real Chromium, a real server process, every ply
played by clicking a piece and then a highlighted cell.

Two guests play a whole game (Blue on a desktop, Brown on a phone, a spectator watching), a
guest plays the ``greedy`` bot to the end, a player resigns, a draw is offered and accepted.
Each ply is chosen in Python among the plies the page offers (``data-legal`` on the board).
Screenshots of each stage go to ``SHOTS`` (``/tmp/otherside-screens`` by default).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from otherside.bots import make_bot
from otherside.core.game import Outcome
from otherside.games.versus import new_game, replay, view
from tests.server.browsing import shoot

pytestmark = pytest.mark.browser
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
WAIT = 15000


def _guest(browser: Any, server: str, viewport: dict[str, int], phone: bool = False) -> Any:
    """A new browser context signed in as a guest, and its page."""
    context = browser.new_context(
        viewport=viewport, device_scale_factor=2 if phone else 1, has_touch=phone
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("dialog", lambda dialog: dialog.accept())
    page.errors = errors
    page.request.post(server + "/api/guest")
    return page


def _api(page: Any, server: str, path: str, body: dict[str, Any] | None = None) -> Any:
    response = page.request.post(server + path, data=body or {})
    assert response.ok, response.text()
    return response.json()


def _table(server: str, host: Any, guest: Any = None, bot: str | None = None) -> str:
    """A started VERSUS table: ``host`` Blue (seat 0), ``guest`` or ``bot`` Brown."""
    table = _api(host, server, "/api/tables", {"game": "versus", "players": 2})
    if guest is not None:
        _api(guest, server, f"/api/tables/{table['id']}/join", {"seat": 1})
    else:
        _api(host, server, f"/api/tables/{table['id']}/bots", {"bot": bot})
    _api(host, server, f"/api/tables/{table['id']}/start")
    return str(table["id"])


def _open(page: Any, server: str, table: str) -> None:
    page.goto(f"{server}/table/{table}")
    page.wait_for_selector("#board[data-game=versus] .vs-svg", timeout=WAIT)


def _pair(browser: Any, server: str, phone: bool = False) -> tuple[Any, Any, str]:
    """Two guests at a started table, Blue on a desktop, Brown on a desktop or a phone."""
    blue = _guest(browser, server, DESKTOP)
    brown = _guest(browser, server, PHONE if phone else DESKTOP, phone=phone)
    table = _table(server, blue, guest=brown)
    for page in (blue, brown):
        _open(page, server, table)
    return blue, brown, table


def _board(page: Any, ply: int) -> list[str]:
    """Wait until the page shows the view after ``ply`` actions; its legal actions."""
    # Selectors, not script: the pages' content policy allows no eval.
    page.wait_for_selector(f"#board[data-ply='{ply}']", state="attached", timeout=WAIT)
    return list(json.loads(page.get_attribute("#board", "data-legal")))


def _my_turn(page: Any, ply: int) -> list[str]:
    page.wait_for_selector(
        f"#board[data-ply='{ply}']:not([data-legal='[]'])", state="attached", timeout=WAIT
    )
    return _board(page, ply)


def _click_ply(page: Any, ply: str, shot: str | None = None) -> None:
    origin, target = ply.split(">")
    page.click(f'[data-cell="{origin}"]')
    page.wait_for_selector(f'.vs-hit.choice[data-cell="{target}"]', timeout=WAIT)
    if shot:
        shoot(page, shot)
    page.click(f'[data-cell="{target}"]')


def _button(page: Any, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()


def _shoot(page: Any, name: str) -> None:
    shoot(page, name, settle_ms=900)  # after the slide and flip animations


def _plies(legal: list[str]) -> list[str]:
    return [a for a in legal if ">" in a]


def _record(page: Any, server: str, table: str) -> tuple[dict[str, Any], Outcome]:
    """The finished table's record and the outcome it replays to."""
    answer = page.request.get(f"{server}/api/tables/{table}/record")
    assert answer.ok, (answer.status, answer.text())
    record = answer.json()
    assert record["game"] == "versus"
    outcome = replay(record).outcome
    assert outcome is not None
    return record, outcome


@pytest.mark.slow
def test_two_guests_play_a_whole_game_by_clicking_while_a_spectator_watches(
    server: str, browser: Any
) -> None:
    blue, brown, table = _pair(browser, server, phone=True)
    watcher = _guest(browser, server, DESKTOP)
    _open(watcher, server, table)
    pages = (blue, brown)
    state, rng, greedy = new_game(), random.Random(23), make_bot("versus", "greedy")  # Blue wins
    _my_turn(blue, 0)
    shoot(blue, "versus-start.png")
    shoot(brown, "versus-phone-start.png")
    assert watcher.locator(".vs-hit.active, .vs-actions button").count() == 0
    pulled_shot = offered = False
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        page = pages[seat]
        legal = _my_turn(page, len(state.history))
        assert legal == [str(a) for a in state.legal_actions()]
        if seat == 0 and not offered and len(state.history) == 2:
            offered = True
            _button(page, "Offer draw")
            state = state.apply("offer-draw")
            assert _my_turn(brown, len(state.history)) == ["accept-draw", "decline-draw"]
            _board(blue, len(state.history))
            shoot(blue, "versus-draw-offered.png")
            shoot(brown, "versus-phone-draw-offered.png")
            assert "offers a draw" in brown.inner_text("[data-testid=vs-status]")
            _button(brown, "Decline")
            state = state.apply("decline-draw")
            continue
        ply = str(greedy.choose(view(state, seat), state.legal_plies(), rng))
        first = len(state.history) < 2
        _click_ply(
            page, ply, ("versus-selected.png", "versus-phone-selected.png")[seat] if first else None
        )
        state = state.apply(ply)
        if state.pulled and not pulled_shot and not state.is_over:
            pulled_shot = True
            _board(blue, len(state.history))
            _board(brown, len(state.history))
            assert "pulled" in blue.inner_text("[data-testid=vs-last]")
            _shoot(blue, "versus-pulled.png")
            _shoot(brown, "versus-phone-pulled.png")
    assert offered and pulled_shot
    _board(watcher, len(state.history))
    for page in (*pages, watcher):
        page.wait_for_selector("[data-testid=vs-final]", timeout=WAIT)
    assert state.outcome is not None
    blue_score, brown_score = state.outcome.scores
    for page in (*pages, watcher):
        final = page.inner_text("[data-testid=vs-final]")
        assert f"Blue {blue_score}" in final and f"{brown_score} Brown" in final
        assert page.locator(".vs-hit.active, .vs-actions button").count() == 0
    winner = state.outcome.winners[0] if len(state.outcome.winners) == 1 else None
    if winner is not None:
        assert "You won!" in pages[winner].inner_text("[data-testid=vs-final]")
        assert "You lost" in pages[1 - winner].inner_text("[data-testid=vs-final]")
    _shoot(blue, "versus-final.png")
    _shoot(brown, "versus-phone-final.png")
    assert _record(blue, server, table)[1] == state.outcome
    for page in (*pages, watcher):
        assert not page.errors, page.errors
        page.context.close()


def test_a_guest_plays_the_greedy_bot_to_the_end(server: str, browser: Any) -> None:
    page = _guest(browser, server, DESKTOP)
    table = _table(server, page, bot="greedy")
    _open(page, server, table)
    rng = random.Random(3)
    for _ in range(200):
        page.wait_for_selector("[data-testid=vs-final], .vs-status.mine", timeout=WAIT)
        if page.locator("[data-testid=vs-final]").count():
            break
        ply = int(page.get_attribute("#board", "data-ply"))
        _click_ply(page, rng.choice(_plies(_my_turn(page, ply))))
        page.wait_for_selector(f"#board:not([data-ply='{ply}'])", state="attached", timeout=WAIT)
    else:
        raise AssertionError("the game did not end")
    _, outcome = _record(page, server, table)
    assert f"Blue {outcome.scores[0]}" in page.inner_text("[data-testid=vs-final]")
    assert not page.errors, page.errors
    page.context.close()


def test_resigning_after_confirming_ends_the_game_for_both(server: str, browser: Any) -> None:
    blue, brown, table = _pair(browser, server)
    # Blue plays by keyboard: Enter on a piece selects it and focuses a cell it can reach.
    first = _plies(_my_turn(blue, 0))[0].split(">")[0]
    blue.focus(f'[data-cell="{first}"]')
    blue.keyboard.press("Enter")
    target = blue.evaluate("document.activeElement.dataset.cell")
    assert f"{first}>{target}" in _plies(_board(blue, 0))
    blue.keyboard.press("Enter")
    _my_turn(brown, 1)
    assert blue.get_attribute(f'[data-piece="{target}"]', "data-owner") == "0"
    _button(brown, "Resign")
    confirm = brown.locator("#confirm-yes")  # the table's confirmation dialog
    assert _board(brown, 1) and confirm.is_visible()  # nothing sent before confirming
    assert "loss for you" in brown.inner_text("#confirm-text")
    confirm.click()
    for page in (blue, brown):
        page.wait_for_selector("[data-testid=vs-final]", timeout=WAIT)
    assert "You won!" in blue.inner_text("[data-testid=vs-final]")
    assert "resigned" in blue.inner_text("[data-testid=vs-final]")
    assert "You lost" in brown.inner_text("[data-testid=vs-final]")
    record, outcome = _record(blue, server, table)
    assert record["plies"][-1] == "resign" and outcome.winners == (0,)
    for page in (blue, brown):
        page.context.close()


def test_a_draw_offered_and_accepted_ends_the_game_drawn(server: str, browser: Any) -> None:
    blue, brown, table = _pair(browser, server)
    _my_turn(blue, 0)
    # Brown came after Blue's page opened: a game with clocks keeps no presence current, so
    # Blue's page must not say Brown is away (the time counting up while Brown plays).
    assert blue.locator("[data-testid=away-1], [data-testid=away-mark-1]").count() == 0
    _button(blue, "Offer draw")
    assert _my_turn(brown, 1) == ["accept-draw", "decline-draw"]
    assert "Waiting for" in blue.inner_text("[data-testid=vs-status]")
    _button(brown, "Accept draw")
    for page in (blue, brown):
        page.wait_for_selector("[data-testid=vs-final]", timeout=WAIT)
        assert page.inner_text("[data-testid=vs-final] .vs-head") == "Draw"
    record, outcome = _record(blue, server, table)
    assert record["plies"] == ["offer-draw", "accept-draw"] and outcome.winners == ()
    for page in (blue, brown):
        page.context.close()
