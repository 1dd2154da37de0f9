"""What the events' server tests share: a real server process without bot workers, on SQLite
and on PostgreSQL (a module that needs another server defines its own ``server``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from otherside.server.store.db import sqlite_url
from tests.server.conftest import postgres_database
from tests.server.processes import Server, free_port


@pytest.fixture(
    name="server", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
def server_fixture(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    def run(url: str) -> Iterator[Server]:
        process = Server(url, free_port(), "--bot-workers", "0")
        try:
            yield process
        finally:
            process.kill()

    if request.param == "sqlite":
        yield from run(sqlite_url(tmp_path / "events.db"))
        return
    with postgres_database() as url:
        yield from run(url)
