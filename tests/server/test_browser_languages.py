"""The site in German in real Chromium (the browser's Accept-Language on the first visit, then
the header's switcher on every page): the welcome, the sign-in's refusal and the lobby, and each
game's table — the boards' words, a refusal of the engine sent back over the real websocket, how
a game (VERSUS) and a round (Recto Verso) ended — on a phone and on a desktop, with nothing wider
than the screen; and the main pages in German, French and Dutch with no English word. Screenshots
go to ``SHOTS`` (look at them).

One module for both (they were two, each starting its server and browser): a game is played
once, watched by the player on a phone and on a desktop at the same time."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.server.browsing import shot_and_fit

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
WAIT = 20000
# Words a German page never shows, all English (the converted parts must not either).
ENGLISH = {"the", "your", "you", "with", "and", "this", "table", "game", "games", "play", "seat"}
# Words a German table never shows: English (a word German shares, such as "in", is left out).
BOARD_WORDS = {
    "the", "your", "you", "with", "and", "this", "table", "game", "move", "stone", "stones",
    "piece", "pieces", "card", "waiting", "turn", "draw", "offer", "resign", "build",
    "site", "top", "view", "side", "click", "pick", "place", "target", "targets", "blue",
    "brown", "points", "cleared", "match", "time", "round",
}  # fmt: skip

# Opens the table's websocket from the page (its cookie and Accept-Language) and returns the
# first view; SEND then sends an action on it and returns the server's error.
OPEN = """async (id) => {
  const socket = new WebSocket(`ws://${location.host}/ws/tables/${id}`);
  window.probe = socket;
  return await new Promise((done) => {
    socket.onmessage = (event) => {
      const m = JSON.parse(event.data);
      if (m.type === "view") done(m);
    };
  });
}"""
SEND = """async ([version, action]) => {
  const socket = window.probe;
  const error = new Promise((done) => {
    socket.onmessage = (event) => {
      const m = JSON.parse(event.data);
      if (m.type === "error") done(m);
    };
  });
  socket.send(JSON.stringify({ type: "action", version, action }));
  const answer = await error;
  socket.close();
  return answer;
}"""


SPILLED = """() => [...document.querySelectorAll('#board *')]
  .filter((node) => !(node instanceof SVGElement) && node.clientWidth > 0)
  .filter((node) => !['auto', 'scroll'].includes(getComputedStyle(node).overflowX))
  .filter((node) => node.scrollWidth > node.clientWidth + 1)
  .map((node) => `${node.className}: ${node.textContent.trim().slice(0, 40)}`)"""


def _page(browser: Any, locale: str, viewport: dict[str, int] = PHONE, storage: Any = None) -> Any:
    context = browser.new_context(
        viewport=viewport,
        device_scale_factor=2 if viewport == PHONE else 1,
        locale=locale,
        storage_state=storage,
    )
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    return page


def _german(browser: Any, server: str, viewport: dict[str, int]) -> Any:
    """A new German guest's page at ``viewport``."""
    page = _page(browser, "de-DE", viewport)
    assert page.request.post(server + "/api/guest").ok
    return page


def _on_a_desktop_too(browser: Any, page: Any) -> Any:
    """The same person (``page``'s) in a second window, on a desktop."""
    return _page(browser, "de-DE", DESKTOP, page.context.storage_state())


def _post(page: Any, base: str, path: str, body: dict[str, Any] | None = None) -> Any:
    response = page.request.post(base + path, data=body or {})
    assert response.ok, response.text()
    return response.json()


# The Recto Verso colours by letter, as the German description says them ("." is no cube).
RV_COLOURS = {
    "k": "schwarz", "w": "weiß", "a": "grau", "n": "braun", "g": "grün", "p": "rosa",
    "v": "violett", "o": "orange", "y": "gelb", "b": "blau", "r": "rot", ".": "frei",
}  # fmt: skip


def _described(page: Any) -> str:
    """Press the table's "Stellung beschreiben" and return what its live region announces."""
    page.get_by_role("button", name="Stellung beschreiben").click()
    page.wait_for_selector("[data-testid=position] p", timeout=WAIT)
    return "\n".join(page.locator("[data-testid=position] p").all_inner_texts())


