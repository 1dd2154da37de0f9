"""Errors as HTTP answers, in the reader's language: a table's refusal
(:class:`~otherside.server.tables.errors.Refused`) and a route's own (:class:`Told`) answer
with the status, the words (``detail``, as FastAPI's own errors have it), the stable ``code``
and its ``params``. FastAPI's ``HTTPException`` keeps its shape; a detail that is a catalog
message (marked ``N_`` where it is raised) is said in the reader's language."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

from otherside.i18n import N_, say
from otherside.server.accounts.limiter import TOO_MANY, TooMany, span
from otherside.server.http.outage import RETRY_AFTER_SECONDS
from otherside.server.http.reader import reader_language
from otherside.server.tables.errors import Refused


class Told(Exception):
    """A route's refusal: ``status``, a stable ``code``, and a message (an English template
    marked with ``N_``) with its ``params``; nothing changed."""

    def __init__(self, status: int, code: str, template: str, **params: Any) -> None:
        self.status = status
        self.code = code
        self.template = template
        self.params = params
        super().__init__(template.format(**params))


def _answer(
    status: int,
    code: str,
    message: str,
    params: dict[str, Any],
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    return JSONResponse(
        {"detail": message, "code": code, "params": params},
        status_code=status,
        headers=headers,
    )


async def refused_response(request: Request, exc: Exception) -> JSONResponse:
    """The answer to a request a table refused (registered for :class:`Refused`)."""
    assert isinstance(exc, Refused)  # registered for Refused only
    # A 503 (``server_error``: the move could not be saved, the database out of reach) says
    # when to try again, as every other answer of an outage does.
    headers = {"Retry-After": str(RETRY_AFTER_SECONDS)} if exc.status == 503 else None
    words = exc.words(reader_language(request))
    return _answer(exc.status, exc.code, words, exc.params, headers)


async def told_response(request: Request, exc: Exception) -> JSONResponse:
    """The answer to a route's :class:`Told` (registered for it)."""
    assert isinstance(exc, Told)  # registered for Told only
    message = say(reader_language(request), exc.template, **exc.params)
    return _answer(exc.status, exc.code, message, exc.params)


async def http_error_response(request: Request, exc: Exception) -> Response:
    """FastAPI's answer to an ``HTTPException``, its detail in the reader's language when the
    catalogs have it (registered for ``HTTPException``)."""
    assert isinstance(exc, HTTPException)  # registered for HTTPException only
    language = reader_language(request)
    if isinstance(exc, TooMany):
        what = say(language, exc.what)
        wait = span(exc.wait)
        message = say(language, TOO_MANY, what=what, wait=wait)
        params = {"what": exc.what, "retry_after": exc.wait}
        return _answer(429, "too_many", message, params, dict(exc.headers or {}))
    if isinstance(exc.detail, str) and exc.detail in ROUTING:
        code, template = ROUTING[exc.detail]
        params = {"method": request.method} if code == "method_not_allowed" else {}
        message = say(language, template, method=request.method)
        return _answer(exc.status_code, code, message, params, dict(exc.headers or {}))
    if isinstance(exc.detail, str):
        exc = HTTPException(exc.status_code, say(language, exc.detail), exc.headers)
    return await http_exception_handler(request, exc)


# Starlette's own refusals, before any route (no route has the path, or none takes the
# method): a code and words of ours, as every other refusal has.
ROUTING = {
    "Not Found": ("not_found", N_("there is nothing at this address")),
    "Method Not Allowed": (
        "method_not_allowed",
        N_("this address does not take a {method} request"),
    ),
}


# A request body or query FastAPI's validation refuses, by the first problem it found.
INVALID = {
    "missing": N_("'{field}' is missing"),
    "string_too_long": N_("'{field}' has at most {most} characters"),
    "string_too_short": N_("'{field}' has at least {least} characters"),
    "json_invalid": N_("the request is not valid JSON"),
    "model_attributes_type": N_("the request's body must be a JSON object"),
    "dict_type": N_("'{field}' must be a JSON object"),
}
INVALID_OTHER = N_("'{field}' does not have the value or type this request takes")


async def invalid_response(request: Request, exc: Exception) -> JSONResponse:
    """The answer to a request FastAPI's validation refused (registered for
    ``RequestValidationError``): code ``invalid``, the first problem said in the reader's
    language, and every problem as FastAPI lists them (``params.errors``: location and type)."""
    assert isinstance(exc, RequestValidationError)  # registered for it only
    errors = [
        {"loc": [str(part) for part in error.get("loc", ())], "type": str(error.get("type"))}
        for error in exc.errors()
    ]
    first = exc.errors()[0] if exc.errors() else {}
    location = [str(part) for part in first.get("loc", ()) if part != "body"]
    context = first.get("ctx") or {}
    params: dict[str, Any] = {
        "field": ".".join(location) or "body",
        "problem": str(first.get("type", "")),
        "errors": errors,
    }
    if "max_length" in context:
        params["most"] = context["max_length"]
    if "min_length" in context:
        params["least"] = context["min_length"]
    template = INVALID.get(params["problem"], INVALID_OTHER)
    fields = {k: v for k, v in params.items() if k != "errors"}
    return _answer(422, "invalid", say(reader_language(request), template, **fields), params)
