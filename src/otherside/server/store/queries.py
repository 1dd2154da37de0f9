"""Reading tables from the database (blocking functions run via ``Database.run``).

Everything here takes a SQLAlchemy session and returns plain data (:mod:`.records`), so no ORM
object ever crosses from the database thread to the event loop. The writes are in
:mod:`.writes`.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from otherside.server.clock import as_utc
from otherside.server.ratings.rated import changes_of, ratings_of
from otherside.server.store.contract import held_from
from otherside.server.store.models import ChatLine, GameTable, Move, Seat, User
from otherside.server.store.records import (
    ChatRow,
    Held,
    MoveRow,
    SeatInfo,
    TableInfo,
    TakebackRequest,
)
from otherside.server.store.writes import Writable
from otherside.server.tables.pace import Pace

LIST_LIMIT = 50


def _maybe(moment: datetime | None) -> datetime | None:
    return as_utc(moment) if moment is not None else None


# What a table's summary reads of its row: every column but its records (a finished game's
# whole record, parsed from JSON, which only a replay needs), and its owner's name.
_SUMMARY = (
    GameTable.id,
    GameTable.game,
    GameTable.players,
    GameTable.options,
    GameTable.status,
    GameTable.owner_id,
    GameTable.version,
    GameTable.outcome,
    GameTable.created_at,
    GameTable.pace,
    GameTable.to_move,
    GameTable.turn_started_at,
    GameTable.deadline_at,
    GameTable.reminded_at,
    GameTable.rated,
    GameTable.updated_at,
    GameTable.rematch_id,
    GameTable.takeback_seat,
    GameTable.takeback_version,
    GameTable.takeback_plies,
    GameTable.takebacks,
    GameTable.event_id,
    User.name.label("owner_name"),
)
_SEATS = (
    Seat.table_id,
    Seat.seat,
    Seat.user_id,
    Seat.bot,
    Seat.time_left_ms,
    Seat.forfeit,
    User.name,
    User.is_guest,
    User.is_bot,
)


def _summaries(session: Session, where: Any, limit: int | None = None) -> list[TableInfo]:
    """The tables ``where`` selects, newest change first: two queries however many, read as
    plain rows (building ORM objects for them was most of the lobby's list's time)."""
    query = (
        select(*_SUMMARY)
        .outerjoin(User, User.id == GameTable.owner_id)
        .where(where)
        .order_by(GameTable.updated_at.desc(), GameTable.id)
    )
    rows = session.execute(query.limit(limit) if limit is not None else query).all()
    if not rows:
        return []
    seats: dict[str, list[SeatInfo]] = {row.id: [] for row in rows}
    found = session.execute(
        select(*_SEATS)
        .outerjoin(User, User.id == Seat.user_id)
        .where(Seat.table_id.in_(list(seats)))
        .order_by(Seat.table_id, Seat.seat)
    )
    for seat in found:
        seats[seat.table_id].append(
            SeatInfo(
                seat.seat,
                seat.user_id,
                seat.name,
                seat.bot,
                guest=bool(seat.is_guest),
                time_left_ms=seat.time_left_ms,
                forfeit=seat.forfeit,
                bot_account=bool(seat.is_bot),
            )
        )
    return [_info(row, tuple(seats[row.id])) for row in rows]


def _info(row: Any, seats: tuple[SeatInfo, ...]) -> TableInfo:
    return TableInfo(
        id=row.id,
        game=row.game,
        players=row.players,
        options=dict(row.options or {}),
        status=row.status,
        owner_id=row.owner_id,
        owner_name=row.owner_name or "?",
        seats=seats,
        version=row.version,
        outcome=row.outcome,
        created_at=as_utc(row.created_at),
        pace=Pace.parse(row.pace),
        to_move=tuple(row.to_move or ()),
        turn_started_at=_maybe(row.turn_started_at),
        deadline_at=_maybe(row.deadline_at),
        reminded_at=_maybe(row.reminded_at),
        rated=row.rated,
        updated_at=_maybe(row.updated_at),
        rematch_id=row.rematch_id,
        takeback=_takeback(row),
        takebacks=row.takebacks or 0,
        event_id=row.event_id,
    )


def _takeback(row: Any) -> TakebackRequest | None:
    if row.takeback_seat is None or row.takeback_version is None or row.takeback_plies is None:
        return None
    return TakebackRequest(row.takeback_seat, row.takeback_version, row.takeback_plies)


def load_table(session: Session, table_id: str, with_record: bool = False) -> TableInfo | None:
    """The table ``table_id`` (and its record if asked), or ``None``."""
    found = _summaries(session, GameTable.id == table_id)
    if not found:
        return None
    if not with_record:
        return found[0]
    record = session.scalar(select(GameTable.record).where(GameTable.id == table_id))
    return replace(found[0], record=record)


def lock_account(session: Writable, user_id: int) -> None:
    """Lock ``user_id``'s row until the transaction ends: what it then counts of the account's
    (its tables, tokens, events) requests made at once count one after the other, instead of
    each counting the same rows and all of them passing a limit together."""
    session.execute(select(User.id).where(User.id == user_id).with_for_update())


def count_all_bot_playing(session: Writable, user_id: int) -> int:
    """Games in play hosted by ``user_id`` where no person plays a seat (every seat a bot);
    the host's row is locked first, so that two starts of one host count one after the other."""
    lock_account(session, user_id)
    person = (
        select(Seat.seat)
        .where(Seat.table_id == GameTable.id, Seat.user_id.is_not(None), Seat.bot.is_(None))
        .exists()
    )
    return (
        session.scalar(
            select(func.count())
            .select_from(GameTable)
            .where(GameTable.status == "playing", GameTable.owner_id == user_id, ~person)
        )
        or 0
    )


