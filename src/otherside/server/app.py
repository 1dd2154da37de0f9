"""The FastAPI application: ``create_app(database_url)``, the composition root.

At start it waits for the database (a bounded time), migrates it (Alembic), loads the session
key, builds each service once (the hub, the bot workers, the scheduler, the tournaments'
director, the cluster, the limits) and resumes every game in progress (bots included). It
wires the HTTP API (``/api/…``, the routers of :mod:`otherside.server.http`), the table
websockets (``/ws/tables/{id}``, :mod:`otherside.server.live.sockets`) and the browser pages
(:mod:`otherside.server.http.pages`; ``/docs/bots``: :mod:`otherside.server.http.bot_docs`;
static files under ``/static``).
"""

from __future__ import annotations

import json
import logging
import os
import signal
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher
from fastapi import Depends, FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from otherside.server import collector
from otherside.server.accounts.limiter import Limiter
from otherside.server.accounts.limits import Limits, Throttles
from otherside.server.accounts.rates import ReadRates
from otherside.server.accounts.security import SecurityMiddleware
from otherside.server.accounts.sessions import Sessions, forget_session
from otherside.server.accounts.signin import SignInGuard
from otherside.server.analysis.analyst import Analyst
from otherside.server.analysis.plans import Budget
from otherside.server.bots.workers import BotRunner
from otherside.server.clock import Clock, SystemClock
from otherside.server.cluster.peers import PostgresCluster, SoloCluster
from otherside.server.cluster.presence import PRESENCE
from otherside.server.cluster.seated import SEATED, TOKEN_REVOKED
from otherside.server.http import (
    accounts,
    analysis,
    bot_account,
    bot_docs,
    email,
    feed,
    language,
    lessons,
    lobby,
    outage,
    pages,
    players,
    replays,
    settings,
    tokens,
    tournaments,
)
from otherside.server.http.brake import Brake
from otherside.server.http.coalesce import Coalesced
from otherside.server.http.connections import GATE_KEY, ConnectionGate
from otherside.server.http.deps import HubDep
from otherside.server.http.docs import add_docs
from otherside.server.http.errors import (
    Told,
    http_error_response,
    invalid_response,
    refused_response,
    told_response,
)
from otherside.server.http.finished import FinishedGames
from otherside.server.http.guards import Guards, RequestGuard, server_error
from otherside.server.http.schemas import Health
from otherside.server.lifeline import watch_parent
from otherside.server.live import sockets
from otherside.server.live.admission import Admission
from otherside.server.live.nudges import Nudges
from otherside.server.mail.smtp import Mailer, Post, SmtpConfig
from otherside.server.store.waiting import DATABASE_WAIT, QuietGiveUp, ready_database
from otherside.server.tables.errors import Refused
from otherside.server.tables.hub import TableHub
from otherside.server.tables.scheduler import Scheduler
from otherside.server.tournaments.director import Director

WEB = Path(__file__).resolve().parent.parent / "web"
CONFIG_ENV = "OTHERSIDE_SERVE_CONFIG"
BOT_DELAY = 0.7
STOP_SECONDS = 15.0  # a worker whose command died has this long to shut down cleanly
log = logging.getLogger("otherside.server")


