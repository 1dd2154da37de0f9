"""Completeness of the catalogs, which can't rot: every language has every message of a fresh
extraction translated, nothing fuzzy, stale or obsolete, the same fields in every translation;
and the page modules already moved into the catalogs carry no player-facing English outside
them (a module with a hard-coded English sentence fails here)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.jslexer import Token, tokenize, unquote_string

from otherside.i18n import DEFAULT, LOCALE_DIR, languages, say, say_n, translations
from otherside.i18n.catalogs import extract, read

WEB_JS = LOCALE_DIR.parent / "web" / "js"
# The modules whose words are in the catalogs: every module of the pages (a new module is added
# here when it is written).
CONVERTED = [
    "core/again.js",
    "core/clock.js",
    "core/constants.js",
    "core/dom.js",
    "core/games.js",
    "core/http.js",
    "core/i18n.js",
    "core/markdown.js",
    "core/session.js",
    "core/signin.js",
    "core/socket.js",
    "core/toast.js",
    "core/words.js",
    "docs.js",
    "games/generic/board.js",
    "games/verso/about.js",
    "games/verso/board.js",
    "games/versus/about.js",
    "games/versus/board.js",
    "games/versus/confirm.js",
    "games/rectoverso/about.js",
    "games/rectoverso/board.js",
    "games/rectoverso/draw.js",
    "games/rectoverso/model.js",
    "games/rectoverso/pieces.js",
    "games/rectoverso/position.js",
    "games/rectoverso/rounds.js",
    "pages/account_tokens.js",
    "pages/confirm.js",
    "pages/lobby.js",
    "pages/welcome.js",
    "pages/table/alert.js",
    "pages/table/away.js",
    "pages/table/confirm_setting.js",
    "pages/table/chat.js",
    "pages/table/dock.js",
    "pages/table/log.js",
    "pages/table/players.js",
    "pages/table/position.js",
    "pages/table/typed.js",
    "pages/table/waiting.js",
    "pages/table.js",
    "pages/replay.js",
    "pages/analysis.js",
    "pages/player.js",
    "pages/rules.js",
    "pages/learn.js",
    "pages/tournament.js",
]
FIELD = re.compile(r"\{(\w+)\}")


@pytest.fixture(scope="module")
def fresh() -> Catalog:
    return extract()


def _ids(catalog: Catalog) -> set[object]:
    return {
        message.id if isinstance(message.id, str) else tuple(message.id)
        for message in catalog
        if message.id
    }


def test_the_four_languages_have_catalogs() -> None:
    assert languages()[0] == DEFAULT == "en"
    assert {"de", "fr", "nl"} <= set(languages())


@pytest.mark.parametrize("language", [lang for lang in languages() if lang != DEFAULT])
def test_a_catalog_has_every_message_of_a_fresh_extraction_and_nothing_else(
    language: str, fresh: Catalog
) -> None:
    catalog = read(language)
    missing = _ids(fresh) - _ids(catalog)
    stale = _ids(catalog) - _ids(fresh)
    assert not missing, (
        f"{language}: not in the catalog (python -m otherside.i18n extract): {missing}"
    )
    assert not stale, f"{language}: no longer in the sources: {stale}"
    assert not catalog.obsolete, f"{language}: obsolete entries: {list(catalog.obsolete)}"
    assert not catalog.fuzzy, f"{language}: the header is fuzzy"


@pytest.mark.parametrize("language", [lang for lang in languages() if lang != DEFAULT])
def test_every_message_is_translated_not_fuzzy_with_the_same_fields(language: str) -> None:
    problems = []
    for message in read(language):
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        forms = [message.string] if isinstance(message.string, str) else list(message.string)
        fields = set().union(*(FIELD.findall(text) for text in ids))
        if message.fuzzy:
            problems.append(("fuzzy", ids[0]))
        for form in forms:
            if not form:
                problems.append(("untranslated", ids[0]))
            # A plural form may leave the count out ("one game"), nothing else.
            elif not (fields - {"count"} <= set(FIELD.findall(form)) <= fields):
                problems.append(("fields", ids[0], form))
    assert not problems, f"{language}: {problems}"


def test_the_compiled_catalogs_say_the_messages_with_plurals() -> None:
    assert say("de", "the table is full") == "der Tisch ist voll"
    assert say_n("fr", "{count} game", "{count} games", 1) == "1 partie"
    assert say_n("fr", "{count} game", "{count} games", 0) == "0 partie"  # French: 0 is one
    assert say_n("de", "{count} game", "{count} games", 0) == "0 Partien"
    assert say("nl", "a message no catalog has") == "a message no catalog has"
    assert translations("xx") is translations("xx")  # built once per process


# Player-facing English outside the catalogs, in a module's string literals.
ENGLISH = {
    "the", "a", "an", "and", "or", "of", "to", "in", "on", "for", "with", "your", "you", "is",
    "are", "not", "no", "yet", "this", "that", "it", "be", "by", "at", "as", "from", "now",
    "here", "there", "all", "any", "one", "more", "game", "games", "play", "seat", "seats",
    "table", "tables", "turn", "move", "moves", "bot", "bots", "player", "players", "sign",
    "guest", "rules", "open", "watch", "replay", "waiting", "rated", "chat", "send", "name",
    "password", "reminder", "reminders", "link", "copied",
}  # fmt: skip
UI_WORDS = {word.capitalize() for word in ENGLISH} | {
    "Save", "Send", "Copy", "Cancel", "Yes", "Back", "Next", "Start", "End", "Draw", "Won",
    "Lost", "Finished", "Random", "Measured", "Resign", "Leave", "Join", "Rematch", "Remove",
    "Download", "Rules", "Pause", "Ratings",
}  # fmt: skip
# Strings that name something for the program, not for people.
TECHNICAL_CALLS = {
    "el", "svg", "addEventListener", "removeEventListener", "querySelector", "querySelectorAll",
    "getElementById", "$", "getItem", "setItem", "removeItem", "api", "fetch", "import", "split",
    "join", "replace", "startsWith", "endsWith", "includes", "toggle", "add", "remove",
    "contains", "match", "matchAll", "closest", "setAttribute", "getAttribute", "Error",
    "createElement", "createElementNS", "encodeURIComponent", "Intl",
}  # fmt: skip
PLAYER_KEYS = {"title", "aria-label", "placeholder", "alt", "label", "text", "about", "players"}
COMPARE = {"==", "!=", "===", "!==", "case"}


def _is_english(text: str) -> bool:
    text = re.sub(r"\$\{[^}]*\}", " ", text)
    words = text.split()
    if len(words) == 1:
        return words[0].strip(".,:;!?…") in UI_WORDS
    plain = [w.strip(".,:;!?…()—–·\"'") for w in words]
    if any(re.search(r"[-_/=<>#@{}\\]", w) or "." in w.strip(".") for w in plain if w):
        return False  # a class list, a path, a selector, code
    return any(w.lower() in ENGLISH for w in plain)


def english_outside_catalogs(source: str) -> list[tuple[int, str]]:
    """The string literals of a module that read as English to a player and are not the
    messages of ``t(…)``/``tn(…)`` nor program names (keys, classes, ids, events, comparisons)."""
    tokens: list[Token] = [
        tok for tok in tokenize(source, jsx=False, dotted=False, template_string=True)
    ]
    found = []
    for index, tok in enumerate(tokens):
        if tok.type == "template_string" and re.search(r"\$\{[^`]*\btn?\(", tok.value):
            # Babel's extraction does not look into a template literal: a message there
            # would never reach the catalogs.
            found.append((tok.lineno, tok.value))
            continue
        if tok.type not in ("string", "template_string"):
            continue
        before = [t.value for t in tokens[max(0, index - 3) : index]]
        after = [t.value for t in tokens[index + 1 : index + 3]]
        value = tok.value[1:-1] if tok.type == "template_string" else unquote_string(tok.value)
        call = before[-2] if len(before) >= 2 and before[-1] == "(" else None
        second = [tok.value for tok in tokens[max(0, index - 4) : index - 2]] == ["tn", "("]
        if call in ("t", "tn") or (second and before[-1] == ","):
            continue  # a message of the catalogs
        if call in TECHNICAL_CALLS or (before and before[-1] in ("from", "import")):
            continue
        key = after and after[0] == ":" and (not before or before[-1] in ("{", ","))
        if key or (before and before[-1] in COMPARE):
            continue  # an object's key, a comparison
        if "".join(before[-2:]) in ("===", "!==") or (after and after[0] in ("==", "!=")):
            continue
        attribute = len(before) >= 3 and before[-1] == ":" and before[-3] in ("{", ",")
        if attribute and before[-2] not in PLAYER_KEYS:
            continue  # an attribute or option that is not read by people
        if _is_english(value):
            found.append((tok.lineno, value))
    return found


def test_every_module_of_the_pages_is_checked() -> None:
    modules = {str(path.relative_to(WEB_JS)) for path in WEB_JS.rglob("*.js")}
    assert modules == set(CONVERTED), f"not checked: {modules - set(CONVERTED)}"


def test_the_check_finds_a_hard_coded_english_sentence_and_passes_the_catalogs() -> None:
    bad = """import { el } from "/static/js/core/dom.js";
    export const x = el("p", { class: "muted note" }, "Your game is waiting for you.");
    const y = { title: "Open the table" }, z = el("button", {}, "Replay");
    const w = many ? "Resign? The game ends now." : "Leave";
    document.title = `${n} ${t("waiting for you")}`;"""
    assert english_outside_catalogs(bad) == [
        (2, "Your game is waiting for you."),
        (3, "Open the table"),
        (3, "Replay"),
        (4, "Resign? The game ends now."),
        (4, "Leave"),
        (5, '`${n} ${t("waiting for you")}`'),
    ]
    good = """import { t } from "/static/js/core/i18n.js";
    export const x = el("p", { class: "muted note" }, t("Your game is waiting for you."));
    if (state === "your turn") tn("{count} game", "{count} games", 2);
    const b = el("b", {}, n ? tn("Play the bot again", "Play the bots again", 2) : t("Resign"));"""
    assert english_outside_catalogs(good) == []


@pytest.mark.parametrize("module", CONVERTED)
def test_a_converted_page_module_has_no_english_outside_the_catalogs(module: str) -> None:
    source = (WEB_JS / module).read_text(encoding="utf-8")
    assert english_outside_catalogs(source) == []


def test_every_text_of_the_pages_html_is_a_catalog_message(fresh: Catalog) -> None:
    from otherside.i18n.html import texts

    ids = _ids(fresh)
    for page in sorted((LOCALE_DIR.parent / "web").glob("*.html")):
        for _line, text in texts(page.read_text(encoding="utf-8")):
            assert text in ids, (page.name, text)


def test_the_catalogs_are_not_committed_compiled() -> None:
    ignored = Path(__file__).resolve().parents[2] / ".gitignore"
    assert "*.mo" in ignored.read_text().split("\n")
