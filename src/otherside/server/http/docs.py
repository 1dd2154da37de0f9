"""The API's documentation page, ``/api/docs``, served from this server's own files.

FastAPI's default page loads Swagger UI from a CDN, with an inline script: blank on a server
without the internet, and outside the pages' content security policy. Here the page is
``web/docs.html`` with a script of its own (``web/js/docs.js``), and Swagger UI's files come
from the ``fastapi-offline`` package (Swagger UI 5, MIT), under ``/api/docs/assets``.
"""

from __future__ import annotations

from pathlib import Path

import fastapi_offline
from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

DOCS_URL = "/api/docs"
ASSETS = Path(fastapi_offline.__file__).resolve().parent / "static"


def add_docs(app: FastAPI, web: Path) -> None:
    """Serve the documentation page of ``app`` and Swagger UI's files (``web``: the pages)."""

    @app.get(DOCS_URL, include_in_schema=False)
    async def docs_page() -> FileResponse:
        return FileResponse(web / "docs.html", headers={"Cache-Control": "no-cache"})

    app.mount(f"{DOCS_URL}/assets", StaticFiles(directory=ASSETS), name="docs-assets")
