""":class:`SqlTableStore`, the :class:`~otherside.server.store.contract.TableStore` on the
database: each change a table makes one write of the group-committing writer, announced to the
other server processes when it commits (or refused as stale, as the protocol says); reads
through :mod:`.queries` in a worker thread.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from otherside.server.accounts.sessions import UserInfo
from otherside.server.cluster.moves import move_note
from otherside.server.cluster.peers import CHANNEL, PostgresCluster, SoloCluster
from otherside.server.cluster.seated import SEATED
from otherside.server.ratings.rated import RatedSeat, places, rate_game, ratings_of
from otherside.server.store.batched import BatchedRead
from otherside.server.store.boards import create_board
from otherside.server.store.db import Database
from otherside.server.store.play_rows import add_move, add_timing
from otherside.server.store.queries import (
    count_all_bot_playing,
    count_waiting_hosted,
    load_held,
    load_moves,
    load_moves_after,
    load_tables,
    playing_table_ids,
    recent_chat,
)
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
from otherside.server.store.takebacks import add_answer, add_request, add_takeback
from otherside.server.store.writer import Batch, Writer
from otherside.server.store.writes import (
    check_accounts,
    check_seats,
    create_table,
    save_chat,
    save_end,
    save_host,
    save_rematch,
    save_seat,
    save_seats,
    save_start,
)
from otherside.server.tables.pace import Pace


class SqlTableStore:
    """:class:`~otherside.server.store.contract.TableStore` on the database. Reads run on the
    database's thread pool (asked for many tables at once, in one transaction: :mod:`.batched`);
    every change goes through the group-committing :class:`~otherside.server.store.writer.Writer`
    (the changes of all tables arriving meanwhile share one transaction) and is announced to the
    other server processes (``cluster``) when that transaction commits.

    Args:
        db: the database.
        cluster: the processes to tell of changes.
    """

    def __init__(self, db: Database, cluster: SoloCluster | PostgresCluster) -> None:
        self.db = db
        self.cluster = cluster
        self.writer = Writer(db, CHANNEL if cluster.shared else None)
        self._tables = BatchedRead(db, load_tables)
        self._held = BatchedRead(db, load_held)
        self._chat = BatchedRead(db, recent_chat)

    def _announce(self, batch: Batch, table_id: str, kind: str, **data: Any) -> None:
        message = self.cluster.message(table_id, kind, **data)
        if message is not None:
            batch.notify(message)

    async def table(self, table_id: str) -> TableInfo | None:
        return await self._tables.get(table_id)

    async def moves(
        self, table_id: str, upto: int | None = None
    ) -> tuple[dict[str, Any] | None, list[MoveRow]]:
        return await self.db.run(lambda s: load_moves(s, table_id, upto=upto))

    async def held(self, table_id: str) -> Held | None:
        return await self._held.get(table_id)

    async def moves_after(self, table_id: str, version: int, upto: int) -> list[MoveRow]:
        return await self.db.run(lambda s: load_moves_after(s, table_id, version, upto=upto))

    async def ratings(self, game: str, user_ids: list[int]) -> dict[int, float]:
        return await self.db.run(lambda s: ratings_of(s, game, user_ids)) if user_ids else {}

    async def playing_ids(self) -> list[str]:
        return await self.db.run(playing_table_ids)

    async def waiting_hosted(self, user_id: int) -> int:
        return await self.db.run(lambda s: count_waiting_hosted(s, user_id))

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
        def write(batch: Batch) -> str | None:
            connection = batch.connection
            if (
                most_waiting is not None
                and count_waiting_hosted(connection, owner.id) >= most_waiting
            ):
                # Answered, not raised: a work that raises sends its whole batch to be
                # written again one by one, and a refusal is no failure of the others.
                return None
            # Raised (rare): the owner declared a bot since the session said otherwise.
            check_accounts(connection, [SeatInfo(0, owner.id, bot_account=owner.is_bot)])
            made = create_table(connection, owner.id, game, players, options, pace, now)
            self._announce(batch, made, SEATED, users=[owner.id])
            return made

        made = await self.writer.write(write)
        if made is None:
            raise LimitReached(most_waiting or 0)
        return made

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
        def write(batch: Batch) -> str:
            made = create_board(
                batch.connection, board, owner.id, game, players, pace, seats, start
            )
            self._announce(batch, made, SEATED, users=[s.user_id for s in seats if s.user_id])
            return made

        return await self.writer.write(write)

    async def seats(
        self, known: TableInfo, seats: list[SeatInfo], now: datetime, host: int | None = None
    ) -> None:
        def write(batch: Batch) -> None:
            check_seats(batch.connection, known.id, "waiting", known.seats)
            check_accounts(batch.connection, seats)
            save_seats(batch.connection, known.id, seats, now)
            if host is not None:
                save_host(batch.connection, known.id, host)
            self._announce(batch, known.id, "table")
            users = [s.user_id for s in seats if s.user_id is not None]
            if users:
                self._announce(batch, known.id, SEATED, users=users)

        await self.writer.write(write)

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
        def write(batch: Batch) -> None:
            check_seats(batch.connection, known.id, "waiting", known.seats)
            most = bots_only_limit
            if most is not None and count_all_bot_playing(batch.connection, known.owner_id) >= most:
                raise LimitReached(most)
            save_start(batch.connection, known.id, options, record, rated, plan, now)
            self._announce(batch, known.id, "table")

        await self.writer.write(write)

    async def rematch(
        self,
        finished: TableInfo,
        owner: UserInfo,
        options: dict[str, Any],
        seats: list[SeatInfo],
        now: datetime,
    ) -> str:
        info = finished

        def write(batch: Batch) -> str:
            new_id = create_table(
                batch.connection, owner.id, info.game, info.players, options, info.pace, now, seats
            )
            if not save_rematch(batch.connection, info.id, new_id):
                # Another server process made the rematch first: this one rolls back.
                raise StaleWrite(f"table {info.id} has a rematch already")
            self._announce(batch, info.id, "table")
            users = [s.user_id for s in seats if s.user_id is not None]
            self._announce(batch, new_id, SEATED, users=users)
            return new_id

        return await self.writer.write(write)

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
        # Written at the position it was made for: the version, in the line of play after as
        # many takebacks (the version alone may have come back).
        number, line = info.version + 1, info.takebacks

        def write(batch: Batch) -> dict[int, float]:
            # The hot path: rows of statements built once, sent with the other tables' moves.
            add_move(batch, info.id, number, seat, action, final_record, outcome, plan, now, line)
            if forfeit:
                save_seat(batch.connection, info.id, info.seats[seat], now)
            if self.cluster.shared:
                # The move itself, so that the others need not read it back (whole unless the
                # game ended or a seat was given up: those are read from the database).
                whole = outcome is None and not forfeit
                note = move_note(number, seat, action, plan, now, whole, line)
                self._announce(batch, info.id, "move", **note)
            return _rate(batch.session, info, outcome, now) if outcome is not None else {}

        return await self.writer.write(write)

    async def take_back(self, info: TableInfo, version: int, plan: Timing, now: datetime) -> None:
        def write(batch: Batch) -> None:
            add_takeback(batch, info.id, info.version, version, plan, now)
            # The others rebuild the table from the database: its version went down.
            self._announce(batch, info.id, "table")

        await self.writer.write(write)

    async def takeback(self, table_id: str, request: TakebackRequest, asked: bool) -> None:
        def write(batch: Batch) -> None:
            (add_request if asked else add_answer)(batch, table_id, request)
            self._announce(batch, table_id, "table")

        await self.writer.write(write)

    async def hand_over(self, info: TableInfo, seat: SeatInfo, plan: Timing, now: datetime) -> None:
        def write(batch: Batch) -> None:
            save_seat(batch.connection, info.id, seat, now)
            add_timing(batch, info.id, info.version, plan, now)
            self._announce(batch, info.id, "table")

        await self.writer.write(write)

    async def end(
        self,
        info: TableInfo,
        seat: int,
        outcome: dict[str, Any],
        record: dict[str, Any],
        now: datetime,
    ) -> dict[int, float]:
        def write(batch: Batch) -> dict[int, float]:
            save_end(batch.connection, info.id, info.version, outcome, record, now)
            save_seat(batch.connection, info.id, info.seats[seat], now)
            self._announce(batch, info.id, "table")
            return _rate(batch.session, info, outcome, now)

        return await self.writer.write(write)

    async def timing(self, info: TableInfo, plan: Timing, now: datetime) -> None:
        def write(batch: Batch) -> None:
            add_timing(batch, info.id, info.version, plan, now)
            self._announce(batch, info.id, "table")

        await self.writer.write(write)

    async def chat(
        self,
        table_id: str,
        user: UserInfo,
        seat: int | None,
        text: str,
        now: datetime,
        line: dict[str, Any],
    ) -> None:
        def write(batch: Batch) -> None:
            save_chat(batch.session, table_id, user, seat, text, now)
            self._announce(batch, table_id, "chat", line=line)

        await self.writer.write(write)

    async def recent_chat(self, table_id: str, limit: int) -> list[ChatRow]:
        return await self._chat.get((table_id, limit)) or []


def _rate(
    session: Session, info: TableInfo, outcome: dict[str, Any], now: datetime
) -> dict[int, float]:
    """Move the ratings of a rated table's players; their new ratings by user id."""
    if not info.rated:
        return {}
    forfeits = [s.seat for s in info.seats if s.forfeit is not None]
    finish = places(outcome["scores"], outcome["winners"], forfeits)
    rated = [RatedSeat(s.user_id, finish[s.seat]) for s in info.seats if s.user_id is not None]
    changes = rate_game(session, info.game, info.id, rated, now)
    return {user: after for user, (_before, after) in changes.items()}
