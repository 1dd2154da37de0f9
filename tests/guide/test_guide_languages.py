"""The guides in every language, kept complete and in step with the English ones: a language
with a catalog has every game's guide, and each guide has the English one's sections, rule ids,
lists, tables and typed notation. A fifth language is checked as soon as its catalog exists."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib import resources

import pytest

from otherside.guide import GAMES, guide_language, guide_languages, name_rule_ids, rules_text
from otherside.i18n import DEFAULT, languages

GUIDE = resources.files("otherside.guide")
RULE_ID = re.compile(r"\b[VSR]\d+\b")
CODE = re.compile(r"`([^`]+)`")
# A placeholder a reader fills in (``--record FILE``) is a word of their language.
PLACEHOLDER = re.compile(r"\b[A-Z]{3,}\b")
OTHERS = [language for language in languages() if language != DEFAULT]


@dataclass
class Section:
    """One section of a guide (from a heading to the next), what must match across languages."""

    level: str
    ids: set[str] = field(default_factory=set)
    items: int = 0
    rows: int = 0
    code: set[str] = field(default_factory=set)


def sections(text: str) -> list[Section]:
    """Each section of ``text``: its heading level, the rule ids it cites, how many list items
    and table rows it has, and its typed notation."""
    found: list[Section] = []
    for line in text.splitlines():
        if line.startswith("#"):
            found.append(Section(line.split()[0]))
        section = found[-1]
        section.ids |= set(RULE_ID.findall(line))
        section.items += bool(re.match(r"^(- |\d+\. )", line))
        section.rows += line.startswith("|")
        section.code |= {c for c in CODE.findall(line) if not PLACEHOLDER.search(c)}
    return found


def test_every_language_with_a_catalog_has_every_guide_and_no_guide_lacks_a_catalog() -> None:
    folders = {entry.name for entry in GUIDE.iterdir() if entry.is_dir() and entry.name.isalpha()}
    assert folders == set(languages()), "a guide folder per catalog language, and no other"
    for language in languages():
        for game in GAMES:
            assert GUIDE.joinpath(language, f"{game}.md").is_file(), f"{language}/{game}.md"
    assert guide_languages() == languages()


@pytest.mark.parametrize("language", OTHERS)
@pytest.mark.parametrize("game", GAMES)
def test_a_guide_cites_exactly_the_english_rule_ids(game: str, language: str) -> None:
    english, other = rules_text(game), rules_text(game, language)
    assert other != english, f"{language}/{game}.md is the English text"
    assert set(RULE_ID.findall(other)) == set(RULE_ID.findall(english))


@pytest.mark.parametrize("language", OTHERS)
@pytest.mark.parametrize("game", GAMES)
def test_a_guide_has_the_english_sections_lists_tables_and_notation(
    game: str, language: str
) -> None:
    english, other = sections(rules_text(game)), sections(rules_text(game, language))
    assert [s.level for s in other] == [s.level for s in english], "headings differ"
    for number, (mine, theirs) in enumerate(zip(other, english, strict=True)):
        where = f"{language}/{game}.md, section {number}"
        assert mine.ids == theirs.ids, f"{where}: rule ids"
        assert mine.items == theirs.items, f"{where}: list items"
        assert mine.rows == theirs.rows, f"{where}: table rows"
        # The notation is typed the same in every language; a guide may show more of it.
        missing = theirs.code - mine.code
        assert not missing, f"{where}: notation left out: {missing}"


def test_a_language_without_a_guide_reads_the_english_one() -> None:
    assert guide_language("ja") == guide_language(None) == DEFAULT
    assert rules_text("verso", "ja") == rules_text("verso")
    assert name_rule_ids("(V8)", "ja") == "(rule V8: no duplicates)"


@pytest.mark.parametrize(
    ("language", "named"),
    [
        ("de", "(Regel V10: Straße)"),
        ("fr", "(règle V10 : série)"),
        ("nl", "(regel V10: reeks)"),
    ],
)
def test_a_cited_rule_is_named_in_the_readers_language(language: str, named: str) -> None:
    assert name_rule_ids("(V10)", language) == named


@pytest.mark.parametrize(
    ("language", "game", "terms"),
    [
        # The printed games' words: the German and French Verso rulebooks, the German VERSUS
        # sheet, the Dutch Recto Verso rulebook.
        ("de", "verso", ("Straße werten", "Auslage", "Stapel", "Quadrat", "Sitznachbarn")),
        ("fr", "verso", ("Valider une série", "pioche", "joker", "carré", "défauss")),
        ("de", "versus", ("Zielfeld", "Spielbrett", "Teile", "Hauptfarbe", "Anziehung")),
        ("nl", "rectoverso", ("bouwpartner", "bouwkaart", "bouwplaats", "speelstuk", "bouwkoning")),
    ],
)
def test_the_guides_use_the_publishers_terms(
    language: str, game: str, terms: tuple[str, ...]
) -> None:
    text = rules_text(game, language)
    assert all(term in text for term in terms), [term for term in terms if term not in text]
