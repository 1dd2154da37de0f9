"""Reading a list of tables costs two queries, however many tables: the lobby's list (every
lobby page reads it every 5 s) and a person's tables. One query per table for its owner's name
was half the time of a list of fifty. Then building ORM objects for the rows, and parsing each
finished game's whole record (which no list shows), were most of it: 45–50 ms of CPU for the
list of fifty finished games, 11 ms as plain rows without the records."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from sqlalchemy import event
from sqlalchemy.engine import Engine

from otherside.server.clock import ManualClock
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
async def test_a_list_of_tables_reads_two_queries_and_no_records_however_many_tables(
    database_url: str,
) -> None:
    # On a clock that stands still: the events' director looks at the events under way once at
    # the start, not again while the statements are counted (it did, once, in CI).
    async with running(database_url, clock=ManualClock()) as app:
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
        assert len(statements) == 2, statements  # the tables with owners, the seats with people
        assert not [sql for sql in statements if "record" in sql], statements
        with counted(db.engine) as statements:
            mine = await db.run(lambda s: list_user_tables(s, hosts[0]))
        assert len(mine) == 1 and len(statements) == 2, statements
        assert not [sql for sql in statements if "record" in sql], statements
