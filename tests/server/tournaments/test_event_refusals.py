"""Every bad request about an event, against a real server process (SQLite and PostgreSQL):
refused with its status and stable code, and nothing changed."""

from __future__ import annotations

from typing import Any

import httpx

from tests.server.processes import Server
from tests.server.tournaments.test_events_server import PASSWORD, refused


async def signed_up(http: httpx.AsyncClient, name: str) -> None:
    answer = await http.post("/api/signup", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text


BAD_EVENTS: list[tuple[dict[str, Any], int, str]] = [
    ({"game": "chess"}, 422, "bad_game"),
    ({"game": "versus", "kind": "knockout", "rounds": 3}, 422, "bad_kind"),
    ({"game": "versus", "kind": "swiss"}, 422, "bad_rounds"),
    ({"game": "versus", "kind": "swiss", "rounds": 0}, 422, "bad_rounds"),
    ({"game": "versus", "kind": "swiss", "rounds": 99}, 422, "bad_rounds"),
    ({"game": "versus", "kind": "round-robin", "rounds": 3}, 422, "rounds_of_round_robin"),
    ({"game": "versus", "kind": "swiss", "rounds": 3, "group_size": 4}, 422, "bad_group_size"),
    ({"game": "verso", "kind": "swiss", "rounds": 3, "group_size": 7}, 422, "bad_group_size"),
    ({"game": "verso", "kind": "round-robin", "group_size": 4}, 422, "round_robin_groups"),
    ({"game": "versus", "kind": "swiss", "rounds": 3, "max_entrants": 1}, 422, "bad_max_entrants"),
    ({"game": "verso", "rounds": 3, "group_size": 4, "max_entrants": 2}, 422, "bad_max_entrants"),
    ({"game": "versus", "rounds": 3, "open_to": "cats"}, 422, "bad_open_to"),
    ({"game": "versus", "rounds": 3, "name": "  "}, 422, "bad_name"),
    ({"game": "versus", "rounds": 3, "pace": {"kind": "live", "minutes": 0}}, 422, "bad_request"),
    ({"game": "verso", "rounds": 3, "options": {"colour": "red"}}, 422, "bad_request"),
]


async def test_bad_requests_are_refused_and_change_nothing(server: Server) -> None:
    async with (
        httpx.AsyncClient(base_url=server.url, timeout=30) as host,
        httpx.AsyncClient(base_url=server.url, timeout=30) as ada,
        httpx.AsyncClient(base_url=server.url, timeout=30) as guest,
    ):
        refused(
            await host.post("/api/tournaments", json={"game": "versus", "rounds": 3}),
            401,
            "signed_out",
        )
        await signed_up(host, "host")
        await signed_up(ada, "ada")
        assert (await guest.post("/api/guest")).status_code == 200
        for body, status, code in BAD_EVENTS:
            refused(await host.post("/api/tournaments", json=body), status, code)
        assert (await host.get("/api/tournaments")).json() == []
        refused(
            await guest.post("/api/tournaments", json={"game": "versus", "rounds": 3}),
            403,
            "guests_cannot_enter",
        )

        people = {"game": "versus", "rounds": 2, "open_to": "people", "max_entrants": 2}
        made = await host.post("/api/tournaments", json=people)
        assert made.status_code == 201, made.text
        event_id = made.json()["id"]
        url = f"/api/tournaments/{event_id}"
        refused(await host.get("/api/tournaments/nope"), 404, "no_event")
        refused(await ada.post("/api/tournaments/nope/join"), 404, "no_event")
        refused(await host.post(f"{url}/bots", json={"bot": "random"}), 409, "closed_to_bots")
        refused(await ada.post(f"{url}/leave"), 409, "not_entered")
        refused(await guest.post(f"{url}/join"), 403, "guests_cannot_enter")
        refused(await host.post(f"{url}/start"), 409, "too_few_entrants")
        assert (await ada.post(f"{url}/join")).status_code == 200
        refused(await ada.post(f"{url}/join"), 409, "already_entered")
        refused(await ada.post(f"{url}/start"), 403, "not_host")
        assert (await host.post(f"{url}/join")).status_code == 200
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as late:
            await signed_up(late, "late")
            refused(await late.post(f"{url}/join"), 409, "event_full")
        before = (await host.get(url)).json()
        assert [e["name"] for e in before["entrant_list"]] == ["ada", "host"]
        assert before["status"] == "open" and before["games"] == []

        bots_only = {"game": "versus", "rounds": 1, "open_to": "bots"}
        other = (await host.post("/api/tournaments", json=bots_only)).json()["id"]
        refused(await ada.post(f"/api/tournaments/{other}/join"), 409, "closed_to_people")
        refused(
            await ada.post(f"/api/tournaments/{other}/bots", json={"bot": "random"}),
            403,
            "not_host",
        )
        refused(
            await host.post(f"/api/tournaments/{other}/bots", json={"bot": "deep-blue"}),
            422,
            "bad_bot",
        )
        assert (await host.get(f"/api/tournaments/{other}")).json()["entrant_list"] == []
        listed = {e["id"]: e for e in (await host.get("/api/tournaments")).json()}
        assert listed[event_id]["entrants"] == 2 and listed[other]["entrants"] == 0

        # The host who entered plays too: the first round's table seats both, and starts.
        started = await host.post(f"{url}/start")
        assert started.status_code == 200, started.text
        (game,) = started.json()["games"]
        table = (await host.get(f"/api/tables/{game['table_id']}")).json()
        assert table["status"] == "playing" and not table["rated"]
        assert sorted(s["name"] for s in table["seats"]) == ["ada", "host"]
        refused(await host.post(f"{url}/start"), 409, "event_started")
        refused(await ada.post(f"{url}/leave"), 409, "event_started")
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as later:
            await signed_up(later, "later")
            refused(await later.post(f"{url}/join"), 409, "event_started")
        after = (await host.get(url)).json()
        assert after["entrant_list"] == started.json()["entrant_list"]
        assert [e["name"] for e in after["entrant_list"]] == ["ada", "host"]
        assert len(after["games"]) == 1