# A word: letters not joined to other letters or digits. A table's id in a link ("you8izH6")
# holds no word; read as letter runs it once said "you" on a Dutch page.
WORD = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]+(?![A-Za-z0-9])")


def _english_words(text: str) -> set[str]:
    return {word for word in WORD.findall(text) if word.lower() in ENGLISH}


def _english(text: str) -> set[str]:
    return {word for word in WORD.findall(text) if word.lower() in BOARD_WORDS}


def _board_fits(page: Any, name: str) -> None:
    shot_and_fit(page, name)
    # No words stick out of their box or are cut off (a long German word in a narrow card):
    # every element of the board but the drawings and the scrolling rows holds its content.
    spilled = page.evaluate(SPILLED)
    assert not spilled, f"{name}: {spilled}"


def _size(page: Any) -> str:
    return "phone" if page.viewport_size["width"] == PHONE["width"] else "desktop"


def test_a_german_browser_gets_the_welcome_and_the_lobby_in_german(
    server: str, browser: Any
) -> None:
    page = _page(browser, "de-DE")
    page.goto(server + "/")
    page.wait_for_selector("#welcome:not(.hidden) .game-card")
    assert page.get_attribute("html", "lang") == "de"
    welcome = page.inner_text("#welcome")
    assert "Drei Spiele für Freunde oder gegen Bots" in welcome
    assert "Jetzt als Gast spielen" in welcome and "Regeln lesen" in welcome
    assert not _english_words(welcome), _english_words(welcome)
    shot_and_fit(page, "de-welcome-phone")
    # A refusal of the server, in German in the page.
    page.fill("#name", "Niemand")
    page.fill("#password", "falsch")
    page.click("#signin-btn")
    page.wait_for_selector("#auth-error:has-text('falscher Name oder falsches Passwort')")
    page.click("#guest-btn")
    page.wait_for_selector("#lobby:not(.hidden)")
    assert page.inner_text("#new-table h2, #lobby h2 >> nth=0") == "Neuer Tisch"
    assert page.inner_text("#create-btn") == "Tisch anlegen"
    page.wait_for_selector("#my-tables p, #my-tables table")
    assert "Du hast noch keine Partien" in page.inner_text("#my-tables")
    assert "(Gast)" in page.inner_text("header.top .who")
    assert page.title() == "otherside — mit Freunden und Bots spielen"
    for panel in ("#my-tables", "#open-tables", "#live-tables", "#pace-help", "header.top"):
        assert not _english_words(page.inner_text(panel)), (panel, page.inner_text(panel))
    shot_and_fit(page, "de-lobby-phone")
    assert page.errors == []


def test_the_switcher_turns_every_page_into_the_chosen_language(server: str, browser: Any) -> None:
    page = _page(browser, "en-GB")
    page.goto(server + "/")
    page.wait_for_selector("#welcome:not(.hidden) .game-card")
    assert page.get_attribute("html", "lang") == "en"
    page.click("#guest-btn")
    page.wait_for_selector("#lobby:not(.hidden)")
    assert page.inner_text("#create-btn") == "Create table"
    with page.expect_navigation():
        page.select_option("#language", "de")
    page.wait_for_selector("#lobby:not(.hidden)")
    assert page.get_attribute("html", "lang") == "de"
    assert page.inner_text("#create-btn") == "Tisch anlegen"
    assert page.input_value("#language") == "de"
    # The choice holds on the next page, a table's, and its switcher says so.
    page.click("#create-btn")
    page.wait_for_url("**/table/*")
    page.wait_for_selector("#waiting:not(.hidden)")
    assert page.get_attribute("html", "lang") == "de"
    assert page.inner_text("#waiting-title") == "Warteraum"
    assert page.input_value("#language") == "de"
    # A seat is free ("frei"); "leer" is the pile's word (one English "empty" was both).
    assert page.locator("#seats .seat:not(.taken) .name").first.inner_text() == "frei"
    pile = page.evaluate(
        """async () => {
            const { createBoard } = await import('/static/js/games/verso/board.js');
            const root = document.createElement('section');
            const view = { version: 9, phase: 'final', current_player: 0, top: null, pile_size: 0,
                discards: [], events: [], tableaux: [{ cards: [], score: 0, square: false }] };
            createBoard(root, { mode: 'replay', play: null, resign: null }).update({ view,
                seat: null, legal: [], names: ['a'], previous: null, clock: null, table: null });
            return root.querySelector('.card.big.empty').textContent;
        }"""
    )
    assert pile == "leer"
    shot_and_fit(page, "de-table-waiting-phone")
    with page.expect_navigation():
        page.select_option("#language", "fr")
    page.wait_for_selector("#waiting:not(.hidden)")
    assert page.get_attribute("html", "lang") == "fr"
    assert "Invitez des amis avec ce lien" in page.inner_text("#waiting")
    assert page.errors == []


