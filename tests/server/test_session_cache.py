"""Sessions kept in memory (``accounts/session_cache.py``): a known cookie costs no database
read, and a sign-out — here, or in another server process on the same database — makes every
copy of its cookie worthless at once; an expired session is not served from memory."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import event

from otherside.server.accounts.sessions import COOKIE, SESSION_DAYS
from otherside.server.clock import ManualClock
from tests.server.conftest import client, guest, postgres_database, running


@contextmanager
def session_reads(app: FastAPI) -> Iterator[list[str]]:
    """The statements reading ``auth_sessions`` while the block runs."""
    seen: list[str] = []
    engine = app.state.db.engine

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if "auth_sessions" in statement:
            seen.append(statement)

    event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", record)


async def me(app: FastAPI, cookie: str) -> Any:
    async with client(app) as http:
        http.cookies.set(COOKIE, cookie)
        return (await http.get("/api/me")).json()["user"]


async def test_a_known_cookie_is_not_read_from_the_database_again(app: FastAPI) -> None:
    http, user = await guest(app)
    with session_reads(app) as reads:
        for _ in range(5):
            assert (await http.get("/api/me")).json()["user"]["id"] == user["id"]
    assert len(reads) == 1


async def test_signing_out_makes_a_copy_of_the_cookie_worthless_at_once(app: FastAPI) -> None:
    http, user = await guest(app)
    cookie = http.cookies[COOKIE]
    assert (await me(app, cookie))["id"] == user["id"]  # now known in memory
    assert (await http.post("/api/signout")).status_code == 200
    assert await me(app, cookie) is None
    assert len(app.state.sessions.cache) == 0


async def test_an_expired_session_is_not_served_from_memory(database_url: str) -> None:
    clock = ManualClock(datetime(2026, 3, 1, tzinfo=UTC))
    async with running(database_url, clock=clock) as app:
        http, user = await guest(app)
        cookie = http.cookies[COOKIE]
        assert (await me(app, cookie))["id"] == user["id"]
        clock.advance(days=SESSION_DAYS, seconds=1)
        assert await me(app, cookie) is None


@pytest.mark.postgres
async def test_a_sign_out_in_one_process_reaches_the_others_at_once() -> None:
    with postgres_database() as url:
        async with running(url) as first, running(url) as second:
            http, user = await guest(first)
            cookie = http.cookies[COOKIE]
            assert (await me(second, cookie))["id"] == user["id"]  # known in both
            assert (await me(first, cookie))["id"] == user["id"]
            assert (await http.post("/api/signout")).status_code == 200
            # The other process hears of it through NOTIFY: no waiting for an expiry.
            for _ in range(100):
                if await me(second, cookie) is None:
                    break
                await asyncio.sleep(0.05)
            assert await me(second, cookie) is None
            assert await me(first, cookie) is None
