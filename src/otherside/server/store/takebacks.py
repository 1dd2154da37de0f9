"""The write of a takeback: the table goes back to an earlier version — the moves after it are
deleted, the version and the clocks set as they are now — in one transaction, decided on the
version the table was at (another process's move first makes it a ``StaleWrite``).

A takeback is rare (unrated duels, both players agreeing), so these are plain statements built
once, without the move path's batching of many tables' rows.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, bindparam, delete, update

from otherside.server.store.models import GameTable, Move, Seat
from otherside.server.store.records import Timing
from otherside.server.store.writer import Batch

TABLES = cast(Table, GameTable.__table__)
MOVES = cast(Table, Move.__table__)
SEATS = cast(Table, Seat.__table__)

BACK = (
    update(TABLES)
    .where((TABLES.c.id == bindparam("t_id")) & (TABLES.c.version == bindparam("t_was")))
    .values(
        version=bindparam("t_version"),
        to_move=bindparam("t_to_move"),
        turn_started_at=bindparam("t_turn_started_at"),
        deadline_at=bindparam("t_deadline_at"),
        reminded_at=bindparam("t_reminded_at"),
        bots_to_act=bindparam("t_bots_to_act"),
        updated_at=bindparam("t_now"),
    )
)
FORGET = delete(MOVES).where(
    (MOVES.c.table_id == bindparam("f_table")) & (MOVES.c.number > bindparam("f_after"))
)
CLOCK = (
    update(SEATS)
    .where(SEATS.c.table_id == bindparam("k_table"), SEATS.c.seat == bindparam("k_seat"))
    .values(time_left_ms=bindparam("k_left"))
)


def add_takeback(
    batch: Batch, table_id: str, was: int, version: int, timing: Timing, now: datetime
) -> None:
    """Queue table ``table_id``'s return from version ``was`` to ``version``: its moves after
    ``version`` forgotten, its turn and deadlines ``timing`` (a ``StaleWrite`` unless the
    table is still at ``was``)."""
    row: dict[str, Any] = {
        "t_id": table_id,
        "t_was": was,
        "t_version": version,
        "t_to_move": list(timing.to_move),
        "t_turn_started_at": timing.turn_started_at,
        "t_deadline_at": timing.deadline_at,
        "t_reminded_at": timing.reminded_at,
        "t_bots_to_act": timing.bots_to_act,
        "t_now": now,
    }
    batch.add(BACK, row, expect=1)
    batch.add(FORGET, {"f_table": table_id, "f_after": version})
    for seat, left in timing.clocks.items():
        batch.add(CLOCK, {"k_table": table_id, "k_seat": seat, "k_left": left}, expect=1)
