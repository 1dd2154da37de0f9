"""A client that keeps getting refused is braked: past its refusals of the window, each of its
requests waits and gets 429 with ``Retry-After``, while another address is served as before —
against a real server process over real sockets (a small setting, a short window)."""

from __future__ import annotations

import asyncio
import time

from tests.security.outside import (
    ATTACKER,
    client,
    database_fixture,  # noqa: F401 (the fixture "database")
    server,
)
from tests.server.conftest import sqlite_only

DEEP = ("[" * 100 + "]" * 100).encode()
JSON = {"Content-Type": "application/json"}


@sqlite_only("database")
async def test_an_address_refused_past_its_share_is_braked_and_the_others_are_not(
    database: str,
) -> None:
    settings = ("refusals_per_address=10", "refusal_window_seconds=3", "brake_seconds=0.3")
    with server(database, *settings) as api:
        async with client(api, ATTACKER) as attacker, client(api) as honest:
            first = [
                (await attacker.post("/api/tables", content=DEEP, headers=JSON)).status_code
                for _ in range(10)
            ]
            assert first == [400] * 10  # refused for what they are, and counted
            began = time.monotonic()
            braked = await attacker.post("/api/tables", content=DEEP, headers=JSON)
            waited = time.monotonic() - began
            assert braked.status_code == 429 and braked.json()["code"] == "braked"
            assert 1 <= int(braked.headers["retry-after"]) <= 3
            assert waited >= 0.3  # the attacker waits; the server only answers later
            # Braked means braked: even a request that would be fine waits and is refused,
            # told in the reader's language.
            german = await attacker.post("/api/guest", headers={"Accept-Language": "de"})
            assert german.status_code == 429 and german.json()["code"] == "braked"
            assert german.json()["detail"].startswith("zu viele abgelehnte Anfragen")
            # Another address is served at once, as before.
            assert (await honest.post("/api/guest")).status_code == 200
            made = await honest.post("/api/tables", json={"game": "verso", "players": 2})
            assert made.status_code == 201 or made.status_code == 200
            # Once the window is over, the attacker is judged afresh.
            await asyncio.sleep(3.1)
            again = await attacker.post("/api/tables", content=DEEP, headers=JSON)
            assert again.status_code == 400
