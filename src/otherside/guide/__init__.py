"""The rules of the three games in the project's own words, for players.

Each game's text is a Markdown file of this package (``verso.md``, ``versus.md``,
``rectoverso.md``), shown by ``otherside rules GAME`` in the terminal and by the server's rules
page. The Markdown stays simple (``#``/``##`` headings, paragraphs, ``-`` and numbered lists,
``**bold**``, ``` `code` ``` and pipe tables) so that a tiny renderer can show it safely.

Each text ends with a "Rule references" table of the rule ids it cites (``| V10 | series |``);
:func:`rule_titles` reads it so that messages quoting a rule id can say what the rule is about.
The texts are written for players; the rules the engines implement are ``shared/rules/*.md``.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

GAMES = ("verso", "versus", "rectoverso")
"""The games with a rules text, by package name."""

REFERENCES_HEADING = "## Rule references"
_ROW = re.compile(r"^\|\s*([VSR]\d+)\s*\|\s*(.+?)\s*\|\s*$")
_PREFIX_GAME = {"V": "verso", "S": "versus", "R": "rectoverso"}
_CITATION = re.compile(r"\(([VSR]\d+)(\.\d+)?\)")


def rules_text(game: str) -> str:
    """The rules of ``game`` in Markdown.

    >>> rules_text("verso").splitlines()[0]
    '# Verso'

    Raises:
        ValueError: ``game`` is not one of :data:`GAMES`.
    """
    if game not in GAMES:
        raise ValueError(f"no rules for {game!r}; games: {', '.join(GAMES)}")
    return resources.files(__package__).joinpath(f"{game}.md").read_text(encoding="utf-8")


@cache
def rule_titles(game: str) -> dict[str, str]:
    """What each rule id of ``game`` is about, from the text's "Rule references" table.

    >>> rule_titles("verso")["V8"]
    'no duplicates'
    """
    text = rules_text(game)
    _, found, table = text.partition(REFERENCES_HEADING)
    if not found:
        raise ValueError(f"the rules of {game!r} have no {REFERENCES_HEADING!r} section")
    return {m[1]: m[2] for line in table.splitlines() if (m := _ROW.match(line))}


def name_rule_ids(text: str) -> str:
    """``text`` with each bare citation such as ``(V10)`` saying what the rule is about.

    Citations that already explain themselves (``(S8: no jumping)``) are left alone, and so
    are ids that no rules text lists.

    >>> name_rule_ids("you hold no blue 1, 2 (V10)")
    'you hold no blue 1, 2 (rule V10: series)'
    >>> name_rule_ids("a cube stands above an empty cell (R5); (S13.4)")
    'a cube stands above an empty cell (rule R5: support); (rule S13.4: end of the game)'
    """

    def explain(match: re.Match[str]) -> str:
        rule, part = match[1], match[2] or ""
        title = rule_titles(_PREFIX_GAME[rule[0]]).get(rule)
        return f"(rule {rule}{part}: {title})" if title else match[0]

    return _CITATION.sub(explain, text)
