"""Writing tables in the database (blocking functions, each in the caller's transaction; the
store of :mod:`.tables` runs them in a batch of its writer; the writes of play, which run on
every move, are rows of :mod:`.play_rows` instead). A write decided on what a process
knew of a table checks that the database still agrees, and raises :class:`StaleWrite` if not.

A table's life around its moves (made, seated, started) runs once or twice a game, and games
can be short: these are SQLAlchemy Core statements built once, at import, with bind parameters,
sent on the transaction's connection (no ORM unit of work, no statement compiled per call).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime
from functools import cache
from typing import Any, cast

from sqlalchemy import Connection, Table, bindparam, insert, select, update
from sqlalchemy.orm import Session

from otherside.server.store.models import ChatLine, GameTable, Seat, User
from otherside.server.store.play_rows import CLOCK, clock_rows
from otherside.server.store.records import SeatInfo, StaleWrite, Timing
from otherside.server.tables.pace import Pace

TABLES = cast(Table, GameTable.__table__)
SEATS = cast(Table, Seat.__table__)

_ID_TAKEN = select(TABLES.c.id).where(TABLES.c.id == bindparam("t_id"))
_NEW_TABLE = insert(TABLES)
_NEW_SEAT = insert(SEATS)
# The table row locked until the transaction ends, then its seats read in a statement of
# their own: on PostgreSQL that one sees what a writer the lock waited for committed.
_LOCKED_STATUS = select(TABLES.c.status).where(TABLES.c.id == bindparam("t_id")).with_for_update()
_SEATS_OF = (
    select(SEATS.c.seat, SEATS.c.user_id, SEATS.c.bot)
    .where(SEATS.c.table_id == bindparam("t_id"))
    .order_by(SEATS.c.seat)
)
_SEAT = (
    update(SEATS)
    .where(SEATS.c.table_id == bindparam("t_id"), SEATS.c.seat == bindparam("s_seat"))
    .values(
        user_id=bindparam("s_user"),
        bot=bindparam("s_bot"),
        forfeit=bindparam("s_forfeit"),
        time_left_ms=bindparam("s_left"),
    )
)
_TOUCHED = (
    update(TABLES).where(TABLES.c.id == bindparam("t_id")).values(updated_at=bindparam("t_now"))
)
_HOST = update(TABLES).where(TABLES.c.id == bindparam("t_id")).values(owner_id=bindparam("t_owner"))


Writable = Session | Connection
"""Where a write goes: a session's transaction, or a connection's (the writer's batches,
which need no ORM session for these Core statements)."""


def _connection(db: Writable) -> Connection:
    return db.connection() if isinstance(db, Session) else db


def create_table(
    db: Writable,
    owner_id: int,
    game: str,
    players: int,
    options: dict[str, Any],
    pace: Pace,
    now: datetime,
    seats: Sequence[SeatInfo] = (),
) -> str:
    """Insert a waiting table with the owner in seat 0, or with ``seats`` (a rematch, an event's
    board, started at once by :mod:`.boards`); its new id."""
    connection = _connection(db)
    while True:
        table_id = secrets.token_urlsafe(6)
        if connection.execute(_ID_TAKEN, {"t_id": table_id}).first() is None:
            break
    connection.execute(
        _NEW_TABLE,
        {
            "id": table_id,
            "game": game,
            "players": players,
            "options": options,
            "pace": pace.to_json(),
            "status": "waiting",
            "owner_id": owner_id,
            "version": 0,
            "created_at": now,
            "updated_at": now,
        },
    )
    if seats:
        rows = [{"seat": s.seat, "user_id": s.user_id, "bot": s.bot} for s in seats]
    else:
        rows = [
            {"seat": i, "user_id": owner_id if i == 0 else None, "bot": None}
            for i in range(players)
        ]
    connection.execute(_NEW_SEAT, [{"table_id": table_id, **row} for row in rows])
    return table_id


def save_rematch(db: Writable, table_id: str, rematch_id: str) -> bool:
    """Link a finished table to its rematch, unless it has one already (then ``False``)."""
    done = _connection(db).execute(
        update(GameTable)
        .where(GameTable.id == table_id, GameTable.rematch_id.is_(None))
        .values(rematch_id=rematch_id)
    )
    return bool(done.rowcount)


def check_seats(db: Writable, table_id: str, status: str, seats: tuple[SeatInfo, ...]) -> None:
    """Lock the table's row until the transaction ends, and raise :class:`StaleWrite` unless its
    status and who sits where are still ``status`` and ``seats``: another server process may
    have changed them since this one read them (PostgreSQL; one process on SQLite)."""
    connection = _connection(db)
    found = connection.execute(_LOCKED_STATUS, {"t_id": table_id}).scalar()
    rows = connection.execute(_SEATS_OF, {"t_id": table_id}).all()
    seen = [(s.seat, s.user_id, s.bot) for s in seats]
    if found != status or [tuple(row) for row in rows] != seen:
        raise StaleWrite(f"table {table_id} changed in another process")


# Shared locks: two writes seating one account never wait on each other; a declaration that the
# account is a bot (``POST /api/account/bot``, which locks the row for update) waits for them.
_BOT_FLAGS = (
    select(User.id, User.is_bot)
    .where(User.id.in_(bindparam("u_ids", expanding=True)))
    .order_by(User.id)
    .with_for_update(read=True)
)


def check_accounts(db: Writable, seats: Sequence[SeatInfo]) -> None:
    """Lock the rows of the accounts that ``seats`` sit down (shared, until the transaction
    ends), and raise :class:`StaleWrite` unless each is still a program's or a person's as the
    seat says: the account may have been declared a bot since the flag the decision read was
    cached (and a declaration at the same moment, which finds the seat once this commits,
    waits for it)."""
    said = {s.user_id: s.bot_account for s in seats if s.user_id is not None}
    if not said:
        return
    rows = _connection(db).execute(_BOT_FLAGS, {"u_ids": sorted(said)}).all()
    if any(bool(is_bot) != said[user_id] for user_id, is_bot in rows):
        raise StaleWrite("an account seated was declared a bot meanwhile")


def save_seats(db: Writable, table_id: str, seats: Sequence[SeatInfo], now: datetime) -> None:
    """Write seats (user, bot, empty; a forfeit and the bot replacing the player): one
    statement for them all, and the table's ``updated_at``."""
    if not seats:
        return
    connection = _connection(db)
    connection.execute(
        _SEAT,
        [
            {
                "t_id": table_id,
                "s_seat": seat.seat,
                "s_user": seat.user_id,
                "s_bot": seat.bot,
                "s_forfeit": seat.forfeit,
                "s_left": seat.time_left_ms,
            }
            for seat in seats
        ],
    )
    connection.execute(_TOUCHED, {"t_id": table_id, "t_now": now})


