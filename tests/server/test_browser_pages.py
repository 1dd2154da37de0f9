"""Browser tests of the pages around the table (issue 33): the welcome of a signed-out visitor,
the sign-in gate of an invite link, pages that fit a phone, the replay of a game still being
played, the favicon, "play the bot again", the lobby's pace "rounds" and bots named in words.
Real Chromium, a real server process; screenshots go to ``SHOTS``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from otherside.server.store.db import sqlite_url
from tests.server.browsing import shoot
from tests.server.processes import Server, free_port

pytestmark = pytest.mark.browser
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def _visitor(browser: Any, viewport: dict[str, int] = DESKTOP) -> Any:
    """A page of a visitor who is not signed in, recording script errors and 404s."""
    context = browser.new_context(
        viewport=viewport, device_scale_factor=2 if viewport == PHONE else 1
    )
    page = context.new_page()
    page.errors = []
    page.missing = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    # A 404 is a missing file or route (an analysis nobody has asked for yet is not one).
    page.on("response", lambda r: r.status == 404 and page.missing.append(r.url))
    return page


def _person(browser: Any, server: str, name: str, viewport: dict[str, int] = DESKTOP) -> Any:
    page = _visitor(browser, viewport)
    made = page.request.post(server + "/api/signup", data={"name": name, "password": "pw-" + name})
    assert made.ok, made.text()
    return page


def _post(page: Any, server: str, path: str, body: dict[str, Any] | None = None) -> Any:
    response = page.request.post(server + path, data=body or {})
    assert response.ok, response.text()
    return response.json()


def _get(page: Any, server: str, path: str) -> Any:
    return json.loads(page.request.get(server + path).text())


def _shoot(page: Any, name: str) -> None:
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, f"{name}.png", full_page=True)


def _in_sight(page: Any, selector: str) -> bool:
    """Whether the element is on the screen as it is (no scrolling)."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return bool(box) and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


def _width(page: Any) -> tuple[int, int]:
    return page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")


def _finished_against_a_bot(page: Any, server: str) -> str:
    """A Verso table of ``page``'s user against a random bot, resigned in the page."""
    made = _post(
        page,
        server,
        "/api/tables",
        {
            "game": "verso",
            "players": 2,
            "options": {"first_player": 0},
            "pace": {"kind": "live", "minutes": 5, "increment": 2},
        },
    )
    _post(page, server, f"/api/tables/{made['id']}/bots", {"bot": "random"})
    page.goto(f"{server}/table/{made['id']}")
    page.wait_for_selector("[data-testid=pile-size]")
    page.click("#resign")
    page.click("#confirm-yes")
    page.wait_for_selector("#rematch")
    return str(made["id"])


def test_a_signed_out_visitor_is_welcomed_with_the_three_games(server: str, browser: Any) -> None:
    for viewport, shot in ((DESKTOP, "pages-welcome"), (PHONE, "pages-welcome-phone")):
        page = _visitor(browser, viewport)
        page.goto(server + "/")
        page.wait_for_selector("#welcome:not(.hidden) .game-card")
        cards = page.locator(".game-card")
        assert cards.count() == 3
        assert [cards.nth(i).get_attribute("data-game") for i in range(3)] == [
            "verso",
            "versus",
            "rectoverso",
        ]
        for i in range(3):
            # A picture drawn with nodes, and a sentence or two saying what the game is.
            assert cards.nth(i).locator("svg *").count() >= 5
            assert len(cards.nth(i).locator("p").inner_text()) > 80
        assert page.is_visible("#play-now") and page.is_visible("#signup-btn")
        assert page.is_visible("#signin-btn") and "not rated" in page.inner_text("#welcome")
        assert _width(page)[0] <= _width(page)[1]
        _shoot(page, shot)
        page.click("#play-now")
        page.wait_for_selector("#lobby:not(.hidden)")
        assert _get(page, server, "/api/me")["user"]["guest"] is True
        assert page.is_hidden("#welcome")
        assert not page.errors and not page.missing, page.errors + page.missing


