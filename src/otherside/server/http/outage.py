"""The database out of reach: what a client is told.

While the database is down (restarting, its connections dropped, the pool exhausted) a request
cannot be served, but nothing is wrong with it: HTTP answers ``503 Service Unavailable`` with
``Retry-After``, and a new table websocket is closed with code 1013 ("try again later"), so that
pages and clients retry rather than give up. The driver's own words (host names, SQL, psycopg's
messages) are logged here and never sent: they help nobody at the other end and tell an
attacker about the inside.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from otherside.server.store.outage import OUTAGE_ERRORS, is_outage, short

log = logging.getLogger("otherside.server")

__all__ = ["CLOSE_TRY_LATER", "OUTAGE_ERRORS", "install", "is_outage", "outage_response"]
RETRY_AFTER_SECONDS = 2
CLOSE_TRY_LATER = 1013  # RFC 6455 "Try Again Later"
UNAVAILABLE_WORDS = "the server cannot reach its database just now; try again in a moment"


async def outage_response(request: Request, exc: Exception) -> JSONResponse:
    """503 with ``Retry-After``, in our words (registered for :data:`OUTAGE_ERRORS`)."""
    log.warning("%s %s: database unavailable (%s)", request.method, request.url.path, short(exc))
    return JSONResponse(
        {"detail": UNAVAILABLE_WORDS, "code": "unavailable", "params": {}},
        status_code=503,
        headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
    )


def install(app: FastAPI) -> None:
    """Answer every request that meets a database outage with :func:`outage_response`."""
    for error in OUTAGE_ERRORS:
        app.add_exception_handler(error, outage_response)
