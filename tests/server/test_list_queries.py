"""Reading a list of tables costs a few queries, however many tables: the lobby's list (every
lobby page reads it every 5 s) and a person's tables read their owners' names in one query —
one query per table was half the time of a list of fifty."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from sqlalchemy import event
from sqlalchemy.engine import Engine

from otherside.server.store.queries import list_tables, list_user_tables
from tests.server.conftest import running, sqlite_only

TABLES = 12


@contextmanager
def counted(engine: Engine) -> Iterator[list[str]]:
    """The statements ``engine`` runs within the block."""
    statements: list[str] = []

    def seen(*args: Any) -> None:
        statements.append(args[2])

    event.listen(engine, "before_cursor_execute", seen)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", seen)


@sqlite_only()
async def test_a_list_of_tables_reads_a_few_queries_however_many_tables(
    database_url: str,
) -> None:
    async with running(database_url) as app:
        hosts = []
        for _ in range(TABLES):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as host:
                (await host.post("/api/guest")).raise_for_status()
                hosts.append((await host.get("/api/me")).json()["user"]["id"])
                made = await host.post("/api/tables", json={"game": "verso", "players": 2})
                made.raise_for_status()
        db = app.state.db
        with counted(db.engine) as statements:
            listed = await db.run(lambda s: list_tables(s, "waiting"))
        assert len(listed) == TABLES
        assert len(statements) <= 4, statements  # the tables, their seats, people, owners
        with counted(db.engine) as statements:
            mine = await db.run(lambda s: list_user_tables(s, hosts[0]))
        assert len(mine) == 1 and len(statements) <= 4, statements
