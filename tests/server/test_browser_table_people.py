"""The table page and the people at it (issue 33), in Chromium against a real server process.

A Recto Verso partner who is gone: the others see since when, and after a while may play on with
a bot partner (a refusal says the server's words). A finished rated game shows each player's
rating change with the result. A host who leaves a waiting room hands it to the next person, who
gets the host's controls at once. Recto Verso partners take turns: the page follows the side
and the reveal from the view, not from the seat number. Screenshots go to ``SHOTS``.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from tests.server.browsing import AWAY_SECONDS, shoot
from tests.server.test_browser_table import _context, _next_view, _page, _socket

pytestmark = pytest.mark.browser


def _shot(page: Any, name: str) -> None:
    shoot(page, f"people-{name}.png")


def _two(browser: Any, server: str, phone: bool = False) -> tuple[Any, Any, str]:
    """Two guests at a started two-player Recto Verso table (the first its host, seat 0)."""
    ada, bob = _context(browser, server, phone), _context(browser, server, False)
    table = ada.request.post(
        server + "/api/tables",
        data={"game": "rectoverso", "players": 2, "options": {"difficulty": "easy"}},
    ).json()
    assert bob.request.post(server + f"/api/tables/{table['id']}/join", data={"seat": 1}).ok
    assert ada.request.post(server + f"/api/tables/{table['id']}/start").ok
    return ada, bob, str(table["id"])


def test_a_partner_gone_for_long_may_be_played_on_with_a_bot(
    server: str,
    browser: Any,
) -> None:
    errors: list[str] = []
    ada, bob, table = _two(browser, server, phone=True)
    url = f"{server}/table/{table}"
    gone = _page(bob, errors, url)
    gone.wait_for_selector(".rv")
    page = ada.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.clock.install()  # the page's own time, moved on below (the server's is real)
    page.goto(url)
    page.wait_for_selector(".rv")
    assert page.locator("[data-testid=away-1]").count() == 0  # Bob is here
    gone.close()
    left = time.monotonic()
    notice = page.locator("[data-testid=away-1]")
    notice.wait_for()
    assert "has been away for" in notice.inner_text()
    assert "The game waits for them" in notice.inner_text()
    assert page.locator("[data-testid=play-on]").count() == 0  # not yet
    assert page.locator("[data-testid=away-mark-1]").count() == 1  # on the players' line too

    # A minute later (for the page): "1 min", and the offer.
    page.clock.fast_forward(61_000)
    page.wait_for_selector("[data-testid=play-on]")
    assert "away for 1 min" in notice.inner_text()
    _shot(page, "away-phone")
    # The server counts its own seconds: too soon for it, and its words say so.
    assert time.monotonic() - left < AWAY_SECONDS - 1
    page.click("[data-testid=play-on]")
    toast = page.locator(".toast", has_text="has been away less than")
    toast.wait_for()
    assert f"{AWAY_SECONDS:g} s" in toast.inner_text()
    assert page.locator(".pl[data-seat='1']", has_text="was away").count() == 0

    # The shared server's time is real here: wait until the partner has been away long enough.
    time.sleep(max(0.0, left + AWAY_SECONDS + 0.5 - time.monotonic()))
    page.click("[data-testid=play-on]")
    page.locator(".pl[data-seat='1']", has_text="was away").wait_for(state="attached")
    page.wait_for_selector("[data-testid=away-1]", state="detached")
    _shot(page, "away-played-on-phone")

    # Never offered where the players have clocks: there the clock decides.
    offers = page.evaluate(
        """async () => {
            const { awaySeats } = await import('/static/js/pages/table/away.js');
            const seat = (n, left) => ({ seat: n, kind: 'human', name: `p${n}`,
                away_since: new Date(0).toISOString(), user_id: n + 1 });
            const table = (kind) => ({ status: 'playing', pace: { kind },
                seats: [seat(0), seat(1)] });
            const now = 600000;
            return {
                rounds: awaySeats(table('rounds'), 0, { time_left_ms: [null, null] }, now),
                live: awaySeats(table('live'), 0, { time_left_ms: [60000, 60000] }, now),
                watching: awaySeats(table('rounds'), null, null, now),
            };
        }"""
    )
    assert [a["offer"] for a in offers["rounds"]] == [True]
    # Nor is anyone said to be away there: the server keeps presence current only at a game
    # without player clocks (elsewhere "away" would be what the page was told when it opened).
    assert offers["live"] == []
    assert [a["offer"] for a in offers["watching"]] == [False, False]
    assert not errors, errors


def _signed_up(browser: Any, server: str, name: str, phone: bool = False) -> Any:
    context = _context(browser, server, phone, guest=False)
    signed = context.request.post(
        server + "/api/signup", data={"name": name, "password": "a long enough password"}
    )
    assert signed.ok, signed.text()
    return context


@pytest.mark.parametrize("phone", [False, True])
def test_a_rated_result_shows_each_rating_change(
    server: str,
    browser: Any,
    phone: bool,
) -> None:
    errors: list[str] = []
    tag = int(time.time() * 1000) % 1000000
    ada = _signed_up(browser, server, f"ada{tag}", phone)
    bob = _signed_up(browser, server, f"bob{tag}")
    table = ada.request.post(server + "/api/tables", data={"game": "versus", "players": 2}).json()
    assert bob.request.post(server + f"/api/tables/{table['id']}/join", data={"seat": 1}).ok
    assert ada.request.post(server + f"/api/tables/{table['id']}/start").ok
    page = _page(ada, errors, f"{server}/table/{table['id']}")
    page.wait_for_selector("#board *")
    assert page.locator("[data-testid=rating-change]").count() == 0  # not while playing
    with _socket(bob, server, table["id"]) as ws:
        _next_view(ws, lambda m: True)
        ws.send(json.dumps({"type": "resign"}))
        line = page.locator("[data-testid=rating-line]")
        line.wait_for()
    text = line.inner_text()
    assert f"ada{tag}" in text and f"bob{tag}" in text
    assert "(+" in text and "(−" in text, text
    assert line.is_visible() and page.evaluate("scrollY") == 0  # in sight, phone or not
    # Beside the names in the players' list too.
    assert "(+" in page.locator(".pl[data-seat='0']").inner_text()
    loser = page.locator(".pl[data-seat='1']").inner_text()
    assert "(−" in loser
    assert "resigned" in loser and "plays on" not in loser  # the game is over: no bot plays
    _shot(page, f"rated-result-{'phone' if phone else 'desktop'}")
    # The rematch is one tap from the result on a phone (its actions live in a drawer there).
    if phone:
        page.tap("[data-testid=result-more]")
        page.locator("#rematch").wait_for()
        _shot(page, "rated-result-phone-actions")
    else:
        assert not page.locator("[data-testid=result-more]").is_visible()
        assert page.locator("#rematch").is_visible()
    assert not errors, errors


def test_a_host_who_leaves_hands_the_table_on_at_once(
    server: str,
    browser: Any,
) -> None:
    errors: list[str] = []
    host, guest = _context(browser, server, False), _context(browser, server, True)
    table = host.request.post(server + "/api/tables", data={"game": "verso", "players": 3}).json()
    path = f"/api/tables/{table['id']}"
    assert guest.request.post(server + path + "/join", data={"seat": 1}).ok
    page = _page(guest, errors, f"{server}/table/{table['id']}")
    page.wait_for_selector("#waiting:not(.hidden)")
    assert page.locator("#start").count() == 0
    assert host.request.post(server + path + "/leave").ok

    # No reload: the host's controls and the news, on the same page.
    page.locator("[data-testid=host-now]").wait_for()
    assert "You are the host now" in page.inner_text("[data-testid=host-now]")
    page.locator(".toast", has_text="You are the host now").wait_for()
    assert page.locator("#start").count() == 1
    assert page.locator("#seats select").count() == 2  # a bot for each empty seat
    _shot(page, "host-now-phone")

    # Filling the seats with bots starts the game at once, as the button says.
    fill = page.locator("#fill")
    assert "and start" in fill.inner_text()
    fill.click()
    page.wait_for_selector("#waiting.hidden", state="attached")
    page.wait_for_selector("#board *")
    assert host.request.get(server + path).json()["status"] in ("playing", "over")
    assert not errors, errors


def _say_done(ws: Any, said: int) -> None:
    """Say "Recto" on the view where ``said`` partners already have (not on a stale one)."""
    view = _next_view(ws, lambda m: "done" in m["legal"] and len(m["view"]["done"]) == said)
    ws.send(json.dumps({"type": "action", "version": view["version"], "action": "done"}))


def test_recto_verso_partners_take_turns_on_the_page(
    server: str,
    browser: Any,
) -> None:
    errors: list[str] = []
    ada, bob, table = _two(browser, server)
    url = f"{server}/table/{table}"
    pages = {0: _page(ada, errors, url), 1: _page(bob, errors, url)}
    for page in pages.values():
        page.wait_for_selector(".rv[data-phase=start]")
    for round_number in range(2):
        # Whoever the legal actions let reveal gets the button; the other waits for them.
        button = "[data-testid=next-round]"
        revealer = next(s for s, p in pages.items() if p.locator(button).count())
        partner = pages[1 - revealer]
        assert partner.locator(button).count() == 0
        assert "you from the back (verso)" in partner.inner_text(".rv-next")
        assert "You build from the front (recto)" in pages[revealer].inner_text(".rv-next")
        _shot(partner, f"rv-turns-waiting-{round_number}")
        pages[revealer].click("[data-testid=next-round]")
        for page in pages.values():
            page.wait_for_selector(".rv[data-phase=build]")
        assert "You build from the front" in pages[revealer].inner_text(".rv-role-main")
        assert "You build from the back" in partner.inner_text(".rv-role-main")
        if round_number == 0:
            first = revealer
            with _socket(ada, server, table) as a, _socket(bob, server, table) as b:
                _say_done(a, 0)
                _say_done(b, 1)
                _next_view(a, lambda m: m["view"]["phase"] == "start")
            for page in pages.values():
                page.wait_for_selector(".rv[data-phase=start]")
            # Ada said it first: "Recto" (R13), whichever side she built, as her button said.
            assert "said “Recto”" in pages[1].inner_text("#log")
            assert "said “Verso”" not in pages[1].inner_text("#log")
    assert revealer != first, "the partner reveals the second card"
    assert not errors, errors