def save_seat(db: Writable, table_id: str, seat: SeatInfo, now: datetime) -> None:
    """Write one seat (see :func:`save_seats`)."""
    save_seats(db, table_id, [seat], now)


def save_host(db: Writable, table_id: str, user_id: int) -> None:
    """Make ``user_id`` the host of a waiting table (its host left)."""
    _connection(db).execute(_HOST, {"t_id": table_id, "t_owner": user_id})


def _save_clocks(db: Writable, table_id: str, clocks: dict[int, int | None]) -> None:
    if clocks:
        _connection(db).execute(CLOCK, clock_rows(table_id, clocks))


@cache
def _started(timing_columns: tuple[str, ...]) -> Any:
    """The update that starts a waiting table, with these timing columns (built once)."""
    return (
        update(TABLES)
        .where(TABLES.c.id == bindparam("t_id"), TABLES.c.status == "waiting")
        .values(
            status="playing",
            options=bindparam("t_options"),
            initial_record=bindparam("t_initial"),
            record=bindparam("t_record"),
            version=0,
            rated=bindparam("t_rated"),
            updated_at=bindparam("t_now"),
            **{name: bindparam(f"p_{name}") for name in timing_columns},
        )
    )


def save_start(
    db: Writable,
    table_id: str,
    options: dict[str, Any],
    record: dict[str, Any],
    rated: bool,
    timing: Timing,
    now: datetime,
) -> None:
    """Mark the table as playing, with the game's first record, its rating and its clocks."""
    columns = timing.values()
    done = _connection(db).execute(
        _started(tuple(columns)),
        {
            "t_id": table_id,
            "t_options": options,
            "t_initial": record,
            "t_record": record,
            "t_rated": rated,
            "t_now": now,
            **{f"p_{name}": value for name, value in columns.items()},
        },
    )
    if done.rowcount != 1:
        raise StaleWrite(f"table {table_id} was not waiting")
    _save_clocks(db, table_id, timing.clocks)


def save_end(
    db: Writable,
    table_id: str,
    version: int,
    outcome: dict[str, Any],
    record: dict[str, Any],
    now: datetime,
) -> None:
    """End a game without a move (a forfeit in a two-player game): its outcome and record."""
    done = _connection(db).execute(
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
    if done.rowcount != 1:
        raise StaleWrite(f"table {table_id} is not at version {version} in the database")


def save_chat(
    session: Session, table_id: str, user: Any, seat: int | None, text: str, now: datetime
) -> None:
    """Store one chat line of ``user`` (a ``UserInfo``)."""
    session.add(
        ChatLine(table_id=table_id, user_id=user.id, name=user.name, seat=seat, text=text, at=now)
    )