def create_app(
    database_url: str,
    *,
    bot_delay: float = BOT_DELAY,
    bot_workers: int = 2,
    password_hasher: PasswordHasher | None = None,
    clock: Clock | None = None,
    smtp_url: str | None = None,
    mail_from: str = "otherside <noreply@localhost>",
    public_url: str = "http://127.0.0.1:8000",
    run_scheduler: bool = True,
    limits: Limits | None = None,
    guards: Guards | None = None,
    analysis_think: float = Budget.think,
    analysis_depth: int = Budget.depth,
    database_wait: float = DATABASE_WAIT,
) -> FastAPI:
    """The otherside server on the database at ``database_url``.

    Args:
        database_url: a SQLAlchemy URL (``sqlite:///path`` or ``postgresql+psycopg://…``).
        bot_delay: seconds a bot waits before each action, so that people can follow it.
        bot_workers: processes in which bots search (beside one for quick bots; 0: threads).
        password_hasher: argon2 parameters (tests use cheap ones; the default is argon2-cffi's).
        clock: where time comes from (tests pass a ``ManualClock``).
        smtp_url: ``smtp://host:port`` to mail reminders through (``None``: no mail; reminders
            show in the lobby only).
        mail_from: the sender of the server's mail.
        public_url: the server's address as players reach it, for links in mail.
        run_scheduler: run the deadline scheduler in the background (tests that drive it by
            hand with a manual clock turn it off).
        limits: how fast one account or address may sign in wrongly, make guests, accounts
            and tables, or chat (:class:`~otherside.server.accounts.limits.Limits`' defaults).
        guards: how much of the process one client may hold: body size, JSON depth, time to
            send a request, connections and websockets, replays
            (:class:`~otherside.server.http.guards.Guards`' defaults).
        analysis_think: seconds the bots may search each decision of a game's analysis.
        analysis_depth: plies the bots may search each decision of a game's analysis.
        database_wait: seconds a start waits for a PostgreSQL database that is not there yet
            (:mod:`otherside.server.store.waiting`); then the process stops.
    """
    server_limits = limits or Limits()
    server_guards = guards or Guards()
    mailer = Mailer(SmtpConfig.from_url(smtp_url), mail_from) if smtp_url else None
    server_clock: Clock = clock or SystemClock()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[dict[str, Any]]:
        # A database still away (restarting, starting up) is waited for, within a bound.
        db, secret = await ready_database(database_url, database_wait, server_clock)
        runner = BotRunner(bot_workers, bot_delay, server_limits.bot_think_cap)
        runner.warm()  # a table taken over must not wait for a worker to start
        # On PostgreSQL this process may be one of several: leases and notifications.
        cluster = (
            SoloCluster() if db.is_sqlite else PostgresCluster(db, database_url, clock=server_clock)
        )
        hub = TableHub(db, runner, server_clock, server_limits, cluster)
        scheduler = Scheduler(hub, server_clock, mailer, public_url)
        app.state.db = db
        app.state.sessions = Sessions(secret, db, server_clock, password_hasher)
        app.state.hub = hub
        app.state.nudges = Nudges()  # the event streams of programs, woken by what they need
        hub.services.seated = app.state.nudges.seated
        budget = Budget(analysis_think, analysis_depth)
        app.state.analyst = Analyst(db, runner, server_clock, cluster.node, budget)
        app.state.scheduler = scheduler
        app.state.post = Post(mailer, public_url.rstrip("/"))
        app.state.clock = server_clock
        app.state.limits = server_limits
        app.state.throttles = Throttles(server_limits, Limiter(db, server_clock))
        app.state.signin = SignInGuard(app.state.throttles, secret)
        app.state.admission = Admission(server_guards)
        app.state.coalesced = Coalesced()
        app.state.rates = ReadRates(server_limits, server_clock)
        app.state.finished_games = FinishedGames(
            server_guards.replay_cache, server_guards.replays_per_minute
        )
        if cluster.shared:
            # The other processes' changes reach us; tables without an owner get one.
            await cluster.start(heard_by(app), hub.catch_up.adopt, scheduler.look_again)
        else:
            resumed = await hub.resume()
            if resumed:
                log.info("resumed %d game(s) in progress", resumed)
        app.state.tournaments = Director(db, hub, server_clock)
        if run_scheduler:
            scheduler.start()
            hub.background(app.state.tournaments.run(), name="tournaments")
        try:
            # uvicorn's connections (GuardedProtocol) find the gate in the lifespan state.
            yield {GATE_KEY: ConnectionGate(server_guards)}
        finally:
            await scheduler.stop()
            await hub.close()
            await app.state.analyst.close()
            await cluster.stop()
            await runner.close()
            db.close()

    app = FastAPI(
        title="otherside",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        # Every route signs a request with an API token in (or refuses it) before its own work.
        dependencies=[Depends(tokens.bearer_gate)],
    )
    app.add_middleware(RequestGuard, guards=server_guards)
    app.add_middleware(Brake, guards=server_guards)  # sees the guard's refusals too
    app.add_exception_handler(Exception, server_error)
    app.add_middleware(SecurityMiddleware)
    app.add_exception_handler(Refused, refused_response)
    app.add_exception_handler(Told, told_response)
    app.add_exception_handler(StarletteHTTPException, http_error_response)
    app.add_exception_handler(RequestValidationError, invalid_response)
    outage.install(app)  # 503 + Retry-After while the database is away
    app.add_middleware(QuietGiveUp)  # a start that gave up on its database says so in a line
    app.include_router(accounts.router)
    app.include_router(email.router)
    app.include_router(lobby.router)
    app.include_router(replays.router)
    app.include_router(analysis.router)
    app.include_router(players.router)
    app.include_router(language.router)
    app.include_router(lessons.router)
    app.include_router(settings.router)
    app.include_router(tournaments.router)
    app.include_router(tokens.router)
    app.include_router(bot_account.router)
    app.include_router(feed.router)
    app.include_router(sockets.router)

    @app.get("/api/health")
    async def health(hub: HubDep) -> Health:
        """Up, which server process answered (one of several on PostgreSQL), and how it followed
        the others' moves: applied from their notification, or read from the database."""
        return Health(node=hub.cluster.node, catch_up=hub.catch_up.counts())

    app.include_router(pages.router)  # the browser pages, after the API's routes
    app.include_router(bot_docs.router)

    add_docs(app, WEB)
    app.mount("/static", StaticFiles(directory=WEB), name="static")
    return app


def heard_by(app: FastAPI) -> Callable[[dict[str, Any]], Awaitable[None]]:
    """What this process does with another's announcement: a sign-out is forgotten here too;
    after a lost connection (``resync``) every session is read from the database again, since
    a sign-out may have been missed; players who came or went at a table are shown as such
    (:mod:`otherside.server.cluster.away_marks`); the rest is the tables'."""

    async def hear(message: dict[str, Any]) -> None:
        kind = message.get("kind")
        if kind == "signout":
            await forget_session(app.state, str(message.get("digest")))
            return
        if kind == bot_account.ACCOUNTS_CHANGED:
            bot_account.forget_accounts(app.state)
            return
        app.state.nudges.hear(message)
        if kind in (SEATED, TOKEN_REVOKED):
            return
        hub = app.state.hub
        if kind == PRESENCE:
            hub.away_marks.hear(message)  # players came or went: not the table's own change
            return
        if kind == "resync":
            app.state.sessions.cache.clear()
            hub.away_marks.resync()
        await hub.catch_up.on_remote(message)

    return hear


def app_from_environment() -> FastAPI:
    """The app of one worker of ``otherside serve --workers N``: :func:`create_app` with the
    settings the command put in ``$OTHERSIDE_SERVE_CONFIG`` (JSON)."""
    config = json.loads(os.environ[CONFIG_ENV])
    config["limits"] = Limits(**config.get("limits", {}))
    config["guards"] = Guards(**config.get("guards", {}))
    # Killed with ``kill -9``, the command's process can't stop this worker: stop by ourselves
    # (at once if it died while this worker was starting).
    watch_parent(config.pop("command_pid"), _stop_self)
    app = create_app(**config)
    collector.settle()
    return app


def _stop_self() -> None:
    """Shut down like on SIGTERM (bot workers stopped), and for good if that hangs."""
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(STOP_SECONDS)
    os._exit(1)
