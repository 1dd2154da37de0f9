"""The browser pages: their routes (``/``, ``/table/{id}``, ``/replay/{id}``, ``/player/{name}``,
``/confirm-email``, ``/tournaments``, ``/learn/{game}``, ``/rules/{game}``, the favicon), each
page in the reader's language: each HTML file of ``web/`` with its text translated
(:mod:`otherside.i18n.html`), ``<html lang>`` set, and the language switcher's choices filled
in; built once per page and language. (``/docs/bots`` is :mod:`.bot_docs`'.)"""

from __future__ import annotations

import functools
import html
import re
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse

from otherside.i18n import language_name, languages, translations
from otherside.i18n.html import translate_html
from otherside.server.http.reader import reader_language

WEB = Path(__file__).resolve().parent.parent.parent / "web"
_LANG = re.compile(r'<html lang="[^"]*"')
_SWITCHER = re.compile(r'(<select id="language"[^>]*>)(</select>)')
router = APIRouter()


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


@router.get("/", include_in_schema=False)
async def lobby_page(request: Request) -> HTMLResponse:
    return page_response(request, "index.html")


@router.get("/table/{table_id}", include_in_schema=False)
async def table_page(table_id: str, request: Request) -> HTMLResponse:
    return page_response(request, "table.html")


@router.get("/replay/{table_id}", include_in_schema=False)
async def replay_page(table_id: str, request: Request) -> HTMLResponse:
    return page_response(request, "replay.html")


@router.get("/player/{name}", include_in_schema=False)
async def player_page(name: str, request: Request) -> HTMLResponse:
    return page_response(request, "player.html")


@router.get("/confirm-email", include_in_schema=False)
async def confirm_email_page(request: Request) -> HTMLResponse:
    # The link's token is after '#': never sent here, so this GET changes nothing (a mail
    # scanner may fetch it); the page's button sends it (POST /api/email/confirm).
    return page_response(request, "confirm.html")


@router.get("/tournaments", include_in_schema=False)
@router.get("/tournaments/{event_id}", include_in_schema=False)
async def tournament_page(request: Request) -> HTMLResponse:
    return page_response(request, "tournament.html")


@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> FileResponse:
    # Browsers ask for /favicon.ico whatever the page says; the icon is an SVG.
    return FileResponse(WEB / "favicon.svg", media_type="image/svg+xml")


@router.get("/learn/{game}", include_in_schema=False)
async def learn_page(game: str, request: Request) -> HTMLResponse:
    return page_response(request, "learn.html")


@router.get("/rules/{game}", include_in_schema=False)
async def rules_page(game: str, request: Request) -> HTMLResponse:
    return page_response(request, "rules.html")
