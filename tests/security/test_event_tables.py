"""An event's host attacks its boards from outside, against a real server process over real
sockets. The director used to make each board's table with the host in seat 0 and seat the
entrants a moment later: a host watching for the table in that moment filled it with a bot, the
table started with the host and the bot, and their game stood for the entrants' (seen in two
tries of eight); or started it, and the game of an unrated event was rated. The entrants are
now seated in the write that makes the table, and the director starts it before anything else
is asked of it.

And bots the host enters at once: each was numbered ("random 2") by the entrants read before its
write, and several took one name; now under the event's lock. And events of built-in bots only:
the lobby lets an account run two games of bots only at once, but a host started one event of
bots after another (only events not yet started counted), each up to 32 games at once, without
end; a host now runs at most a few at once."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from otherside.server.accounts.limits import Limits
from tests.security.outside import (
    client,
    fresh,
    shared_fixture,  # noqa: F401 (the fixture "shared")
)
from tests.server.processes import Server

TRIES = 10
PASSWORD = "secret-pw"
MOST_BOT_EVENTS = Limits().all_bot_events_per_user  # the server's default


async def _signed_up(http: httpx.AsyncClient) -> str:
    name = fresh("Entrant")
    signed = await http.post("/api/signup", json={"name": name, "password": PASSWORD})
    assert signed.status_code == 200, signed.text
    return name


async def _hijack(host: httpx.AsyncClient, hostname: str, stop: asyncio.Event, bots: bool) -> None:
    """Watch for a waiting table the host hosts (its own, or the lobby's list) and fill it
    with a bot (which starts it; or, not ``bots``, start it as it is), until ``stop``."""
    while not stop.is_set():
        mine = (await host.get("/api/my/tables")).json()
        listed = (await host.get("/api/tables")).json()
        for table in [*mine, *listed]:
            if table["status"] == "waiting" and table["owner"] == hostname:
                if bots:
                    await host.post(f"/api/tables/{table['id']}/bots", json={"bot": "random"})
                else:
                    await host.post(f"/api/tables/{table['id']}/start")


async def test_an_event_s_host_cannot_take_a_board_before_its_entrants_sit(
    shared: Server,
) -> None:
    api = shared
    async with client(api) as host, client(api) as ada, client(api) as bob:
        hostname = await _signed_up(host)
        names = [await _signed_up(ada), await _signed_up(bob)]
        for _ in range(TRIES):  # a race: each try is a chance for the host
            made = await host.post("/api/tournaments", json={"game": "versus", "rounds": 1})
            event_id = made.json()["id"]
            for entrant in (ada, bob):
                joined = await entrant.post(f"/api/tournaments/{event_id}/join")
                assert joined.status_code == 200
            stop = asyncio.Event()
            spies = [
                asyncio.create_task(_hijack(host, hostname, stop, bots)) for bots in (True, False)
            ]
            await asyncio.sleep(0.05)
            started = await host.post(f"/api/tournaments/{event_id}/start")
            assert started.status_code == 200, started.text
            await asyncio.sleep(0.2)
            stop.set()
            await asyncio.gather(*spies)
            (board,) = (await host.get(f"/api/tournaments/{event_id}")).json()["games"]
            table = (await host.get(f"/api/tables/{board['table_id']}")).json()
            seats = table["seats"]
            # Before: now and then the host and a random bot played the entrants' board, or
            # the host started it as a rated game of this unrated event.
            assert [seat["name"] for seat in seats] == names, seats
            assert all(seat["kind"] == "human" for seat in seats), seats
            assert table["rated"] is False


async def test_bots_entered_at_once_each_have_a_name_of_their_own(shared: Server) -> None:
    api = shared
    async with client(api) as host:
        await _signed_up(host)
        made = await host.post("/api/tournaments", json={"game": "versus", "rounds": 1})
        event_id = made.json()["id"]
        entered = await asyncio.gather(
            *(
                host.post(f"/api/tournaments/{event_id}/bots", json={"bot": "random"})
                for _ in range(6)
            )
        )
        assert all(answer.status_code == 200 for answer in entered)
        names = [
            e["name"]
            for e in (await host.get(f"/api/tournaments/{event_id}")).json()["entrant_list"]
        ]
        # Before: each numbered by the entrants read before the write ("random 2" twice).
        assert sorted(names) == ["random", *(f"random {n}" for n in range(2, 7))], names


async def test_a_host_runs_only_a_few_events_of_built_in_bots_at_once(serve: Any) -> None:
    # The bots wait a minute before each move: every game stays in play while the test runs
    # (at no delay, a game of random bots could end within it, and its event with it).
    api = serve(bot_delay=60.0)
    async with client(api) as host:
        await _signed_up(host)
        bots_only = {"game": "versus", "rounds": 1, "open_to": "bots", "max_entrants": 64}
        started = []
        for _ in range(MOST_BOT_EVENTS + 1):
            event_id = (await host.post("/api/tournaments", json=bots_only)).json()["id"]
            for _ in range(4):
                await host.post(f"/api/tournaments/{event_id}/bots", json={"bot": "random"})
            started.append(await host.post(f"/api/tournaments/{event_id}/start"))
        # Before: every one started, two games of bots each, and as many more as asked for.
        assert [answer.status_code for answer in started[:-1]] == [200] * MOST_BOT_EVENTS
        refused = started[-1].json()
        assert started[-1].status_code == 429 and refused["code"] == "too_many_bot_events"
        assert refused["params"] == {"most": MOST_BOT_EVENTS}
        # An event where a person plays is no game of bots only.
        with_people = {**bots_only, "open_to": "both"}
        event_id = (await host.post("/api/tournaments", json=with_people)).json()["id"]
        assert (await host.post(f"/api/tournaments/{event_id}/join")).is_success
        await host.post(f"/api/tournaments/{event_id}/bots", json={"bot": "random"})
        assert (await host.post(f"/api/tournaments/{event_id}/start")).status_code == 200
