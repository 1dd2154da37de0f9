"""``/docs/bots``, the protocol for programs, in every language of the site: one file per
language with the same sections, served to a reader in theirs."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from fastapi import FastAPI

from otherside.i18n import languages
from otherside.server.http.bot_docs import DOCS
from tests.server.conftest import client, sqlite_only

# A sentence of each language's protocol that no other language has.
SAID = {
    "en": "The event stream",
    "de": "Der Ereignisstrom",
    "fr": "Le flux d’événements",
    "nl": "De gebeurtenissenstroom",
}


class _Outline(HTMLParser):
    """The headings' (tag, id) in order, the tables' column counts, and the code and links."""

    def __init__(self) -> None:
        super().__init__()
        self.headings: list[tuple[str, str | None]] = []
        self.rows: list[int] = []
        self.code: list[str] = []
        self.links: list[str] = []
        self._cells = 0
        self._in_code = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag in ("h1", "h2", "h3"):
            self.headings.append((tag, found.get("id")))
        elif tag == "tr":
            self._cells = 0
        elif tag in ("td", "th"):
            self._cells += 1
        elif tag == "code":
            self._in_code = True
            self.code.append("")
        elif tag == "a":
            self.links.append(str(found.get("href")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "tr":
            self.rows.append(self._cells)
        elif tag == "code":
            self._in_code = False

    def handle_data(self, data: str) -> None:
        if self._in_code:
            self.code[-1] += data


def _words(texts: list[str]) -> list[str]:
    return [" ".join(text.split()) for text in texts]


def _outline(language: str) -> _Outline:
    outline = _Outline()
    outline.feed((DOCS / f"{language}.html").read_text(encoding="utf-8"))
    return outline


def test_every_language_of_the_site_has_the_protocol_with_the_same_sections() -> None:
    assert {path.stem for path in DOCS.glob("*.html")} == set(languages())
    english = _outline("en")
    assert [tag for tag, _id in english.headings].count("h2") == 6
    for language in languages():
        outline = _outline(language)
        # The same sections with the same ids (links to #stream work in every language), the
        # same tables row by row, the same requests, fields and codes, the same links.
        assert outline.headings == english.headings, language
        assert outline.rows == english.rows, language
        assert _words(outline.code) == _words(english.code), language
        assert outline.links == english.links, language


@sqlite_only()
@pytest.mark.parametrize("language", sorted(SAID))
async def test_the_protocol_is_served_in_the_readers_language(app: FastAPI, language: str) -> None:
    page = await client(app).get("/docs/bots", headers={"Accept-Language": f"{language};q=0.9"})
    assert page.status_code == 200
    assert f'<html lang="{language}"' in page.text
    assert f'<main class="narrow docs" lang="{language}">' in page.text
    assert SAID[language] in page.text
    others = [words for other, words in SAID.items() if other != language]
    assert not [words for words in others if words in page.text]
    assert page.headers["vary"] == "Cookie, Accept-Language"
    title = re.search(r"<title>(.*)</title>", page.text)
    assert title is not None and (language == "en") == (title[1] == "otherside — bots and programs")


@sqlite_only()
async def test_the_switchers_cookie_wins_and_an_unknown_language_reads_english(
    app: FastAPI,
) -> None:
    http = client(app)
    assert (await http.post("/api/language", json={"language": "nl"})).status_code == 200
    dutch = await http.get("/docs/bots", headers={"Accept-Language": "de"})
    assert SAID["nl"] in dutch.text and SAID["de"] not in dutch.text
    japanese = await client(app).get("/docs/bots", headers={"Accept-Language": "ja"})
    assert SAID["en"] in japanese.text and '<html lang="en"' in japanese.text
