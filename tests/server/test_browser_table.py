"""The table pages as players live them (issue 33), in Chromium against a real server process.

A Recto Verso round on a 390×844 phone: the pieces, the site, the round timer and the last chat
line (with its unread count) on one screen without scrolling; saying "Recto" asks first; no
per-seat clock looks as if it ran during a build. Verso and VERSUS on a phone: the clocks and the
chat line in sight, the turn announced in the tab's title, a clickable move list, words instead
of bot specs. No page is wider than the phone. Screenshots go to ``SHOTS``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from websockets.sync.client import connect

from tests.server.browsing import TAKE_SHOTS, shoot

pytestmark = pytest.mark.browser
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
COOKIE = "otherside_session"


def _context(browser: Any, server: str, phone: bool, guest: bool = True) -> Any:
    # bypass_csp: the page's policy forbids eval, which wait_for_function uses.
    options: dict[str, Any] = {"viewport": PHONE if phone else DESKTOP, "bypass_csp": True}
    if phone:
        options.update(device_scale_factor=2, is_mobile=True, has_touch=True)
    context = browser.new_context(**options)
    if guest:
        assert context.request.post(server + "/api/guest").ok
    return context


def _page(context: Any, errors: list[str], url: str) -> Any:
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    return page


def _shot(page: Any, name: str) -> None:
    shoot(page, f"table-{name}.png")


def _in_sight(page: Any, selector: str) -> bool:
    """Whether the element is wholly on the screen as it is (no scrolling)."""
    return bool(
        page.evaluate(
            """(selector) => {
                const node = document.querySelector(selector);
                if (!node) return false;
                const r = node.getBoundingClientRect();
                return r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0
                    && r.bottom <= innerHeight && r.right <= innerWidth;
            }""",
            selector,
        )
    )


def _fits(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= innerWidth"))


def _socket(context: Any, server: str, table: str) -> Any:
    """A websocket to the table as the context's user, as the page would open it."""
    cookie = next(c["value"] for c in context.cookies() if c["name"] == COOKIE)
    url = server.replace("http://", "ws://") + f"/ws/tables/{table}"
    return connect(url, additional_headers={"Cookie": f"{COOKIE}={cookie}"})


