"""Reading and writing tables in the database (blocking functions run via ``Database.run``).

Everything here takes a SQLAlchemy session and returns plain data (:class:`TableInfo`), so no
ORM object ever crosses from the database thread to the event loop.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.orm import Session, selectinload

from otherside.server.models import GameTable, Move, Seat, User, utcnow
from otherside.server.protocol import SeatOut, TableOut

LIST_LIMIT = 50


class StaleWrite(RuntimeError):
    """The table's version in the database is not the one the server applied an action to."""


@dataclass(frozen=True)
class SeatInfo:
    """One seat: empty, a user (id and name) or a bot (registry name)."""

    seat: int
    user_id: int | None = None
    user_name: str | None = None
    bot: str | None = None

    @property
    def empty(self) -> bool:
        """Nobody and no bot sits here."""
        return self.user_id is None and self.bot is None

    def to_out(self) -> SeatOut:
        """The wire form."""
        if self.bot is not None:
            return SeatOut(
                seat=self.seat,
                kind="bot",
                name=f"{self.bot.capitalize()} bot {self.seat + 1}",
                bot=self.bot,
            )
        if self.user_id is not None:
            return SeatOut(seat=self.seat, kind="human", name=self.user_name, user_id=self.user_id)
        return SeatOut(seat=self.seat, kind="empty", name=None)


