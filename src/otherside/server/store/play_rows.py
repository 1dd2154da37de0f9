"""The writes of play — a move, a table's clocks and deadlines — as rows of statements built once.

These run on every move, so they are SQLAlchemy Core statements made at import with bind
parameters: SQLAlchemy compiles each once per database and the writer
(:mod:`otherside.server.store.writer`) sends the rows of all tables in a batch as one
``executemany`` per statement. A move is the move row and the table row's update at the version
the move was made for (``expect=1``: a table another process moved on makes the write a
``StaleWrite``), plus one row per seat whose clock changed.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, bindparam, insert, update

from otherside.server.store.models import GameTable, Move, Seat
from otherside.server.store.records import Timing
from otherside.server.store.writer import Batch

TABLES = cast(Table, GameTable.__table__)
SEATS = cast(Table, Seat.__table__)
MOVES = cast(Table, Move.__table__)


def _timing_params() -> dict[str, Any]:
    return {
        "to_move": bindparam("p_to_move"),
        "turn_started_at": bindparam("p_turn_started_at"),
        "deadline_at": bindparam("p_deadline_at"),
        "reminded_at": bindparam("p_reminded_at"),
        "bots_to_act": bindparam("p_bots_to_act"),
        "updated_at": bindparam("p_now"),
    }


_AT_VERSION = (TABLES.c.id == bindparam("p_id")) & (TABLES.c.version == bindparam("p_was"))
# A move is written at the position it was made for: the version, and the count of takebacks
# (a takeback and moves through another process may bring the table back to the same version
# in another line: :mod:`otherside.server.tables.positions`).
_AT_POSITION = _AT_VERSION & (TABLES.c.takebacks == bindparam("p_takebacks"))

# A move of a game that goes on: the version, and when whose turn it is.
MOVED = (
    update(TABLES).where(_AT_POSITION).values(version=bindparam("p_version"), **_timing_params())
)
# The last move: the outcome, the whole record for downloads, and the lease ends with the game.
FINISHED = (
    update(TABLES)
    .where(_AT_POSITION)
    .values(
        version=bindparam("p_version"),
        status="over",
        outcome=bindparam("p_outcome"),
        record=bindparam("p_record"),
        lease_owner=None,
        lease_until=None,
        **_timing_params(),
    )
)
# Deadlines without a move (a reminder sent, a seat taken over by a bot).
TIMED = update(TABLES).where(_AT_VERSION).values(**_timing_params())
MOVE_ROW = insert(MOVES).values(
    table_id=bindparam("m_table"),
    number=bindparam("m_number"),
    seat=bindparam("m_seat"),
    action=bindparam("m_action"),
    played_at=bindparam("m_at"),
)
CLOCK = (
    update(SEATS)
    .where(SEATS.c.table_id == bindparam("c_table"), SEATS.c.seat == bindparam("c_seat"))
    .values(time_left_ms=bindparam("c_left"))
)


def _timing_row(table_id: str, was: int, timing: Timing, now: datetime) -> dict[str, Any]:
    return {
        "p_id": table_id,
        "p_was": was,
        "p_to_move": list(timing.to_move),
        "p_turn_started_at": timing.turn_started_at,
        "p_deadline_at": timing.deadline_at,
        "p_reminded_at": timing.reminded_at,
        "p_bots_to_act": timing.bots_to_act,
        "p_now": now,
    }


def clock_rows(table_id: str, clocks: dict[int, int | None]) -> list[dict[str, Any]]:
    """The rows of :data:`CLOCK` that set each seat's time left (ms; ``None``: no clock)."""
    return [{"c_table": table_id, "c_seat": seat, "c_left": left} for seat, left in clocks.items()]


def _clocks(batch: Batch, table_id: str, clocks: dict[int, int | None]) -> None:
    for row in clock_rows(table_id, clocks):
        batch.add(CLOCK, row, expect=1)


def add_move(
    batch: Batch,
    table_id: str,
    number: int,
    seat: int,
    action: str,
    final_record: dict[str, Any] | None,
    outcome: dict[str, Any] | None,
    timing: Timing,
    now: datetime,
    takebacks: int = 0,
) -> None:
    """Queue move ``number`` (1 = first) of ``seat``, played at ``now``, with the table's new
    version and deadlines and the clocks that changed; the write is a ``StaleWrite`` if the
    table is no longer at version ``number - 1`` after ``takebacks`` takebacks.
    ``final_record`` and ``outcome`` come with the game's last move."""
    row = _timing_row(table_id, number - 1, timing, now)
    row["p_version"] = number
    row["p_takebacks"] = takebacks
    if final_record is not None or outcome is not None:
        row.update(p_outcome=outcome, p_record=final_record)
        batch.add(FINISHED, row, expect=1)
    else:
        batch.add(MOVED, row, expect=1)
    batch.add(
        MOVE_ROW,
        {"m_table": table_id, "m_number": number, "m_seat": seat, "m_action": action, "m_at": now},
    )
    _clocks(batch, table_id, timing.clocks)


def add_timing(batch: Batch, table_id: str, version: int, timing: Timing, now: datetime) -> None:
    """Queue a table's deadlines and clocks without a move (a ``StaleWrite`` unless the table
    is still at ``version``)."""
    batch.add(TIMED, _timing_row(table_id, version, timing, now), expect=1)
    _clocks(batch, table_id, timing.clocks)
