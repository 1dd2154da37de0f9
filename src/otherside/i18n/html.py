"""The pages' HTML in the reader's language: every text node and every player-facing attribute
(``title``, ``placeholder``, ``aria-label``, ``alt``) of the files in ``web/`` is a message,
whitespace collapsed, except under an element marked ``translate="no"`` (the HTML attribute
that says so) and in ``<script>``/``<style>``. The same walk extracts them for the catalogs
(:func:`extract_html`, a Babel extractor) and replaces them when a page is served
(:func:`translate_html`), so a page can't carry a string the catalogs don't know.

>>> html = '<p title="Your turn">Create  table <b translate="no">otherside</b></p>'
>>> [text for _line, text in texts(html)]
['Your turn', 'Create table']
>>> translate_html(html, {"Create table": "Tisch anlegen", "Your turn": "Du bist dran"}.get)
'<p title="Du bist dran">Tisch anlegen <b translate="no">otherside</b></p>'
"""

from __future__ import annotations

import html as html_escape
import re
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from typing import IO, Any

ATTRIBUTES = ("title", "placeholder", "aria-label", "alt")
RAW = ("script", "style")
VOID = ("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source")
_SPACE = re.compile(r"\s+")
_LETTER = re.compile(r"[^\W\d_]")  # text without a letter ("·", "…", "♪") is no message


def _words(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


class _Walk(HTMLParser):
    """Finds the messages of a page with their places in its source: ``(start, end, kind,
    text)`` spans of the source to replace."""

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=False)
        self.source = source
        self.starts = [0]
        for line in source.splitlines(keepends=True):
            self.starts.append(self.starts[-1] + len(line))
        self.open: list[tuple[str, bool]] = []  # (tag, no translation inside)
        self.spans: list[tuple[int, int, int, str]] = []  # (start, end, line, text)

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.starts[line - 1] + column

    def _quiet(self) -> bool:
        return bool(self.open) and self.open[-1][1]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        quiet = self._quiet() or dict(attrs).get("translate") == "no" or tag in RAW
        if not quiet:
            start = self._offset()
            raw = self.get_starttag_text() or ""
            for name, value in attrs:
                if name in ATTRIBUTES and value and _LETTER.search(value):
                    # The value as written in the tag, quoted by " (our pages' style).
                    written = f'{name}="{value}"'
                    at = raw.find(written)
                    if at >= 0:
                        begin = start + at + len(name) + 2
                        self.spans.append((begin, begin + len(value), self.getpos()[0], value))
        if tag not in VOID:
            self.open.append((tag, quiet))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self.open:
            self.open.pop()

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self.open) - 1, -1, -1):
            if self.open[index][0] == tag:
                del self.open[index:]
                break

    def handle_data(self, data: str) -> None:
        if self._quiet() or not _LETTER.search(data):
            return
        start = self._offset()
        lead = len(data) - len(data.lstrip())
        body = data.strip()
        self.spans.append((start + lead, start + lead + len(body), self.getpos()[0], body))


def _spans(source: str) -> list[tuple[int, int, int, str]]:
    walk = _Walk(source)
    walk.feed(source)
    walk.close()
    return walk.spans


def texts(source: str) -> list[tuple[int, str]]:
    """The messages of a page: ``(line, text)`` in order, whitespace collapsed."""
    return [(line, _words(html_escape.unescape(text))) for _s, _e, line, text in _spans(source)]


def translate_html(source: str, translate: Callable[[str], str | None]) -> str:
    """``source`` with each message replaced by ``translate(message)`` (escaped; kept as it is
    when that gives nothing)."""
    out: list[str] = []
    last = 0
    for start, end, _line, text in _spans(source):
        words = translate(_words(html_escape.unescape(text)))
        if words:
            out.append(source[last:start])
            out.append(html_escape.escape(words, quote=True))
            last = end
    out.append(source[last:])
    return "".join(out)


def extract_html(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, str, list[str]]]:
    """A Babel extractor for the pages (``(line, function, message, comments)``)."""
    for line, text in texts(fileobj.read().decode("utf-8")):
        yield line, "", text, []
