"""The pages in German in real Chromium: chosen by the browser's language (Accept-Language) on
the first visit, then by the header's switcher on every page; the welcome, the sign-in's
refusal and the lobby in German on a phone, without overflow. Screenshots go to ``SHOTS``."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.server import test_browser

server, browser, SHOTS = test_browser.server, test_browser.browser, test_browser.SHOTS
pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
# Words a German page never shows, all English (the converted parts must not either).
ENGLISH = {"the", "your", "you", "with", "and", "this", "table", "game", "games", "play", "seat"}


def _page(browser: Any, locale: str) -> Any:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale=locale)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    return page


def _english_words(text: str) -> set[str]:
    return {word for word in re.findall(r"[A-Za-z]+", text) if word.lower() in ENGLISH}


def _fits(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    width, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"{name}: {width} px wide on a {inner} px screen"


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
    _fits(page, "de-welcome-phone")
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
    _fits(page, "de-lobby-phone")
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
    _fits(page, "de-table-waiting-phone")
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
    _fits(page, "de-verso-phone")
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
    _fits(page, f"{language}-{name}-phone")
    words = {w for w in re.findall(r"[A-Za-z]+", page.evaluate(WORDS)) if w.lower() in ENGLISH_ONLY}
    assert not words, f"{language} {name}: English {sorted(words)}"
