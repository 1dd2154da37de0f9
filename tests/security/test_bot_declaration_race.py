"""A program slipped into an event and a table for people only, against two real server
processes on one PostgreSQL database over real sockets: an account declared a bot
(``POST /api/account/bot``, through one process) at the moment it enters an event open to
people only, sits at a table whose host allows no bot accounts, and opens such a table (through
the other).

The declaration refuses an account that has entered or sits somewhere, and the entry and the
seat refuse a bot account — but each read the other unlocked, and the entry and the seat read
the flag from the session cached before the declaration: in most tries all four went
through, and a program played among people as one of them (at the table it opened, a person
who came through that process was seated beside it). The account's row now orders them: the
declaration locks it for update, an entry locks it too and reads the flag from it, and the
write of a seat or a new table locks it shared and refuses a flag that changed
(``changed_meanwhile``; asked again, ``no_bot_accounts``).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.security.outside import client, fresh
from tests.server.conftest import postgres_database

pytestmark = pytest.mark.postgres
TRIES = 8  # each a race; before, most were lost
PASSWORD = "p4ssword"
PERSON = "127.0.2.1"
PEOPLE_ONLY = {"game": "versus", "players": 2, "options": {"bot_accounts": False}}


async def test_an_account_turning_bot_cannot_slip_into_places_for_people(serve: Any) -> None:
    with postgres_database() as database:
        one, other = (serve(database=database, wait=False) for _ in range(2))
        for process in (one, other):
            process.wait_up()
        async with client(one) as host:
            for n in range(TRIES):
                if n % 5 == 0:  # a host holds at most five open events
                    host.cookies.clear()
                    await host.post(
                        "/api/signup", json={"name": fresh("Host"), "password": PASSWORD}
                    )
                event = await host.post(
                    "/api/tournaments", json={"game": "versus", "rounds": 1, "open_to": "people"}
                )
                table = await host.post("/api/tables", json=PEOPLE_ONLY)
                async with client(one, PERSON) as here:
                    name = fresh("Person")
                    await here.post("/api/signup", json={"name": name, "password": PASSWORD})
                    async with client(other, PERSON, cookies=here.cookies) as there:
                        assert (await there.get("/api/me")).json()["user"]["name"] == name
                        declared, entered, seated, made = await asyncio.gather(
                            here.post("/api/account/bot"),
                            there.post(f"/api/tournaments/{event.json()['id']}/join"),
                            there.post(f"/api/tables/{table.json()['id']}/join", json={}),
                            there.post("/api/tables", json=PEOPLE_ONLY),
                        )
                    joined = None
                    if made.status_code == 201:  # a person comes to the table it hosts
                        async with client(other) as person:
                            signed = {"name": fresh("Person"), "password": PASSWORD}
                            assert (await person.post("/api/signup", json=signed)).is_success
                            path = f"/api/tables/{made.json()['id']}/join"
                            joined = await person.post(path, json={})
                # Before: declared 200, entered 200 and seated 200 in one try.
                if declared.status_code == 200:
                    assert entered.json().get("code") == "closed_to_bots", (n, entered.text)
                    refused = seated.json().get("code")
                    assert refused in ("no_bot_accounts", "changed_meanwhile"), (n, seated.text)
                    if joined is not None:
                        assert joined.json().get("code") == "no_bot_accounts", (n, joined.text)
                    else:
                        assert made.json().get("code") == "changed_meanwhile", (n, made.text)
                else:
                    assert declared.json().get("code") == "seated_already", (n, declared.text)
        for process in (one, other):
            process.kill()  # before the database is dropped