def test_play_now_refused_says_why_beside_the_button(
    browser: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    # A server that lets an address make no guest: "Play now" is refused (429). The refusal
    # was written in the sign-in form's line far below; on a phone the button did nothing.
    url = sqlite_url(tmp_path_factory.mktemp("no-guests") / "otherside.db")
    process = Server(url, free_port(), limits=("guests_per_address=0",))
    try:
        page = _visitor(browser, PHONE)
        page.goto(process.url + "/")
        page.click("#play-now")
        said = page.locator("#play-now-error")
        said.wait_for()
        assert "guest" in said.inner_text()
        assert _in_sight(page, "#play-now-error")
        assert page.inner_text("#auth-error") == ""  # said once, where it was asked
        _shoot(page, "welcome-play-now-refused-phone")
    finally:
        process.kill()


def test_signing_up_on_the_welcome_opens_the_lobby(server: str, browser: Any) -> None:
    page = _visitor(browser)
    page.goto(server + "/")
    page.fill("#name", "WelcomeWendy")
    page.fill("#password", "pw-wendy-1")
    page.click("#signup-btn")
    page.wait_for_selector("#lobby:not(.hidden)")
    me = _get(page, server, "/api/me")["user"]
    assert me["name"] == "WelcomeWendy" and me["guest"] is False
    assert "WelcomeWendy" in page.inner_text("header.top .who")


def test_an_invite_link_offers_sign_in_before_making_a_guest(server: str, browser: Any) -> None:
    host = _person(browser, server, "InviteHost")
    table = _post(host, server, "/api/tables", {"game": "versus", "players": 2})["id"]
    for viewport in (DESKTOP, PHONE):
        page = _visitor(browser, viewport)
        page.goto(f"{server}/table/{table}")
        page.wait_for_selector("#signin-gate[open]")
        words = page.inner_text("#signin-gate")
        assert "Sign in" in words and "Sign up" in words and "Continue as a guest" in words
        assert "not rated" in words
        # Nobody was made a guest behind the visitor's back.
        assert _get(page, server, "/api/me")["user"] is None
        page.keyboard.press("Escape")
        assert page.is_visible("#signin-gate")
        assert _width(page)[0] <= _width(page)[1]
        _shoot(page, "pages-invite-gate" + ("-phone" if viewport == PHONE else ""))
    # Signing up in the gate comes back to the table, under the new name.
    page.fill("#gate-name", "InvitedIvy")
    page.fill("#gate-password", "pw-ivy-123")
    page.click("#gate-signup-btn")
    page.wait_for_selector("#waiting:not(.hidden)")
    assert page.url.endswith(f"/table/{table}") and page.is_hidden("#signin-gate")
    me = _get(page, server, "/api/me")["user"]
    assert me["name"] == "InvitedIvy" and me["guest"] is False
    # A wrong password says so in the gate and changes nothing.
    other = _visitor(browser)
    other.goto(f"{server}/table/{table}")
    other.fill("#gate-name", "InvitedIvy")
    other.fill("#gate-password", "wrong-password")
    other.click("#gate-signin-btn")
    other.wait_for_selector("#gate-auth-error:not(:empty)")
    assert _get(other, server, "/api/me")["user"] is None
    # Or continue as a guest, and the table is there.
    other.click("#gate-guest-btn")
    other.wait_for_selector("#waiting:not(.hidden)")
    assert _get(other, server, "/api/me")["user"]["guest"] is True
    assert not page.errors and not other.errors, page.errors + other.errors


def _rated_game(browser: Any, server: str, ada: Any, bob: Any) -> str:
    """A rated Verso game between two registered players, ``bob`` resigning in his page."""
    made = _post(
        ada,
        server,
        "/api/tables",
        {"game": "verso", "players": 2, "pace": {"kind": "live", "minutes": 5, "increment": 2}},
    )
    _post(bob, server, f"/api/tables/{made['id']}/join")
    _post(ada, server, f"/api/tables/{made['id']}/start")
    bob.goto(f"{server}/table/{made['id']}")
    bob.wait_for_selector("[data-testid=pile-size]")
    bob.click("#resign")
    bob.click("#confirm-yes")
    bob.wait_for_selector("#rematch")
    return str(made["id"])


@pytest.mark.slow
def test_no_page_is_wider_than_a_phone(server: str, browser: Any) -> None:
    desk = _person(browser, server, "Maximiliane-Wide")
    rival = _person(browser, server, "Bartholomew-Longname")
    table = _finished_against_a_bot(desk, server)
    _rated_game(browser, server, desk, rival)
    phone = _visitor(browser, PHONE)
    phone.request.post(
        server + "/api/signin", data={"name": "Maximiliane-Wide", "password": "pw-Maximiliane-Wide"}
    )
    # Each page is measured once what it fetches is drawn: its last part to come shown (the
    # lobby's lists have no such part: it waits until the network is quiet, half a second).
    player = ("#recent a.button", ".rating-card")
    paths = {
        "/": None,
        "/player/Maximiliane-Wide": player,
        "/player/Bartholomew-Longname": player,
        f"/replay/{table}": ("#summary div",),
        "/rules/verso": ("#rules h1",),
        "/rules/versus": ("#rules h1",),
        "/rules/rectoverso": ("#rules h1",),
    }
    for path, ready in paths.items():
        for page, size in ((phone, "phone"), (desk, "desk")):
            page.goto(server + path)
            if ready is None:
                page.wait_for_load_state("networkidle")
            for selector in ready or ():
                page.wait_for_selector(selector, state="attached")
            wide, screen = _width(page)
            assert wide <= screen, f"{path} is {wide} px wide on a {screen} px {size}"
            name = path.strip("/").replace("/", "-") or "lobby"
            _shoot(page, f"pages-{name}-{size}")
            if ready is player and page is phone:
                # The player's page: every button and card is on the screen, none cut off in a
                # scroll box.
                parts = phone.locator(
                    "#recent a.button, #recent .badge, .rating-card, .rating-card .row > *"
                )
                for box in [part.bounding_box() for part in parts.all()]:
                    assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (
                        path,
                        box,
                    )
    assert not phone.errors and not phone.missing, phone.errors + phone.missing


def test_the_replay_of_a_live_game_says_watch_it_live(server: str, browser: Any) -> None:
    page = _person(browser, server, "LiveLara")
    table = _post(page, server, "/api/tables", {"game": "versus", "players": 2})["id"]
    _post(page, server, f"/api/tables/{table}/bots", {"bot": "greedy"})
    for viewport in (DESKTOP, PHONE):
        page.set_viewport_size(viewport)
        page.goto(f"{server}/replay/{table}")
        page.wait_for_selector("#no-replay")
        assert "This game is still being played — watch it live" in page.inner_text("#no-replay")
        link = page.locator("#no-replay a")
        assert link.get_attribute("href") == f"/table/{table}"
        # No controls that look as if they worked.
        for control in ("#playpause", "#first", "#next", "#slider", "#download", "#log"):
            assert page.is_hidden(control), control
        _shoot(page, f"pages-replay-live-{viewport['width']}")
    link.click()
    page.wait_for_url(f"**/table/{table}")
    missing = _visitor(browser)
    missing.goto(f"{server}/replay/nosuchtable")
    missing.wait_for_selector("#no-replay")
    assert "There is no such game" in missing.inner_text("#no-replay")
    assert missing.is_hidden("#playpause")
    # Nor a player: said so, with the way back, and no empty panel of their games.
    missing.goto(f"{server}/player/nobody-at-all")
    missing.wait_for_selector("[data-testid=to-lobby]")
    assert missing.inner_text("#name") == "No such player"
    assert missing.is_hidden("#recent")


def test_every_page_has_a_favicon(server: str, browser: Any) -> None:
    page = _person(browser, server, "FaviconFay")
    icon = page.request.get(server + "/favicon.ico")
    assert icon.ok and icon.headers["content-type"].startswith("image/svg+xml")
    assert icon.text().startswith("<svg")
    table = _post(page, server, "/api/tables", {"game": "verso", "players": 2})["id"]
    for path in ("/", f"/table/{table}", f"/replay/{table}", "/player/FaviconFay", "/rules/verso"):
        page.missing.clear()
        page.goto(server + path)
        page.wait_for_load_state("networkidle")
        href = page.get_attribute("link[rel=icon]", "href")
        assert href and page.request.get(server + href).ok, path
        assert not [url for url in page.missing if "favicon" in url], path


def test_play_the_bot_again_in_one_click(server: str, browser: Any) -> None:
    page = _person(browser, server, "AgainAnna")
    table = _finished_against_a_bot(page, server)
    assert page.inner_text("#play-again") == "Play the bot again"
    _shoot(page, "pages-play-again")
    page.click("#play-again")
    page.wait_for_url(lambda url: "/table/" in url and not url.endswith(table))
    again = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("[data-testid=pile-size]")
    summary = _get(page, server, f"/api/tables/{again}")
    assert summary["status"] == "playing"
    assert sorted(s["kind"] for s in summary["seats"]) == ["bot", "human"]
    assert _get(page, server, f"/api/tables/{table}")["rematch"] == again
    # Between people there is no such button: a rematch waits for the others.
    bob = _person(browser, server, "AgainBob")
    made = _post(page, server, "/api/tables", {"game": "versus", "players": 2})["id"]
    _post(bob, server, f"/api/tables/{made}/join")
    _post(page, server, f"/api/tables/{made}/start")
    page.goto(f"{server}/table/{made}")
    page.wait_for_selector("#board[data-ply='0']")
    page.get_by_role("button", name="Resign", exact=False).first.click()
    page.click("#confirm-yes")
    page.wait_for_selector("#rematch")
    assert page.locator("#play-again").count() == 0
    assert not page.errors, page.errors


def test_the_lobby_knows_the_pace_of_timed_rounds(server: str, browser: Any) -> None:
    page = _person(browser, server, "RoundsRay")
    page.goto(server + "/")
    page.wait_for_selector("#lobby:not(.hidden)")
    page.select_option("#game", "rectoverso")
    assert page.input_value("#pace") == "rounds"
    assert page.is_hidden("#pace-live") and page.is_hidden("#pace-turn")
    assert "Timed rounds — no player clock" in page.locator("#pace option:checked").inner_text()
    assert "Nobody has a clock" in page.inner_text("#pace-help")
    # The options' help speaks in words; a rule id is a link to the rule, not "(R2)" in a sentence.
    assert "(R2)" not in page.inner_text("#options")
    assert page.get_attribute("#options a.rule-id", "href") == "/rules/rectoverso#R2"
    _shoot(page, "pages-lobby-rounds")
    page.click("#create-btn")
    page.wait_for_url("**/table/*")
    table = page.url.rsplit("/", 1)[1]
    assert _get(page, server, f"/api/tables/{table}")["pace"] == {"kind": "rounds"}
    # The other games choose live or turn-based, never rounds.
    page.goto(server + "/")
    page.wait_for_selector("#lobby:not(.hidden)")
    page.select_option("#game", "verso")
    assert page.input_value("#pace") == "live" and page.is_visible("#pace-live")
    assert page.locator("#pace option[value=rounds]").is_disabled()
    # The server's refusal shows under the form, and goes once the form changes (else it stays
    # beside a value the browser's own check stops from being sent).
    page.fill("#minutes", "")
    page.click("#create-btn")
    page.wait_for_selector("#new-error:has-text('minutes')")
    page.fill("#minutes", "500")
    assert page.inner_text("#new-error") == ""
    # My tables come after the form: wait for the list, then read it.
    page.locator("#my-tables").get_by_text("Timed rounds — no player clock").first.wait_for()
    assert "Timed rounds — no player clock" in page.inner_text("#my-tables")


def test_bots_are_named_in_words_in_the_lobby(server: str, browser: Any) -> None:
    page = _person(browser, server, "WordsWes")
    table = _post(page, server, "/api/tables", {"game": "versus", "players": 2})["id"]
    _post(page, server, f"/api/tables/{table}/bots", {"bot": "search:think=0.5"})
    page.goto(server + "/")
    page.wait_for_selector("#lobby:not(.hidden) #my-tables tr")
    page.select_option("#game", "versus")
    offered = page.locator("#bots option").all_inner_texts()
    assert "Search bot · 2 s a move" in offered, offered
    listed = page.inner_text("#my-tables")
    assert "Search bot · 0.5 s a move" in listed and "Turn-based · 7 days a move" in listed
    for text in (listed, " ".join(offered), page.inner_text("#live-tables")):
        assert "think=" not in text and "search:" not in text and "(0.5 s a move)" not in text
    _shoot(page, "pages-lobby-bots")
    page.set_viewport_size(PHONE)
    _shoot(page, "pages-lobby-bots-phone")
    assert _width(page)[0] <= _width(page)[1]
    # On a phone the form comes before the games being played (a list of any length).
    parts = ("mine", "open", "new", "live", "links", "ratings", "reminders")
    tops = [page.locator(f"#lobby .lobby-{part}").bounding_box()["y"] for part in parts]
    assert tops == sorted(tops), dict(zip(parts, tops, strict=True))
