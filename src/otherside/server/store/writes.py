"""Writing tables in the database (blocking functions, each in the caller's transaction; the
store of :mod:`.tables` runs them in a batch of its writer; the writes of play, which run on
every move, are rows of :mod:`.play_rows` instead). A write decided on what a process
knew of a table checks that the database still agrees, and raises :class:`StaleWrite` if not.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from otherside.server.store.models import ChatLine, GameTable, Seat
from otherside.server.store.records import SeatInfo, StaleWrite, Timing
from otherside.server.tables.pace import Pace


def create_table(
    session: Session,
    owner_id: int,
    game: str,
    players: int,
    options: dict[str, Any],
    pace: Pace,
    now: datetime,
    seats: Sequence[SeatInfo] = (),
) -> str:
    """Insert a waiting table with the owner in seat 0, or with ``seats`` (a rematch); its
    new id."""
    while True:
        table_id = secrets.token_urlsafe(6)
        if session.get(GameTable, table_id) is None:
            break
    row = GameTable(
        id=table_id,
        game=game,
        players=players,
        options=options,
        pace=pace.to_json(),
        status="waiting",
        owner_id=owner_id,
        version=0,
        created_at=now,
        updated_at=now,
    )
    if seats:
        row.seats = [Seat(seat=s.seat, user_id=s.user_id, bot=s.bot) for s in seats]
    else:
        row.seats = [Seat(seat=i, user_id=owner_id if i == 0 else None) for i in range(players)]
    session.add(row)
    return table_id


def save_rematch(session: Session, table_id: str, rematch_id: str) -> bool:
    """Link a finished table to its rematch, unless it has one already (then ``False``)."""
    done = session.execute(
        update(GameTable)
        .where(GameTable.id == table_id, GameTable.rematch_id.is_(None))
        .values(rematch_id=rematch_id)
    )
    return bool(done.rowcount)  # type: ignore[attr-defined]


def check_seats(session: Session, table_id: str, status: str, seats: tuple[SeatInfo, ...]) -> None:
    """Lock the table's row until the transaction ends, and raise :class:`StaleWrite` unless its
    status and who sits where are still ``status`` and ``seats``: another server process may
    have changed them since this one read them (PostgreSQL; one process on SQLite)."""
    found = session.scalar(
        select(GameTable.status).where(GameTable.id == table_id).with_for_update()
    )
    rows = session.execute(
        select(Seat.seat, Seat.user_id, Seat.bot)
        .where(Seat.table_id == table_id)
        .order_by(Seat.seat)
    ).all()
    seen = [(s.seat, s.user_id, s.bot) for s in seats]
    if found != status or [tuple(row) for row in rows] != seen:
        raise StaleWrite(f"table {table_id} changed in another process")


def save_seat(session: Session, table_id: str, seat: SeatInfo, now: datetime) -> None:
    """Write one seat (user, bot, empty; a forfeit and the bot replacing the player)."""
    session.execute(
        update(Seat)
        .where(Seat.table_id == table_id, Seat.seat == seat.seat)
        .values(
            user_id=seat.user_id,
            bot=seat.bot,
            forfeit=seat.forfeit,
            time_left_ms=seat.time_left_ms,
        )
    )
    session.execute(update(GameTable).where(GameTable.id == table_id).values(updated_at=now))


def save_host(session: Session, table_id: str, user_id: int) -> None:
    """Make ``user_id`` the host of a waiting table (its host left)."""
    session.execute(update(GameTable).where(GameTable.id == table_id).values(owner_id=user_id))


def _save_clocks(session: Session, table_id: str, clocks: dict[int, int | None]) -> None:
    for seat, left in clocks.items():
        session.execute(
            update(Seat)
            .where(Seat.table_id == table_id, Seat.seat == seat)
            .values(time_left_ms=left)
        )


def save_start(
    session: Session,
    table_id: str,
    options: dict[str, Any],
    record: dict[str, Any],
    rated: bool,
    timing: Timing,
    now: datetime,
) -> None:
    """Mark the table as playing, with the game's first record, its rating and its clocks."""
    done = session.execute(
        update(GameTable)
        .where(GameTable.id == table_id, GameTable.status == "waiting")
        .values(
            status="playing",
            options=options,
            initial_record=record,
            record=record,
            version=0,
            rated=rated,
            updated_at=now,
            **timing.values(),
        )
    )
    if done.rowcount != 1:  # type: ignore[attr-defined]
        raise StaleWrite(f"table {table_id} was not waiting")
    _save_clocks(session, table_id, timing.clocks)


def save_end(
    session: Session,
    table_id: str,
    version: int,
    outcome: dict[str, Any],
    record: dict[str, Any],
    now: datetime,
) -> None:
    """End a game without a move (a forfeit in a two-player game): its outcome and record."""
    done = session.execute(
        update(GameTable)
        .where(GameTable.id == table_id, GameTable.version == version)
        .values(
            status="over",
            outcome=outcome,
            record=record,
            to_move=[],
            deadline_at=None,
            bots_to_act=False,
            lease_owner=None,
            lease_until=None,
            updated_at=now,
        )
    )
    if done.rowcount != 1:  # type: ignore[attr-defined]
        raise StaleWrite(f"table {table_id} is not at version {version} in the database")


def save_chat(
    session: Session, table_id: str, user: Any, seat: int | None, text: str, now: datetime
) -> None:
    """Store one chat line of ``user`` (a ``UserInfo``)."""
    session.add(
        ChatLine(table_id=table_id, user_id=user.id, name=user.name, seat=seat, text=text, at=now)
    )
