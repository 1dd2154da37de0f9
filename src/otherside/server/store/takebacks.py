"""The writes of a takeback: the request asked or answered (kept on the table's row, so that
every server process sees it and it outlives a restart), and the table going back to an earlier
version — the moves after it are deleted, the version and the clocks set as they are now, the
request cleared, the table's count of takebacks raised by one — in one transaction. Each is
decided on the version the table was at and the request as it was read: another process's move
or answer first makes it a ``StaleWrite``.

A takeback is rare (unrated duels, both players agreeing), so these are plain statements built
once, without the move path's batching of many tables' rows.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, bindparam, delete, update

from otherside.server.store.models import GameTable, Move, Seat
from otherside.server.store.records import TakebackRequest, Timing
from otherside.server.store.writer import Batch

TABLES = cast(Table, GameTable.__table__)
MOVES = cast(Table, Move.__table__)
SEATS = cast(Table, Seat.__table__)

BACK = (
    update(TABLES)
    .where(
        (TABLES.c.id == bindparam("t_id"))
        & (TABLES.c.version == bindparam("t_was"))
        # Only while the request is open: one declined through another process first is gone.
        & (TABLES.c.takeback_version == TABLES.c.version)
    )
    .values(
        version=bindparam("t_version"),
        to_move=bindparam("t_to_move"),
        turn_started_at=bindparam("t_turn_started_at"),
        deadline_at=bindparam("t_deadline_at"),
        reminded_at=bindparam("t_reminded_at"),
        bots_to_act=bindparam("t_bots_to_act"),
        updated_at=bindparam("t_now"),
        takeback_seat=None,
        takeback_version=None,
        takeback_plies=None,
        takebacks=TABLES.c.takebacks + 1,
    )
)
_AT = (TABLES.c.id == bindparam("r_id")) & (TABLES.c.version == bindparam("r_version"))
# Asked only while no request is open at this version (one asked at an earlier one lapsed).
ASK = (
    update(TABLES)
    .where(
        _AT
        & (TABLES.c.takeback_version.is_(None) | (TABLES.c.takeback_version != TABLES.c.version))
    )
    .values(
        takeback_seat=bindparam("r_seat"),
        takeback_version=TABLES.c.version,
        takeback_plies=bindparam("r_plies"),
    )
)
# Answered only while that very request is open.
ANSWER = (
    update(TABLES)
    .where(
        _AT
        & (TABLES.c.takeback_version == TABLES.c.version)
        & (TABLES.c.takeback_seat == bindparam("r_seat"))
    )
    .values(takeback_seat=None, takeback_version=None, takeback_plies=None)
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
    ``version`` forgotten, its turn and deadlines ``timing``, its request cleared (a
    ``StaleWrite`` unless the table is still at ``was`` with a request open)."""
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


def add_request(batch: Batch, table_id: str, request: TakebackRequest) -> None:
    """Queue ``request`` on table ``table_id`` (a ``StaleWrite`` unless the table is still at
    the request's version with no request open)."""
    row = {
        "r_id": table_id,
        "r_version": request.version,
        "r_seat": request.seat,
        "r_plies": request.plies,
    }
    batch.add(ASK, row, expect=1)


def add_answer(batch: Batch, table_id: str, request: TakebackRequest) -> None:
    """Queue the end of ``request`` on table ``table_id``, declined (a ``StaleWrite`` unless
    it is still open)."""
    row = {"r_id": table_id, "r_version": request.version, "r_seat": request.seat}
    batch.add(ANSWER, row, expect=1)
