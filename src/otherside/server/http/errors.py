"""A table's refusal (:class:`~otherside.server.tables.errors.Refused`) as an HTTP answer: the
status of its code, and a body with the words (``detail``, as FastAPI's own errors have it),
the stable ``code`` and its ``params``, so that a page can say it in its reader's language."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import JSONResponse

from otherside.server.tables.errors import Refused


async def refused_response(request: Request, exc: Exception) -> JSONResponse:
    """The answer to a request a table refused (registered for :class:`Refused`)."""
    assert isinstance(exc, Refused)  # registered for Refused only
    return JSONResponse(
        {"detail": str(exc), "code": exc.code, "params": exc.params}, status_code=exc.status
    )
