"""Browser tests of VERSUS as its site plays it (seed 003): choose a piece, choose a cell, see
the move on the board, then confirm it (or cancel, or choose again) — by mouse, touch and
keyboard; with "Confirm each move" switched off a click plays at once; the setting is the
account's (kept by the server) or a guest's (kept in the browser); and a takeback asked on one
page is answered on the other. Real Chromium, a real server process; the contexts here are
made without the other browser tests' "moves at once" script, so the defaults are the pages'.
Screenshots (when asked for): ``SHOTS/versus-confirm-*.png``.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from tests.server.browsing import shoot
from tests.server.test_browser_versus import DESKTOP, PHONE, WAIT, _my_turn, _open, _plies, _table

pytestmark = pytest.mark.browser
BAR = "[data-testid=vs-confirm-bar]"
SWITCH = "[data-testid=confirm-moves]"


def _person(browser: Any, server: str, viewport: dict[str, int], phone: bool = False) -> Any:
    """A page in a context of its own, with the pages' own defaults (no init script)."""
    context = browser.plain_context(
        viewport=viewport, device_scale_factor=2 if phone else 1, has_touch=phone
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    return page


def _guest(browser: Any, server: str, viewport: dict[str, int], phone: bool = False) -> Any:
    page = _person(browser, server, viewport, phone)
    assert page.request.post(server + "/api/guest").ok
    return page


def _choose(page: Any, ply: str) -> None:
    """Click the ply's piece (unless it is selected already), then its cell."""
    origin, target = ply.split(">")
    if page.locator(f'.vs-hit.own[data-cell="{origin}"][aria-pressed="true"]').count() == 0:
        page.click(f'[data-cell="{origin}"]')
    page.wait_for_selector(f'.vs-hit.choice[data-cell="{target}"]', timeout=WAIT)
    page.click(f'[data-cell="{target}"]')


def _shown(page: Any, ply: str) -> None:
    """The page shows ``ply`` chosen and not sent: the bar, the marks, the piece dimmed."""
    origin, target = ply.split(">")
    page.wait_for_selector(f'{BAR}:has-text("{origin} → {target}")', timeout=WAIT)
    assert page.locator(f'g.vs-chosen[data-chosen="{ply}"]').count() == 1
    assert page.locator(f'.vs-piece.leaving[data-piece="{origin}"]').count() == 1


def _still(page: Any, ply: int, *others: Any) -> None:
    """Nothing was sent: after a while the page (and ``others``, after the same while) is
    still at ``ply``."""
    page.wait_for_timeout(600)
    for seen in (page, *others):
        assert seen.get_attribute("#board", "data-ply") == str(ply)


def _played(page: Any, ply: int, move: str) -> None:
    origin, target = move.split(">")
    page.wait_for_selector(f"#board[data-ply='{ply}']", state="attached", timeout=WAIT)
    last = page.locator("[data-testid=vs-last]").inner_text()
    assert f"{origin}→{target}" in last, last


def test_a_move_is_chosen_shown_cancelled_chosen_again_and_confirmed(
    server: str, browser: Any
) -> None:
    blue = _guest(browser, server, DESKTOP)
    brown = _guest(browser, server, PHONE, phone=True)
    table = _table(server, blue, guest=brown)
    for page in (blue, brown):
        _open(page, server, table)

    # Blue, on a desktop: on by default in a turn-based game.
    plies = _plies(_my_turn(blue, 0))
    assert blue.is_checked(SWITCH)
    first = plies[0]
    _choose(blue, first)
    _shown(blue, first)
    _still(brown, 0, blue)
    shoot(blue, "versus-confirm-desktop.png")
    blue.click("[data-testid=vs-cancel-move]")
    blue.wait_for_selector(BAR, state="detached", timeout=WAIT)
    assert blue.locator("g.vs-chosen").count() == 0
    _still(blue, 0)

    # Chosen again with another piece, then changed to another cell of it, and confirmed
    # with Enter.
    origin = next(p.split(">")[0] for p in plies if p.split(">")[0] != first.split(">")[0])
    of_origin = [p for p in plies if p.startswith(origin + ">")]
    _choose(blue, of_origin[0])
    _shown(blue, of_origin[0])
    chosen = of_origin[-1]
    if chosen != of_origin[0]:
        blue.click(f'[data-cell="{chosen.split(">")[1]}"]')
        _shown(blue, chosen)
    _still(blue, 0)
    blue.keyboard.press("Enter")
    _played(blue, 1, chosen)
    _played(brown, 1, chosen)
    assert blue.locator(BAR).count() == 0

    # Brown, on a phone: a touch choice cancelled with Escape, then the keyboard all the way
    # (the piece, its first cell, the Confirm button).
    brown_plies = _plies(_my_turn(brown, 1))
    _choose(brown, brown_plies[0])
    _shown(brown, brown_plies[0])
    shoot(brown, "versus-confirm-phone.png")
    box = brown.locator(BAR).bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"], box
    brown.keyboard.press("Escape")
    brown.wait_for_selector(BAR, state="detached", timeout=WAIT)
    _still(brown, 1)
    brown.keyboard.press("Escape")  # the piece let go too
    origin = brown_plies[-1].split(">")[0]
    brown.focus(f'[data-cell="{origin}"]')
    brown.keyboard.press("Enter")
    brown.wait_for_selector(".vs-hit.choice:focus", timeout=WAIT)
    brown.keyboard.press("Enter")
    brown.wait_for_selector(f"{BAR} [data-testid=vs-confirm-move]:focus", timeout=WAIT)
    keyed = brown.get_attribute("g.vs-chosen", "data-chosen")
    assert keyed and keyed.startswith(origin + ">")
    _still(brown, 1)
    brown.keyboard.press("Enter")
    _played(brown, 2, keyed)
    _played(blue, 2, keyed)

    # Switched off: a click plays at once; the choice stays in the guest's browser.
    blue.uncheck(SWITCH)
    at_once = _plies(_my_turn(blue, 2))[0]
    _choose(blue, at_once)
    _played(blue, 3, at_once)
    assert blue.locator(BAR).count() == 0
    blue.reload()
    blue.wait_for_selector("#board[data-ply='3'] .vs-svg", timeout=WAIT)
    assert not blue.is_checked(SWITCH)

    # A takeback asked by Blue and declined by Brown: Blue is told so (the note "waiting for
    # Brown" just vanished), and the game is where it was.
    blue.click("[data-testid=vs-takeback-ask]")
    brown.click("[data-testid=vs-takeback-decline]", timeout=WAIT)
    blue.locator(".toast", has_text="declined to take back your move").wait_for(timeout=WAIT)
    blue.wait_for_selector("[data-testid=vs-takeback-ask]", timeout=WAIT)
    assert blue.get_attribute("#board", "data-ply") == "3"

    # Asked again, and accepted: both are back at ply 2.
    blue.click("[data-testid=vs-takeback-ask]")
    brown.wait_for_selector("[data-testid=vs-takeback-accept]", timeout=WAIT)
    blue.wait_for_selector("[data-testid=vs-takeback].mine", timeout=WAIT)
    shoot(brown, "versus-takeback-phone.png")
    shoot(blue, "versus-takeback-desktop.png")
    brown.click("[data-testid=vs-takeback-accept]")
    for page in (blue, brown):
        page.wait_for_selector("#board[data-ply='2']", state="attached", timeout=WAIT)
    assert json.loads(blue.get_attribute("#board", "data-legal") or "[]") == _my_turn(blue, 2)
    shoot(brown, "versus-taken-back-phone.png")
    shoot(blue, "versus-taken-back-desktop.png")

    # Reconnected (the page loaded again), Blue plays on from there: the move goes with the
    # view's count of takebacks, so that the server tells it from one chosen before it.
    sent: list[dict[str, Any]] = []
    blue.on("websocket", lambda ws: ws.on("framesent", lambda text: sent.append(json.loads(text))))
    blue.reload()
    again = _plies(_my_turn(blue, 2))[0]
    _choose(blue, again)
    _played(blue, 3, again)
    _played(brown, 3, again)
    actions = [m for m in sent if m["type"] == "action"]
    assert actions == [{"type": "action", "version": 2, "takebacks": 1, "action": again}]
    assert blue.errors == [] and brown.errors == []


def test_the_setting_is_kept_on_the_account(server: str, browser: Any) -> None:
    ada = _person(browser, server, DESKTOP)
    made = ada.request.post(
        server + "/api/signup", data={"name": "ada-confirm", "password": "a long password 1"}
    )
    assert made.ok, made.text()
    assert ada.request.get(server + "/api/me/settings").json() == {"confirm_moves": None}
    guest = _guest(browser, server, DESKTOP)
    table = _table(server, ada, guest=guest)
    _open(ada, server, table)
    _my_turn(ada, 0)
    assert ada.is_checked(SWITCH)
    ada.uncheck(SWITCH)
    # The page saves the choice on the account: asked until it is there (a moment, but a
    # loaded machine may take seconds between the click and the page's request).
    deadline = time.monotonic() + 30
    while ada.request.get(server + "/api/me/settings").json() != {"confirm_moves": False}:
        assert time.monotonic() < deadline, "the choice was not saved on the account"
        ada.wait_for_timeout(50)

    # Signed in elsewhere (a fresh browser, nothing kept in it): the account's choice holds.
    again = _person(browser, server, DESKTOP)
    signed = again.request.post(
        server + "/api/signin", data={"name": "ada-confirm", "password": "a long password 1"}
    )
    assert signed.ok, signed.text()
    _open(again, server, table)
    ply = _plies(_my_turn(again, 0))[0]
    assert not again.is_checked(SWITCH)
    _choose(again, ply)
    _played(again, 1, ply)
    assert again.locator(BAR).count() == 0 and again.errors == [] and ada.errors == []
