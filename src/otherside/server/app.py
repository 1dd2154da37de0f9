"""The FastAPI application: ``create_app(database_url)``.

At start it migrates the database (Alembic), loads the session key, and resumes every game in
progress (bots included). It serves the lobby's HTTP API (``/api/…``), the table websockets
(``/ws/tables/{id}``) and the browser pages (``/``, ``/table/{id}``, ``/replay/{id}``, static
files under ``/static``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from argon2 import PasswordHasher
from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from otherside.server import accounts, lobby, sockets
from otherside.server.accounts import Sessions
from otherside.server.bots_runner import BotRunner
from otherside.server.db import Database
from otherside.server.tables import TableHub

WEB = Path(__file__).resolve().parent.parent / "web"
BOT_DELAY = 0.7
log = logging.getLogger("otherside.server")


def create_app(
    database_url: str,
    *,
    bot_delay: float = BOT_DELAY,
    bot_workers: int = 2,
    password_hasher: PasswordHasher | None = None,
) -> FastAPI:
    """The otherside server on the database at ``database_url``.

    Args:
        database_url: a SQLAlchemy URL (``sqlite:///path`` or ``postgresql+psycopg://…``).
        bot_delay: seconds a bot waits before each action, so that people can follow it.
        bot_workers: threads in which bots think.
        password_hasher: argon2 parameters (tests use cheap ones; the default is argon2-cffi's).
    """

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db = Database(database_url)
        await asyncio.to_thread(db.migrate)
        secret = await asyncio.to_thread(db.secret, "session_key")
        runner = BotRunner(workers=bot_workers, delay=bot_delay)
        hub = TableHub(db, runner)
        app.state.db = db
        app.state.sessions = Sessions(secret, password_hasher)
        app.state.hub = hub
        resumed = await hub.resume()
        if resumed:
            log.info("resumed %d game(s) in progress", resumed)
        try:
            yield
        finally:
            await hub.close()
            runner.close()
            db.close()

    app = FastAPI(title="otherside", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.include_router(accounts.router)
    app.include_router(lobby.router)
    app.include_router(sockets.router)

    @app.get("/api/health")
    async def health() -> dict[str, bool]:
        return {"ok": True}

    def page(name: str) -> FileResponse:
        return FileResponse(WEB / name, headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return page("index.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return page("table.html")

    @app.get("/replay/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str) -> FileResponse:
        return page("replay.html")

    app.mount("/static", StaticFiles(directory=WEB), name="static")
    return app
