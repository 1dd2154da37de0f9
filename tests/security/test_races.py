"""Simultaneous requests cannot slip under a limit: each reserves its slot before the slow work
(a password check, a new account), so of any burst exactly the limit gets through, the rest get
429 with ``Retry-After`` and change nothing — in one process on SQLite, and shared by two
processes on one PostgreSQL database.

The two one-process tests share a server with both their limits (a start costs seconds of CPU):
the sign-in limits are per name, the guest and sign-up limits per address, and the account the
sign-in test makes comes from an address of its own."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, func, select

from otherside.server.store.db import sqlite_url
from otherside.server.store.models import User
from otherside.testing.servers import shared_tls
from tests.security.conftest import limit_args
from tests.server.conftest import postgres_database
from tests.server.processes import Server, free_port

BURST = 40
ELSEWHERE = "127.0.0.3"  # an address of the sign-in test's own (all of 127/8 is this machine)


@pytest.fixture(scope="module")
def one_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The one-process tests' server, with the limits of both."""
    database = sqlite_url(tmp_path_factory.mktemp("races") / "otherside.db")
    limits = limit_args(
        signin_failures_per_name_address=5,
        signin_failures_per_name=100,
        guests_per_address=10,
        signups_per_address=10,
    )
    server = Server(database, free_port(), "--bot-workers", "0", *limits)
    try:
        yield server
    finally:
        server.kill()


async def _burst(
    url: str, path: str, bodies: list[Any], address: str = "127.0.0.1"
) -> list[httpx.Response]:
    """``POST path`` once per body, all at once, each from a browser of its own (coming from
    ``address``)."""

    async def one(body: Any) -> httpx.Response:
        transport = httpx.AsyncHTTPTransport(local_address=address, verify=shared_tls())
        async with httpx.AsyncClient(base_url=url, timeout=60, transport=transport) as http:
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
    one_process: Server,
) -> None:
    server = one_process
    ada = {"name": "Ada", "password": "lovelace"}
    (made,) = asyncio.run(_burst(server.url, "/api/signup", [ada], ELSEWHERE))
    assert made.status_code == 200
    wrong = [{"name": "Ada", "password": f"guess-{n}"} for n in range(BURST)]
    answered = asyncio.run(_burst(server.url, "/api/signin", wrong, ELSEWHERE))
    # Only the five reserved attempts were checked against the password; the rest never were.
    assert _statuses(answered) == {401: 5, 429: BURST - 5}
    refused = next(r for r in answered if r.status_code == 429)
    assert 0 < int(refused.headers["Retry-After"]) <= 900
    # Once the limit is reached, a burst holding the right password signs nobody in.
    burst = [*wrong[:20], ada, *wrong[20:]]
    again = asyncio.run(_burst(server.url, "/api/signin", burst, ELSEWHERE))
    assert _statuses(again) == {429: BURST + 1}
    assert all("otherside_session" not in r.cookies for r in again)


def test_simultaneous_guests_and_sign_ups_make_exactly_the_limit(
    one_process: Server,
) -> None:
    server = one_process
    database = server_database(server)
    before = _users(database)
    guests = asyncio.run(_burst(server.url, "/api/guest", [None] * 30))
    assert _statuses(guests) == {200: 10, 429: 20}
    signups = [{"name": f"racer{n}", "password": "secret1"} for n in range(30)]
    made = asyncio.run(_burst(server.url, "/api/signup", signups))
    assert _statuses(made) == {200: 10, 429: 20}
    assert int(next(r for r in made if r.status_code == 429).headers["Retry-After"]) > 0
    assert _users(database) - before == 20


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
