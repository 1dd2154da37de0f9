"""The VERSUS and Recto Verso tables in German in real Chromium (the browser's Accept-Language):
the boards' words, a refusal of the engine sent back over the real websocket, and how a game
(VERSUS) and a round (Recto Verso) ended — all in German, on a phone and on a desktop, with
nothing wider than the screen. Screenshots go to ``SHOTS`` (look at them)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.server.test_browser_languages import SHOTS, browser, server  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
WAIT = 20000
# Words a German table never shows: English (a word German shares, such as "in", is left out).
ENGLISH = {
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


def _german(browser: Any, server: str, viewport: dict[str, int]) -> Any:  # noqa: F811
    context = browser.new_context(
        viewport=viewport, device_scale_factor=2 if viewport == PHONE else 1, locale="de-DE"
    )
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    assert page.request.post(server + "/api/guest").ok
    return page


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


def _english(text: str) -> set[str]:
    return {word for word in re.findall(r"[A-Za-z]+", text) if word.lower() in ENGLISH}


def _fits(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    width, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"{name}: {width} px wide on a {inner} px screen"
    # No words stick out of their box or are cut off (a long German word in a narrow card):
    # every element of the board but the drawings and the scrolling rows holds its content.
    spilled = page.evaluate(SPILLED)
    assert not spilled, f"{name}: {spilled}"


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_versus_game_in_german_refusal_and_result(
    server: str,  # noqa: F811
    browser: Any,  # noqa: F811
    viewport: dict[str, int],
) -> None:
    page = _german(browser, server, viewport)
    table = _post(page, server, "/api/tables", {"game": "versus", "players": 2})["id"]
    _post(page, server, f"/api/tables/{table}/bots", {"bot": "greedy"})
    _post(page, server, f"/api/tables/{table}/start")
    page.goto(f"{server}/table/{table}")
    page.wait_for_selector(".vs-status.mine", timeout=WAIT)
    status = page.inner_text("[data-testid=vs-status]")
    assert "Du bist dran" in status and "Züge ohne Festsetzen" in status, status
    board = page.inner_text("#board")
    assert "grundlinie von blau" in board.lower() and "So liest du das Spielbrett" in board
    assert not _english(board), _english(board)
    _fits(page, f"de-versus-{'phone' if viewport == PHONE else 'desktop'}")

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

    # Resigning: the result and how the game ended, in German.
    page.get_by_role("button", name="Aufgeben").click()
    page.locator("#confirm-yes").click()
    page.wait_for_selector("[data-testid=vs-final]", timeout=WAIT)
    final = page.inner_text("[data-testid=vs-final]")
    # The reason is the view's ("Blau hat aufgegeben") or the table's (the player by name).
    assert "Du hast verloren" in final and "hat aufgegeben." in final, final
    outcome = page.inner_text(".outcome-line")
    assert "hat aufgegeben" in outcome, outcome
    assert not _english(page.inner_text("#board")), _english(page.inner_text("#board"))
    _fits(page, f"de-versus-over-{'phone' if viewport == PHONE else 'desktop'}")
    assert page.errors == []
    page.context.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_recto_verso_round_in_german_refusal_and_result(
    server: str,  # noqa: F811
    browser: Any,  # noqa: F811
    viewport: dict[str, int],
) -> None:
    one, two = _german(browser, server, viewport), _german(browser, server, DESKTOP)
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
    board = one.inner_text("#board")
    assert "Baufläche" in board and "Bauteile" in board and "Draufsicht" in board, board
    assert not _english(board), _english(board)
    _fits(one, f"de-rectoverso-{'phone' if viewport == PHONE else 'desktop'}")

    # The yellow piece a level up, over empty ground: refused (R5), in German.
    frame = one.evaluate(OPEN, table)
    # The whole position in words, in German: the reader's side of the card level by level
    # (the ground first, from the left), the building (still empty), the clock.
    said = _described(one)
    role = "front" if frame["view"]["recto"] == frame["seat"] else "back"
    card = frame["view"]["card"][role]
    assert "Deine Seite der Karte:" in said and "Deine Seite des Bauwerks:\nnoch nichts." in said
    ground = ", ".join(RV_COLOURS[letter] for letter in card[-1])
    assert f"Ebene 1, von links: {ground}." in said, (card, said)
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
    result = one.inner_text("[data-testid=round-result]")
    assert "Stimmt nicht" in result and "Beide Baumeister waren nach" in result, result
    assert "Versucht Level 1 noch einmal mit einer neuen Karte." in result, result
    assert not _english(one.inner_text("#board")), _english(one.inner_text("#board"))
    _fits(one, f"de-rectoverso-round-{'phone' if viewport == PHONE else 'desktop'}")
    for page in (one, two):
        assert page.errors == []
        page.context.close()
