"""The browser pages in the reader's language: each HTML file of ``web/`` with its text
translated (:mod:`otherside.i18n.html`), ``<html lang>`` set, and the language switcher's
choices filled in; built once per page and language."""

from __future__ import annotations

import functools
import html
import re
from pathlib import Path

from fastapi import Request
from fastapi.responses import HTMLResponse

from otherside.i18n import language_name, languages, translations
from otherside.i18n.html import translate_html
from otherside.server.http.reader import reader_language

WEB = Path(__file__).resolve().parent.parent.parent / "web"
_LANG = re.compile(r'<html lang="[^"]*"')
_SWITCHER = re.compile(r'(<select id="language"[^>]*>)(</select>)')


@functools.cache
def render(name: str, language: str) -> str:
    """The page ``name`` (a file of ``web/``) in ``language``."""
    source = (WEB / name).read_text(encoding="utf-8")
    catalog = translations(language)

    def translate(message: str) -> str | None:
        text = catalog.gettext(message)
        return None if text == message else text

    page = translate_html(source, translate)
    page = _LANG.sub(f'<html lang="{language}"', page, count=1)
    choices = "".join(
        f'<option value="{code}" lang="{code}"{" selected" if code == language else ""}>'
        f"{html.escape(language_name(code))}</option>"
        for code in languages()
    )
    return _SWITCHER.sub(lambda m: m.group(1) + choices + m.group(2), page, count=1)


def page_response(request: Request, name: str) -> HTMLResponse:
    """The page ``name`` in ``request``'s reader's language (never cached stale: a switch of
    language must show at once, hence ``Vary`` and ``no-cache``)."""
    return HTMLResponse(
        render(name, reader_language(request)),
        headers={"Cache-Control": "no-cache", "Vary": "Cookie, Accept-Language"},
    )
