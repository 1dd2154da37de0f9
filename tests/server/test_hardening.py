"""A public server holds against abuse: each limit is a setting, refused requests get 429 (with
``Retry-After``) or 403 and change nothing; sessions end on the server; the SQLite file is
private; other sites can neither act for a signed-in browser nor frame the pages."""

from __future__ import annotations

import os
import stat
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
from argon2 import PasswordHasher
from fastapi import FastAPI
from sqlalchemy import func, select

from otherside.server.accounts.limits import Limits
from otherside.server.accounts.sessions import COOKIE
from otherside.server.clock import ManualClock
from otherside.server.store.db import sqlite_url
from otherside.server.store.models import GameTable, User
from tests.server.conftest import CHEAP_HASHER, running

ORIGIN = "http://testserver"


def at(app: FastAPI, address: str = "10.0.0.1") -> httpx.AsyncClient:
    """A client of ``app`` coming from ``address``."""
    transport = httpx.ASGITransport(app=app, client=(address, 40000))
    return httpx.AsyncClient(transport=transport, base_url=ORIGIN)


@asynccontextmanager
async def server(database_url: str, **limits: Any) -> AsyncIterator[tuple[FastAPI, ManualClock]]:
    clock = ManualClock()
    async with running(
        database_url, clock=clock, run_scheduler=False, limits=Limits(**limits)
    ) as app:
        yield app, clock


async def _count(app: FastAPI, model: Any) -> int:
    return await app.state.db.run(lambda s: s.scalar(select(func.count()).select_from(model)))


async def test_guests_accounts_and_tables_are_rate_limited(database_url: str) -> None:
    async with server(
        database_url,
        guests_per_address=3,
        signups_per_address=2,
        tables_per_user=4,
        tables_per_address=6,
        waiting_tables_per_user=3,
        creation_window=3600,
        tables_window=600,
    ) as (app, clock):
        async with at(app) as flood:
            for _ in range(3):
                assert (await flood.post("/api/guest")).status_code == 200
            refused = await flood.post("/api/guest")
            assert refused.status_code == 429 and refused.headers["Retry-After"] == "3600"
            users = await _count(app, User)
            for index in range(2):
                made = await flood.post(
                    "/api/signup", json={"name": f"u{index}x", "password": "secret1"}
                )
                assert made.status_code == 200
            assert (
                await flood.post("/api/signup", json={"name": "u9x", "password": "secret1"})
            ).status_code == 429
            assert await _count(app, User) == users + 2
            body = {"game": "verso", "players": 2}
            for _ in range(3):
                assert (await flood.post("/api/tables", json=body)).status_code == 201
            # A host may keep only so many open tables, so the lobby cannot be flooded.
            capped = await flood.post("/api/tables", json=body)
            assert capped.status_code == 429 and "open tables" in capped.json()["detail"]
            assert await _count(app, GameTable) == 3
            listed = (await flood.get("/api/tables?status=waiting")).json()
            for table in listed:
                assert (await flood.post(f"/api/tables/{table['id']}/leave")).status_code == 200
            assert (await flood.get("/api/tables?status=waiting")).json() == []
            # The refused fourth gave its slot back: one more may be made, then no more.
            assert (await flood.post("/api/tables", json=body)).status_code == 201
            fifth = await flood.post("/api/tables", json=body)
            assert fifth.status_code == 429 and "account" in fifth.json()["detail"]
            clock.advance(seconds=601)
            assert (await flood.post("/api/tables", json=body)).status_code == 201
        clock.advance(seconds=3600)
        async with at(app) as later:
            assert (await later.post("/api/guest")).status_code == 200


async def test_other_origins_cannot_act_for_a_signed_in_browser(app: FastAPI) -> None:
    async with at(app) as browser:
        assert (await browser.post("/api/guest", headers={"Origin": ORIGIN})).status_code == 200
        cases = [
            {"Origin": "http://evil.example"},
            {"Origin": "http://testserver:8080"},  # same site, other port: another origin
            {"Origin": "null"},
            {"Sec-Fetch-Site": "cross-site"},
            {"Sec-Fetch-Site": "same-site"},
        ]
        for headers in cases:
            made = await browser.post(
                "/api/tables",
                content='{"game": "verso", "players": 1}',
                headers={**headers, "Content-Type": "text/plain"},
            )
            assert made.status_code == 403, headers
            out = await browser.post("/api/signout", headers=headers)
            assert out.status_code == 403, headers
        assert (await browser.get("/api/me")).json()["user"] is not None
        assert await _count(app, GameTable) == 0
        same = await browser.post(
            "/api/tables",
            json={"game": "verso", "players": 1},
            headers={"Origin": ORIGIN, "Sec-Fetch-Site": "same-origin"},
        )
        assert same.status_code == 201


async def test_pages_cannot_be_framed_and_have_a_content_policy(app: FastAPI) -> None:
    async with at(app) as browser:
        for path in ("/", "/table/x", "/replay/x", "/rules/verso", "/api/games"):
            response = await browser.get(path)
            assert response.headers["X-Frame-Options"] == "DENY", path
            policy = response.headers["Content-Security-Policy"]
            assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy
            assert response.headers["X-Content-Type-Options"] == "nosniff"


async def test_signing_out_ends_the_session_on_the_server(app: FastAPI) -> None:
    async with at(app) as browser:
        await browser.post("/api/signup", json={"name": "Ada", "password": "lovelace"})
        stolen = browser.cookies[COOKIE]
        assert (await browser.post("/api/signout")).status_code == 200
    async with at(app, "10.9.9.9") as thief:
        thief.cookies.set(COOKIE, stolen)
        assert (await thief.get("/api/me")).json() == {"user": None}
        assert (
            await thief.post("/api/tables", json={"game": "verso", "players": 1})
        ).status_code == 401


async def test_sessions_expire_after_thirty_days(database_url: str) -> None:
    async with server(database_url) as (app, clock), at(app) as browser:
        await browser.post("/api/guest")
        clock.advance(days=29)
        assert (await browser.get("/api/me")).json()["user"] is not None
        clock.advance(days=1, seconds=1)
        assert (await browser.get("/api/me")).json()["user"] is None


class CountingHasher(PasswordHasher):
    """Cheap argon2 that counts its checks."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=1024, parallelism=1)
        self.checks = 0

    def verify(self, hash: str | bytes, password: str | bytes) -> bool:
        self.checks += 1
        return super().verify(hash, password)


async def test_an_unknown_name_costs_the_same_password_check(database_url: str) -> None:
    hasher = CountingHasher()
    async with running(database_url, password_hasher=hasher) as app, at(app) as browser:
        await browser.post("/api/signup", json={"name": "Ada", "password": "lovelace"})
        before = hasher.checks
        assert (
            await browser.post("/api/signin", json={"name": "Ada", "password": "wrong!"})
        ).status_code == 401
        assert (
            await browser.post("/api/signin", json={"name": "Nobody", "password": "wrong!"})
        ).status_code == 401
        assert hasher.checks == before + 2


async def test_the_sqlite_file_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "new" / "otherside.db"
    async with running(sqlite_url(path), password_hasher=CHEAP_HASHER) as app, at(app) as browser:
        await browser.post("/api/guest")
        files = [p for p in path.parent.iterdir() if p.name.startswith("otherside.db")]
        assert len(files) >= 2  # the database and its write-ahead log
        for file in files:
            assert stat.S_IMODE(os.stat(file).st_mode) == 0o600, file
        assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700
