"""Bot accounts in events, on a real server process (SQLite and PostgreSQL): programs enter
with their API token and play through the protocol for programs (``otherside bot run``, a
process of its own each, following the event stream and acting over HTTP), beside people who
play through the table websocket. Who an event is open to is kept: a bot account is refused
by an event for people, a person by one for bots; a token without ``play`` enters nothing.
A Swiss event of six (three people, three bot accounts) runs to its end with no repeated
pairing and the standings of its games."""

from __future__ import annotations

import asyncio
import subprocess

import httpx
import pytest

from tests.security.outside import bearer
from tests.security.test_bot_api import bot_run
from tests.server.processes import Server
from tests.server.tournaments.checks import assert_standings_of_games
from tests.server.tournaments.test_events_server import (
    PASSWORD,
    event_of,
    person,
    play_my_games,
    refused,
)


async def program(server: Server, name: str, scopes: list[str] | None = None) -> str:
    """A bot account ``name`` (signed up, declared a bot); a token of it."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        signed = await http.post("/api/signup", json={"name": name, "password": PASSWORD})
        assert signed.status_code == 200, signed.text
        assert (await http.post("/api/account/bot")).status_code == 200
        made = await http.post(
            "/api/tokens", json={"label": name, "scopes": scopes or ["read", "play"]}
        )
        assert made.status_code == 201, made.text
        return str(made.json()["token"])


# Nobody is absent here: a clock that a busy machine's programs never run out of.
PACE = {"kind": "live", "minutes": 2, "increment": 0}


async def new_event(host: httpx.AsyncClient, open_to: str, **extra: object) -> str:
    body = {"game": "versus", "kind": "swiss", "rounds": 3, "pace": PACE, "max_entrants": 6}
    made = await host.post("/api/tournaments", json={**body, "open_to": open_to, **extra})
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


# On SQLite only: the event's PostgreSQL path is that of test_events_server's Swiss event; what
# this test adds (bot accounts entering with tokens, three `bot run` processes) is the same on
# both, and costs a minute a run.
@pytest.mark.parametrize("server", ["sqlite"], indirect=True)
async def test_bot_accounts_enter_and_play_a_swiss_event_with_their_tokens(
    server: Server,
) -> None:
    tokens = [await program(server, name) for name in ("Deep", "Blue", "Zero")]
    reader = await program(server, "Reader", ["read"])
    runners: list[subprocess.Popen[str]] = []
    async with (
        person(server, "host") as host,
        person(server, "alice") as alice,
        person(server, "bob") as bob,
        person(server, "carol") as carol,
        httpx.AsyncClient(base_url=server.url, timeout=30) as programs,
    ):
        # The event's "open to" is kept, and a table option may not contradict it.
        for_people = await new_event(host, "people")
        join = f"/api/tournaments/{for_people}/join"
        refused(await programs.post(join, headers=bearer(tokens[0])), 409, "closed_to_bots")
        for_bots = await new_event(host, "bots")
        refused(await alice.post(f"/api/tournaments/{for_bots}/join"), 409, "closed_to_people")
        contradiction = await host.post(
            "/api/tournaments",
            json={"game": "versus", "rounds": 1, "options": {"bot_accounts": False}},
        )
        refused(contradiction, 422, "bot_accounts_open_to")

        event_id = await new_event(host, "both")
        join = f"/api/tournaments/{event_id}/join"
        refused(await programs.post(join, headers=bearer(reader)), 403, "missing_scope")
        for http in (alice, bob, carol):
            assert (await http.post(join)).status_code == 200
        for token in tokens:
            answer = await programs.post(join, headers=bearer(token))
            assert answer.status_code == 200, answer.text
        event = await event_of(host, event_id)
        names = {e["name"]: e["number"] for e in event["entrant_list"]}
        accounts = {e["name"] for e in event["entrant_list"] if e["bot_account"]}
        assert accounts == {"Deep", "Blue", "Zero"} and len(names) == 6
        left = await programs.post(f"/api/tournaments/{event_id}/leave", headers=bearer(tokens[2]))
        assert left.status_code == 200 and len(left.json()["entrant_list"]) == 5
        assert (await programs.post(join, headers=bearer(tokens[2]))).status_code == 200
        event = await event_of(host, event_id)
        names = {e["name"]: e["number"] for e in event["entrant_list"]}

        try:
            # Greedy programs: against the people's first legal moves a game is some 25 plies,
            # where random ones drew it out to some 150 (and the event to a minute).
            runners = [bot_run(server, token, "--bot", "greedy") for token in tokens]
            started = await host.post(f"/api/tournaments/{event_id}/start")
            assert started.status_code == 200, started.text
            await asyncio.gather(
                play_my_games(server, alice, event_id, names["alice"]),
                play_my_games(server, bob, event_id, names["bob"]),
                play_my_games(server, carol, event_id, names["carol"]),
            )
        finally:
            for runner in runners:
                runner.kill()
                runner.wait()
                # What each program said (its refusals): pytest shows it if the test fails.
                print("program:", runner.stdout.read() if runner.stdout else "")
        event = await event_of(host, event_id)
        tables = {
            g["table_id"]: (await host.get(f"/api/tables/{g['table_id']}")).json()
            for g in event["games"]
        }

    assert event["status"] == "over" and event["current_round"] == 3
    games = event["games"]
    met: set[frozenset[int]] = set()
    for number in (1, 2, 3):
        boards = [g for g in games if g["round"] == number]
        assert len(boards) == 3 and not any(g["bye"] for g in boards)
        assert sorted(n for g in boards for n in g["entrants"]) == sorted(names.values())
        for g in boards:
            pair = frozenset(g["entrants"])
            assert pair not in met  # six entrants, three rounds: no repeat is needed
            met.add(pair)
            assert g["points"] is not None and sum(g["points"]) == 1.0
    # Every game was played to its end by its players: the programs' seats show them as the
    # bot accounts they are, and nobody ran out of time (the programs answered every turn).
    programs_seated = 0
    for table in tables.values():
        assert table["status"] == "over" and "forfeit" not in table["outcome"]
        for seat in table["seats"]:
            assert seat["bot_account"] == (seat["name"] in accounts)
            programs_seated += seat["name"] in accounts
    assert programs_seated == 9  # three programs, three rounds
    assert_standings_of_games(event, games)
    assert sum(line["points"] for line in event["standings"]) == 9.0
