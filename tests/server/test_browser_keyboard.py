"""Each game played with the keyboard alone (issue 34, "open to every player"): no mouse click,
only keys. Tab reaches the table's skip link, Enter jumps to the move box, each move is typed
in the rules' notation (sometimes only its first letters: the box completes a move that is the
only one they begin) and Enter plays it. The live region says each move, whose turn it is and
the result, as a screen reader would read it.

The moves are chosen in Python among those the move box offers (its list of completions, which
is the server's legal moves), by the project's own bots where that ends the game sooner.
Real Chromium, a real server process.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from otherside.bots import make_bot
from otherside.games.rectoverso import solve
from otherside.games.rectoverso.cards import standard_cards
from otherside.games.verso import replay as verso_replay
from otherside.games.versus import new_game as versus_new_game
from otherside.games.versus import replay as versus_replay
from otherside.games.versus import view as versus_view
from tests.server.test_browser_rectoverso import SIDES, _record, _views

pytestmark = pytest.mark.browser
DESKTOP = {"width": 1280, "height": 800}
WAIT = 20000


def _guest(browser: Any, server: str) -> Any:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.seen = []  # the websocket messages it received
    _record(page, page.seen)
    assert page.request.post(server + "/api/guest").ok
    return page


def _post(page: Any, server: str, path: str, body: dict[str, Any] | None = None) -> Any:
    response = page.request.post(server + path, data=body or {})
    assert response.ok, response.text()
    return response.json()


def _to_the_move_box(page: Any) -> None:
    """From the top of the page: Tab to the skip link, Enter to land in the move box."""
    page.wait_for_selector("#typed-form:not(.hidden)", timeout=WAIT)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "typed-move"


def _offered(page: Any) -> tuple[str, list[str]]:
    """Wait until the move box takes a move: the view it belongs to and the server's legal
    moves for it (as the page received them)."""
    page.wait_for_selector(
        "#typed-form:not(.hidden):not([data-moves='0'])", state="attached", timeout=WAIT
    )
    version = str(page.get_attribute("#typed-form", "data-version"))
    frame = next(v for v in reversed(_views(page.seen)) if str(v["version"]) == version)
    assert int(str(page.get_attribute("#typed-form", "data-moves"))) == len(frame["legal"])
    return version, list(frame["legal"])


def _completions(page: Any) -> list[str]:
    script = "[...document.querySelectorAll('#typed-legal option')].map((o) => o.value)"
    return list(page.evaluate(script))


def _type(page: Any, text: str, version: str) -> None:
    """Type ``text`` into the focused move box, Enter, and wait for the next view."""
    assert page.evaluate("document.activeElement.id") == "typed-move"
    page.keyboard.type(text)
    page.keyboard.press("Enter")
    page.wait_for_selector(
        f"#typed-form:not([data-version='{version}'])", state="attached", timeout=WAIT
    )


def _shortest_prefix(move: str, legal: list[str]) -> str:
    """The fewest first letters of ``move`` that no other legal move begins with."""
    for end in range(1, len(move) + 1):
        if [m for m in legal if m.startswith(move[:end])] == [move]:
            return move[:end]
    return move


def _spoken(page: Any) -> str:
    return str(page.locator("[data-testid=spoken]").text_content())


def _described(page: Any) -> str:
    """Ask for the whole position with the table's shortcut (Alt+Shift+P, from the move box)
    and return the words its live region announces."""
    focused = page.evaluate("document.activeElement.id")
    page.evaluate("document.getElementById('position').replaceChildren()")
    page.keyboard.press("Alt+Shift+P")
    page.wait_for_selector("[data-testid=position] p", timeout=WAIT)
    assert page.evaluate("document.activeElement.id") == focused  # typing goes on where it was
    region = page.locator("[data-testid=position]")
    assert region.get_attribute("aria-live") == "polite"
    return "\n".join(region.locator("p").all_inner_texts())


def _verso_card(face: str) -> str:
    """A Verso face ("B3", "g*") in the English words the description uses."""
    colour = {"b": "blue", "g": "green", "o": "orange"}[face[0].lower()]
    value = "star" if face[1:] == "*" else face[1:]
    return f"{colour} {value}, {3 if face[0].isupper() else 1} VP"


def _verso_against_a_bot(page: Any, server: str) -> str:
    """A two-player Verso table where the guest of ``page`` plays first against the random
    bot, started and open on ``page``; its id."""
    table: str = _post(
        page, server, "/api/tables", {"game": "verso", "players": 2, "options": {"first_player": 0}}
    )["id"]
    _post(page, server, f"/api/tables/{table}/bots", {"bot": "random"})
    _post(page, server, f"/api/tables/{table}/start")
    page.goto(f"{server}/table/{table}")
    return table


def test_verso_is_played_to_the_end_with_the_keyboard(server: str, browser: Any) -> None:
    page = _guest(browser, server)
    table = _verso_against_a_bot(page, server)
    page.wait_for_selector("[data-testid=pile-size]", timeout=WAIT)
    _to_the_move_box(page)
    rng, typed, completed = random.Random(5), [], 0
    while not page.locator("[data-testid=final]").count():
        version, legal = _offered(page)
        page.wait_for_selector("[data-testid=spoken]:has-text('Your turn.')", timeout=WAIT)
        if not typed:
            # The whole position said on demand: the pile, its top card, every tableau.
            view = next(v for v in _views(page.seen) if str(v["version"]) == version)["view"]
            said = _described(page)
            assert said.startswith("Your turn.")
            assert f"{view['pile_size']} cards in the pile" in said, said
            assert f"The top card of the pile: {_verso_card(view['top'])}." in said, said
            assert "(you): 0 VP." in said and "Random bot: 0 VP." in said, said
            assert said.count("row: no cards.") == 6, said
        series = [m for m in legal if m.startswith("series ")]
        move = max(series, key=len) if series else rng.choice(legal)
        text = _shortest_prefix(move, legal) if rng.random() < 0.5 else move
        completed += text != move
        _type(page, text, version)
        typed.append(move)
        page.wait_for_selector(
            "[data-testid=final], #typed-legal option", state="attached", timeout=WAIT
        )
    record = page.request.get(f"{server}/api/tables/{table}/record").json()
    mine = [a for i, a in enumerate(record["actions"]) if _seat_of(record, i) == 0]
    assert mine == typed and completed > 0
    outcome = verso_replay(record).outcome
    assert outcome is not None
    page.wait_for_selector("[data-testid=spoken]:has-text('Scores:')", timeout=WAIT)
    said = _spoken(page)
    assert ("won" in said or "Draw" in said) and " – ".join(map(str, outcome.scores)) in said
    assert page.is_hidden("#typed-form") and not page.errors, page.errors
    page.context.close()


def test_a_verso_button_played_by_the_keyboard_keeps_the_focus_on_the_board(
    server: str, browser: Any
) -> None:
    page = _guest(browser, server)
    _verso_against_a_bot(page, server)
    page.wait_for_selector(".verso-top [data-act=flip]", timeout=WAIT)
    version = page.get_attribute("#board", "data-version")
    page.focus(".verso-top [data-act=flip]")
    page.keyboard.press("Enter")
    # The button went with the turn: the focus waited on the board (not at the page's top) and
    # comes to the board's first action when the turn is back (the bot plays at once here).
    page.wait_for_selector(f"#board:not([data-version='{version}']) .status.mine", timeout=WAIT)
    assert page.evaluate("document.activeElement.dataset.act") in ("draw", "flip")
    assert not page.errors, page.errors
    page.context.close()


def _seat_of(record: dict[str, Any], index: int) -> int | None:
    """Who took the ``index``-th action of a Verso record (replayed up to it)."""
    before = dict(record, actions=record["actions"][:index])
    return verso_replay(before).current_player


def _versus_state(frames: list[str]) -> Any:
    """The VERSUS game so far, from the plies the views sent to the page name (``last``)."""
    plies = {v["view"]["ply"]: v["view"]["last"] for v in _views(frames) if v["view"]["last"]}
    state = versus_new_game()
    for ply in range(1, len(plies) + 1):
        state = state.apply(plies[ply])
    return state


def test_versus_is_played_to_the_end_with_the_keyboard(server: str, browser: Any) -> None:
    page = _guest(browser, server)
    table = _post(page, server, "/api/tables", {"game": "versus", "players": 2})["id"]
    _post(page, server, f"/api/tables/{table}/bots", {"bot": "greedy"})
    _post(page, server, f"/api/tables/{table}/start")
    page.goto(f"{server}/table/{table}")
    page.wait_for_selector("#board .vs-svg", timeout=WAIT)
    _to_the_move_box(page)
    rng, greedy = random.Random(7), make_bot("versus", "greedy")
    for _ in range(300):
        if page.locator("[data-testid=vs-final]").count():
            break
        version, legal = _offered(page)
        state = _versus_state(page.seen)
        assert legal == [str(a) for a in state.legal_actions()]  # the server's, nothing else
        if state.legal_plies():
            move = str(greedy.choose(versus_view(state, 0), state.legal_plies(), rng))
        else:
            move = "decline-draw"
        _type(page, move, version)
        page.wait_for_selector(
            "[data-testid=vs-final], #typed-legal option", state="attached", timeout=WAIT
        )
        # The bot's reply is said in words, with the cells of the notation.
        if not page.locator("[data-testid=vs-final]").count():
            page.wait_for_selector("[data-testid=spoken]:has-text('Your turn.')", timeout=WAIT)
            assert "Brown" in _spoken(page)
    else:
        raise AssertionError("the game did not end")
    outcome = versus_replay(page.request.get(f"{server}/api/tables/{table}/record").json()).outcome
    assert outcome is not None
    page.wait_for_selector("[data-testid=spoken]:has-text('Scores:')", timeout=WAIT)
    said = _spoken(page)
    assert any(word in said for word in ("won", "Draw", "Game over"))
    assert " – ".join(map(str, outcome.scores)) in said and not page.errors, page.errors
    page.context.close()


def test_a_bad_typed_move_is_refused_with_the_servers_reason(server: str, browser: Any) -> None:
    page = _guest(browser, server)
    table = _post(page, server, "/api/tables", {"game": "versus", "players": 2})["id"]
    _post(page, server, f"/api/tables/{table}/bots", {"bot": "random"})
    _post(page, server, f"/api/tables/{table}/start")
    page.goto(f"{server}/table/{table}")
    _to_the_move_box(page)
    version, legal = _offered(page)
    # Several moves begin with the words: the box says how many and some of them, plays none.
    origins = [m.split(">")[0] + ">" for m in legal if ">" in m]
    first = max(origins, key=origins.count)
    page.keyboard.type(first)
    page.keyboard.press("Enter")
    count = len([m for m in legal if m.startswith(first)])
    assert count > 1
    page.wait_for_selector(f"[data-testid=spoken]:has-text('{count} moves begin with')")
    # A move that is no legal one goes to the server, whose refusal is read out; nothing moves.
    page.keyboard.press("Control+A")
    page.keyboard.type("9:9>9:9")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=spoken]:has-text('9:9')", timeout=WAIT)
    assert page.get_attribute("#typed-form", "data-version") == version
    assert page.locator("#board[data-ply='0']").count() == 1
    page.context.close()


def test_refusals_in_a_row_stack_their_messages_instead_of_drawing_one_over_the_other(
    server: str, browser: Any
) -> None:
    page = _guest(browser, server)
    table = _post(
        page, server, "/api/tables", {"game": "verso", "players": 2, "options": {"first_player": 0}}
    )["id"]
    _post(page, server, f"/api/tables/{table}/bots", {"bot": "random"})
    page.goto(f"{server}/table/{table}")
    _to_the_move_box(page)
    _offered(page)
    # Verso's board shows a refusal as a message at the foot of the screen (a toast).
    for move, said in (("xyz", "'xyz'"), ("series blue 1 2", "no blue"), ("xyz", "'xyz'")):
        page.keyboard.press("Control+A")
        page.keyboard.type(move)
        page.keyboard.press("Enter")
        page.locator(".toast:last-child", has_text=said).wait_for()  # the newest at the bottom
    toasts = page.locator(".toast")
    assert toasts.count() == 2, toasts.all_inner_texts()  # "xyz" again replaced the first
    first, second = (toasts.nth(i).bounding_box() for i in range(2))
    assert first and second
    assert first["y"] + first["height"] <= second["y"], "one message is drawn over the other"
    page.context.close()


@pytest.mark.slow
def test_recto_verso_partners_build_a_card_with_the_keyboard(server: str, browser: Any) -> None:
    pages = {who: _guest(browser, server) for who in SIDES}
    recto, verso = pages["recto"], pages["verso"]
    table = _post(
        recto,
        server,
        "/api/tables",
        {"game": "rectoverso", "players": 2, "options": {"difficulty": "easy"}},
    )["id"]
    _post(verso, server, f"/api/tables/{table}/join", {"seat": 1})
    _post(recto, server, f"/api/tables/{table}/start")
    for page in pages.values():
        page.goto(f"{server}/table/{table}")
        page.wait_for_selector(".rv[data-phase=start]", timeout=WAIT)
        _to_the_move_box(page)
    version, legal = _offered(recto)
    assert legal == ["reveal"]
    _type(recto, "rev", version)
    for page in pages.values():
        page.wait_for_selector(".rv[data-phase=build]", timeout=WAIT)
    sides = {
        who: next(
            v["view"]["card"][SIDES[who]]
            for v in reversed(_views(pages[who].seen))
            if v["view"]["phase"] == "build"
        )
        for who in SIDES
    }
    card = next(
        c
        for c in standard_cards("easy")
        if list(c.front) == sides["recto"] and list(c.back) == sides["verso"]
    )
    solution = solve(card)
    assert solution is not None
    placements = sorted(solution.placements, key=lambda p: (min(c[2] for c in p.cells), p.piece))
    for index, placement in enumerate(placements):
        page = (recto, verso)[index % 2]
        version, legal = _offered(page)
        move = f"place {placement}"
        assert move in legal
        if index == 0:
            # The list offers the next word first, then the cells of the piece.
            piece = str(placement).split()[0]
            page.keyboard.type("place ")
            assert f"place {piece} " in _completions(page)
            page.keyboard.type(f"{piece} ")
            assert all(m.startswith(f"place {piece} ") for m in _completions(page))
            move = move.removeprefix(f"place {piece} ")
        _type(page, move, version)
    for page in (recto, verso):
        page.wait_for_selector(".rv[data-unplaced='']", timeout=WAIT)
        version, legal = _offered(page)
        assert "done" in legal
        _type(page, "done", version)
    for page in (recto, verso):
        page.wait_for_selector("[data-testid=round-result]", timeout=WAIT)
        page.wait_for_selector("[data-testid=spoken]:has-text('Level 1')", timeout=WAIT)
    assert "Level 1 cleared" in recto.inner_text("[data-testid=round-result]")
    for page in pages.values():
        assert not page.errors, page.errors
        page.context.close()
