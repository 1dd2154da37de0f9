"""What the event tests check alike: the standings an event shows are those of its games."""

from __future__ import annotations

from typing import Any

from otherside.server.tournaments.results import Game
from otherside.server.tournaments.standings import standings


def assert_standings_of_games(event: dict[str, Any], games: list[dict[str, Any]]) -> None:
    """``event``'s standings (order, points, Buchholz) are those computed from ``games`` as
    played, seeded as its entrants were."""
    seeds = [e["number"] for e in sorted(event["entrant_list"], key=lambda e: e["seed"])]
    expected = standings(
        seeds, [Game(g["round"], tuple(g["entrants"]), tuple(g["points"])) for g in games]
    )
    lines = event["standings"]
    assert [line["number"] for line in lines] == [s.entrant for s in expected]
    assert [line["points"] for line in lines] == [s.points for s in expected]
    assert [line["buchholz"] for line in lines] == [round(s.buchholz, 3) for s in expected]