def test_a_verso_game_in_german_on_a_phone(server: str, browser: Any) -> None:
    page = _page(browser, "de-DE")
    made = page.request.post(server + "/api/guest")
    assert made.ok, made.text()
    table = page.request.post(
        server + "/api/tables",
        data={"game": "verso", "players": 2, "options": {"first_player": 0}},
    ).json()
    assert page.request.post(server + f"/api/tables/{table['id']}/bots", data={"bot": "random"}).ok
    page.goto(f"{server}/table/{table['id']}")
    page.wait_for_selector("[data-testid=status].mine")
    assert page.inner_text("[data-testid=status]") == "Du bist dran."
    assert page.get_by_role("button", name="Umdrehen & nehmen").is_visible()
    assert "Karten im Stapel" in page.inner_text("#board")
    board = page.inner_text("#board")
    assert not _english_words(board), _english_words(board)
    shot_and_fit(page, "de-verso-phone")
    page.get_by_role("button", name="Umdrehen & nehmen").click()
    # On a phone the log is a drawer: its lines are there, shown when opened.
    page.wait_for_selector("#log li", state="attached")
    log = page.locator("#log").text_content()
    assert "Du hast" in log and "umgedreht und" in log and "genommen." in log
    # The player's page names the bot in German too (the server's name for it is English).
    me = page.request.get(server + "/api/me").json()["user"]["name"]
    page.goto(f"{server}/player/{me}")
    page.wait_for_selector("#recent table")
    recent = page.inner_text("#recent")
    assert "Zufalls-Bot" in recent and "random bot" not in recent, recent
    assert page.errors == []


def test_a_versus_game_in_german_refusal_and_result(server: str, browser: Any) -> None:
    page = _german(browser, server, PHONE)
    table = _post(page, server, "/api/tables", {"game": "versus", "players": 2})["id"]
    _post(page, server, f"/api/tables/{table}/bots", {"bot": "greedy"})
    _post(page, server, f"/api/tables/{table}/start")
    desk = _on_a_desktop_too(browser, page)
    for seen in (page, desk):
        seen.goto(f"{server}/table/{table}")
        seen.wait_for_selector(".vs-status.mine", timeout=WAIT)
        status = seen.inner_text("[data-testid=vs-status]")
        assert "Du bist dran" in status and "Züge ohne Festsetzen" in status, status
        board = seen.inner_text("#board")
        assert "grundlinie von blau" in board.lower() and "So liest du das Spielbrett" in board
        assert not _english(board), _english(board)
        assert seen.get_by_role("button", name="Aufgeben").is_visible()
        _board_fits(seen, f"de-versus-{_size(seen)}")

    # A move from an empty cell, sent by hand over the real socket: refused, in German.
    frame = page.evaluate(OPEN, table)
    taken = {stone["cell"] for stone in frame["view"]["stones"]} | set(frame["view"]["versus"])
    cells = [
        f"{q}:{r}"
        for q in range(-5, 6)
        for r in range(-5, 6)
        if abs(q + r) <= 5 and f"{q}:{r}" not in taken
    ]
    # The whole position in words, in German: every stone by cell, side and worth.
    said = _described(page)
    assert said.startswith("Du bist dran.") and "Letzter Zug: Das Spiel beginnt" in said, said
    for stone in frame["view"]["stones"]:
        owner = ("Blau", "Braun")[stone["owner"]]
        worth = f"{stone['b']} wert für Blau und {5 - stone['b']} für Braun"
        assert f"{stone['cell']}: Stein von {owner}, {worth}." in said, (stone, said)
    for seat, cell in enumerate(frame["view"]["versus"]):
        assert f"{cell}: VERSUS von {('Blau', 'Braun')[seat]}." in said, said
    assert "5 Steine auf dem Brett, 0 auf Zielfeldern festgesetzt; 0 Punkte." in said, said
    assert not _english(said), _english(said)
    cell = cells[0]
    error = page.evaluate(SEND, [frame["version"], f"{cell}>{cells[1]}"])
    assert error["code"] == "illegal" and error["params"] == {"cell": cell}, error
    assert error["message"].startswith(f"auf {cell} steht nichts; erlaubt: "), error

    # Resigning on the phone: the result and how the game ended, in German, in both windows.
    page.get_by_role("button", name="Aufgeben").click()
    page.locator("#confirm-yes").click()
    for seen in (page, desk):
        seen.wait_for_selector("[data-testid=vs-final]", timeout=WAIT)
        final = seen.inner_text("[data-testid=vs-final]")
        # The reason is the view's ("Blau hat aufgegeben") or the table's (the player by name).
        assert "Du hast verloren" in final and "hat aufgegeben." in final, final
        outcome = seen.inner_text(".outcome-line")
        assert "hat aufgegeben" in outcome, outcome
        assert not _english(seen.inner_text("#board")), _english(seen.inner_text("#board"))
        _board_fits(seen, f"de-versus-over-{_size(seen)}")
        assert seen.errors == []
        seen.context.close()