def _next_view(ws: Any, accept: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        message = json.loads(ws.recv(timeout=20))
        if message.get("type") == "view" and accept(message):
            return message
    raise AssertionError("no such view came")


def test_a_recto_verso_round_fits_a_phone_and_recto_is_asked_first(
    server: str,
    browser: Any,
) -> None:
    errors: list[str] = []
    phone, partner = _context(browser, server, True), _context(browser, server, False)
    table = phone.request.post(
        server + "/api/tables",
        data={"game": "rectoverso", "players": 2, "options": {"difficulty": "easy"}},
    ).json()
    assert partner.request.post(server + f"/api/tables/{table['id']}/join", data={"seat": 1}).ok
    assert phone.request.post(server + f"/api/tables/{table['id']}/start").ok
    url = f"{server}/table/{table['id']}"
    me, other = _page(phone, errors, url), _page(partner, errors, url)
    me.wait_for_selector(".rv[data-phase=start] [data-testid=next-round]")
    _shot(me, "rv-phone-start")
    me.tap("[data-testid=next-round]")
    me.wait_for_selector(".rv[data-phase=build] [data-testid=done]")
    other.wait_for_selector(".rv[data-phase=build]")

    # Nothing is right at the start of a round: no green tick.
    match = me.locator("[data-testid=match]")
    assert not match.inner_text().startswith("✓"), match.inner_text()
    assert me.locator("[data-testid=match] .ok").count() == 0

    # The players' own clocks are frozen during a build: none is shown as running.
    assert me.locator(".clock.running").count() == 0
    assert other.locator(".clock.running").count() == 0

    # The partner speaks: the phone shows the line and one unread, on the same screen.
    # A line longer than the phone is wide ends in an ellipsis: the dock keeps the screen's width.
    other.fill("#chat-text", "I take the yellow one, you the blue one at the back, then we see")
    other.click("#chat-form button")
    me.wait_for_function("document.querySelector('[data-testid=unread]').textContent === '1'")
    assert "I take the yellow one" in me.inner_text("#dock-chat-line")
    assert me.evaluate("scrollY") == 0
    for part in (
        ".rv-tray .rv-piece",
        ".rv-iso",
        ".rv-top",
        "[data-testid=clock]",
        "[data-testid=card-side]",
        "#dock-chat",
        "[data-testid=unread]",
        "[data-testid=done]",
        "#dock [data-open=chat]",
        "#dock [data-mute]",
    ):
        assert _in_sight(me, part), f"{part} is off the phone's screen"
    assert _fits(me), "the page is wider than the phone"
    _shot(me, "rv-phone-build")
    _shot(other, "rv-desktop-build")

    # The partner puts a piece down; the phone takes it back, then Esc: nothing stale is said.
    with _socket(partner, server, table["id"]) as ws:
        view = _next_view(ws, lambda m: any(a.startswith("place ") for a in m["legal"]))
        action = next(a for a in view["legal"] if a.startswith("place "))
        ws.send(json.dumps({"type": "action", "version": view["version"], "action": action}))
        piece = action.split(" ")[1]
        _next_view(ws, lambda m: piece not in m["view"]["unplaced"])
    me.tap(f"[data-act=pickup][data-name={piece}]")
    me.wait_for_selector(f".rv-hint:has-text('You hold the {piece} piece again')")
    me.keyboard.press("Escape")
    me.wait_for_selector(".rv:not(.holding)")
    assert "again" not in " ".join(me.locator(".rv-hint").all_inner_texts())

    # On the phone, being done is not the big green button, and it is asked first.
    green = me.evaluate(
        "getComputedStyle(document.querySelector('[data-testid=done]')).backgroundColor"
    )
    assert green != "rgb(46, 139, 87)"
    me.tap("[data-testid=done]")
    confirm = me.locator("[data-testid=done-confirm]")
    confirm.wait_for()
    assert "won't move pieces again" in confirm.inner_text()
    assert "not placed" in confirm.inner_text()
    _shot(me, "rv-phone-confirm")
    me.tap("[data-testid=done-cancel]")
    me.wait_for_selector("[data-testid=done]")
    time.sleep(0.3)  # a "done" sent by mistake would reach the partner's page by now
    assert other.locator("[data-testid=done]:has-text('Verso')").count() == 0
    me.tap("[data-testid=done]")
    me.tap("[data-testid=done-yes]")
    me.wait_for_selector("[data-testid=done-box]:has-text('You said')")
    other.wait_for_selector("[data-testid=done]:has-text('Verso')")
    assert not errors, errors


def _table(context: Any, server: str, game: str, bot: str, **extra: Any) -> str:
    table = context.request.post(
        server + "/api/tables", data={"game": game, "players": 2, **extra}
    ).json()
    path = f"/api/tables/{table['id']}"
    assert context.request.post(server + path + "/bots", data={"seat": 1, "bot": bot}).ok
    assert context.request.post(server + path + "/start").ok
    return str(table["id"])


def _play_once(page: Any) -> None:
    """Take the top card as it shows, or flip it when it cannot be taken."""
    draw = page.locator(".verso-top button:has-text('Draw')")
    (draw if draw.is_enabled() else page.locator("button:has-text('Flip')")).tap()


def test_verso_on_a_phone_keeps_the_clocks_and_chat_in_sight_and_announces_the_turn(
    server: str,
    browser: Any,
) -> None:
    errors: list[str] = []
    phone = _context(browser, server, True)
    table = _table(phone, server, "verso", "greedy", pace={"kind": "live", "minutes": 10})
    me = _page(phone, errors, f"{server}/table/{table}")
    me.wait_for_selector(".status.mine")
    assert me.title() == "● Your turn — otherside"
    _shot(me, "verso-phone")
    for part in ("[data-testid=dock-clock-0]", "#dock-chat"):  # a bot has no clock
        assert _in_sight(me, part), f"{part} is off the phone's screen"
    assert _fits(me)
    # Bots by what they are, the reader as "you".
    assert "Greedy bot" in me.text_content("#players")
    assert "Greedy bot 2" not in me.text_content("#players")
    version = int(me.get_attribute("#board", "data-version"))
    _play_once(me)
    me.wait_for_function(f"Number(document.querySelector('#board').dataset.version) > {version}")
    me.wait_for_selector(".status.mine")
    assert me.get_attribute("body", "data-turn-alerts") == "1"
    assert "(you)'s" not in me.inner_text("#log")
    assert "You " in me.inner_text("#log")

    # The moves, one tap away: a past position is shown, the game goes on underneath.
    me.tap("[data-open=log]")
    assert _in_sight(me, "#panel-log")
    _shot(me, "verso-phone-moves")
    me.locator("#log li").last.tap()
    me.wait_for_selector("#browsing:not(.hidden)")
    shown = int(me.get_attribute("#board", "data-version"))
    assert shown < int(
        me.evaluate(
            "Math.max(...[...document.querySelectorAll('#log li')].map((li) => li.view.version))"
        )
    )
    assert me.locator(".verso-top button:has-text('Draw')").count() == 0  # nothing to play there
    me.tap("#browsing-back")
    me.wait_for_selector("#browsing.hidden", state="attached")
    me.wait_for_selector(".status.mine")

    # Muted: the next turn makes no sound.
    me.locator("#dock [data-mute]").tap()
    assert me.get_attribute("#dock [data-mute]", "aria-pressed") == "true"
    version = int(me.get_attribute("#board", "data-version"))
    _play_once(me)
    me.wait_for_function(f"Number(document.querySelector('#board').dataset.version) > {version}")
    me.wait_for_selector(".status.mine, [data-testid=final]")
    assert me.get_attribute("body", "data-turn-alerts") == "1"
    assert not errors, errors


def test_versus_on_a_phone_shows_its_coordinates_and_the_bot_in_words(
    server: str,
    browser: Any,
) -> None:
    errors: list[str] = []
    phone = _context(browser, server, True)
    table = _table(phone, server, "versus", "search:think=0.5")
    me = _page(phone, errors, f"{server}/table/{table}")
    me.wait_for_selector(".vs-svg.interactive")
    coordinate = me.locator(".vs-coord").first
    assert coordinate.is_visible()
    assert coordinate.bounding_box()["height"] >= 6, "coordinates too small to read"
    assert _in_sight(me, "[data-testid=dock-clock-0]") and _in_sight(me, "#dock-chat")
    assert _fits(me)
    me.tap("[data-open=table]")
    assert "Search bot · 0.5 s a move" in me.inner_text("#players")
    _shot(me, "versus-phone")
    assert not errors, errors


def test_rule_ids_are_links_not_words(server: str, browser: Any) -> None:
    page = browser.new_context().new_page()
    page.goto(server + "/rules/versus")
    page.wait_for_selector("#rules h1")
    parts = page.evaluate(
        """async () => {
            const words = await import('/static/js/core/words.js');
            const nodes = words.ruleNodes('all targets filled (S13.1)', 'versus');
            return nodes.map((n) =>
                typeof n === 'string' ? n : [n.textContent, n.getAttribute('href')]);
        }"""
    )
    assert parts == ["all targets filled", " ", ["S13.1", "/rules/versus#S13"]]
    assert page.locator("#rules tr#S13").count() == 1  # the link's target


def test_no_table_or_replay_page_is_wider_than_a_phone(server: str, browser: Any) -> None:
    errors: list[str] = []
    phone = _context(browser, server, True, guest=False)
    name = f"wide{int(time.time() * 1000) % 100000}"
    assert phone.request.post(
        server + "/api/signup", data={"name": name, "password": "a long enough password"}
    ).ok
    table = _table(phone, server, "versus", "greedy")
    with _socket(phone, server, table) as ws:
        _next_view(ws, lambda m: True)
        ws.send(json.dumps({"type": "resign"}))
        deadline = time.monotonic() + 20
        while json.loads(ws.recv(timeout=20)).get("table", {}).get("status") != "over":
            assert time.monotonic() < deadline
    waiting = phone.request.post(
        server + "/api/tables", data={"game": "verso", "players": 3}
    ).json()
    # The lobby, the rules and the player pages are measured by test_browser_pages.
    pages = {
        "waiting": (f"/table/{waiting['id']}", "#waiting:not(.hidden)"),
        "finished": (f"/table/{table}", "[data-testid=vs-final]"),
        "replay": (f"/replay/{table}", "#log li"),
    }
    for label, (path, ready) in pages.items():
        page = _page(phone, errors, server + path)
        page.wait_for_selector(ready)
        width = page.evaluate("document.documentElement.scrollWidth")
        _shot(page, f"fits-{label}")
        assert width <= PHONE["width"], f"{path} is {width} px wide on a {PHONE['width']} px phone"
        page.close()
    assert not errors, errors


def test_a_verso_board_says_why_draw_is_disabled_and_whose_tableau(
    server: str,
    browser: Any,
) -> None:
    """The board alone, given a frame as the table page would: no game to steer into a state."""
    page = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    page.goto(server + "/rules/verso")
    page.wait_for_selector("#rules h1")
    shown = page.evaluate(
        """async () => {
            const { createBoard, describe } = await import('/static/js/games/verso/board.js');
            const root = document.createElement('section');
            document.body.prepend(root);
            const tableau = { cards: [{ up: 'G4', down: 'o2' }], score: 0, square: false };
            const view = { version: 3, phase: 'play', current_player: 0, top: 'G4', pile_size: 20,
                discards: [], events: [],
                tableaux: [tableau, { cards: [], score: 0, square: false }] };
            const board = createBoard(root, { mode: 'live', play: () => {}, resign: null });
            board.update({ view, seat: 0, legal: ['flip'], names: ['alice (you)', 'bob'],
                previous: null, clock: null, table: null });
            const why = root.querySelector('[data-testid=why-draw]');
            const box = why.getBoundingClientRect();
            const line = describe({ type: 'discard', reason: 'duplicate', player: 0,
                card: { up: 'g4', down: null } }, ['alice (you)', 'bob']);
            board.dispose();
            return { why: why.textContent, height: box.height, line,
                     link: why.querySelector('a.rule-id')?.getAttribute('href') };
        }"""
    )
    assert shown["why"].startswith("You already have G4: flip the card")
    assert shown["height"] > 0  # visible text, not a tooltip
    assert shown["link"] == "/rules/verso#V8"
    assert "your tableau" in shown["line"] and "(you)'s" not in shown["line"]


def test_a_bot_partners_next_card_comes_when_the_reader_is_ready(
    server: str,
    browser: Any,
) -> None:
    """A bot partner about to reveal the next card waits for the reader (tables/ready.py): the
    last round's result stays in sight with a "Next card" button and a countdown, and the card
    comes as soon as the reader presses it (well before the bot's pause of 10 s would have run
    out), the result read, not carried above the new build; pressed from the keyboard, the
    focus stays on the board."""
    errors: list[str] = []
    phone = _context(browser, server, True)
    table = _table(phone, server, "rectoverso", "partner", options={"difficulty": "easy"})
    me = _page(phone, errors, f"{server}/table/{table}")
    pages = [me]
    if TAKE_SHOTS:  # the same reader on a desktop, for its screenshot
        desktop = browser.new_context(viewport=DESKTOP, storage_state=phone.storage_state())
        pages.append(_page(desktop, errors, f"{server}/table/{table}"))
        pages[1].wait_for_selector(".rv[data-phase=start]")
    me.tap(".rv[data-phase=start] [data-testid=next-round]")
    me.tap(".rv[data-phase=build] [data-testid=done]")
    me.tap("[data-testid=done-yes]")
    # The bot builds its side and says "Verso"; then it waits for this reader.
    for page in pages:
        page.wait_for_selector(".rv[data-phase=start] [data-testid=ready]", timeout=60000)
    said = me.locator("[data-testid=round-result]").text_content() or ""
    assert re.search(r"Not a match|Level 1 cleared!", said), said
    assert "Sooner if you press the button." in me.locator(".rv-next").inner_text()
    # How long until it reveals it by itself (the deadline the view carries: 10 s at most).
    countdown = me.locator("[data-testid=ready-countdown]").inner_text()
    assert re.fullmatch(r"The next card comes in ([1-9]|10) s\.", countdown), countdown
    _shot(me, "rv-phone-bot-waits")
    if TAKE_SHOTS:
        _shot(pages[1], "rv-desktop-bot-waits")
    asked = time.monotonic()
    # Pressed from the keyboard: the focus stays on the board (the button, disabled once pressed,
    # let it fall to the page's top) and comes to the new build's first piece.
    me.focus("[data-testid=ready]")
    me.keyboard.press("Enter")
    # The next card: this reader builds verso, and the result read is not carried above it.
    me.wait_for_selector(".rv[data-phase=build][data-role=back]", timeout=5000)
    assert time.monotonic() - asked < 5
    assert me.locator("[data-testid=last-result]").count() == 0
    focused = "document.activeElement.closest('#board .rv-tray [data-piece]') !== null"
    assert me.evaluate(focused), me.evaluate("document.activeElement.outerHTML.slice(0, 80)")
    assert not errors, errors


def test_a_verso_series_is_chosen_with_the_keyboard(server: str, browser: Any) -> None:
    """The board alone, given a frame as the table page would: the cards of a series are
    reached with Tab and chosen with Enter or Space, the focus staying on the card chosen."""
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(server + "/rules/verso")
    page.wait_for_selector("#rules h1")
    page.evaluate(
        """async () => {
            const { createBoard } = await import('/static/js/games/verso/board.js');
            const root = document.createElement('section');
            root.id = 'series-board';
            document.body.prepend(root);
            const cards = [{ up: 'B3', down: 'g1' }, { up: 'b4', down: 'o2' }];
            const view = { version: 5, phase: 'play', current_player: 0, top: 'G4', pile_size: 20,
                discards: [], events: [], tableaux: [{ cards, score: 0, square: false },
                    { cards: [], score: 0, square: false }] };
            const played = [];
            window.played = played;
            createBoard(root, { mode: 'live', play: (a) => played.push(a), resign: null })
                .update({ view, seat: 0, legal: ['draw', 'flip', 'series blue 3 4'],
                    names: ['alice (you)', 'bob'], previous: null, clock: null, table: null });
        }"""
    )
    first = "#series-board .card[data-face=B3]"
    page.focus(first)
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.dataset.face") == "B3"
    assert page.get_attribute(first, "aria-pressed") == "true"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.face") == "b4"
    page.keyboard.press(" ")
    bank = page.locator("#series-board .series-bar button", has_text="Bank blue 3 4")
    bank.focus()
    page.keyboard.press("Enter")
    assert page.evaluate("window.played") == ["series blue 3 4"]
