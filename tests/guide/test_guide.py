"""The rules texts for players: shipped as package data, simple Markdown, every cited rule named."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from otherside.games.verso import RATING_BANDS
from otherside.guide import GAMES, guide_languages, name_rule_ids, rule_titles, rules_text

SRC = Path(__file__).resolve().parents[2] / "src" / "otherside"
PREFIX = {"verso": "V", "versus": "S", "rectoverso": "R"}
# The subset the server's small renderer knows: headings, lists, tables, paragraphs; no HTML,
# no links, no images, no deeper headings.
SIMPLE_LINE = re.compile(r"^(#{1,2} \S.*|- \S.*|\d+\. \S.*|\|.*\||[^<#|\-\s].*| {2,3}\S.*|)$")


def cited_in_headings(game: str, language: str = "en") -> set[str]:
    """The rule ids that the section headings cite, ranges such as ``[V1–V3]`` expanded."""
    ids = set()
    for line in rules_text(game, language).splitlines():
        for group in re.findall(r"^## .*\[(.+)\]$", line):
            for part in group.split(","):
                low, _, high = part.strip().partition("–")
                first = int(low[1:])
                ids |= {f"{low[0]}{n}" for n in range(first, int(high[1:] or first) + 1)}
    return ids


@pytest.mark.parametrize("language", guide_languages())
@pytest.mark.parametrize("game", GAMES)
def test_each_text_is_simple_markdown_for_its_game(game: str, language: str) -> None:
    text = rules_text(game, language)
    assert text.startswith("# ")
    for number, line in enumerate(text.splitlines(), 1):
        where = f"{language}/{game}.md line {number}: {line!r}"
        assert SIMPLE_LINE.match(line), where
        assert "](" not in line and "<" not in line, where
    # The renderer knows **bold** (which may run over a line end) only: a lone * shows as typed.
    plain = re.sub(r"`[^`]*`|\*\*[^*]+\*\*", "", " ".join(text.splitlines()))
    assert "*" not in plain, plain[max(0, plain.find("*") - 60) : plain.find("*") + 20]


def test_the_english_texts_explain_the_terminal() -> None:
    assert all("## In the terminal" in rules_text(game) for game in GAMES)


@pytest.mark.parametrize("language", guide_languages())
@pytest.mark.parametrize("game", GAMES)
def test_every_rule_id_the_engine_cites_has_a_title(game: str, language: str) -> None:
    """Messages quote ids such as (V10); the text must say what each one is about."""
    titles = rule_titles(game, language)
    cited = set()
    for folder in (SRC / "games" / game, SRC / "cli"):
        for path in folder.rglob("*.py"):
            cited |= set(re.findall(rf"\b({PREFIX[game]}\d+)\b", path.read_text(encoding="utf-8")))
    assert cited and cited <= set(titles), sorted(cited - set(titles))
    assert set(titles) == cited_in_headings(game, language), "the table and the headings disagree"


def test_the_verso_text_lists_every_solo_rating() -> None:
    text = rules_text("verso")
    for _, label in RATING_BANDS[:-1]:
        assert f"| {label.split(' ', 1)[1]} |" in text


def test_bare_citations_are_named_and_unknown_ones_left_alone() -> None:
    assert name_rule_ids("discarded (V8)") == "discarded (rule V8: no duplicates)"
    assert name_rule_ids("(S8: no jumping) (R99) V10") == "(S8: no jumping) (R99) V10"


def test_an_unknown_game_has_no_rules() -> None:
    with pytest.raises(ValueError, match="no rules for 'chess'"):
        rules_text("chess")