def test_a_recto_verso_round_in_german_refusal_and_result(server: str, browser: Any) -> None:
    # One builder on a phone, the other on a desktop.
    one, two = _german(browser, server, PHONE), _german(browser, server, DESKTOP)
    table = _post(one, server, "/api/tables", {"game": "rectoverso", "players": 2})["id"]
    _post(two, server, f"/api/tables/{table}/join", {"seat": 1})
    _post(one, server, f"/api/tables/{table}/start")
    for page in (one, two):
        page.goto(f"{server}/table/{table}")
        page.wait_for_selector("#board .rv", timeout=WAIT)
    # Whoever is to reveal the card reveals it; then both build.
    revealer = one if one.locator("[data-testid=next-round]").count() else two
    assert revealer.inner_text("[data-testid=next-round]") == "Nächste Karte aufdecken"
    revealer.locator("[data-testid=next-round]").click()
    for page in (one, two):
        page.wait_for_selector("[data-phase=build] [data-testid=done]", timeout=WAIT)
        board = page.inner_text("#board")
        assert "Baufläche" in board and "Bauteile" in board and "Draufsicht" in board, board
        assert not _english(board), _english(board)
        _board_fits(page, f"de-rectoverso-{_size(page)}")

    # The yellow piece a level up, over empty ground: refused (R5), in German.
    frame = one.evaluate(OPEN, table)
    # The whole position in words, in German: the reader's side of the card level by level
    # (the ground first, from the left), the building (still empty), the clock.
    said = _described(one)
    role = "front" if frame["view"]["recto"] == frame["seat"] else "back"
    card = frame["view"]["card"][role]
    assert "Deine Seite der Karte:" in said and "Deine Seite des Bauwerks:\nnoch nichts." in said
    ground = ", ".join(RV_COLOURS[letter] for letter in card[-1])
    assert f"Ebene 1, von links: {ground}." in said, f"{card}\n{said}"
    assert "Verbleibende Zeit: 1:" in said and "von 1:30." in said, said
    assert "Draufsicht: leerer Boden." in said and "noch 10 Bauteile zu setzen: schwarz" in said
    assert not _english(said), _english(said)
    error = one.evaluate(SEND, [frame["version"], "place yellow 0,0,1 1,0,1 2,0,1"])
    assert error["code"] == "illegal" and error["params"] == {}, error
    assert error["message"].startswith("ein Würfel stünde über einem leeren Feld (R5)"), error

    # Both say they are done on an empty site: the round does not match, said in German.
    # The first to be done says "Recto", the other "Verso" (R13) once it has seen the first's.
    for page, word in ((one, "Recto"), (two, "Verso")):
        if word == "Verso":
            page.wait_for_selector("[data-testid=done].second", timeout=WAIT)
        page.locator("[data-testid=done]").click()
        assert page.inner_text("[data-testid=done-yes]") == f"Ja, „{word}“ sagen"
        page.locator("[data-testid=done-yes]").click()
    for page in (one, two):
        page.wait_for_selector("[data-testid=round-result]", timeout=WAIT)
        result = page.inner_text("[data-testid=round-result]")
        assert "Stimmt nicht" in result and "Beide Baumeister waren nach" in result, result
        assert "Versucht Level 1 noch einmal mit einer neuen Karte." in result, result
        assert not _english(page.inner_text("#board")), _english(page.inner_text("#board"))
        _board_fits(page, f"de-rectoverso-round-{_size(page)}")
    for page in (one, two):
        assert page.errors == []
        page.context.close()


