"""What the live tables need from storage: :class:`TableStore`, one method per change a table
makes (each one transaction, announced to the other server processes when it commits).

Two stores keep it: :class:`~otherside.server.store.tables.SqlTableStore` on the database, and
:class:`~otherside.server.store.memory.MemoryTableStore` in memory for fast tests.

A write made on what this process knew of a table raises
:class:`~otherside.server.store.records.StaleWrite` when the database no longer agrees (another
process changed the table first); nothing is written then.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Protocol

from otherside.server.accounts.sessions import UserInfo
from otherside.server.store.records import (
    ChatRow,
    EventBoard,
    Held,
    MoveRow,
    Opening,
    SeatInfo,
    TableInfo,
    TakebackRequest,
    Timing,
)
from otherside.server.tables.pace import Pace


class TableStore(Protocol):
    """Storage as the tables use it (see the module docstring)."""

    async def table(self, table_id: str) -> TableInfo | None:
        """The table ``table_id`` as stored, or ``None``."""
        ...

    async def moves(
        self, table_id: str, upto: int | None = None
    ) -> tuple[dict[str, Any] | None, list[MoveRow]]:
        """The table's first record and its moves (up to version ``upto`` if given)."""
        ...

    async def held(self, table_id: str) -> Held | None:
        """The table ``table_id`` with what a process needs to hold it, read at once (one
        transaction: when a process dies, its players all come to another, and each table's
        load waited for four reads in turn behind theirs), or ``None``."""
        ...

    async def moves_after(self, table_id: str, version: int, upto: int) -> list[MoveRow]:
        """The table's moves after ``version``, up to version ``upto``."""
        ...

    async def ratings(self, game: str, user_ids: list[int]) -> dict[int, float]:
        """The ratings in ``game`` of these users (unrated users left out)."""
        ...

    async def playing_ids(self) -> list[str]:
        """Every table whose game is in progress."""
        ...

    async def waiting_hosted(self, user_id: int) -> int:
        """Open tables hosted by ``user_id`` where they still sit."""
        ...

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
        """A new waiting table with its owner in seat 0; its id. With ``most_waiting``,
        :class:`~otherside.server.store.records.LimitReached` instead if the owner already
        hosts that many open tables where they sit (counted in the write's transaction, so
        simultaneous creates count)."""
        ...

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
        """The table of an event's ``board``, hosted by ``owner``, made with the entrants in
        ``seats`` and started (``start``), and recorded as the board's, in one transaction;
        its id. Never waiting, so that no lobby request can seat, fill or start it, and never
        without its record, so that a crash cannot leave a game no event knows.
        ``StaleWrite`` (nothing written) if the board has a table already."""
        ...

    async def seats(
        self, known: TableInfo, seats: list[SeatInfo], now: datetime, host: int | None = None
    ) -> None:
        """Write ``seats`` of a waiting table whose seats are still those ``known`` (and make
        user ``host`` its host, when given)."""
        ...

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
        """Start a waiting table whose seats are still those ``known``; with
        ``bots_only_limit``, :class:`~otherside.server.store.records.LimitReached` if its host
        already runs that many games with bots only (counted in the start's transaction, so
        simultaneous starts count)."""
        ...

    async def rematch(
        self,
        finished: TableInfo,
        owner: UserInfo,
        options: dict[str, Any],
        seats: list[SeatInfo],
        now: datetime,
    ) -> str:
        """The rematch of ``finished``: a new waiting table with ``seats``; its id."""
        ...

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
        """Append move ``info.version + 1`` of ``seat`` (``forfeit``: the seat gives up with
        it, as ``info`` says); the new ratings by user id when it ended a rated game."""
        ...

    async def take_back(self, info: TableInfo, version: int, plan: Timing, now: datetime) -> None:
        """Take the table from ``info.version`` back to ``version`` (the moves after it
        forgotten), whose turn and clocks are then ``plan``; ``StaleWrite`` if it moved on."""
        ...

    async def takeback(self, table_id: str, request: TakebackRequest, asked: bool) -> None:
        """``request`` asked (``asked``) or declined; ``StaleWrite`` if the table moved on or
        (asked) one is open already or (declined) it is not open."""
        ...

    async def hand_over(self, info: TableInfo, seat: SeatInfo, plan: Timing, now: datetime) -> None:
        """A forfeited seat played on by a bot from now (``info``: the table before)."""
        ...

    async def end(
        self,
        info: TableInfo,
        seat: int,
        outcome: dict[str, Any],
        record: dict[str, Any],
        now: datetime,
    ) -> dict[int, float]:
        """End the game without a move (``seat`` forfeited, as ``info`` says); the new
        ratings by user id when it was rated."""
        ...

    async def timing(self, info: TableInfo, plan: Timing, now: datetime) -> None:
        """New deadlines of the table at ``info.version`` (a reminder sent)."""
        ...

    async def chat(
        self,
        table_id: str,
        user: UserInfo,
        seat: int | None,
        text: str,
        now: datetime,
        line: dict[str, Any],
    ) -> None:
        """Store a chat line (``line``: as told to the other processes)."""
        ...

    async def recent_chat(self, table_id: str, limit: int) -> list[ChatRow]:
        """The last ``limit`` chat lines of the table, oldest first."""
        ...


async def seated_ratings(store: TableStore, info: TableInfo) -> dict[int, float]:
    """The ratings in the table's game of the players seated at it, by user id (none asked
    for guests: only a game every seat of which a registered player holds is rated, and a
    guest stays a guest, so a guest never has a rating)."""
    return await store.ratings(info.game, rated_user_ids(info))


def held_from(
    info: TableInfo,
    moves: Callable[[int], tuple[dict[str, Any] | None, list[MoveRow]]],
    ratings: Callable[[str, list[int]], dict[int, float]],
    changes: Callable[[], dict[int, float]],
) -> Held:
    """What :meth:`TableStore.held` reads of the table ``info``, read by each store its own way
    (``moves(upto)``, ``ratings(game, user_ids)``, ``changes()``): the moves once the game has
    started, up to the version read (``info`` and its state must agree), the ratings of the
    seated players who may have one, and the changes of a rated game over."""
    initial, played = (None, []) if info.status == "waiting" else moves(info.version)
    user_ids = rated_user_ids(info)
    return Held(
        info,
        initial,
        played,
        ratings(info.game, user_ids) if user_ids else {},
        changes() if info.status == "over" and info.rated else {},
    )


def rated_user_ids(info: TableInfo) -> list[int]:
    """The players at ``info`` who may have a rating: people seated, guests left out."""
    return [s.user_id for s in info.seats if s.user_id is not None and not s.guest]
