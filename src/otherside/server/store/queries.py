"""Reading and writing tables in the database (blocking functions run via ``Database.run``).

Everything here takes a SQLAlchemy session and returns plain data (:class:`TableInfo`), so no
ORM object ever crosses from the database thread to the event loop.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.orm import Session, selectinload

from otherside.bots.spec import BotSpec
from otherside.server.live.protocol import ChatLineOut, SeatOut, TableOut
from otherside.server.store.models import ChatLine, GameTable, Move, Seat, User
from otherside.server.tables.pace import Pace

LIST_LIMIT = 50


class StaleWrite(RuntimeError):
    """The table's version in the database is not the one the server applied an action to."""


@dataclass(frozen=True)
class SeatInfo:
    """One seat: empty, a user (id and name) or a bot (registry name).

    A player who forfeits during the game (resigned, out of time, left) stays named here with
    ``forfeit`` saying why, and a bot plays the seat on (``bot``).
    """

    seat: int
    user_id: int | None = None
    user_name: str | None = None
    bot: str | None = None
    guest: bool = False
    time_left_ms: int | None = None
    forfeit: str | None = None

    @property
    def empty(self) -> bool:
        """Nobody and no bot sits here."""
        return self.user_id is None and self.bot is None

    @property
    def human(self) -> bool:
        """A person plays this seat (not a bot, not a bot replacing them)."""
        return self.user_id is not None and self.bot is None

    def to_out(self, rating: float | None = None) -> SeatOut:
        """The wire form (``rating``: the player's rating in this game, if rated)."""
        if self.user_id is not None:
            return SeatOut(
                seat=self.seat,
                kind="bot" if self.bot is not None else "human",
                name=self.user_name,
                user_id=self.user_id,
                bot=self.bot,
                bot_name=_bot_name(self.bot),
                bot_label=_bot_label(self.bot),
                guest=self.guest,
                forfeit=self.forfeit,
                rating=round(rating) if rating is not None else None,
            )
        if self.bot is not None:
            return SeatOut(
                seat=self.seat,
                kind="bot",
                name=bot_label(self.bot, self.seat),
                bot=self.bot,
                bot_name=_bot_name(self.bot),
                bot_label=_bot_label(self.bot),
            )
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
    pace: Pace = field(default_factory=Pace)
    to_move: tuple[int, ...] = ()
    turn_started_at: datetime | None = None
    deadline_at: datetime | None = None
    reminded_at: datetime | None = None
    rated: bool = False
    updated_at: datetime | None = None
    rematch_id: str | None = None

    def seat_of(self, user_id: int | None) -> int | None:
        """The seat of ``user_id`` at this table, if seated (also after forfeiting it)."""
        if user_id is None:
            return None
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def playing_seat_of(self, user_id: int | None) -> int | None:
        """The seat ``user_id`` plays: seated and not replaced by a bot."""
        seat = self.seat_of(user_id)
        return seat if seat is not None and self.seats[seat].human else None

    def waiting_on(self) -> int | None:
        """The one human seat the game is waiting for, whose clock runs; ``None`` when the
        table waits on a bot, on several players at once, or on nobody."""
        if self.status != "playing" or len(self.to_move) != 1:
            return None
        seat = self.to_move[0]
        return seat if self.seats[seat].human else None

    def with_seat(self, seat: SeatInfo) -> TableInfo:
        """This table with one seat replaced."""
        seats = tuple(seat if s.seat == seat.seat else s for s in self.seats)
        return replace(self, seats=seats)

    def to_out(self, title: str, ratings: dict[int, float] | None = None) -> TableOut:
        """The wire form (``title`` is the game's display name; ``ratings`` by user id)."""
        ratings = ratings or {}
        return TableOut(
            id=self.id,
            game=self.game,
            title=title,
            players=self.players,
            options=self.options,
            pace=self.pace.to_json(),
            pace_text=self.pace.describe(),
            rated=self.rated,
            status=self.status,  # type: ignore[arg-type]
            owner=self.owner_name,
            owner_id=self.owner_id,
            seats=[
                s.to_out(ratings.get(s.user_id) if s.user_id is not None else None)
                for s in self.seats
            ],
            version=self.version,
            outcome=self.outcome,
            to_move=list(self.to_move) if self.status == "playing" else [],
            deadline_at=_iso(self.deadline_at),
            reminded=self.reminded_at is not None,
            created_at=self.created_at.isoformat(),
            updated_at=_iso(self.updated_at),
            rematch=self.rematch_id,
        )


def bot_label(spec: str, seat: int) -> str:
    """A bot seat's name for people.

    >>> bot_label("greedy", 1), bot_label("search:think=2", 0)
    ('Greedy bot 2', 'Search bot 1 (2 s a move)')
    """
    return BotSpec.parse(spec).seat_label(seat)


def _bot_name(spec: str | None) -> str | None:
    """A seat's bot's registry name, for pages (so that they never split a spec)."""
    return BotSpec.parse(spec).name if spec is not None else None


def _bot_label(spec: str | None) -> str | None:
    """A seat's bot with its settings for people (``search · 2 s a move``)."""
    return BotSpec.parse(spec).label() if spec is not None else None


def _iso(moment: datetime | None) -> str | None:
    return _aware(moment).isoformat() if moment is not None else None


