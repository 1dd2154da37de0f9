"""A :class:`~otherside.server.store.contract.TableStore` in memory: the tables, moves, chat and
ratings of one process, kept in dictionaries. It answers exactly as the database does —
including :class:`~otherside.server.store.records.StaleWrite` when a write was decided on a
table that changed since — so the tables' commands can be tested in milliseconds, without a
database; the same contract tests run against both stores."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from otherside.server.accounts.sessions import UserInfo
from otherside.server.ratings import elo
from otherside.server.ratings.rated import places
from otherside.server.store.contract import held_from
from otherside.server.store.records import (
    ChatRow,
    EventBoard,
    Held,
    LimitReached,
    MoveRow,
    Opening,
    SeatInfo,
    StaleWrite,
    TableInfo,
    TakebackRequest,
    Timing,
)
from otherside.server.tables.pace import Pace
from otherside.server.tables.seat_rules import created
from otherside.server.tables.timing import with_timing


@dataclass
class _Stored:
    info: TableInfo
    initial: dict[str, Any] | None = None
    record: dict[str, Any] | None = None
    moves: list[MoveRow] = field(default_factory=list)
    chat: list[ChatRow] = field(default_factory=list)


class MemoryTableStore:
    """Tables in memory (see the module docstring); nothing survives the process."""

    def __init__(self) -> None:
        self._tables: dict[str, _Stored] = {}
        self._ratings: dict[tuple[str, int], float] = {}
        self.history: list[tuple[str, str, int, float, float]] = []  # game, table, user…
        self.boards: dict[EventBoard, str] = {}  # the table made for each event's board

    def record(self, table_id: str) -> dict[str, Any] | None:
        """The whole record of a table (written when its game ends)."""
        return self._tables[table_id].record

    # -- reading -----------------------------------------------------------------------------

    async def table(self, table_id: str) -> TableInfo | None:
        stored = self._tables.get(table_id)
        return stored.info if stored is not None else None

    async def moves(
        self, table_id: str, upto: int | None = None
    ) -> tuple[dict[str, Any] | None, list[MoveRow]]:
        stored = self._tables.get(table_id)
        if stored is None:
            return None, []
        return stored.initial, list(stored.moves[:upto])

    async def held(self, table_id: str) -> Held | None:
        stored = self._tables.get(table_id)
        return None if stored is None else _held(stored, self._ratings, self.history)

    async def moves_after(self, table_id: str, version: int, upto: int) -> list[MoveRow]:
        return list(self._tables[table_id].moves[version:upto])

    async def ratings(self, game: str, user_ids: list[int]) -> dict[int, float]:
        return _rated(self._ratings, game, user_ids)

    async def playing_ids(self) -> list[str]:
        return [t for t, stored in self._tables.items() if stored.info.status == "playing"]

    async def waiting_hosted(self, user_id: int) -> int:
        return sum(
            1
            for stored in self._tables.values()
            if stored.info.status == "waiting"
            and stored.info.owner_id == user_id
            and stored.info.seat_of(user_id) is not None
        )

    async def recent_chat(self, table_id: str, limit: int) -> list[ChatRow]:
        stored = self._tables.get(table_id)
        return list(stored.chat[-limit:]) if stored is not None and limit > 0 else []

    # -- writing -----------------------------------------------------------------------------

    async def create(
        self,
        owner: UserInfo,
        game: str,
        players: int,
        options: dict[str, Any],
        pace: Pace,
        now: datetime,
        most_waiting: int | None = None,
    ) -> str:
        if most_waiting is not None and await self.waiting_hosted(owner.id) >= most_waiting:
            raise LimitReached(most_waiting)
        return self._add(
            lambda table_id: created(table_id, owner, game, players, options, pace, now)
        )

    async def create_board(
        self,
        board: EventBoard,
        owner: UserInfo,
        game: str,
        players: int,
        pace: Pace,
        seats: Sequence[SeatInfo],
        start: Opening,
    ) -> str:
        if board in self.boards:
            raise StaleWrite(f"board {board} has a table already")
        options, now = start.options, start.now
        made = self._add(
            lambda made: created(made, owner, game, players, options, pace, now, seats)
        )
        _started(self._tables[made], start, board.event_id)
        self.boards[board] = made
        return made

    def _add(self, made: Callable[[str], TableInfo]) -> str:
        """Keep the waiting table ``made`` gives for a new id; the id."""
        table_id = secrets.token_urlsafe(6)
        while table_id in self._tables:
            table_id = secrets.token_urlsafe(6)
        info = made(table_id)
        self._tables[table_id] = _Stored(info)
        return table_id

    def _waiting_as_known(self, known: TableInfo) -> _Stored:
        stored = self._tables[known.id]
        people = [(s.seat, s.user_id, s.bot) for s in stored.info.seats]
        if stored.info.status != "waiting" or people != [
            (s.seat, s.user_id, s.bot) for s in known.seats
        ]:
            raise StaleWrite(f"table {known.id} changed in another process")
        return stored

    def _at(self, table_id: str, version: int) -> _Stored:
        stored = self._tables[table_id]
        if stored.info.version != version:
            raise StaleWrite(f"table {table_id} is not at version {version} in the database")
        return stored

    async def seats(
        self, known: TableInfo, seats: list[SeatInfo], now: datetime, host: int | None = None
    ) -> None:
        stored = self._waiting_as_known(known)
        info = stored.info
        for seat in seats:
            info = info.with_seat(seat)
        if host is not None:
            name = next(s.user_name for s in known.seats if s.user_id == host)
            info = replace(info, owner_id=host, owner_name=name or info.owner_name)
        stored.info = replace(info, updated_at=now)

    async def start(
        self,
        known: TableInfo,
        options: dict[str, Any],
        record: dict[str, Any],
        rated: bool,
        plan: Timing,
        now: datetime,
        bots_only_limit: int | None = None,
    ) -> None:
        stored = self._waiting_as_known(known)
        if bots_only_limit is not None:
            running = [
                t.info
                for t in self._tables.values()
                if t.info.status == "playing" and t.info.owner_id == known.owner_id
            ]
            if sum(not any(s.human for s in info.seats) for info in running) >= bots_only_limit:
                raise LimitReached(bots_only_limit)
        _started(stored, Opening(dict(options), record, rated, plan, now))

    async def rematch(
        self,
        finished: TableInfo,
        owner: UserInfo,
        options: dict[str, Any],
        seats: list[SeatInfo],
        now: datetime,
    ) -> str:
        stored = self._tables[finished.id]
        if stored.info.rematch_id is not None:
            raise StaleWrite(f"table {finished.id} has a rematch already")
        # The same people, as guests or not (the database knows it from their accounts).
        named = tuple(
            replace(s, guest=finished.seats[s.seat].guest if s.user_id is not None else False)
            for s in seats
        )
        game, players, pace = finished.game, finished.players, finished.pace
        new_id = self._add(
            lambda table_id: created(table_id, owner, game, players, options, pace, now, named)
        )
        stored.info = replace(stored.info, rematch_id=new_id)
        return new_id

    async def move(
        self,
        info: TableInfo,
        seat: int,
        action: str,
        final_record: dict[str, Any] | None,
        outcome: dict[str, Any] | None,
        plan: Timing,
        now: datetime,
        forfeit: bool = False,
    ) -> dict[int, float]:
        stored = self._at(info.id, info.version)
        _same_line(stored.info, info)
        moved = replace(
            stored.info,
            version=info.version + 1,
            outcome=outcome,
            status="over" if outcome is not None else "playing",
        )
        moved = _timed(moved, plan, now)
        # Written after the clocks, as the database writes it.
        stored.info = moved.with_seat(info.seats[seat]) if forfeit else moved
        stored.moves.append(MoveRow(seat, action, now))
        if final_record is not None:
            stored.record = final_record
        return _rate(self._ratings, self.history, info, outcome) if outcome is not None else {}

    async def take_back(self, info: TableInfo, version: int, plan: Timing, now: datetime) -> None:
        stored = self._at(info.id, info.version)
        held = stored.info.takeback
        if held is None or held.version != info.version:
            raise StaleWrite(f"no takeback is open at table {info.id}")
        stored.info = _timed(_taken_back(stored.info, version), plan, now)
        del stored.moves[version:]

    async def takeback(self, table_id: str, request: TakebackRequest, asked: bool) -> None:
        stored = self._at(table_id, request.version)
        held = stored.info.takeback
        is_open = held is not None and held.version == request.version
        if asked == is_open or (not asked and held is not None and held.seat != request.seat):
            raise StaleWrite(table_id)
        stored.info = replace(stored.info, takeback=request if asked else None)

    async def hand_over(self, info: TableInfo, seat: SeatInfo, plan: Timing, now: datetime) -> None:
        stored = self._at(info.id, info.version)
        stored.info = _timed(stored.info.with_seat(seat), plan, now)

    async def end(
        self,
        info: TableInfo,
        seat: int,
        outcome: dict[str, Any],
        record: dict[str, Any],
        now: datetime,
    ) -> dict[int, float]:
        stored = self._at(info.id, info.version)
        ended = stored.info.with_seat(info.seats[seat])
        stored.info = replace(
            ended, status="over", outcome=outcome, to_move=(), deadline_at=None, updated_at=now
        )
        stored.record = record
        return _rate(self._ratings, self.history, info, outcome)

    async def timing(self, info: TableInfo, plan: Timing, now: datetime) -> None:
        stored = self._at(info.id, info.version)
        stored.info = _timed(stored.info, plan, now)

    async def chat(
        self,
        table_id: str,
        user: UserInfo,
        seat: int | None,
        text: str,
        now: datetime,
        line: dict[str, Any],
    ) -> None:
        self._tables[table_id].chat.append(ChatRow(user.name, seat, text, now))


def _taken_back(info: TableInfo, version: int) -> TableInfo:
    """``info`` back at ``version``, its request answered, one more takeback counted."""
    return replace(info, version=version, takeback=None, takebacks=info.takebacks + 1)


def _same_line(stored: TableInfo, known: TableInfo) -> None:
    """A ``StaleWrite`` if the table had a takeback since ``known`` (the version alone may
    have come back), as the database refuses a move then."""
    if stored.takebacks != known.takebacks:
        raise StaleWrite(f"table {known.id} had a takeback since version {known.version}")


def _timed(info: TableInfo, plan: Timing, now: datetime) -> TableInfo:
    """``info`` with the clocks and deadlines of ``plan``, changed at ``now``."""
    return replace(with_timing(info, plan), updated_at=now)


def _rate(
    ratings: dict[tuple[str, int], float],
    history: list[tuple[str, str, int, float, float]],
    info: TableInfo,
    outcome: dict[str, Any],
) -> dict[int, float]:
    """Move the ratings of a rated table's players, as the database does."""
    if not info.rated:
        return {}
    forfeits = [s.seat for s in info.seats if s.forfeit is not None]
    finish = places(outcome["scores"], outcome["winners"], forfeits)
    rated = [(s.user_id, finish[s.seat]) for s in info.seats if s.user_id is not None]
    before = [ratings.get((info.game, user), elo.START) for user, _place in rated]
    after = elo.by_places(before, [place for _user, place in rated])
    for (user, _place), old, new in zip(rated, before, after, strict=True):
        ratings[(info.game, user)] = new
        history.append((info.game, info.id, user, old, new))
    return {user: new for (user, _place), new in zip(rated, after, strict=True)}


def _started(stored: _Stored, start: Opening, event_id: str | None = None) -> None:
    """``stored``, a waiting table, starts as ``start`` says (an event's board: ``event_id``)."""
    info = replace(
        stored.info,
        status="playing",
        options=start.options,
        version=0,
        rated=start.rated,
        event_id=event_id,
    )
    stored.initial = stored.record = start.record
    stored.info = _timed(info, start.plan, start.now)


def _rated(
    ratings: dict[tuple[str, int], float], game: str, user_ids: list[int]
) -> dict[int, float]:
    found = ((u, ratings.get((game, u))) for u in user_ids)
    return {user: rating for user, rating in found if rating is not None}


def _changes(history: list[tuple[str, str, int, float, float]], table_id: str) -> dict[int, float]:
    return {user: new - old for _game, table, user, old, new in history if table == table_id}


def _held(
    stored: _Stored,
    ratings: dict[tuple[str, int], float],
    history: list[tuple[str, str, int, float, float]],
) -> Held:
    return held_from(
        stored.info,
        lambda upto: (stored.initial, list(stored.moves[:upto])),
        lambda game, user_ids: _rated(ratings, game, user_ids),
        lambda: _changes(history, stored.info.id),
    )
