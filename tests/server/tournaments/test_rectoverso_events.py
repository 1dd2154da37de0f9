"""A Recto Verso event (partnerships paired as groups of two) run to its end by the director in
one server (on SQLite, with the injected clock; test_bot_events runs the director on
PostgreSQL): three partner bots and a person who never comes. The person's seat goes to a
bot once they have been away for ``away_seconds`` (the table would wait for them for ever: no
player clock), they lose each game, and their partner is ranked by what the pair achieved (the
decision in ``otherside.server.tournaments.absentees``); partnerships are not repeated, and
the standings are those of the games."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx

from otherside.server.clock import ManualClock
from otherside.server.tournaments.results import Game, partnership_points
from otherside.server.tournaments.standings import standings
from tests.server.conftest import registered, running, sqlite_only


async def _get(http: httpx.AsyncClient, path: str) -> dict[str, Any]:
    answer = await http.get(path)
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


@sqlite_only()
async def test_a_rectoverso_event_runs_to_its_end_and_an_absent_partner_loses(
    database_url: str,
) -> None:
    clock = ManualClock()
    async with running(database_url, clock=clock, run_scheduler=False) as app:
        host, absent = await registered(app, "Host", "Absent")
        body = {"game": "rectoverso", "kind": "swiss", "rounds": 2, "max_entrants": 4}
        made = await host.http.post("/api/tournaments", json=body)
        assert made.status_code == 201, made.text
        event_id = made.json()["id"]
        path = f"/api/tournaments/{event_id}"
        assert (await absent.http.post(f"{path}/join")).status_code == 200
        for _ in range(3):
            added = await host.http.post(f"{path}/bots", json={"bot": "partner"})
            assert added.status_code == 200, added.text
        assert (await host.http.post(f"{path}/start")).status_code == 200

        director, away = app.state.tournaments, app.state.limits.away_seconds
        waited: set[int] = set()
        deadline = time.monotonic() + 300
        event = await _get(host.http, path)
        while event["status"] != "over":
            assert time.monotonic() < deadline, f"the event did not end: {event}"
            await director.check()
            event = await _get(host.http, path)
            number = event["current_round"]
            boards = [g for g in event["games"] if g["round"] == number]
            if number not in waited and boards and all(g["table_id"] for g in boards):
                # The round's tables are made: the absent partner's time away runs out.
                clock.advance(seconds=away + 1)
                waited.add(number)
            await asyncio.sleep(0.1)
        tables = {
            g["table_id"]: await _get(host.http, f"/api/tables/{g['table_id']}")
            for g in event["games"]
        }
        for person in (host, absent):
            await person.http.aclose()

    assert event["current_round"] == 2
    me = next(e["number"] for e in event["entrant_list"] if e["name"] == "Absent")
    games = event["games"]
    partners: set[frozenset[int]] = set()
    for number in (1, 2):
        boards = [g for g in games if g["round"] == number]
        assert len(boards) == 2 and all(len(g["entrants"]) == 2 for g in boards)
        # Partnerships, never the same pair twice where another is possible.
        for g in boards:
            pair = frozenset(g["entrants"])
            assert pair not in partners
            partners.add(pair)
        # Each pair's points: its rank among the round's pairs, from the tables' outcomes.
        results = []
        for g in boards:
            outcome = tables[g["table_id"]]["outcome"]
            results.append((float(max(outcome["scores"])), bool(outcome["winners"])))
        shared = partnership_points(results)
        for g, got in zip(boards, shared, strict=True):
            seats = tables[g["table_id"]]["seats"]
            for i, entrant in enumerate(g["entrants"]):
                if entrant == me:
                    # Never came: the seat went to a bot, and the game is lost.
                    assert seats[i]["forfeit"] == "away" and seats[i]["bot"] == "partner"
                    assert g["points"][i] == 0.0
                else:
                    assert g["points"][i] == got  # the partner keeps the pair's result
    seeds = [e["number"] for e in sorted(event["entrant_list"], key=lambda e: e["seed"])]
    expected = standings(
        seeds,
        [Game(g["round"], tuple(g["entrants"]), tuple(g["points"]), partners=True) for g in games],
    )
    lines = event["standings"]
    assert [line["number"] for line in lines] == [s.entrant for s in expected]
    assert [line["points"] for line in lines] == [s.points for s in expected]
    mine = next(line for line in lines if line["number"] == me)
    assert mine["points"] == 0.0 == min(line["points"] for line in lines)
