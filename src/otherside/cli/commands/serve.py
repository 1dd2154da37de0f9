"""``otherside serve``: the table server (lobby, tables, replays) for the browser."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Annotated, Any

import typer
from platformdirs import user_data_dir

from otherside.i18n import N_

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def default_database() -> Path:
    """The SQLite file used when no ``--database`` is given (in the user's data directory)."""
    return Path(user_data_dir("otherside", appauthor=False)) / "otherside.db"


def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on (0.0.0.0 for the network).")
    ] = DEFAULT_HOST,
    port: Annotated[int, typer.Option(help="TCP port.")] = DEFAULT_PORT,
    database: Annotated[
        str | None,
        typer.Option(
            help="SQLAlchemy URL, e.g. postgresql+psycopg://user@host/db "
            "(default: a SQLite file in your data directory)."
        ),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option(help="Seconds a bot waits before acting, so people can follow.")
    ] = 0.7,
    smtp: Annotated[
        str | None,
        typer.Option(
            help="Mail turn reminders through this SMTP server: smtp://host:port, "
            "smtp://user:password@host:587?starttls or smtps://host:465 (default: no mail; "
            "reminders show in the lobby only)."
        ),
    ] = None,
    mail_from: Annotated[
        str, typer.Option(help="Sender address of the server's mail.")
    ] = "otherside <noreply@localhost>",
    public_url: Annotated[
        str | None,
        typer.Option(help="The address players reach the server at, for links in mail."),
    ] = None,
    limit: Annotated[
        list[str] | None,
        typer.Option(
            help="Change one of the server's limits, NAME=VALUE (repeatable), e.g. "
            "--limit guests_per_address=50; the names and defaults are in "
            "otherside.server.accounts.limits.Limits."
        ),
    ] = None,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            help="A reverse proxy (address or network, repeatable) whose X-Forwarded-For and "
            "X-Forwarded-Proto are believed; from any other peer they are ignored, so the "
            "limits count the TCP peer's address (default: no proxy is trusted).",
        ),
    ] = None,
    guard: Annotated[
        list[str] | None,
        typer.Option(
            help="Change how much of the server one client may hold, NAME=VALUE (repeatable), "
            "e.g. --guard body_bytes=131072 or --guard websockets_per_address=8; the names and "
            "defaults are in otherside.server.http.guards.Guards."
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            help="Server processes on this host (PostgreSQL only; they share the port, and "
            "any number of hosts may run the same command on the same database).",
        ),
    ] = 1,
    bot_workers: Annotated[
        int,
        typer.Option(
            min=0,
            help="Processes in which bots search, beside one for quick bots (0: threads); "
            "cap a decision's thinking with --limit bot_think_cap=SECONDS.",
        ),
    ] = 2,
    analysis_think: Annotated[
        float,
        typer.Option(min=0.01, help="Seconds the bots may search each ply of a game's analysis."),
    ] = 1.0,
    analysis_depth: Annotated[
        int, typer.Option(min=1, help="Plies the bots may search each ply of a game's analysis.")
    ] = 3,
    database_wait: Annotated[
        float,
        typer.Option(
            min=0,
            help="Seconds a starting server waits for a PostgreSQL database that is not "
            "there yet (down, restarting), trying again every few seconds; then it stops.",
        ),
    ] = 120.0,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "warning",
) -> None:
    """Start the table server: play in the browser with friends and bots."""
    # Refused before the server's imports (seconds of CPU for a process that only says no).
    if workers > 1 and (database is None or database.startswith("sqlite")):
        raise typer.BadParameter(
            "SQLite is served by one process; for several workers give a PostgreSQL "
            "database: --database postgresql+psycopg://user@host/db",
            param_hint="--workers",
        )
    import uvicorn

    from otherside.server import collector
    from otherside.server.accounts.addresses import trusted_proxies
    from otherside.server.accounts.limits import parse_limits
    from otherside.server.app import CONFIG_ENV, create_app
    from otherside.server.http.guards import parse_guards
    from otherside.server.mail.smtp import SmtpConfig
    from otherside.server.store.db import sqlite_url

    url = database or sqlite_url(default_database())
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    if smtp is not None:
        try:
            SmtpConfig.from_url(smtp)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--smtp") from exc
    try:
        limits = parse_limits(limit or [])
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--limit") from exc
    try:
        proxies = trusted_proxies(trusted_proxy or [])
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--trusted-proxy") from exc
    try:
        guards = parse_guards(guard or [])
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--guard") from exc
    config: dict[str, Any] = {
        "database_url": url,
        "bot_delay": bot_delay,
        "bot_workers": bot_workers,
        "smtp_url": smtp,
        "mail_from": mail_from,
        "public_url": public_url or f"http://{shown}:{port}",
        "analysis_think": analysis_think,
        "analysis_depth": analysis_depth,
        "database_wait": database_wait,
    }
    typer.echo(f"otherside table server on {url.split('@')[-1]}")
    if workers > 1:
        typer.echo(f"{workers} server processes on one port, sharing the database")
    typer.echo(f"open http://{shown}:{port}/ in your browser (Ctrl+C stops the server)")
    # Views are a few kB: compressing every frame costs more CPU than it saves on a LAN.
    options: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_level": log_level,
        "ws_max_size": 65536,
        "ws_per_message_deflate": False,
        # uvicorn would otherwise believe X-Forwarded-For from any local peer (its default
        # trusts 127.0.0.1): only a proxy named here may say who the client is.
        "proxy_headers": bool(proxies),
        "forwarded_allow_ips": proxies or None,
        # Slow requests and too many connections per address are cut off below HTTP.
        "http": "otherside.server.http.connections:GuardedProtocol",
        "timeout_keep_alive": guards.keep_alive_seconds,
    }
    if workers == 1:
        served = create_app(**config, limits=limits, guards=guards)
        collector.settle()
        uvicorn.run(served, **options)
        return
    # Each worker process builds its own app from the same settings, and ends with this
    # process (which it is told: a worker that reads its parent after this one died would
    # read init's).
    os.environ[CONFIG_ENV] = json.dumps(
        {
            **config,
            "limits": dataclasses.asdict(limits),
            "guards": dataclasses.asdict(guards),
            "command_pid": os.getpid(),
        }
    )
    uvicorn.run(
        "otherside.server.app:app_from_environment", factory=True, workers=workers, **options
    )


def register(app: typer.Typer) -> None:
    """Add ``otherside serve``."""
    app.command(
        "serve", help=N_("Start the table server: play in the browser with friends and bots.")
    )(serve)
