"""Attacks on the limits from outside: real ``otherside serve`` processes on loopback, spoken to
over real sockets, with small limits so that a flood is quick."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from otherside.server.store.db import sqlite_url
from tests.server.conftest import postgres_database
from tests.server.processes import Server, free_port


def limit_args(**limits: float) -> list[str]:
    """``--limit NAME=VALUE`` arguments (they override the test servers' generous ones)."""
    return [arg for name, value in limits.items() for arg in ("--limit", f"{name}={value}")]


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """Start servers (on a SQLite file of their own unless ``database`` is given); all are
    killed at the end of the test."""
    started: list[Server] = []

    def start(
        *extra: str, database: str | None = None, wait: bool = True, bot_delay: float = 0.0
    ) -> Server:
        url = database or sqlite_url(tmp_path / f"otherside-{len(started)}.db")
        server = Server(
            url, free_port(), "--bot-workers", "0", *extra, wait=wait, bot_delay=bot_delay
        )
        started.append(server)
        return server

    try:
        yield start
    finally:
        for server in started:
            server.kill()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        yield sqlite_url(tmp_path / "otherside.db")
        return
    with postgres_database() as url:
        yield url
