"""The rules of the three games in the project's own words, for players, in their languages.

Each game's text is a Markdown file ``<language>/<game>.md`` of this package (``en/verso.md``,
``de/versus.md``, …), shown by ``otherside rules GAME`` in the terminal and by the server's
rules pages and in-game help. A language's guides use the game terms its publisher printed (the
German Verso rulebook says *Straße* and *Auslage*, the Dutch Recto Verso rulebook *bouwpartner*);
the typed notation (``series blue 3 *4 5``, ``2:-5>2:-1``) and the rule ids stay as they are in
every language. A reader whose language has no guide reads the English one.

The Markdown stays simple (``#``/``##`` headings, paragraphs, ``-`` and numbered lists,
``**bold**``, ``` `code` ``` and pipe tables) so that a tiny renderer can show it safely. Each
text ends with a section that is a table of the rule ids it cites (``| V10 | series |``);
:func:`rule_titles` reads it so that messages quoting a rule id can say what the rule is about.
The texts are written for players; the rules the engines implement are ``shared/rules/*.md``.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

from otherside.i18n import DEFAULT, N_, say

GAMES = ("verso", "versus", "rectoverso")
"""The games with a rules text, by package name."""

_ROW = re.compile(r"^\|\s*([VSR]\d+)\s*\|\s*(.+?)\s*\|\s*$")
_PREFIX_GAME = {"V": "verso", "S": "versus", "R": "rectoverso"}
_CITATION = re.compile(r"\(([VSR]\d+)(\.\d+)?\)")
_NAMED = N_("(rule {rule}: {title})")


@cache
def guide_languages() -> tuple[str, ...]:
    """The languages with a guide for every game, English first.

    >>> guide_languages()[0]
    'en'
    """
    root = resources.files(__package__)
    found = sorted(
        folder.name
        for folder in root.iterdir()
        if folder.is_dir() and all(folder.joinpath(f"{game}.md").is_file() for game in GAMES)
    )
    return (DEFAULT, *(language for language in found if language != DEFAULT))


def guide_language(language: str | None) -> str:
    """The language a reader of ``language`` gets the guides in: theirs, else English.

    >>> guide_language("de"), guide_language("ja"), guide_language(None)
    ('de', 'en', 'en')
    """
    return language if language in guide_languages() else DEFAULT


def rules_text(game: str, language: str | None = DEFAULT) -> str:
    """The rules of ``game`` in Markdown, in ``language`` (English if it has no guide).

    >>> rules_text("verso").splitlines()[0]
    '# Verso'
    >>> rules_text("versus", "de").splitlines()[0]
    '# VERSUS'

    Raises:
        ValueError: ``game`` is not one of :data:`GAMES`.
    """
    if game not in GAMES:
        raise ValueError(f"no rules for {game!r}; games: {', '.join(GAMES)}")
    folder = resources.files(__package__).joinpath(guide_language(language))
    return folder.joinpath(f"{game}.md").read_text(encoding="utf-8")


@cache
def rule_titles(game: str, language: str | None = DEFAULT) -> dict[str, str]:
    """What each rule id of ``game`` is about, from the table of the text's last section.

    >>> rule_titles("verso")["V8"]
    'no duplicates'
    >>> rule_titles("verso", "de")["V10"]
    'Straße'
    """
    text = rules_text(game, language)
    _, found, table = text.rpartition("\n## ")
    titles = {m[1]: m[2] for line in table.splitlines() if (m := _ROW.match(line))}
    if not found or not titles:
        raise ValueError(f"the rules of {game!r} do not end with a table of their rule ids")
    return titles


def name_rule_ids(text: str, language: str | None = DEFAULT) -> str:
    """``text`` with each bare citation such as ``(V10)`` saying what the rule is about, in
    ``language``.

    Citations that already explain themselves (``(S8: no jumping)``) are left alone, and so
    are ids that no rules text lists.

    >>> name_rule_ids("you hold no blue 1, 2 (V10)")
    'you hold no blue 1, 2 (rule V10: series)'
    >>> name_rule_ids("a cube stands above an empty cell (R5); (S13.4)")
    'a cube stands above an empty cell (rule R5: support); (rule S13.4: end of the game)'
    >>> name_rule_ids("(V8)", "fr")
    '(règle V8 : pas de doublon)'
    """
    language = guide_language(language)

    def explain(match: re.Match[str]) -> str:
        rule, part = match[1], match[2] or ""
        title = rule_titles(_PREFIX_GAME[rule[0]], language).get(rule)
        if not title:
            return match[0]
        return say(language, _NAMED, rule=f"{rule}{part}", title=title)

    return _CITATION.sub(explain, text)
