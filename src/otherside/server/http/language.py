"""The reader's language over HTTP: the switcher's choice (``POST /api/language``: a cookie,
and the account's when signed in), and the catalog of a language as JSON for the pages'
modules (``GET /api/i18n/{language}``, built once per process and revalidated by its ETag)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field

from otherside.i18n import N_, catalog_json, languages, spoken
from otherside.server.accounts.languages import store_language
from otherside.server.accounts.sessions import UserInfo, current_user
from otherside.server.http.deps import DatabaseDep
from otherside.server.http.errors import Told
from otherside.server.http.reader import remember_language

router = APIRouter(prefix="/api")


class LanguageBody(BaseModel):
    """Body of ``POST /api/language``."""

    language: str = Field(max_length=16)


class LanguageOut(BaseModel):
    """Answer of ``POST /api/language``: the language chosen."""

    language: str


class CatalogOut(BaseModel):
    """Answer of ``GET /api/i18n/{language}``: each message (as written in English) with its
    translation."""

    model_config = {"extra": "allow"}


@router.post("/language")
async def set_language(
    body: LanguageBody,
    request: Request,
    response: Response,
    db: DatabaseDep,
    user: Annotated[UserInfo | None, Depends(current_user)],
) -> LanguageOut:
    """Read the site in ``language`` from now on: a cookie, and the account's choice."""
    if body.language not in languages():
        raise Told(
            422,
            "no_language",
            N_("no language '{language}'; known: {known}"),
            language=body.language,
            known=", ".join(languages()),
        )
    remember_language(request, response, body.language)
    if user is not None:
        user_id = user.id
        await db.run(lambda s: store_language(s, user_id, body.language))
    return LanguageOut(language=body.language)


@router.get(
    "/i18n/{language}",
    response_class=Response,
    responses={200: {"model": CatalogOut, "description": "the catalog; 304 if unchanged"}},
)
async def catalog(language: str, request: Request) -> Response:
    """Every message in ``language`` for the pages (English, or an unknown language: none,
    the pages show the messages as written)."""
    body, etag = catalog_json(spoken(language))
    headers = {"ETag": f'"{etag}"', "Cache-Control": "public, max-age=300"}
    if request.headers.get("if-none-match") == f'"{etag}"':
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)