def count_waiting_hosted(session: Writable, user_id: int) -> int:
    """Open tables hosted by ``user_id`` where they still sit."""
    return (
        session.scalar(
            select(func.count())
            .select_from(GameTable)
            .join(Seat, Seat.table_id == GameTable.id)
            .where(
                GameTable.status == "waiting",
                GameTable.owner_id == user_id,
                Seat.user_id == user_id,
            )
        )
        or 0
    )


def list_tables(session: Session, status: str) -> list[TableInfo]:
    """The newest tables with ``status`` (waiting, playing or over); a waiting table only
    while someone sits at it."""
    where = GameTable.status == status
    if status == "waiting":
        # A table everyone left is nobody's to start: keep it out of the lobby.
        where = where & GameTable.id.in_(select(Seat.table_id).where(Seat.user_id.is_not(None)))
    return _summaries(session, where, LIST_LIMIT)


def list_user_tables(session: Session, user_id: int) -> list[TableInfo]:
    """The tables where ``user_id`` has a seat, most recently active first."""
    mine = GameTable.id.in_(select(Seat.table_id).where(Seat.user_id == user_id))
    return _summaries(session, mine, LIST_LIMIT)


def playing_table_ids(session: Session) -> list[str]:
    """Every table whose game is in progress (to resume after a restart)."""
    return list(session.scalars(select(GameTable.id).where(GameTable.status == "playing")))


def load_moves(
    session: Session, table_id: str, upto: int | None = None
) -> tuple[dict[str, Any] | None, list[MoveRow]]:
    """The table's first record and its moves in order (only the first ``upto`` if given)."""
    initial = session.scalar(select(GameTable.initial_record).where(GameTable.id == table_id))
    return initial, load_moves_after(session, table_id, 0, upto)


def load_held(session: Session, table_id: str) -> Held | None:
    """The table ``table_id`` with what a process needs to hold it, in one transaction
    (:meth:`~otherside.server.store.contract.TableStore.held`), or ``None``."""
    info = load_table(session, table_id)
    if info is None:
        return None
    return held_from(
        info,
        lambda upto: load_moves(session, table_id, upto=upto),
        lambda game, user_ids: ratings_of(session, game, user_ids),
        lambda: changes_of(session, table_id),
    )


def load_moves_after(
    session: Session, table_id: str, version: int, upto: int | None = None
) -> list[MoveRow]:
    """The table's moves after ``version``, in order, up to version ``upto`` if given.

    A process that read the table at version ``upto`` must replay up to it and no further:
    moves committed since (by another process) come with their own notification, and a state
    ahead of the version it is stored with would have them applied twice."""
    query = select(Move.seat, Move.action, Move.played_at).where(
        Move.table_id == table_id, Move.number > version
    )
    if upto is not None:
        query = query.where(Move.number <= upto)
    rows = session.execute(query.order_by(Move.number)).all()
    return [MoveRow(seat, action, as_utc(at)) for seat, action, at in rows]


def due_table_ids(session: Session, now: datetime) -> list[str]:
    """Tables in play whose next deadline has come."""
    return list(
        session.scalars(
            select(GameTable.id).where(GameTable.status == "playing", GameTable.deadline_at <= now)
        )
    )


def next_deadline(session: Session) -> datetime | None:
    """The earliest pending deadline of any table in play."""
    found = session.scalar(
        select(func.min(GameTable.deadline_at)).where(GameTable.status == "playing")
    )
    return _maybe(found)


def recent_chat(session: Session, table_id: str, limit: int) -> list[ChatRow]:
    """The last ``limit`` chat lines of a table, oldest first."""
    rows = session.scalars(
        select(ChatLine)
        .where(ChatLine.table_id == table_id)
        .order_by(ChatLine.id.desc())
        .limit(limit)
    ).all()
    return [ChatRow(r.name, r.seat, r.text, as_utc(r.at)) for r in reversed(rows)]


def finished_scores(session: Session, user_id: int, game: str, players: int) -> list[int]:
    """``user_id``'s final scores in finished ``players``-seat games of ``game`` they did not
    forfeit, oldest first (solo Verso's personal bests, Recto Verso's levels)."""
    rows = session.execute(
        select(GameTable.outcome, Seat.seat)
        .join(Seat, Seat.table_id == GameTable.id)
        .where(
            GameTable.game == game,
            GameTable.players == players,
            GameTable.status == "over",
            Seat.user_id == user_id,
            Seat.forfeit.is_(None),
        )
        .order_by(GameTable.updated_at)
    )
    return [int(outcome["scores"][seat]) for outcome, seat in rows if outcome]


def find_user(session: Session, name: str) -> tuple[int, str, bool, datetime] | None:
    """The account called ``name`` (any case): id, name, guest, created."""
    user = session.scalar(select(User).where(User.name_key == name.lower()))
    if user is None:
        return None
    return user.id, user.name, user.is_guest, as_utc(user.created_at)


def open_table_ids_of(session: Session, user_id: int) -> list[str]:
    """The tables, waiting or in play, where ``user_id`` has a seat (the event feed's)."""
    return list(
        session.scalars(
            select(GameTable.id)
            .join(Seat, Seat.table_id == GameTable.id)
            .where(Seat.user_id == user_id, GameTable.status.in_(("waiting", "playing")))
            .order_by(GameTable.created_at)
            .limit(LIST_LIMIT)
        ).unique()
    )
