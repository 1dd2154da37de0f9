"""Accounts attacked from outside, against a real server process over real sockets: the guests'
names run out (the server used to loop for ever on the next guest), a sign-up that passes for a
guest, a person at a people-only table who turns into a bot before the start, a token made to
"see tables, games and players" that read the account's e-mail address, and a token id no
database holds (answered 500). Each is refused with a stable code and changes nothing."""

from __future__ import annotations

import asyncio
import re

import sqlalchemy

from otherside.server.accounts.guest_names import GUEST_WORDS
from tests.security.outside import (
    bearer,
    client,
    fresh,
    refusal,
    shared_fixture,  # noqa: F401 (the fixture "shared")
)
from tests.server.processes import Server

PASSWORD = "lovelace"


def _take_every_four_digit_guest_name(database: str) -> None:
    """What 90,000 guests leave behind on a busy server: every name ``<Word>-<4 digits>``
    taken, written into the server's database beside it (as its own writes are)."""
    engine = sqlalchemy.create_engine(database)
    users = sqlalchemy.table(
        "users",
        sqlalchemy.column("name"),
        sqlalchemy.column("name_key"),
        sqlalchemy.column("is_guest"),
        sqlalchemy.column("is_bot"),
        sqlalchemy.column("created_at"),
    )
    try:
        with engine.begin() as connection:
            taken = set(connection.scalars(sqlalchemy.select(users.c.name_key)))
            now = sqlalchemy.func.now()
            rows = [
                {"name": name, "name_key": name.lower(), "is_guest": True, "is_bot": False}
                for word in GUEST_WORDS
                for name in (f"{word}-{n:04d}" for n in range(10000))
                if name.lower() not in taken
            ]
            connection.execute(users.insert().values(created_at=now), rows)
    finally:
        engine.dispose()


async def test_guests_are_still_made_once_the_short_names_have_run_out(shared: Server) -> None:
    api = shared
    await asyncio.to_thread(_take_every_four_digit_guest_name, api.database)
    async with client(api, timeout=30) as guest:
        # Before: the name was drawn again and again, for ever; no answer came.
        made = await guest.post("/api/guest")
        assert made.status_code == 200, made.text
        name = made.json()["name"]
        assert made.json()["guest"] and re.fullmatch(r"[A-Za-z]+-\d{6,10}", name), name
        assert (await guest.get("/api/me")).json()["user"]["name"] == name
    async with client(api, timeout=30) as others:
        names = set()
        for _ in range(5):
            others.cookies.clear()
            names.add((await others.post("/api/guest")).json()["name"])
        assert len(names) == 5


async def test_a_sign_up_cannot_pass_for_a_guest(shared: Server) -> None:
    api = shared
    async with client(api) as impostor:
        for name in ("Heron-0427", "tapir-12", "OTTER-99999999"):
            refused = await impostor.post("/api/signup", json={"name": name, "password": PASSWORD})
            assert refusal(refused, 422, "guest_name")["params"]["name"] == name
            signin = await impostor.post("/api/signin", json={"name": name, "password": PASSWORD})
            assert signin.status_code == 401  # no account was made
        assert (await impostor.get("/api/me")).json()["user"] is None
        # A name that only looks a little like one is anyone's.
        fine = fresh("Heron_")
        made = await impostor.post("/api/signup", json={"name": fine, "password": PASSWORD})
        assert made.status_code == 200 and made.json()["guest"] is False


async def test_a_person_seated_for_people_only_cannot_turn_into_a_bot(shared: Server) -> None:
    api, hostname, programname = shared, fresh("Host"), fresh("Program")
    async with client(api) as host, client(api) as program:
        for http, name in ((host, hostname), (program, programname)):
            signed = await http.post("/api/signup", json={"name": name, "password": PASSWORD})
            assert signed.status_code == 200
        made = await host.post(
            "/api/tables",
            json={"game": "versus", "players": 2, "options": {"bot_accounts": False}},
        )
        table_id = made.json()["id"]
        assert (await program.post(f"/api/tables/{table_id}/join", json={})).status_code == 200
        # Before: the account became a bot in its seat, and the people-only table started
        # with a program in it.
        refusal(await program.post("/api/account/bot"), 409, "seated_already")
        started = await host.post(f"/api/tables/{table_id}/start")
        assert started.status_code == 200
        assert [seat["bot_account"] for seat in started.json()["seats"]] == [False, False]
        assert (await host.get(f"/api/players/{programname}")).json()["bot"] is False
        # Entered in an event for people (not started): the same.
        event = await host.post(
            "/api/tournaments", json={"game": "versus", "rounds": 3, "open_to": "people"}
        )
        event_id = event.json()["id"]
        other = fresh("Other")
        async with client(api) as newcomer:
            await newcomer.post("/api/signup", json={"name": other, "password": PASSWORD})
            assert (await newcomer.post(f"/api/tournaments/{event_id}/join")).status_code == 200
            refusal(await newcomer.post("/api/account/bot"), 409, "seated_already")
            entrants = (await host.get(f"/api/tournaments/{event_id}")).json()["entrant_list"]
            assert [e["bot_account"] for e in entrants] == [False]
            # Out of the event and at no table, it may.
            assert (await newcomer.post(f"/api/tournaments/{event_id}/leave")).status_code == 200
            became = await newcomer.post("/api/account/bot")
            assert became.status_code == 200 and became.json()["bot"] is True


async def test_a_token_shows_the_e_mail_address_only_with_the_account_scope(
    shared: Server,
) -> None:
    api, ada = shared, fresh("Ada")
    async with client(api) as person, client(api) as program:
        await person.post("/api/signup", json={"name": ada, "password": PASSWORD})
        await person.post("/api/me/email", json={"email": "ada@example.org"})
        tokens = {}
        for scopes in (["read"], ["read", "play"], ["read", "account"]):
            made = await person.post("/api/tokens", json={"label": "x", "scopes": scopes})
            tokens[" ".join(scopes)] = made.json()["token"]
        # Before: a token to "see tables, games and players" read the address too.
        for scopes in ("read", "read play"):
            seen = (await program.get("/api/me", headers=bearer(tokens[scopes]))).json()
            assert seen["user"]["name"] == ada and seen["user"]["email"] is None, scopes
        owned = (await program.get("/api/me", headers=bearer(tokens["read account"]))).json()
        assert owned["user"]["email"] == "ada@example.org"
        assert (await person.get("/api/me")).json()["user"]["email"] == "ada@example.org"


async def test_a_token_id_no_database_can_hold_is_no_token(shared: Server) -> None:
    api, ada = shared, fresh("Ada")
    async with client(api) as person:
        await person.post("/api/signup", json={"name": ada, "password": PASSWORD})
        made = (await person.post("/api/tokens", json={"label": "x", "scopes": ["read"]})).json()
        # Before: 500, the database's overflow as the answer.
        for token_id in (2**63, 10**30, 0, -1):
            refused = await person.delete(f"/api/tokens/{token_id}")
            assert refusal(refused, 404, "no_token")["params"]["id"] == token_id
        listed = (await person.get("/api/tokens")).json()
        assert [token["id"] for token in listed] == [made["id"]]
        assert (await person.get("/api/me", headers=bearer(made["token"]))).status_code == 200
