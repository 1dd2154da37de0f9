"""Per-account limits asked for all at once, against a real server process over real sockets: an
account's API tokens (at most 20) and the open events one host may hold (at most 5). Each was
counted, then written: on PostgreSQL requests sent together all counted the same rows and were
all let through, past the limit (up to 22 tokens and 7 events seen). The account's row is now
locked before the count, so exactly the limit is made and the rest refused with its code.
And a lesson step done twice at once (a double click): the second insert's duplicate key was
answered 503 "database unavailable" on PostgreSQL; it is now no failure."""

from __future__ import annotations

import asyncio
from collections import Counter

import httpx

from otherside.server.accounts.tokens import MOST_TOKENS
from otherside.server.http.tournaments import OPEN_EVENTS_PER_HOST
from tests.security.outside import (
    client,
    fresh,
    shared_fixture,  # noqa: F401 (the fixture "shared")
)
from tests.server.processes import KEEP_IDLE_SECONDS, Server

AT_ONCE = 40
HOSTS = 3  # each its own race: a race lost by chance in one is won in another


async def _race(api: Server, address: str) -> None:
    """One host asks for :data:`AT_ONCE` events and as many tokens, all at once (from
    ``address``, on at most 16 connections: within the address's share of 64 even when the
    server, loaded, has not yet seen the end of as many connections the client closed)."""
    limits = httpx.Limits(max_connections=16, keepalive_expiry=KEEP_IDLE_SECONDS)
    async with client(api, address, timeout=60, limits=limits) as host:
        name = fresh("Host")
        signed = await host.post("/api/signup", json={"name": name, "password": "p4ssword"})
        assert signed.status_code == 200
        events, tokens = await asyncio.gather(
            asyncio.gather(
                *(
                    host.post("/api/tournaments", json={"game": "versus", "rounds": 1})
                    for _ in range(AT_ONCE)
                )
            ),
            asyncio.gather(
                *(
                    host.post("/api/tokens", json={"label": "x", "scopes": ["read"]})
                    for _ in range(AT_ONCE)
                )
            ),
        )
        made = Counter((answer.status_code, answer.json().get("code")) for answer in events)
        assert made == {
            (201, None): OPEN_EVENTS_PER_HOST,
            (429, "too_many_events"): AT_ONCE - OPEN_EVENTS_PER_HOST,
        }, made
        mine = [e for e in (await host.get("/api/tournaments")).json() if e["host"] == name]
        assert len(mine) == OPEN_EVENTS_PER_HOST
        kept = Counter((answer.status_code, answer.json().get("code")) for answer in tokens)
        assert kept == {
            (201, None): MOST_TOKENS,
            (409, "too_many_tokens"): AT_ONCE - MOST_TOKENS,
        }, kept
        assert len((await host.get("/api/tokens")).json()) == MOST_TOKENS


async def test_tokens_and_events_asked_for_at_once_stop_at_the_limit(shared: Server) -> None:
    await asyncio.gather(*(_race(shared, f"127.0.4.{n + 1}") for n in range(HOSTS)))


async def test_a_lesson_step_done_twice_at_once_is_done_once(shared: Server) -> None:
    api = shared
    async with client(api, timeout=60) as learner:
        name = fresh("Learner")
        await learner.post("/api/signup", json={"name": name, "password": "p4ssword"})
        steps = (await learner.get("/api/lessons/versus")).json()["steps"][:3]
        for step in steps:
            path = f"/api/lessons/versus/{step['id']}"
            solution = (await learner.post(path, json={"action": "no such move"})).json()
            # A double click, a dozen times over. Before: on PostgreSQL some answered 503
            # "database unavailable" (the second insert's duplicate key).
            answers = await asyncio.gather(
                *(learner.post(path, json={"action": solution["solution"]}) for _ in range(12))
            )
            said = Counter((answer.status_code, answer.json().get("outcome")) for answer in answers)
            assert said == {(200, "done"): 12}, said
        done = (await learner.get("/api/lessons/versus")).json()["done"]
        assert sorted(done) == sorted(step["id"] for step in steps)
