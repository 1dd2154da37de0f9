"""The clocks of a table after each change, as pure functions of what is stored.

A table in play keeps: the seats that may act (``to_move``), when the current turn began
(``turn_started_at``), each live player's time left when it began (``Seat.time_left_ms``),
whether the player to move was reminded this turn, and ``deadline_at``: the next moment the
scheduler must act. That moment is the earliest of: the waited-on player's time running out
(:meth:`Pace.deadline`), their reminder (turn-based), and the game's own timer (a Recto Verso
round, :func:`otherside.core.simultaneous.deadline`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from otherside.core.game import State
from otherside.core.simultaneous import actors, deadline
from otherside.server.store.records import SeatInfo, TableInfo, Timing
from otherside.server.tables.pace import Pace


def waiting_on(seats: Sequence[SeatInfo], to_move: Sequence[int]) -> int | None:
    """The single human seat a table waits for (its clock runs), else ``None``."""
    if len(to_move) != 1:
        return None
    seat = to_move[0]
    return seat if seats[seat].human else None


def game_deadline(state: State) -> datetime | None:
    """The game's own timer as a moment (its clock reads the server's, in epoch seconds)."""
    moment = deadline(state)
    return datetime.fromtimestamp(moment, UTC) if moment is not None else None


def next_deadline(
    pace: Pace,
    seats: Sequence[SeatInfo],
    to_move: Sequence[int],
    turn_started_at: datetime | None,
    reminded_at: datetime | None,
    game_timer: datetime | None,
) -> datetime | None:
    """The earliest moment something is due at the table, or ``None``."""
    due = [game_timer] if game_timer is not None else []
    seat = waiting_on(seats, to_move)
    if seat is not None and turn_started_at is not None:
        end = pace.deadline(turn_started_at, seats[seat].time_left_ms)
        if end is not None:
            due.append(end)
        reminder = pace.reminder(turn_started_at)
        if reminder is not None and reminded_at is None:
            due.append(reminder)
    return min(due) if due else None


def starting(pace: Pace, seats: Sequence[SeatInfo], state: State, now: datetime) -> Timing:
    """The clocks when a game starts: every human's bank full, the first turn begun now."""
    clocks = {s.seat: pace.bank_ms for s in seats if s.human}
    filled = [
        SeatInfo(s.seat, s.user_id, s.user_name, s.bot, s.guest, clocks.get(s.seat), s.forfeit)
        for s in seats
    ]
    to_move = actors(state)
    return Timing(
        to_move=to_move,
        turn_started_at=now,
        deadline_at=next_deadline(pace, filled, to_move, now, None, game_deadline(state)),
        reminded_at=None,
        clocks=clocks,
        bots_to_act=any(seats[s].bot is not None for s in to_move),
    )


def after_action(info: TableInfo, seat: int | None, state: State, now: datetime) -> Timing:
    """The clocks after ``seat`` acted (``None``: a change that is no action, such as a seat
    taken over by a bot) leading to ``state``.

    The acting player's live clock is charged for their turn and gains the increment, if the
    table was waiting on them alone. A new turn begins when the seats that may act change, or
    when the waited-on player acted; a new turn has not been reminded yet.
    """
    pace = info.pace
    clocks: dict[int, int | None] = {}
    waited = info.waiting_on()
    if (
        seat is not None
        and seat == waited
        and pace.kind == "live"
        and info.turn_started_at is not None
    ):
        left = info.seats[seat].time_left_ms or 0
        clocks[seat] = pace.after_move(left, now - info.turn_started_at)
    to_move = () if state.is_over else actors(state)
    new_turn = tuple(to_move) != tuple(info.to_move) or (seat is not None and seat == waited)
    started = now if new_turn or info.turn_started_at is None else info.turn_started_at
    reminded = None if new_turn else info.reminded_at
    seats = [
        SeatInfo(s.seat, s.user_id, s.user_name, s.bot, s.guest, clocks[s.seat], s.forfeit)
        if s.seat in clocks
        else s
        for s in info.seats
    ]
    due = (
        None
        if state.is_over
        else next_deadline(pace, seats, to_move, started, reminded, game_deadline(state))
    )
    return Timing(
        to_move=tuple(to_move),
        turn_started_at=started,
        deadline_at=due,
        reminded_at=reminded,
        clocks=clocks,
        bots_to_act=any(seats[s].bot is not None for s in to_move),
    )


def time_left(info: TableInfo, seat: int, now: datetime) -> int | None:
    """A live player's time left now, in ms (``None`` without a clock)."""
    left = info.seats[seat].time_left_ms
    if left is None or info.pace.kind != "live":
        return left
    if info.waiting_on() == seat and info.turn_started_at is not None:
        spent = round((now - info.turn_started_at).total_seconds() * 1000)
        return max(0, left - spent)
    return left


def out_of_time(info: TableInfo, now: datetime) -> int | None:
    """The waited-on seat whose time has run out by ``now``, if any."""
    seat = info.waiting_on()
    if seat is None or info.turn_started_at is None:
        return None
    end = info.pace.deadline(info.turn_started_at, info.seats[seat].time_left_ms)
    return seat if end is not None and now >= end else None


def reminder_due(info: TableInfo, now: datetime) -> int | None:
    """The waited-on seat to remind now (turn-based, not yet reminded this turn), if any."""
    seat = info.waiting_on()
    if seat is None or info.turn_started_at is None or info.reminded_at is not None:
        return None
    moment = info.pace.reminder(info.turn_started_at)
    return seat if moment is not None and now >= moment else None


def with_timing(info: TableInfo, plan: Timing, **changes: Any) -> TableInfo:
    """``info`` after its clocks and deadlines became ``plan`` (and its other fields
    ``changes``: one copy of the table's record rather than two on every move)."""
    seats = tuple(
        replace(s, time_left_ms=plan.clocks[s.seat]) if s.seat in plan.clocks else s
        for s in info.seats
    )
    return replace(
        info,
        seats=seats,
        to_move=plan.to_move,
        turn_started_at=plan.turn_started_at,
        deadline_at=plan.deadline_at,
        reminded_at=plan.reminded_at,
        **changes,
    )
