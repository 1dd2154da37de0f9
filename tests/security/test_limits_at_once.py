"""Per-account limits asked for all at once, against a real server process over real sockets: an
account's API tokens (at most 20) and the open events one host may hold (at most 5). Each was
counted, then written: on PostgreSQL requests sent together all counted the same rows and were
all let through, past the limit (up to 22 tokens and 7 events seen). The account's row is now
locked before the count, so exactly the limit is made and the rest refused with its code."""

from __future__ import annotations

import asyncio
from collections import Counter

from otherside.server.accounts.tokens import MOST_TOKENS
from otherside.server.http.tournaments import OPEN_EVENTS_PER_HOST
from tests.security.outside import (
    client,
    fresh,
    shared_fixture,  # noqa: F401 (the fixture "shared")
)
from tests.server.processes import Server

AT_ONCE = 40
HOSTS = 3  # each its own race: a race lost by chance in one is won in another


async def _race(api: Server) -> None:
    """One host asks for :data:`AT_ONCE` events and as many tokens, all at once."""
    async with client(api, timeout=60) as host:
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
    await asyncio.gather(*(_race(shared) for _ in range(HOSTS)))
