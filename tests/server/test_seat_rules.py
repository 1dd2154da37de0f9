"""The seat rules as pure decisions (no database, no server): who may sit, add bots, start and
ask for a rematch, and the refusals' codes, parameters, statuses and words."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from otherside.server.accounts.sessions import UserInfo
from otherside.server.store.records import SeatInfo, TableInfo
from otherside.server.tables import seat_rules
from otherside.server.tables.adapters import get_adapter
from otherside.server.tables.errors import CODES, HTTP_STATUS, Refused, english
from otherside.server.tables.pace import Pace
from tests.server.conftest import ADA, BOB

NOW = datetime(2026, 1, 2, 12, 0, tzinfo=UTC)
CYD = UserInfo(3, "Cyd", True)


def _table(*seats: SeatInfo, status: str = "waiting", game: str = "verso") -> TableInfo:
    return TableInfo(
        id="t1",
        game=game,
        players=len(seats),
        options={"first_player": 0},
        status=status,
        owner_id=ADA.id,
        owner_name=ADA.name,
        seats=seats,
        version=0,
        outcome=None,
        created_at=NOW,
        pace=Pace(kind="live", minutes=10, increment=5),
    )


def _person(seat: int, user: UserInfo) -> SeatInfo:
    return SeatInfo(seat, user.id, user.name, guest=user.is_guest)


def _code(call: object, *args: object, **kwargs: object) -> Refused:
    with pytest.raises(Refused) as caught:
        call(*args, **kwargs)  # type: ignore[operator]
    return caught.value


def test_join_takes_the_first_free_seat_or_the_one_asked_for() -> None:
    table = _table(_person(0, ADA), SeatInfo(1), SeatInfo(2))
    assert seat_rules.join(table, BOB) == [SeatInfo(1, BOB.id, "Bob")]
    assert seat_rules.join(table, CYD, 2) == [SeatInfo(2, CYD.id, "Cyd", guest=True)]
    assert seat_rules.join(table, ADA) == []  # seated already: nothing changes


def test_join_refuses_a_taken_seat_and_a_full_table_naming_the_free_seats() -> None:
    table = _table(_person(0, ADA), _person(1, BOB), SeatInfo(2), SeatInfo(3))
    refused = _code(seat_rules.join, table, CYD, 1)
    assert (refused.code, refused.params) == ("seat_not_free", {"seat": 1, "free": [2, 3]})
    assert str(refused) == "seat 2 is not free; free seats: 3, 4"
    assert refused.status == 409
    full = _table(_person(0, ADA), _person(1, BOB))
    assert _code(seat_rules.join, full, CYD).code == "table_full"


def test_seats_change_only_before_the_start() -> None:
    playing = _table(_person(0, ADA), SeatInfo(1), status="playing")
    assert _code(seat_rules.join, playing, BOB).code == "seats_locked"
    assert _code(seat_rules.set_bot, playing, ADA, 1, "random").code == "seats_locked"
    assert _code(seat_rules.fill, playing, ADA, "random").code == "seats_locked"
    over = replace(playing, status="over")
    assert _code(seat_rules.leave, over, ADA).code == "game_over"


def test_leave_frees_the_seat_and_a_game_in_play_is_forfeited() -> None:
    table = _table(_person(0, ADA), _person(1, BOB))
    assert seat_rules.leave(table, BOB) == [SeatInfo(1)]
    assert seat_rules.leave(table, CYD) == []
    playing = replace(table, status="playing")
    assert seat_rules.forfeiting(playing, BOB) == 1
    assert _code(seat_rules.forfeiting, playing, CYD).code == "no_seat"
    # A player a bot replaced has no seat to give up any more.
    replaced = playing.with_seat(replace(playing.seats[1], bot="greedy", forfeit="left"))
    assert _code(seat_rules.forfeiting, replaced, BOB).code == "no_seat"


def test_only_the_host_seats_bots_in_empty_seats_of_the_table() -> None:
    table = _table(_person(0, ADA), _person(1, BOB), SeatInfo(2))
    assert seat_rules.set_bot(table, ADA, 2, "random") == [SeatInfo(2, bot="random")]
    assert seat_rules.set_bot(table, ADA, 2, None) == [SeatInfo(2)]
    refused = _code(seat_rules.set_bot, table, BOB, 2, "random")
    assert (refused.code, refused.params, refused.status) == ("not_host", {"host": "Ada"}, 403)
    assert str(refused) == "only the table's host (Ada) may do this"
    taken = _code(seat_rules.set_bot, table, ADA, 1, "random")
    assert (taken.code, str(taken)) == ("seat_taken", "seat 2 is taken by Bob")
    outside = _code(seat_rules.set_bot, table, ADA, 3, "random")
    assert (outside.code, outside.status, str(outside)) == (
        "no_such_seat",
        422,
        "no seat 3; seats are 0 to 2",
    )
    bad = _code(seat_rules.set_bot, table, ADA, 2, "nobody")
    assert bad.code == "bad_bot" and bad.status == 422 and "nobody" in str(bad)


def test_fill_puts_the_bot_in_every_empty_seat() -> None:
    table = _table(_person(0, ADA), SeatInfo(1), SeatInfo(2, bot="random"), SeatInfo(3))
    assert seat_rules.fill(table, ADA, "greedy") == [
        SeatInfo(1, bot="greedy"),
        SeatInfo(3, bot="greedy"),
    ]
    assert _code(seat_rules.fill, table, BOB, "greedy").code == "not_host"


def test_the_host_starts_once_every_seat_is_taken() -> None:
    table = _table(_person(0, ADA), SeatInfo(1), SeatInfo(2))
    refused = _code(seat_rules.check_start, table, ADA)
    assert (refused.code, refused.params) == ("seats_empty", {"seats": [1, 2]})
    assert str(refused) == "seats 2, 3 are empty: invite someone or add bots"
    one = table.with_seat(SeatInfo(1, bot="random"))
    assert str(_code(seat_rules.check_start, one, ADA)).startswith("seat 3 is empty:")
    full = one.with_seat(_person(2, BOB))
    assert _code(seat_rules.check_start, full, BOB).code == "not_host"
    seat_rules.check_start(full, ADA)
    started = replace(full, status="playing")
    assert _code(seat_rules.check_start, started, ADA).code == "already_started"


def test_a_started_table_is_rated_only_between_registered_players() -> None:
    adapter = get_adapter("verso")
    people = _table(_person(0, ADA), _person(1, BOB))
    state = adapter.new_state(2, people.options)
    start = seat_rules.started(people, adapter, state, NOW)
    assert start.rated and start.info.status == "playing" and start.info.version == 0
    assert start.info.turn_started_at == NOW and start.now == NOW
    # Changed now, as the store writes it (a bot to start the first round waits from then).
    assert start.info.updated_at == NOW
    # Both live clocks start full: ten minutes each.
    assert [s.time_left_ms for s in start.info.seats] == [600_000, 600_000]
    assert start.plan.deadline_at == NOW + timedelta(minutes=10)
    with_guest = _table(_person(0, ADA), _person(1, CYD))
    assert not seat_rules.started(with_guest, adapter, state, NOW).rated
    with_bot = _table(_person(0, ADA), SeatInfo(1, bot="random"))
    assert not seat_rules.started(with_bot, adapter, state, NOW).rated


def test_a_rematch_keeps_the_seats_and_passes_the_first_move_on() -> None:
    adapter = get_adapter("verso")
    over = _table(
        replace(_person(0, ADA), bot="greedy", forfeit="left"),
        _person(1, BOB),
        SeatInfo(2, bot="random"),
        status="over",
    )
    plan = seat_rules.rematch(over, BOB, adapter)
    assert plan is not None
    assert plan.options["first_player"] == 1
    # Ada gets her seat back (no bot in it); the bot seat stays a bot.
    assert plan.seats == [
        SeatInfo(0, ADA.id, "Ada"),
        SeatInfo(1, BOB.id, "Bob"),
        SeatInfo(2, bot="random"),
    ]
    assert seat_rules.rematch(replace(over, rematch_id="t2"), ADA, adapter) is None
    assert _code(seat_rules.rematch, over, CYD, adapter).code == "not_a_player"
    playing = replace(over, status="playing")
    assert _code(seat_rules.rematch, playing, BOB, adapter).code == "not_finished"


def test_a_rematch_of_a_game_without_a_first_player_option_swaps_the_seats() -> None:
    """VERSUS always begins with its first seat: the rematch moves everyone one seat on, so
    that the player who moved second moves first."""
    over = replace(
        _table(_person(0, ADA), _person(1, BOB), status="over", game="versus"), options={}
    )
    plan = seat_rules.rematch(over, ADA, get_adapter("versus"))
    assert plan is not None
    assert plan.seats == [SeatInfo(0, BOB.id, "Bob"), SeatInfo(1, ADA.id, "Ada")]


def test_the_host_hands_a_waiting_table_to_the_first_person_left() -> None:
    waiting = _table(_person(0, ADA), SeatInfo(1, bot="random"), _person(2, CYD))
    assert seat_rules.next_host(waiting, ADA) == _person(2, CYD)
    assert seat_rules.next_host(waiting, CYD) is None  # not the host: nothing changes
    alone = _table(_person(0, ADA), SeatInfo(1, bot="random"))
    assert seat_rules.next_host(alone, ADA) is None


def test_a_new_table_takes_only_what_its_game_offers() -> None:
    options, pace = seat_rules.new_table("versus", 2, {}, None)
    # VERSUS has no options of its own: only the table's (bot accounts welcome by default).
    assert pace.kind == "turn" and options == {"bot_accounts": True}
    refused = _code(seat_rules.new_table, "versus", 3, {}, None)
    assert refused.code == "bad_request" and refused.status == 422
    assert str(refused) == "VERSUS is for 2 players, not 3"
    assert _code(seat_rules.new_table, "chess", 2, {}, None).code == "bad_request"
    assert _code(seat_rules.new_table, "verso", 2, {"nope": 1}, None).code == "bad_request"


def test_every_refusal_has_a_status_and_words_and_unknown_codes_are_refused() -> None:
    assert set(HTTP_STATUS) == set(CODES)
    assert all(
        status in (403, 404, 409, 422, 429) for status in HTTP_STATUS.values() if status < 500
    )
    # A move the database could not store: the client may try again (503, not the client's fault).
    assert {code for code, status in HTTP_STATUS.items() if status >= 500} == {"server_error"}
    assert english("no_table", {"table": "x"}) == "no table 'x'"
    too_many = Refused("too_many_tables", most=3)
    assert too_many.status == 429 and "3 open tables" in str(too_many)
    with pytest.raises(ValueError, match="unknown refusal code 'nope'"):
        Refused("nope")
