"""Which language a request is answered in, and the cookie that keeps a reader's choice."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request, Response

from otherside.i18n import COOKIE, choose, languages

YEAR = 365 * 24 * 3600


def reader_language(request: Request) -> str:
    """The language ``request`` is answered in: the switcher's cookie (which signing in sets
    from the account), else the browser's ``Accept-Language``."""
    return choose(request.cookies.get(COOKIE), request.headers.get("accept-language"))


def remember_language(request: Request, response: Response, language: str | None) -> None:
    """Set the language cookie to ``language`` (an account's choice, once signed in)."""
    if language in languages():
        secure = request.url.scheme == "https"
        response.set_cookie(
            COOKIE, str(language), max_age=YEAR, path="/", samesite="lax", secure=secure
        )


async def _route_language(request: Request) -> str:
    """:func:`reader_language` as a route's dependency: asynchronous, since FastAPI runs a plain
    function dependency on its thread pool, a hop per request for a cookie and a header."""
    return reader_language(request)


# A route's reader's language, for the words it sends beside machine fields (a pace, a bot).
LanguageDep = Annotated[str, Depends(_route_language)]
