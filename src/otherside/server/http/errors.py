"""Errors as HTTP answers, in the reader's language: a table's refusal
(:class:`~otherside.server.tables.errors.Refused`) and a route's own (:class:`Told`) answer
with the status, the words (``detail``, as FastAPI's own errors have it), the stable ``code``
and its ``params``. FastAPI's ``HTTPException`` keeps its shape; a detail that is a catalog
message (marked ``N_`` where it is raised) is said in the reader's language."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

from otherside.i18n import say
from otherside.server.http.reader import reader_language
from otherside.server.tables.errors import Refused, words


class Told(Exception):
    """A route's refusal: ``status``, a stable ``code``, and a message (an English template
    marked with ``N_``) with its ``params``; nothing changed."""

    def __init__(self, status: int, code: str, template: str, **params: Any) -> None:
        self.status = status
        self.code = code
        self.template = template
        self.params = params
        super().__init__(template.format(**params))


def _answer(status: int, code: str, message: str, params: dict[str, Any]) -> JSONResponse:
    return JSONResponse(
        {"detail": message, "code": code, "params": params},
        status_code=status,
    )


async def refused_response(request: Request, exc: Exception) -> JSONResponse:
    """The answer to a request a table refused (registered for :class:`Refused`)."""
    assert isinstance(exc, Refused)  # registered for Refused only
    message = words(exc.code, exc.params, reader_language(request))
    return _answer(exc.status, exc.code, message, exc.params)


async def told_response(request: Request, exc: Exception) -> JSONResponse:
    """The answer to a route's :class:`Told` (registered for it)."""
    assert isinstance(exc, Told)  # registered for Told only
    message = say(reader_language(request), exc.template, **exc.params)
    return _answer(exc.status, exc.code, message, exc.params)


async def http_error_response(request: Request, exc: Exception) -> Response:
    """FastAPI's answer to an ``HTTPException``, its detail in the reader's language when the
    catalogs have it (registered for ``HTTPException``)."""
    assert isinstance(exc, HTTPException)  # registered for HTTPException only
    if isinstance(exc.detail, str):
        exc = HTTPException(exc.status_code, say(reader_language(request), exc.detail), exc.headers)
    return await http_exception_handler(request, exc)
