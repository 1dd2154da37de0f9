"""Simultaneous requests cannot slip under a limit: each reserves its slot before the slow work
(a password check, a new account), so of any burst exactly the limit gets through, the rest get
429 with ``Retry-After`` and change nothing — in one process on SQLite, and shared by two
processes on one PostgreSQL database."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, func, select

from otherside.server.store.models import User
from tests.security.conftest import limit_args
from tests.server.conftest import postgres_database
from tests.server.processes import Server

BURST = 40


async def _burst(url: str, path: str, bodies: list[Any]) -> list[httpx.Response]:
    """``POST path`` once per body, all at once, each from a browser of its own."""

    async def one(body: Any) -> httpx.Response:
        async with httpx.AsyncClient(base_url=url, timeout=60) as http:
            return await http.post(path, json=body)

    return list(await asyncio.gather(*(one(body) for body in bodies)))


def _statuses(responses: list[httpx.Response]) -> Counter[int]:
    return Counter(response.status_code for response in responses)


def _users(database: str) -> int:
    engine = create_engine(database)
    try:
        with engine.connect() as connection:
            return int(connection.scalar(select(func.count()).select_from(User)) or 0)
    finally:
        engine.dispose()


def test_simultaneous_wrong_passwords_reach_the_check_at_most_the_limit(
    serve: Callable[..., Server],
) -> None:
    server = serve(*limit_args(signin_failures_per_name_address=5, signin_failures_per_name=100))
    ada = {"name": "Ada", "password": "lovelace"}
    assert httpx.post(f"{server.url}/api/signup", json=ada, timeout=60).status_code == 200
    wrong = [{"name": "Ada", "password": f"guess-{n}"} for n in range(BURST)]
    answered = asyncio.run(_burst(server.url, "/api/signin", wrong))
    # Only the five reserved attempts were checked against the password; the rest never were.
    assert _statuses(answered) == {401: 5, 429: BURST - 5}
    refused = next(r for r in answered if r.status_code == 429)
    assert 0 < int(refused.headers["Retry-After"]) <= 900
    # Once the limit is reached, a burst holding the right password signs nobody in.
    again = asyncio.run(_burst(server.url, "/api/signin", [*wrong[:20], ada, *wrong[20:]]))
    assert _statuses(again) == {429: BURST + 1}
    assert all("otherside_session" not in r.cookies for r in again)


def test_simultaneous_guests_and_sign_ups_make_exactly_the_limit(
    serve: Callable[..., Server],
) -> None:
    server = serve(*limit_args(guests_per_address=10, signups_per_address=10))
    guests = asyncio.run(_burst(server.url, "/api/guest", [None] * 30))
    assert _statuses(guests) == {200: 10, 429: 20}
    signups = [{"name": f"racer{n}", "password": "secret1"} for n in range(30)]
    made = asyncio.run(_burst(server.url, "/api/signup", signups))
    assert _statuses(made) == {200: 10, 429: 20}
    assert int(next(r for r in made if r.status_code == 429).headers["Retry-After"]) > 0
    database = server_database(server)
    assert _users(database) == 20


def server_database(server: Server) -> str:
    """The database URL a test server was started with."""
    args: list[str] = list(server.process.args)  # type: ignore[arg-type]
    return args[args.index("--database") + 1]


@pytest.mark.postgres
def test_two_processes_on_one_database_share_the_limits(serve: Callable[..., Server]) -> None:
    with postgres_database() as database:
        limits = limit_args(guests_per_address=10, signin_failures_per_name_address=4)
        servers = [serve(*limits, database=database, wait=False) for _ in range(2)]
        for server in servers:
            server.wait_up()

        async def both() -> list[httpx.Response]:
            halves = [_burst(server.url, "/api/guest", [None] * 15) for server in servers]
            return [r for half in await asyncio.gather(*halves) for r in half]

        assert _statuses(asyncio.run(both())) == {200: 10, 429: 20}
        assert _users(database) == 10

        async def guesses() -> list[httpx.Response]:
            wrong = [{"name": "Nobody", "password": f"guess-{n}"} for n in range(10)]
            halves = [_burst(s.url, "/api/signin", wrong) for s in servers]
            return [r for half in await asyncio.gather(*halves) for r in half]

        # Wrong passwords from one address, half through each process: four checked in all.
        assert _statuses(asyncio.run(guesses())) == {401: 4, 429: 16}
        for server in servers:
            server.kill()  # before the database is dropped
