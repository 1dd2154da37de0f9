"""``/docs/bots``, the protocol for programs, in the reader's language: its route and page.

As the guides are (``otherside/guide/<language>/<game>.md``), the protocol is one file per
language, ``web/bots/<language>.html``, each with the same sections (their ids are the same in
every language, so that a link to ``#stream`` works in all of them; a test checks it). The page
around it, ``web/bots.html``, is translated like every page; a language without its own file
reads the English one.
"""

from __future__ import annotations

import functools

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from otherside.i18n import DEFAULT
from otherside.server.http.pages import WEB, render
from otherside.server.http.reader import reader_language

DOCS = WEB / "bots"
PLACE = '<main id="protocol"></main>'
router = APIRouter()


def docs_language(language: str) -> str:
    """The language a reader of ``language`` reads the protocol in: theirs, else English.

    >>> docs_language("de"), docs_language("ja")
    ('de', 'en')
    """
    return language if (DOCS / f"{language}.html").is_file() else DEFAULT


@functools.cache
def bots_page(language: str) -> str:
    """The page ``/docs/bots`` in ``language`` (built once per language)."""
    body = (DOCS / f"{docs_language(language)}.html").read_text(encoding="utf-8")
    return render("bots.html", language).replace(PLACE, body.strip(), 1)


def bots_response(request: Request) -> HTMLResponse:
    """``/docs/bots`` in ``request``'s reader's language (revalidated, like every page, so
    that a switch of language shows at once)."""
    language = reader_language(request)
    headers = {"Cache-Control": "no-cache", "Vary": "Cookie, Accept-Language"}
    return HTMLResponse(bots_page(language), headers=headers)


@router.get("/docs/bots", include_in_schema=False)
async def protocol_page(request: Request) -> HTMLResponse:
    return bots_response(request)
