"""The Recto Verso build page in Chromium: two guests build a card together, a third watches.

Each builder's page and websocket frames hold only their own side (R17), the spectator's
neither until the round is over. The card is found from the two builders' sides, solved in
Python; most of it is laid through the table's HTTP route, and the two partners place the last
pieces with real pointer actions (pick a piece, turn it, slide a finger on a phone, drag it onto
the site, click a cell; pick one up again and put it back), both say done, and the round's
result shows.
Screenshots (desktop and phone) go to ``SHOTS``.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from otherside.games.rectoverso import Card, Construction, Placement, solve
from otherside.games.rectoverso.cards import standard_card, standard_cards
from otherside.games.rectoverso.flow import LEVEL_LIMITS, SCORE_TABLE
from otherside.games.rectoverso.notation import parse_placement
from otherside.games.rectoverso.pieces import BY_NAME, Cell, shape_orientations
from tests.server.browsing import SHOTS, TAKE_SHOTS, shoot

ROUNDS_JS = Path(__file__).resolve().parents[2] / "src/otherside/web/js/games/rectoverso/rounds.js"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SIDES = {"recto": "front", "verso": "back"}


def test_the_page_shows_the_engines_time_limits_and_score_table() -> None:
    text = ROUNDS_JS.read_text()
    limits = re.search(r"LEVEL_LIMITS = \[([^\]]*)\]", text)
    table = re.search(r"SCORE_TABLE = \[(.*)\];", text)
    assert limits and table
    assert [float(n) for n in limits.group(1).split(",")] == list(LEVEL_LIMITS)
    pairs = re.findall(r"\[(\d+), (\d+)\]", table.group(1))
    assert [(float(s), int(p)) for s, p in pairs] == list(SCORE_TABLE)


# -- geometry, as the page does it: the player frame and the anchor cube -------------------


def _to_player(cell: Cell, side: str) -> Cell:
    x, y, z = cell
    return (3 - x, 3 - y, z) if side == "back" else (x, y, z)


def _normalise(cells: list[Cell]) -> list[Cell]:
    low = [min(c[i] for c in cells) for i in range(3)]
    return sorted((c[0] - low[0], c[1] - low[1], c[2] - low[2]) for c in cells)


def _key(cells: list[Cell]) -> str:
    return " ".join(",".join(str(v) for v in c) for c in cells)


def _anchor(cells: list[Cell]) -> Cell:
    return min(cells, key=lambda c: (c[2], c[1], c[0]))


def _aim(placement: Placement, side: str) -> tuple[str, tuple[int, int]]:
    """The orientation key (player frame) and the site cell to point at for ``placement``."""
    cells = [_to_player(c, side) for c in placement.cells]
    anchor = _anchor(cells)
    return _key(_normalise(cells)), (anchor[0], anchor[1])


def _refusable(
    construction: Construction, names: list[str], side: str
) -> tuple[str, str, tuple[int, int]] | None:
    """A piece, orientation and cell where the page must refuse for lack of support (R5)."""
    heights = {(x, y): 0 for x in range(4) for y in range(4)}
    for x, y, z in construction.cells:
        heights[(x, y)] = max(heights[(x, y)], z + 1)
    for name in names:
        for shape in shape_orientations(BY_NAME[name].shape):
            anchor = _anchor(list(shape))
            for sx in range(4):
                for sy in range(4):
                    flat = [(sx - anchor[0] + c[0], sy - anchor[1] + c[1], c[2]) for c in shape]
                    if any(not (0 <= c[0] < 4 and 0 <= c[1] < 4) for c in flat):
                        continue
                    site = [_to_player(c, side) for c in flat]
                    rest = max(0, *(heights[(x, y)] - z for x, y, z in site))
                    cells = tuple((x, y, z + rest) for x, y, z in site)
                    reason = construction.check_place(Placement.make(BY_NAME[name], cells))
                    if reason and "R5" in reason:
                        return name, _key(list(shape)), (sx, sy)
    return None


# -- the page, driven as a person would ---------------------------------------------------


def _guest(browser: Any, server: str, viewport: dict[str, int]) -> Any:
    context = browser.new_context(viewport=viewport)
    context.request.post(server + "/api/guest")
    return context


def _record(page: Any, frames: list[str]) -> None:
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framereceived",
            lambda data: frames.append(data if isinstance(data, str) else data.decode()),
        ),
    )


def _views(frames: list[str]) -> list[dict[str, Any]]:
    return [m for m in map(json.loads, frames) if m.get("type") == "view"]


def _turn_to(page: Any, key: str, with_keys: bool) -> None:
    bar = page.locator("[data-testid=orientation]")
    for _ in range(3 if with_keys else 0):  # a few presses of R, then the thumbnail
        if bar.get_attribute("data-key") == key:
            return
        page.keyboard.press("r")
    if bar.get_attribute("data-key") != key:
        page.locator(f".rv-orient-option[data-key='{key}']").click()
    assert bar.get_attribute("data-key") == key


def _cell(page: Any, cell: tuple[int, int]) -> Any:
    return page.locator(f".rv-top [data-sx='{cell[0]}'][data-sy='{cell[1]}']")


def _centre(box: dict[str, float]) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _touch_drag(page: Any, piece: Any, target: Any) -> None:
    """A finger on ``piece`` slid onto ``target`` and lifted (Chromium's touch input, via CDP).

    As a person would: the slide aims where ``target`` is once the drag has started (the page
    may bring the build area out from under its sticky bars then), not where it was before."""
    start = _centre(piece.bounding_box())
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, points: list[tuple[float, float]]) -> None:
        touch_points = [{"x": x, "y": y} for x, y in points]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": touch_points})

    touch("touchStart", [start])
    touch("touchMove", [(start[0] + 4, start[1] - 8)])
    touch("touchMove", [(start[0] + 4, start[1] - 16)])
    page.wait_for_selector(".rv.dragging")
    end = _centre(target.bounding_box())
    # What is under the finger there is the cell itself, not a bar stuck over it.
    assert target.evaluate(
        "(cell, [x, y]) => cell.contains(document.elementFromPoint(x, y))", list(end)
    ), f"the cell at {end} is covered"
    here = (start[0] + 4, start[1] - 16)
    for i in range(1, 7):
        touch(
            "touchMove",
            [(here[0] + (end[0] - here[0]) * i / 6, here[1] + (end[1] - here[1]) * i / 6)],
        )
    touch("touchEnd", [])
    cdp.detach()


def _place(page: Any, placement: Placement, side: str, how: str) -> None:
    """Place as a person would: ``click`` (hold, turn by thumbnail, point, click), ``drag``
    (hold, turn with R, drag from the tray with the mouse) or ``touch`` (tap, turn, slide a
    finger from the tray onto the cell)."""
    name = placement.piece.name
    key, cell = _aim(placement, side)
    piece = page.locator(f".rv-piece[data-piece='{name}']")
    target = _cell(page, cell)
    if how == "click":
        piece.click()
        _turn_to(page, key, with_keys=False)
        target.hover()
        page.wait_for_selector(".rv-iso .ghost-face.ok")
        target.click()
    elif how == "drag":
        piece.click()
        _turn_to(page, key, with_keys=True)
        (x, y), end = _centre(piece.bounding_box()), _centre(target.bounding_box())
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x + 12, y + 10, steps=2)
        page.mouse.move(*end, steps=6)
        page.mouse.up()
    else:
        piece.tap()
        if page.locator("[data-testid=orientation]").get_attribute("data-key") != key:
            page.locator(f".rv-orient-option[data-key='{key}']").tap()
        # The held piece stays in sight above the dock, though its orientations opened above.
        assert piece.evaluate(
            """(piece) => piece.getBoundingClientRect().bottom
                <= document.getElementById("dock").getBoundingClientRect().top"""
        ), "the held piece is under the dock"
        _touch_drag(page, piece, target)
    try:
        page.wait_for_selector(f"[data-placed='{name}']", timeout=10000)
    except Exception:
        SHOTS.mkdir(parents=True, exist_ok=True)  # always: what the page showed when it failed
        page.screenshot(path=str(SHOTS / f"rv-failed-{name}.png"))
        hint = page.locator(".rv-hint").all_inner_texts()
        pytest.fail(f"{how}: {name} was not placed at {cell} turned {key}; the page says {hint}")


def _act(api: Any, server: str, table_id: str, action: str) -> None:
    """Play ``action`` at the table through its HTTP route (``api``: a builder's requests), at
    the table's version now."""
    version = api.get(f"{server}/api/tables/{table_id}").json()["version"]
    answer = api.post(
        f"{server}/api/tables/{table_id}/act", data={"version": version, "action": action}
    )
    assert answer.ok, answer.text()


def _pick_up_and_put_back(page: Any, placement: Placement, side: str) -> None:
    """Click a cube of a placed piece in the top view (nothing held): the piece comes off the
    site and is held again; then it goes back where it was."""
    name = placement.piece.name
    top = max(placement.cells, key=lambda c: c[2])
    sx, sy, _ = _to_player(top, side)
    _cell(page, (sx, sy)).click()
    page.wait_for_selector(f".rv-piece.selected[data-name='{name}']")
    key, cell = _aim(placement, side)
    _turn_to(page, key, with_keys=False)
    _cell(page, cell).click()
    page.wait_for_selector(f"[data-placed='{name}']")


def _settle(pages: list[Any], construction: Construction) -> None:
    """Wait until every page shows the pieces of ``construction`` as placed."""
    placed = {p.name for p in construction.pieces}
    left = " ".join(p.name for p in BY_NAME.values() if p.name != "red" and p.name not in placed)
    for page in pages:
        page.wait_for_selector(f".rv[data-unplaced='{left}']")


def _shot(page: Any, name: str, settle_ms: int = 0) -> None:
    # What the player sees (a full-page shot pastes the chrome's sticky header mid-page).
    shoot(page, f"rv-{name}.png", settle_ms)


def _show_the_build_in_progress(
    pages: dict[str, Any], phones: dict[str, Any], left: list[Placement], by: list[str], card: Card
) -> None:
    """Each builder's page shows their own side of the card, and nothing of the other side.
    Screenshots (when asked for): each builder holding their next piece over its spot (held
    only for the picture: the placements pointed at hold a piece over its spot), the
    spectator, the phones."""
    for who, side in SIDES.items():
        other = "back" if side == "front" else "front"
        assert pages[who].locator(f".rv [data-side={side}]").count() == 2
        assert pages[who].locator(f".rv [data-side={other}]").count() == 0
        shown = "".join(pages[who].locator("[data-testid=card-side] .rv-cell").all_inner_texts())
        own = card.front if side == "front" else card.back
        assert shown == "".join(own).replace(".", "").upper()
        nxt = next((p for p, w in zip(left, by, strict=True) if w == who), None)
        if nxt is None or not TAKE_SHOTS:
            continue
        key, cell = _aim(nxt, side)
        pages[who].click(f".rv-piece[data-piece='{nxt.piece.name}']")
        _turn_to(pages[who], key, with_keys=False)
        _cell(pages[who], cell).hover()
        pages[who].wait_for_selector(".rv-iso .ghost-face.ok")
        _shot(pages[who], f"building-{who}")
        pages[who].keyboard.press("Escape")
    _shot(pages["watch"], "building-watch")
    for who, page in phones.items():
        _shot(page, f"phone-building-{who}")


def _refuse_an_unsupported_placement(
    pages: list[Any], built: Construction, left: list[Placement]
) -> None:
    """Recto tries a spot where a cube would hang over an empty cell: refused, with R5 said."""
    problem = _refusable(built, [p.piece.name for p in left], "front")
    assert problem, "no unsupported spot for any piece left"
    name, key, cell = problem
    for page, touch in zip(pages, (False, True), strict=True):
        act = (lambda node: node.tap()) if touch else (lambda node: node.click())
        act(page.locator(f".rv-piece[data-piece='{name}']"))
        if page.locator("[data-testid=orientation]").get_attribute("data-key") != key:
            act(page.locator(f".rv-orient-option[data-key='{key}']"))
        act(_cell(page, cell))
        refusal = page.locator("[data-testid=refusal]")
        refusal.wait_for()
        assert "R5" in refusal.inner_text() and "empty cell" in refusal.inner_text()
        refusal.scroll_into_view_if_needed()
        _shot(page, "phone-refused" if touch else "refused")
        page.keyboard.press("Escape")


@pytest.mark.slow
@pytest.mark.browser
def test_two_partners_build_a_card_by_pointing_while_a_third_watches(
    server: str,
    browser: Any,
) -> None:
    frames: dict[str, list[str]] = {"recto": [], "verso": [], "watch": []}
    errors: list[str] = []
    contexts = {who: _guest(browser, server, DESKTOP) for who in frames}
    recto_api, verso_api = contexts["recto"].request, contexts["verso"].request
    table = recto_api.post(
        server + "/api/tables",
        data={"game": "rectoverso", "players": 2, "options": {"difficulty": "easy"}},
    ).json()
    assert verso_api.post(server + f"/api/tables/{table['id']}/join", data={"seat": 1}).ok
    assert recto_api.post(server + f"/api/tables/{table['id']}/start").ok
    url = f"{server}/table/{table['id']}"
    pages: dict[str, Any] = {}
    for who, context in contexts.items():
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        _record(page, frames[who])
        page.goto(url)
        pages[who] = page

    def open_phone(who: str) -> Any:
        # Recto's is the phone that is pointed with; the others are opened only for their
        # screenshots: fewer pages to keep up to date while building.
        context = browser.new_context(
            viewport=PHONE,
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
            storage_state=contexts[who].storage_state(),
        )
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(url)
        return page

    recto, verso, watch = pages["recto"], pages["verso"], pages["watch"]
    recto.wait_for_selector(".rv[data-phase=start] [data-testid=next-round]")
    verso.wait_for_selector(".rv[data-phase=start]")
    _shot(recto, "start")

    # The phones load before the clock starts (and are ready: their loading would slow down the
    # round's pages); recto's places a piece by touch, all serve the screenshots half way.
    phones = {who: open_phone(who) for who in (pages if TAKE_SHOTS else ["recto"])}
    for page in phones.values():
        page.wait_for_selector(".rv[data-phase=start]")
    recto.click("[data-testid=next-round]")
    started = time.monotonic()
    for page in pages.values():
        page.wait_for_selector(".rv[data-phase=build]")
    # The spectator is told why no side is shown, not given empty cards that "match" (R17).
    assert watch.get_by_test_id("sides-hidden").count() == 1
    assert watch.locator(".rv-compare .rv-grid, .rv-match").count() == 0
    # The partners tell each other their sides (the spectator is not shown the card, R17).
    sides = {
        who: next(
            v["view"]["card"][SIDES[who]]
            for v in reversed(_views(frames[who]))
            if v["view"]["phase"] == "build"
        )
        for who in ("recto", "verso")
    }
    card = next(
        c
        for c in standard_cards("easy")
        if list(c.front) == sides["recto"] and list(c.back) == sides["verso"]
    )
    number = card.number
    solution = solve(card)
    assert solution is not None
    # Lowest pieces first, so that each one has its support; the partners take turns, recto
    # placing the first piece pointed at (by touch, on recto's phone).
    placements = sorted(solution.placements, key=lambda p: (min(c[2] for c in p.cells), p.piece))
    pointed = len(placements) - 3
    builders = [("recto", "verso")[(i - pointed) % 2] for i in range(len(placements))]
    built = Construction()
    # All but the last three go as the page's own moves go (each partner's action posted with
    # the table's version): pointing at every piece took most of the round's 90 s on a loaded
    # machine. The last three are pointed at: a finger on a phone, a drag with the mouse, a
    # click; then recto picks the last piece up and clicks it back into place.
    for placement, who in zip(placements[:pointed], builders[:pointed], strict=True):
        _act(contexts[who].request, server, table["id"], f"place {placement}")
        built = built.place(placement)
    for index in range(pointed, len(placements)):
        placement, who = placements[index], builders[index]
        page = pages[who]
        _settle([page], built)
        if index == pointed:
            _settle([*pages.values(), *phones.values()], built)
            _show_the_build_in_progress(pages, phones, placements[index:], builders[index:], card)
            if "watch" in phones:  # shot: one page fewer to draw in the round
                phones.pop("watch").close()
            _refuse_an_unsupported_placement([recto, phones["recto"]], built, placements[index:])
            _place(phones[who], placement, SIDES[who], "touch")
            for small_page in phones.values():  # fewer pages to draw in the round
                small_page.close()
        else:
            _place(page, placement, SIDES[who], "drag" if index == pointed + 1 else "click")
        built = built.place(placement)

    _settle([recto], built)
    _pick_up_and_put_back(recto, placements[-1], "front")
    for page in (recto, verso):
        page.wait_for_selector(".rv[data-unplaced='']")
        assert page.locator("[data-testid=match]").inner_text().startswith("✓ Your side matches")
    _shot(recto, "all-placed-recto")
    # Saying "Recto" ends one's building for the round (R13): the page asks first.
    recto.click("[data-testid=done]")
    recto.click("[data-testid=done-yes]")
    verso.wait_for_selector("[data-testid=done]:has-text('Verso')")
    recto.wait_for_selector("[data-testid=done-box]:has-text('You said')")
    verso.click("[data-testid=done]")
    verso.click("[data-testid=done-yes]")
    for page in pages.values():
        page.wait_for_selector("[data-testid=round-result]")
    took = time.monotonic() - started
    # The log names the builders with their sides, the reader without "(you)" beside "(recto)".
    log = recto.inner_text("#log")
    assert re.search(r"\S \(recto\) and \S+ \(verso\) build", log), log
    assert "(you) (recto)" not in log and "(you) (verso)" not in verso.inner_text("#log")
    result = recto.locator("[data-testid=round-result]").inner_text()
    assert "Level 1 cleared" in result and f"Card {number}" in result
    assert recto.locator("[data-testid=ladder] li.cleared").count() == 1
    # The partners take turns: who built verso reveals the next card, and builds it recto.
    assert recto.locator("[data-testid=next-round]").count() == 0
    assert verso.locator("[data-testid=next-round]").inner_text() == "Reveal the next card"
    assert "you from the back (verso)" in recto.inner_text(".rv-next")
    _shot(recto, "result-recto", settle_ms=600)  # after the result's entrance
    _shot(watch, "result-watch")
    assert took < 90
    small = phones["recto"].context.new_page()
    small.on("pageerror", lambda exc: errors.append(str(exc)))
    small.goto(url)
    small.wait_for_selector("[data-testid=round-result]")
    _shot(small, "phone-result-recto", settle_ms=600)

    # R17: a builder never receives, nor shows, the other side.
    for who, side in SIDES.items():
        other = "back" if side == "front" else "front"
        building = [v["view"] for v in _views(frames[who]) if v["view"]["phase"] == "build"]
        assert building, who
        for view in building:
            assert set(view["card"]) == {side} and set(view["construction"]) == {side}
            assert "number" not in view["card"]
        hidden = json.dumps(
            list(card.back if other == "back" else card.front), separators=(",", ":")
        )
        assert all(hidden not in frame for frame in frames[who])
        # The spectator: not while the round is built; both sides once it is over (``last``).
        assert all(
            hidden not in frame
            for frame in frames["watch"]
            if json.loads(frame).get("view", {}).get("phase") == "build"
        )
        assert pages[who].locator(f".rv [data-side={other}]").count() == 0
    # Without a seat: what both builders see while the round is played, the round once over.
    watched = [v["view"] for v in _views(frames["watch"]) if v["view"]["phase"] == "build"]
    assert watched and all(v["card"] is None and v["construction"] is None for v in watched)
    (finished,) = _views(frames["watch"])[-1]["view"]["rounds"]
    assert finished["card"] == number and len(finished["placements"]) == len(placements)
    assert _views(frames["watch"])[-1]["view"]["last"]["card"] == {
        "front": list(card.front),
        "back": list(card.back),
    }
    assert not errors, errors
    for context in [*contexts.values(), *(page.context for page in phones.values())]:
        context.close()


@pytest.mark.browser
def test_a_finger_slides_a_piece_onto_the_top_view_with_the_page_scrolled_down(
    server: str,
    browser: Any,
) -> None:
    """On a phone the top view is at the top of the build area and the tray at its foot: with
    the page scrolled down to the tray, the top view lies under the sticky round bar. Sliding a
    piece up onto it must still place it there, not drop it on the bar."""
    frames: list[str] = []
    errors: list[str] = []
    # A small phone (375×667): scrolled down to the tray, the top view is under the round bar.
    phone = browser.new_context(
        viewport={"width": 375, "height": 667},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    assert phone.request.post(server + "/api/guest").ok
    partner = _guest(browser, server, DESKTOP)
    table = phone.request.post(
        server + "/api/tables",
        data={"game": "rectoverso", "players": 2, "options": {"difficulty": "easy"}},
    ).json()
    assert partner.request.post(server + f"/api/tables/{table['id']}/join", data={"seat": 1}).ok
    assert phone.request.post(server + f"/api/tables/{table['id']}/start").ok
    page = phone.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    _record(page, frames)
    page.goto(f"{server}/table/{table['id']}")
    page.tap(".rv[data-phase=start] [data-testid=next-round]")
    page.wait_for_selector(".rv[data-phase=build]")
    front = next(
        v["view"]["card"]["front"] for v in _views(frames) if v["view"]["phase"] == "build"
    )
    card = next(c for c in standard_cards("easy") if list(c.front) == front)
    solution = solve(card)
    assert solution is not None
    # A piece laid first whose spot is on the top view's far rows, those under the bar.
    lowest = [p for p in solution.placements if min(c[2] for c in p.cells) == 0]
    placement = max(lowest, key=lambda p: _aim(p, "front")[1][1])
    name = placement.piece.name
    key, spot = _aim(placement, "front")
    piece, target = page.locator(f".rv-piece[data-piece='{name}']"), _cell(page, spot)
    piece.tap()
    if page.locator("[data-testid=orientation]").get_attribute("data-key") != key:
        page.locator(f".rv-orient-option[data-key='{key}']").tap()
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    covered = target.evaluate(
        """(cell) => {
            const r = cell.getBoundingClientRect();
            return !cell.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
        }"""
    )
    assert covered, "the spot is in sight: the page is not in the defect's condition"
    _touch_drag(page, piece, target)
    page.wait_for_selector(f"[data-placed='{name}']")
    _shot(page, "phone-slid-onto-top-view")
    assert not errors, errors
    phone.close()
    partner.close()


def _time_left(page: Any) -> str:
    """The "Time left" sentence of the page's "Describe the position"."""
    page.click("#describe")
    page.locator("[data-testid=position] p").first.wait_for()
    lines = page.locator("[data-testid=position] p").all_inner_texts()
    return next(line for line in lines if line.startswith("Time left"))


def _place_some(page: Any, frames: list[str], server: str, table_id: str, count: int) -> None:
    """Place ``count`` pieces as the page's own moves go, from the legal actions the page was
    sent last (the bot partner builds meanwhile: a placement it made impossible is passed)."""
    legal = next(m["legal"] for m in reversed(_views(frames)) if m["view"]["phase"] == "build")
    api, placed = page.context.request, 0
    for action in (a for a in legal if a.startswith("place ")):
        version = api.get(f"{server}/api/tables/{table_id}").json()["version"]
        answer = api.post(
            f"{server}/api/tables/{table_id}/act", data={"version": version, "action": action}
        )
        placed += answer.ok
        if placed == count:
            return
    pytest.fail(f"fewer than {count} of the page's placements were taken")


def test_a_game_resigned_mid_round_is_over_for_the_team_with_no_round_clock_left(
    server: str,
    browser: Any,
) -> None:
    """Two builders are one team (R16): a game with a bot partner that a builder resigns during
    a round is 'Game over' on the table and in its replay, never 'the partner won', and
    'finished' in the lobby, not 'lost'; resigning is not called a loss for the one who
    resigns. The round's clock is not left counting down to a red 0:00 on a finished table,
    nor does its time run on in the position's words, on the page or from the server. The
    replay's move list says the round's sentence once, not again on every move of the round."""
    errors: list[str] = []
    frames: list[str] = []
    context = _guest(browser, server, DESKTOP)
    table = context.request.post(
        server + "/api/tables",
        data={"game": "rectoverso", "players": 2, "options": {"difficulty": "easy"}},
    ).json()
    # A table whose seats are filled with bots starts at once.
    assert context.request.post(
        server + f"/api/tables/{table['id']}/bots", data={"bot": "partner"}
    ).ok
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    _record(page, frames)
    page.goto(f"{server}/table/{table['id']}")
    page.wait_for_selector("[data-testid=next-round], .rv[data-phase=build]")
    if page.locator("[data-testid=next-round]").count():  # who reveals first is the seats' turn
        page.click("[data-testid=next-round]")
    page.wait_for_selector(".rv[data-phase=build] [data-rv-clock]")
    _place_some(page, frames, server, table["id"], 2)
    phone = _phone_beside(browser, context, page.url) if TAKE_SHOTS else None
    page.click("#resign")
    asked = page.inner_text("#confirm-text")
    assert "partner" in asked and "loss" not in asked, asked
    _shot(page, "resign-asked")
    if phone:
        phone.click(".dock-tabs [data-open=table]")
        phone.click("#resign")
        _shot(phone, "phone-resign-asked")
        phone.click("#confirm-no")
    page.get_by_role("button", name="Yes", exact=True).click()
    page.wait_for_selector(".outcome-line")
    outcome = page.inner_text(".outcome-line")
    assert outcome.startswith("Game over — ") and "won —" not in outcome, outcome
    clock = page.locator("[data-testid=clock]")
    assert clock.inner_text() == "Game over"
    assert page.locator("[data-rv-clock]").count() == 0  # nothing counts down
    _shot(page, "resigned-mid-round")
    # The time the round had left when it ended, said again later and after a reload.
    left = _time_left(page)
    page.wait_for_timeout(1100)  # past a whole second, whatever the fraction now
    assert _time_left(page) == left
    page.reload()
    page.wait_for_selector(".outcome-line")
    assert _time_left(page) == left
    _shot(page, "resigned-described")
    if phone:
        phone.wait_for_selector(".outcome-line")
        assert _time_left(phone) == left
        phone.locator("[data-testid=position]").scroll_into_view_if_needed()
        _shot(phone, "phone-resigned-described")
    page.goto(f"{server}/replay/{table['id']}")
    page.locator("#summary div").nth(1).wait_for()
    summary = page.inner_text("#summary")
    assert "Game over — " in summary and "won —" not in summary, summary
    moves = page.locator("#log > li")
    assert moves.count() >= 3  # the card revealed, the pieces placed
    said = [text for text in page.locator("#log > li .muted").all_inner_texts() if text]
    assert len(said) == 1 and re.search(r"build card \d+ for level 1", said[0]), said
    _shot(page, "replay-moves")
    if phone:
        phone.goto(f"{server}/replay/{table['id']}")
        phone.locator("#log > li").first.scroll_into_view_if_needed()
        _shot(phone, "phone-replay-moves")
    # In the lobby's list of the player's games: neither won nor lost, the team's game is over.
    page.goto(f"{server}/")
    badge = page.locator("#my-tables .badge").first
    badge.wait_for()
    assert badge.inner_text() == "finished"
    assert not errors, errors
    context.close()


def _phone_beside(
    browser: Any,
    context: Any,
    url: str,
    ready: str = ".rv[data-phase=build]",
    errors: list[str] | None = None,
) -> Any:
    """The reader of ``context`` on a phone too, at ``url``, once ``ready`` shows (its page's
    errors, if asked, go to ``errors``)."""
    phone = browser.new_context(
        viewport=PHONE,
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        storage_state=context.storage_state(),
    )
    page = phone.new_page()
    if errors is not None:
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    page.wait_for_selector(ready)
    return page


@pytest.mark.browser
def test_a_spectator_at_three_sees_both_sides_of_the_building_at_the_end(
    server: str,
    browser: Any,
) -> None:
    """Three players, one round built through the table's route: the spectator, shown neither
    side while it is built, gets both sides of the card and of the building once the round is
    over (R17, the spectators' decision) and the page shows them, on a computer and on a phone,
    even opened only after the round."""
    errors: list[str] = []
    seats = [_guest(browser, server, DESKTOP) for _ in range(3)]
    watcher = _guest(browser, server, DESKTOP)
    table = (
        seats[0]
        .request.post(
            server + "/api/tables",
            data={
                "game": "rectoverso",
                "players": 3,
                "options": {"difficulty": "easy"},
            },
        )
        .json()
    )
    for seat in (1, 2):
        assert (
            seats[seat]
            .request.post(server + f"/api/tables/{table['id']}/join", data={"seat": seat})
            .ok
        )
    assert seats[0].request.post(server + f"/api/tables/{table['id']}/start").ok
    url = f"{server}/table/{table['id']}"
    watch = watcher.new_page()
    watch.on("pageerror", lambda exc: errors.append(str(exc)))
    frames: list[str] = []
    _record(watch, frames)
    watch.goto(url)
    watch.wait_for_selector(".rv[data-phase=start]")

    def to_move() -> list[int]:
        return seats[0].request.get(f"{server}/api/tables/{table['id']}").json()["to_move"]

    (active,) = to_move()
    _act(seats[active].request, server, table["id"], "turn")
    watch.wait_for_selector(".rv[data-phase=build]")
    (partner,) = [seat for seat in to_move() if seat != active]
    # A few pieces (on any site: each stands on the ground or on the one before), both done.
    placed = ("black 0,0,0", "white 3,0,0", "yellow 0,1,0 1,1,0 2,1,0", "grey 0,0,1")
    for placement in placed:
        _act(seats[active].request, server, table["id"], f"place {placement}")
    for seat in (active, partner):
        _act(seats[seat].request, server, table["id"], "done")
    watch.wait_for_selector("[data-testid=round-result]")
    (finished,) = _views(frames)[-1]["view"]["rounds"]
    assert sorted(finished["placements"]) == sorted(placed)
    card = standard_card(finished["card"])
    built = Construction.of(parse_placement(p) for p in finished["placements"])

    def both_sides(page: Any) -> None:
        panel = page.get_by_test_id("last-build")
        panel.wait_for()
        assert "both sides" in panel.inner_text()
        for side, wanted, seen in (
            ("front", card.front, built.front_view()),
            ("back", card.back, built.back_view()),
        ):
            grids = panel.locator(f".rv-grid[data-side={side}]").all()
            assert len(grids) == 2  # the card's side and the building's
            for grid, rows in zip(grids, (wanted, seen), strict=True):
                shown = "".join(grid.locator(".rv-cell").all_inner_texts())
                assert re.sub(r"[✓✗\s]", "", shown) == "".join(rows).replace(".", "").upper()

    # Opened after the round: it never had a view of the build.
    small = _phone_beside(browser, watcher, url, "[data-testid=round-result]", errors)
    for page, name in ((watch, "spectator-at-three-end"), (small, "phone-spectator-at-three-end")):
        _shot(page, name, settle_ms=600)  # after the result's entrance
        if TAKE_SHOTS and page.locator(".rv-compare").count():
            page.locator(".rv-compare").evaluate("node => node.scrollIntoView({block: 'end'})")
            _shot(page, f"{name}-panel")
    both_sides(watch)
    both_sides(small)
    assert not errors, errors
    for context in [*seats, watcher, small.context]:
        context.close()
