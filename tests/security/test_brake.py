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

SHARE = 10  # refusals an address may get in a window
WINDOW = 3.0  # seconds of that window
DEEP = ("[" * 100 + "]" * 100).encode()
JSON = {"Content-Type": "application/json"}


@sqlite_only("database")
async def test_an_address_refused_past_its_share_is_braked_and_the_others_are_not(
    database: str,
) -> None:
    settings = (
        f"refusals_per_address={SHARE}",
        f"refusal_window_seconds={WINDOW:g}",
        "brake_seconds=0.3",
    )
    with server(database, *settings) as api:
        async with client(api, ATTACKER) as attacker, client(api) as honest:
            # Its share of refusals at once, and then two more requests at once: all of them
            # within the short window even on a loaded machine (one after the other, the
            # requests alone took up to two of its three seconds there).
            first = await asyncio.gather(
                *(attacker.post("/api/tables", content=DEEP, headers=JSON) for _ in range(SHARE))
            )
            counted = time.monotonic()  # every refusal counted: the window began before this
            assert [r.status_code for r in first] == [400] * SHARE  # refused, and counted
            began = time.monotonic()
            braked, german = await asyncio.gather(
                attacker.post("/api/tables", content=DEEP, headers=JSON),
                # Braked means braked: even a request that would be fine waits and is refused,
                # told in the reader's language.
                attacker.post("/api/guest", headers={"Accept-Language": "de"}),
            )
            waited = time.monotonic() - began
            assert braked.status_code == 429 and braked.json()["code"] == "braked"
            assert 1 <= int(braked.headers["retry-after"]) <= WINDOW
            assert waited >= 0.3  # the attacker waits; the server only answers later
            assert german.status_code == 429 and german.json()["code"] == "braked"
            assert german.json()["detail"].startswith("zu viele abgelehnte Anfragen")
            # Another address is served at once, as before.
            assert (await honest.post("/api/guest")).status_code == 200
            made = await honest.post("/api/tables", json={"game": "verso", "players": 2})
            assert made.status_code == 201 or made.status_code == 200
            # Once the window is over, the attacker is judged afresh.
            await asyncio.sleep(max(0.0, counted + WINDOW - time.monotonic()))
            again = await attacker.post("/api/tables", content=DEEP, headers=JSON)
            assert again.status_code == 400