# Words only English uses (none is a German, French or Dutch word, nor a game's name): a page
# in another language that shows one has text outside the catalogs.
ENGLISH_ONLY = {
    "the", "your", "you", "with", "and", "this", "game", "games", "play", "seat", "seats",
    "move", "moves", "sign", "rules", "learn", "players", "waiting", "turn", "create", "replay",
    "resign", "draw", "offer", "cards", "stone", "stones", "piece", "pieces", "building",
    "view", "side", "pick", "won", "tournament", "tournaments", "password", "save",
    "back", "next", "yes", "cancel", "loading", "nobody", "hours", "days", "seconds", "empty",
    "blue", "green", "brown", "black", "white", "yellow", "guest", "new", "host", "join",
    "invite", "friends", "lesson", "step", "describe", "hide", "rated", "events",
}  # fmt: skip
# The page's shown words (those a screen reader says too), less notation and names (code,
# [translate=no]).
WORDS = """() => {
  const words = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const parent = walk.currentNode.parentElement;
    if (parent.closest('code, pre, kbd, script, style, [translate=no]')) continue;
    if (parent.checkVisibility()) words.push(walk.currentNode.textContent);
  }
  return words.join(' ');
}"""
LOCALES = {"de": "de-DE", "fr": "fr-FR", "nl": "nl-NL"}


@pytest.mark.parametrize("language", LOCALES)
def test_the_main_pages_on_a_phone_have_no_english_and_fit(
    server: str, browser: Any, language: str
) -> None:
    """The welcome, the lobby, the lessons, the tournaments and a table's waiting room, as a
    first visit from a browser in ``language`` on a phone: no English word, nothing wider than
    the screen, a header of at most two lines (the name and the sign-out link stacked)."""
    page = _page(browser, LOCALES[language])
    page.goto(server + "/")
    page.wait_for_selector("#welcome:not(.hidden) .game-card")
    _checked(page, language, "welcome")
    page.click("#guest-btn")
    page.wait_for_selector("#lobby:not(.hidden)")
    page.wait_for_selector("#my-tables p, #my-tables table")
    header = page.locator("header.top").bounding_box()
    assert header and header["height"] <= 60, f"{language}: the header is {header} high"
    _checked(page, language, "lobby")
    for path, ready in (
        ("/learn/verso", ".lesson-feedback"),
        ("/learn/versus", ".lesson-feedback"),
        ("/learn/rectoverso", ".lesson-feedback"),
        ("/tournaments", "h1"),
    ):
        page.goto(server + path)
        page.wait_for_selector(ready)
        page.wait_for_load_state("networkidle")
        _checked(page, language, path.strip("/").replace("/", "-"))
    page.goto(server + "/")
    page.wait_for_selector("#lobby:not(.hidden)")
    page.click("#create-btn")
    page.wait_for_url("**/table/*")
    page.wait_for_selector("#waiting:not(.hidden)")
    _checked(page, language, "table-waiting")
    assert page.errors == []
    page.context.close()


def _checked(page: Any, language: str, name: str) -> None:
    shot_and_fit(page, f"{language}-{name}-phone")
    words = {w for w in WORD.findall(page.evaluate(WORDS)) if w.lower() in ENGLISH_ONLY}
    assert not words, f"{language} {name}: English {sorted(words)}"