def _aware(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes for timezone-aware columns: they were written in UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _maybe(moment: datetime | None) -> datetime | None:
    return _aware(moment) if moment is not None else None


def _info(row: GameTable, owner: str, with_record: bool = False) -> TableInfo:
    seats = tuple(
        SeatInfo(
            s.seat,
            s.user_id,
            s.user.name if s.user else None,
            s.bot,
            guest=bool(s.user and s.user.is_guest),
            time_left_ms=s.time_left_ms,
            forfeit=s.forfeit,
        )
        for s in row.seats
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
        created_at=_aware(row.created_at),
        record=row.record if with_record else None,
        pace=Pace.parse(row.pace),
        to_move=tuple(row.to_move or ()),
        turn_started_at=_maybe(row.turn_started_at),
        deadline_at=_maybe(row.deadline_at),
        reminded_at=_maybe(row.reminded_at),
        rated=row.rated,
        updated_at=_maybe(row.updated_at),
        rematch_id=row.rematch_id,
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


@dataclass(frozen=True)
class Timing:
    """What the scheduler and the clocks need of a table after a change (see ``TableInfo``)."""

    to_move: tuple[int, ...]
    turn_started_at: datetime | None
    deadline_at: datetime | None
    reminded_at: datetime | None
    clocks: dict[int, int | None]  # seat -> time left (ms), for seats whose clock changed
    bots_to_act: bool = False

    def values(self) -> dict[str, Any]:
        """The table columns to write."""
        return {
            "to_move": list(self.to_move),
            "turn_started_at": self.turn_started_at,
            "deadline_at": self.deadline_at,
            "reminded_at": self.reminded_at,
            "bots_to_act": self.bots_to_act,
        }


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


def save_move(
    session: Session,
    table_id: str,
    number: int,
    seat: int,
    action: str,
    final_record: dict[str, Any] | None,
    outcome: dict[str, Any] | None,
    timing: Timing,
    now: datetime,
) -> None:
    """Append move ``number`` (1 = first), played at ``now``, in the caller's transaction.

    The move row and the table's version are all a move needs: the game is the first record plus
    its moves (:func:`load_moves`). The whole record is written once, with the game's last move
    (``final_record``), for downloads. Core statements, not the ORM: this runs on every move.
    """
    values: dict[str, Any] = {
        "version": number,
        "outcome": outcome,
        "status": "over" if outcome is not None else "playing",
        "updated_at": now,
        **timing.values(),
    }
    if final_record is not None:
        # A finished game has nothing left to run: its lease ends with it.
        values.update(record=final_record, lease_owner=None, lease_until=None)
    connection = session.connection()
    done = connection.execute(
        update(GameTable)
        .where(GameTable.id == table_id, GameTable.version == number - 1)
        .values(**values)
    )
    if done.rowcount != 1:
        raise StaleWrite(f"table {table_id} is not at version {number - 1} in the database")
    connection.execute(
        insert(Move).values(
            table_id=table_id, number=number, seat=seat, action=action, played_at=now
        )
    )
    _save_clocks(session, table_id, timing.clocks)


def save_timing(
    session: Session, table_id: str, version: int, timing: Timing, now: datetime
) -> None:
    """Write a table's deadlines (a reminder sent, a seat taken over) without a move."""
    done = session.execute(
        update(GameTable)
        .where(GameTable.id == table_id, GameTable.version == version)
        .values(updated_at=now, **timing.values())
    )
    if done.rowcount != 1:  # type: ignore[attr-defined]
        raise StaleWrite(f"table {table_id} is not at version {version} in the database")
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


def count_all_bot_playing(session: Session, user_id: int) -> int:
    """Games in play hosted by ``user_id`` where no person plays a seat (every seat a bot);
    the host's row is locked first, so that two starts of one host count one after the other."""
    session.execute(select(User.id).where(User.id == user_id).with_for_update())
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


def count_waiting_hosted(session: Session, user_id: int) -> int:
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
    query = select(GameTable).where(GameTable.status == status)
    if status == "waiting":
        # A table everyone left is nobody's to start: keep it out of the lobby.
        query = query.where(
            GameTable.id.in_(select(Seat.table_id).where(Seat.user_id.is_not(None)))
        )
    rows = session.scalars(
        query.order_by(GameTable.updated_at.desc())
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


@dataclass(frozen=True)
class MoveRow:
    """One stored move: who, what, and when (the server's clock)."""

    seat: int
    action: str
    played_at: datetime


def load_moves(
    session: Session, table_id: str, upto: int | None = None
) -> tuple[dict[str, Any] | None, list[MoveRow]]:
    """The table's first record and its moves in order (only the first ``upto`` if given)."""
    initial = session.scalar(select(GameTable.initial_record).where(GameTable.id == table_id))
    return initial, load_moves_after(session, table_id, 0, upto)


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
    return [MoveRow(seat, action, _aware(at)) for seat, action, at in rows]


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


def save_chat(
    session: Session, table_id: str, user: Any, seat: int | None, text: str, now: datetime
) -> None:
    """Store one chat line of ``user`` (a ``UserInfo``)."""
    session.add(
        ChatLine(table_id=table_id, user_id=user.id, name=user.name, seat=seat, text=text, at=now)
    )


def recent_chat(session: Session, table_id: str, limit: int) -> list[ChatLineOut]:
    """The last ``limit`` chat lines of a table, oldest first."""
    rows = session.scalars(
        select(ChatLine)
        .where(ChatLine.table_id == table_id)
        .order_by(ChatLine.id.desc())
        .limit(limit)
    ).all()
    return [
        ChatLineOut(name=r.name, seat=r.seat, text=r.text, at=_aware(r.at).isoformat())
        for r in reversed(rows)
    ]


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
    return user.id, user.name, user.is_guest, _aware(user.created_at)
