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
from otherside.server.store.contract import held_from, rated_user_ids
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
    return _played(session, {table_id: upto})[table_id]


def load_tables(session: Session, table_ids: list[str]) -> dict[str, TableInfo]:
    """The tables ``table_ids`` that exist, by id (:func:`load_table` of many, in two queries)."""
    return {info.id: info for info in _summaries(session, GameTable.id.in_(table_ids))}


def load_held(session: Session, table_ids: list[str]) -> dict[str, Held]:
    """The tables ``table_ids`` that exist, with what a process needs to hold each, by id
    (:meth:`~otherside.server.store.contract.TableStore.held`): four queries however many
    tables (and one for the ratings of each game with rated players among them)."""
    infos = list(load_tables(session, table_ids).values())
    started: dict[str, int | None] = {i.id: i.version for i in infos if i.status != "waiting"}
    played = _played(session, started)
    rated: dict[str, set[int]] = {}
    for info in infos:
        rated.setdefault(info.game, set()).update(rated_user_ids(info))
    ratings = {game: ratings_of(session, game, list(ids)) for game, ids in rated.items() if ids}
    return {info.id: _held(session, info, played, ratings) for info in infos}


def _held(
    session: Session,
    info: TableInfo,
    played: dict[str, tuple[dict[str, Any] | None, list[MoveRow]]],
    ratings: dict[str, dict[int, float]],
) -> Held:
    return held_from(
        info,
        lambda _upto: played[info.id],  # read up to ``info.version`` already
        lambda game, ids: {u: r for u, r in ratings.get(game, {}).items() if u in ids},
        lambda: changes_of(session, info.id),
    )


def _played(
    session: Session, versions: dict[str, int | None]
) -> dict[str, tuple[dict[str, Any] | None, list[MoveRow]]]:
    """The first record and the moves up to its version (all: ``None``) of each table in
    ``versions``, in two queries however many tables."""
    if not versions:
        return {}
    ids = list(versions)
    initial: dict[str, dict[str, Any] | None] = {
        table_id: record
        for table_id, record in session.execute(
            select(GameTable.id, GameTable.initial_record).where(GameTable.id.in_(ids))
        )
    }
    moves: dict[str, list[MoveRow]] = {table_id: [] for table_id in ids}
    rows = session.execute(
        select(Move.table_id, Move.number, Move.seat, Move.action, Move.played_at)
        .where(Move.table_id.in_(ids))
        .order_by(Move.table_id, Move.number)
    )
    for table_id, number, seat, action, at in rows:
        upto = versions[table_id]
        if upto is None or number <= upto:  # moves committed since are told on their own
            moves[table_id].append(MoveRow(seat, action, as_utc(at)))
    return {table_id: (initial.get(table_id), moves[table_id]) for table_id in ids}


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


def recent_chat(
    session: Session, asked: list[tuple[str, int]]
) -> dict[tuple[str, int], list[ChatRow]]:
    """The last ``limit`` chat lines of each ``(table_id, limit)`` asked, oldest first, in one
    query however many tables."""
    most = max(limit for _, limit in asked)
    ids = list({table_id for table_id, _ in asked})
    rank = func.row_number().over(partition_by=ChatLine.table_id, order_by=ChatLine.id.desc())
    ranked = (
        select(ChatLine.table_id, ChatLine.name, ChatLine.seat, ChatLine.text, ChatLine.at)
        .add_columns(rank.label("rank"))
        .where(ChatLine.table_id.in_(ids))
        .subquery()
    )
    lines: dict[str, list[ChatRow]] = {table_id: [] for table_id in ids}
    rows = session.execute(
        select(ranked).where(ranked.c.rank <= most).order_by(ranked.c.rank.desc())
    )
    for row in rows:
        lines[row.table_id].append(ChatRow(row.name, row.seat, row.text, as_utc(row.at)))
    return {
        (table_id, limit): lines[table_id][-limit:] if limit > 0 else []
        for table_id, limit in asked
    }


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
