"""What a finished table gives an event (the director's reading of it, pure), and an unrated
event's tables starting unrated."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from otherside.server.accounts.sessions import UserInfo
from otherside.server.store.records import SeatInfo, TableInfo
from otherside.server.tables import seat_rules
from otherside.server.tables.adapters import get_adapter
from otherside.server.tournaments.director import read_result

NOW = datetime(2026, 1, 2, 12, 0, tzinfo=UTC)


def _over(outcome: dict[str, Any], *seats: SeatInfo, game: str = "verso") -> TableInfo:
    return TableInfo(
        id="t1",
        game=game,
        players=len(seats),
        options={},
        status="over",
        owner_id=1,
        owner_name="Host",
        seats=seats,
        version=9,
        outcome=outcome,
        created_at=NOW,
    )


def test_a_duel_gives_the_winner_the_point_and_a_draw_halves() -> None:
    won = _over({"scores": [0, 0], "winners": [1]}, SeatInfo(0, 1, "a"), SeatInfo(1, 2, "b"))
    assert read_result(won, partners=False)[1] == [0.0, 1.0]
    drawn = _over({"scores": [3, 3], "winners": []}, SeatInfo(0, 1, "a"), SeatInfo(1, 2, "b"))
    assert read_result(drawn, partners=False)[1] == [0.5, 0.5]


def test_a_seat_given_up_ranks_last_whatever_its_bot_scored() -> None:
    # Seat 0 timed out, a bot played it on and scored most: the player still ranks last.
    seats = (
        SeatInfo(0, 1, "a", bot="greedy", forfeit="timeout"),
        SeatInfo(1, 2, "b"),
        SeatInfo(2, bot="random"),
    )
    result, points = read_result(_over({"scores": [30, 20, 10], "winners": [0]}, *seats), False)
    assert points == [0.0, 1.0, 0.5]
    assert result["forfeits"] == [0]


def test_a_partnership_waits_for_the_round_with_its_score() -> None:
    seats = (SeatInfo(0, 1, "a"), SeatInfo(1, 2, "b"))
    result, points = read_result(
        _over({"scores": [7, 7], "winners": [0, 1]}, *seats, game="rectoverso"), True
    )
    assert points is None and result == {"score": 7.0, "won": True, "forfeits": []}
    aborted = _over({"scores": [2, 2], "winners": [], "aborted": "stopped"}, *seats)
    assert read_result(aborted, True)[0]["won"] is False


def test_a_partner_who_was_away_loses_and_the_present_one_keeps_the_pairs_result() -> None:
    # Seat 1 never came: a bot built with seat 0 and the pair cleared its levels.
    seats = (SeatInfo(0, 1, "a"), SeatInfo(1, 2, "b", bot="partner", forfeit="away"))
    result, _ = read_result(
        _over({"scores": [5, 5], "winners": [0, 1]}, *seats, game="rectoverso"), True
    )
    assert result == {"score": 5.0, "won": True, "forfeits": [1]}
    # Nobody of the pair came: ranked below every pair that played.
    gone = (
        SeatInfo(0, 1, "a", bot="partner", forfeit="away"),
        SeatInfo(1, 2, "b", bot="partner", forfeit="away"),
    )
    nobody, _ = read_result(
        _over({"scores": [7, 7], "winners": [0, 1]}, *gone, game="rectoverso"), True
    )
    assert nobody == {"score": -1.0, "won": False, "forfeits": [0, 1]}


def test_an_unrated_event_starts_unrated_tables() -> None:
    adapter = get_adapter("versus")
    ada, bob = UserInfo(1, "Ada", False), UserInfo(2, "Bob", False)
    table = TableInfo(
        id="t1",
        game="versus",
        players=2,
        options={},
        status="waiting",
        owner_id=ada.id,
        owner_name=ada.name,
        seats=(SeatInfo(0, ada.id, ada.name), SeatInfo(1, bob.id, bob.name)),
        version=0,
        outcome=None,
        created_at=NOW,
    )
    state = adapter.new_state(2, {})
    assert seat_rules.started(table, adapter, state, NOW).rated
    assert not seat_rules.started(table, adapter, state, NOW, may_rate=False).rated
