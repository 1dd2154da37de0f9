"""Wrong passwords, on the server's clock: paused per (name, address) and per address; a name
guessed from everywhere slows down (1, 2, 4 … s, capped) but never locks its owner out — a
signed-in browser keeps its session, a browser that signed in before is not slowed, and a new
one gets in once the slowdown's wait has passed. A refused attempt is never checked."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
from fastapi import FastAPI

from otherside.server.accounts.limits import Limits
from otherside.server.accounts.sessions import COOKIE
from otherside.server.clock import ManualClock
from tests.server.conftest import running

ORIGIN = "http://testserver"
ADA = {"name": "Ada", "password": "lovelace"}


def at(app: FastAPI, address: str) -> httpx.AsyncClient:
    """A browser of its own (its own cookies) coming from ``address``."""
    transport = httpx.ASGITransport(app=app, client=(address, 40000))
    return httpx.AsyncClient(transport=transport, base_url=ORIGIN)


@asynccontextmanager
async def server(database_url: str, **limits: Any) -> AsyncIterator[tuple[FastAPI, ManualClock]]:
    clock = ManualClock()
    async with running(
        database_url, clock=clock, run_scheduler=False, limits=Limits(**limits)
    ) as app:
        yield app, clock


class CountingVerify:
    """The server's password check, counted: a refused attempt must never reach it."""

    def __init__(self, app: FastAPI) -> None:
        self.calls = 0
        sessions = app.state.sessions
        self.original = sessions.verify
        sessions.verify = self

    def __call__(self, digest: str | None, password: str) -> bool:
        self.calls += 1
        result: bool = self.original(digest, password)
        return result


async def _signin(http: httpx.AsyncClient, password: str, name: str = "Ada") -> httpx.Response:
    return await http.post("/api/signin", json={"name": name, "password": password})


async def test_a_guesser_pauses_per_name_and_address_and_per_address(database_url: str) -> None:
    async with server(
        database_url,
        signin_failures_per_name_address=3,
        signin_failures_per_address=5,
        signin_failures_per_name=100,
        signin_window=600,
    ) as (app, clock):
        async with at(app, "10.0.0.1") as owner:
            assert (await owner.post("/api/signup", json=ADA)).status_code == 200
        checks = CountingVerify(app)
        async with at(app, "10.0.0.2") as guesser:
            assert [(await _signin(guesser, "guess!")).status_code for _ in range(3)] == [401] * 3
            paused = await _signin(guesser, "lovelace")
            assert paused.status_code == 429 and paused.headers["Retry-After"] == "600"
            assert COOKIE not in paused.cookies and checks.calls == 3
            # Spraying other names from the same address stops at the address's limit.
            assert (await _signin(guesser, "x" * 6, "Bob")).status_code == 401
            assert (await _signin(guesser, "x" * 6, "Cy")).status_code == 401
            sprayed = await _signin(guesser, "x" * 6, "Dee")
            assert sprayed.status_code == 429 and "address" in sprayed.json()["detail"]
            assert checks.calls == 5
        # The guesser's pause is theirs: the owner, elsewhere, signs in at once.
        async with at(app, "10.0.0.3") as elsewhere:
            assert (await _signin(elsewhere, "lovelace")).status_code == 200
        clock.advance(seconds=601)
        async with at(app, "10.0.0.2") as later:
            assert (await _signin(later, "lovelace")).status_code == 200


async def test_typos_are_forgiven_by_the_right_password(database_url: str) -> None:
    async with server(database_url, signin_failures_per_name_address=3) as (app, _clock):
        async with at(app, "10.0.0.1") as owner:
            assert (await owner.post("/api/signup", json=ADA)).status_code == 200
        async with at(app, "10.0.0.1") as typist:
            for _ in range(3):
                for _ in range(2):
                    assert (await _signin(typist, "lovelcae")).status_code == 401
                assert (await _signin(typist, "lovelace")).status_code == 200


async def test_a_name_guessed_from_everywhere_slows_down_but_never_locks_out(
    database_url: str,
) -> None:
    async with server(
        database_url,
        signin_failures_per_name=4,
        signin_slowdown_max=8,
        signin_window=900,
    ) as (app, clock):
        owner = at(app, "10.0.0.1")
        assert (await owner.post("/api/signup", json=ADA)).status_code == 200
        assert (await owner.post("/api/signout")).status_code == 200
        assert (await _signin(owner, "lovelace")).status_code == 200  # signed in before
        checks = CountingVerify(app)
        addresses = iter(f"198.51.100.{n}" for n in range(1, 255))

        async def guess() -> httpx.Response:
            async with at(app, next(addresses)) as bot:
                return await _signin(bot, "guess!")

        assert [(await guess()).status_code for _ in range(4)] == [401] * 4
        waits = []
        for _ in range(6):
            assert (await guess()).status_code == 401  # through the gate
            refused = await guess()
            assert refused.status_code == 429
            waits.append(int(refused.headers["Retry-After"]))
            clock.advance(seconds=waits[-1])
        # Each wait doubles, up to the setting: guesses from many addresses are bounded.
        assert waits == [1, 2, 4, 8, 8, 8]
        assert checks.calls == 10
        assert (await guess()).status_code == 401
        assert (await guess()).status_code == 429  # the gate shut again, for 8 s
        # The owner's signed-in browser plays on; it signs in again at once after signing out.
        assert (await owner.get("/api/me")).json()["user"]["name"] == "Ada"
        made = await owner.post("/api/tables", json={"game": "verso", "players": 2})
        assert made.status_code == 201
        assert (await owner.post("/api/signout")).status_code == 200
        assert (await _signin(owner, "lovelace")).status_code == 200
        # A new browser waits its turn like anyone, then gets in: slowed, never locked.
        async with at(app, "10.0.0.9") as fresh:
            slowed = await _signin(fresh, "lovelace")
            assert slowed.status_code == 429 and "name" in slowed.json()["detail"]
            clock.advance(seconds=int(slowed.headers["Retry-After"]))
            assert (await _signin(fresh, "lovelace")).status_code == 200
        await owner.aclose()