@dataclass(frozen=True)
class TableInfo:
    """A table as stored, without its game state."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    status: str
    owner_id: int
    owner_name: str
    seats: tuple[SeatInfo, ...]
    version: int
    outcome: dict[str, Any] | None
    created_at: datetime
    record: dict[str, Any] | None = field(default=None, compare=False, repr=False)

    def seat_of(self, user_id: int | None) -> int | None:
        """The seat of ``user_id`` at this table, if seated."""
        if user_id is None:
            return None
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def with_seat(self, seat: SeatInfo) -> TableInfo:
        """This table with one seat replaced."""
        seats = tuple(seat if s.seat == seat.seat else s for s in self.seats)
        return replace(self, seats=seats)

    def to_out(self, title: str) -> TableOut:
        """The wire form (``title`` is the game's display name)."""
        return TableOut(
            id=self.id,
            game=self.game,
            title=title,
            players=self.players,
            options=self.options,
            status=self.status,  # type: ignore[arg-type]
            owner=self.owner_name,
            owner_id=self.owner_id,
            seats=[s.to_out() for s in self.seats],
            version=self.version,
            outcome=self.outcome,
            created_at=self.created_at.isoformat(),
        )


def _info(row: GameTable, owner: str, with_record: bool = False) -> TableInfo:
    seats = tuple(
        SeatInfo(s.seat, s.user_id, s.user.name if s.user else None, s.bot) for s in row.seats
    )
    return TableInfo(
        id=row.id,
        game=row.game,
        players=row.players,
        options=dict(row.options or {}),
        status=row.status,
        owner_id=row.owner_id,
        owner_name=owner,
        seats=seats,
        version=row.version,
        outcome=row.outcome,
        created_at=row.created_at,
        record=row.record if with_record else None,
    )


def _owner_name(session: Session, owner_id: int) -> str:
    return session.scalar(select(User.name).where(User.id == owner_id)) or "?"


def load_table(session: Session, table_id: str, with_record: bool = False) -> TableInfo | None:
    """The table ``table_id`` (and its record if asked), or ``None``."""
    row = session.scalar(
        select(GameTable)
        .where(GameTable.id == table_id)
        .options(selectinload(GameTable.seats).selectinload(Seat.user))
    )
    if row is None:
        return None
    return _info(row, _owner_name(session, row.owner_id), with_record)


def create_table(
    session: Session, owner_id: int, game: str, players: int, options: dict[str, Any]
) -> str:
    """Insert a waiting table with the owner in seat 0; its new id."""
    while True:
        table_id = secrets.token_urlsafe(6)
        if session.get(GameTable, table_id) is None:
            break
    now = utcnow()
    row = GameTable(
        id=table_id,
        game=game,
        players=players,
        options=options,
        status="waiting",
        owner_id=owner_id,
        version=0,
        created_at=now,
        updated_at=now,
    )
    row.seats = [Seat(seat=i, user_id=owner_id if i == 0 else None) for i in range(players)]
    session.add(row)
    return table_id


def save_seat(session: Session, table_id: str, seat: SeatInfo) -> None:
    """Write one seat (user, bot or empty)."""
    session.execute(
        update(Seat)
        .where(Seat.table_id == table_id, Seat.seat == seat.seat)
        .values(user_id=seat.user_id, bot=seat.bot)
    )
    session.execute(update(GameTable).where(GameTable.id == table_id).values(updated_at=utcnow()))


def save_start(
    session: Session, table_id: str, options: dict[str, Any], record: dict[str, Any]
) -> None:
    """Mark the table as playing, with the game's first record."""
    done = session.execute(
        update(GameTable)
        .where(GameTable.id == table_id, GameTable.status == "waiting")
        .values(
            status="playing",
            options=options,
            initial_record=record,
            record=record,
            version=0,
            updated_at=utcnow(),
        )
    )
    if done.rowcount != 1:  # type: ignore[attr-defined]
        raise StaleWrite(f"table {table_id} was not waiting")


def save_move(
    session: Session,
    table_id: str,
    number: int,
    seat: int,
    action: str,
    final_record: dict[str, Any] | None,
    outcome: dict[str, Any] | None,
) -> None:
    """Append move ``number`` (1 = first), in the caller's transaction.

    The move row and the table's version are all a move needs: the game is the first record plus
    its moves (:func:`load_moves`). The whole record is written once, with the game's last move
    (``final_record``), for downloads. Core statements, not the ORM: this runs on every move.
    """
    values: dict[str, Any] = {
        "version": number,
        "outcome": outcome,
        "status": "over" if outcome is not None else "playing",
        "updated_at": utcnow(),
    }
    if final_record is not None:
        values["record"] = final_record
    connection = session.connection()
    done = connection.execute(
        update(GameTable)
        .where(GameTable.id == table_id, GameTable.version == number - 1)
        .values(**values)
    )
    if done.rowcount != 1:
        raise StaleWrite(f"table {table_id} is not at version {number - 1} in the database")
    connection.execute(
        insert(Move).values(table_id=table_id, number=number, seat=seat, action=action)
    )


def list_tables(session: Session, status: str) -> list[TableInfo]:
    """The newest tables with ``status`` (waiting, playing or over)."""
    rows = session.scalars(
        select(GameTable)
        .where(GameTable.status == status)
        .order_by(GameTable.updated_at.desc())
        .limit(LIST_LIMIT)
        .options(selectinload(GameTable.seats).selectinload(Seat.user))
    ).all()
    return [_info(row, _owner_name(session, row.owner_id)) for row in rows]


def list_user_tables(session: Session, user_id: int) -> list[TableInfo]:
    """The tables where ``user_id`` has a seat, most recently active first."""
    rows = (
        session.scalars(
            select(GameTable)
            .join(Seat, Seat.table_id == GameTable.id)
            .where(Seat.user_id == user_id)
            .order_by(GameTable.updated_at.desc())
            .limit(LIST_LIMIT)
            .options(selectinload(GameTable.seats).selectinload(Seat.user))
        )
        .unique()
        .all()
    )
    return [_info(row, _owner_name(session, row.owner_id)) for row in rows]


def playing_table_ids(session: Session) -> list[str]:
    """Every table whose game is in progress (to resume after a restart)."""
    return list(session.scalars(select(GameTable.id).where(GameTable.status == "playing")))


def load_moves(
    session: Session, table_id: str
) -> tuple[dict[str, Any] | None, list[tuple[int, str]]]:
    """The table's first record and its moves (seat, action) in order."""
    initial = session.scalar(select(GameTable.initial_record).where(GameTable.id == table_id))
    moves = session.execute(
        select(Move.seat, Move.action).where(Move.table_id == table_id).order_by(Move.number)
    ).all()
    return initial, [(seat, action) for seat, action in moves]
