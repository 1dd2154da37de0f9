"""The table runtime: the one authority over every game being played.

Each table in memory (:class:`LiveTable`) holds the game state, an ``asyncio.Lock`` and the
connections watching it. A message is checked in this order — known type and shape, a seated
player, the game started and not over, that player's turn, the client's state version current,
the action legal — and refused with an ``error`` naming the first failed check, changing
nothing. An accepted action is written to the database (record, version and move row in one
transaction) *before* anyone is told, so a killed server loses no move it announced; then every
connection gets its own view: a seat its seat's view, a spectator the public one.

Bot seats play by themselves: one task per table keeps choosing (in worker threads, see
:mod:`otherside.server.bots_runner`) while the seat to move is a bot. After a restart,
:meth:`TableHub.resume` rebuilds every unfinished game with ``Game.replay(record)``.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from otherside.core.game import Game, State
from otherside.server.accounts import UserInfo
from otherside.server.adapters import GameAdapter, get_adapter
from otherside.server.bots_runner import BotRunner
from otherside.server.db import Database
from otherside.server.protocol import (
    ActionMessage,
    ErrorMessage,
    PingMessage,
    PongMessage,
    ProtocolError,
    TableMessage,
    ViewMessage,
    parse_client_message,
)
from otherside.server.store import (
    SeatInfo,
    StaleWrite,
    TableInfo,
    create_table,
    load_moves,
    load_table,
    playing_table_ids,
    save_move,
    save_seat,
    save_start,
)

log = logging.getLogger("otherside.server")


class Connection(Protocol):
    """Someone watching a table: a websocket, or a recorder in tests."""

    user: UserInfo | None

    def deliver(self, text: str) -> None:
        """Queue ``text`` for sending; never blocks."""
        ...


class TableError(Exception):
    """A lobby request refused: an HTTP status and words."""

    def __init__(self, status: int, message: str) -> None:
        self.status = status
        super().__init__(message)


@dataclass(eq=False)
class LiveTable:
    """A table held in memory while it is watched or played."""

    info: TableInfo
    adapter: GameAdapter
    state: State | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: set[Connection] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None

    @property
    def id(self) -> str:
        """The table id."""
        return self.info.id

    def seat_of(self, conn: Connection) -> int | None:
        """The seat of the connection's user, or ``None`` for a spectator."""
        return self.info.seat_of(conn.user.id if conn.user else None)


def rebuild(game: Game, initial: dict[str, Any] | None, moves: list[tuple[int, str]]) -> State:
    """The state of a game from its first record and its moves, as stored (after a restart)."""
    if initial is None:
        raise ValueError("a started table has no first record")
    state = game.replay(initial)
    for _seat, action in moves:
        state = state.apply(action)
    return state


class TableHub:
    """Every live table, and the operations on tables (lobby and play).

    Args:
        db: the database.
        bots: the runner choosing bot actions.
    """

    def __init__(self, db: Database, bots: BotRunner) -> None:
        self.db = db
        self.bots = bots
        self._live: dict[str, LiveTable] = {}
        self._loading = asyncio.Lock()
        self._rng = random.Random(secrets.randbits(64))

    # -- loading ---------------------------------------------------------------------------

    async def live(self, table_id: str) -> LiveTable:
        """The live table ``table_id``, loaded (and its game replayed) on first use."""
        found = self._live.get(table_id)
        if found is not None:
            return found
        async with self._loading:
            found = self._live.get(table_id)
            if found is not None:
                return found
            info = await self.db.run(lambda s: load_table(s, table_id))
            if info is None:
                raise TableError(404, f"no table {table_id!r}")
            adapter = get_adapter(info.game)
            state = None
            if info.status != "waiting":
                initial, moves = await self.db.run(lambda s: load_moves(s, table_id))
                state = await asyncio.to_thread(rebuild, adapter.game, initial, moves)
            live = LiveTable(info, adapter, state)
            self._live[table_id] = live
            return live

    def loaded(self, table_id: str) -> LiveTable | None:
        """The live table ``table_id`` if it is in memory (no loading)."""
        return self._live.get(table_id)

    async def resume(self) -> int:
        """Load every unfinished game and let its bots play on; the number resumed."""
        ids = await self.db.run(playing_table_ids)
        for table_id in ids:
            self._kick_bots(await self.live(table_id))
        return len(ids)

    async def close(self) -> None:
        """Stop the bot tasks (at server shutdown)."""
        tasks = [t.bot_task for t in self._live.values() if t.bot_task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _forget_if_idle(self, live: LiveTable) -> None:
        if not live.watchers and live.bot_task is None and live.info.status != "playing":
            self._live.pop(live.id, None)

    # -- messages out ----------------------------------------------------------------------

    def _table_text(self, live: LiveTable, seat: int | None) -> str:
        out = live.info.to_out(live.adapter.title)
        return TableMessage(table=out, you=seat).model_dump_json()

    def _view_text(self, live: LiveTable, seat: int | None) -> str | None:
        state = live.state
        if state is None:
            return None
        legal = [str(a) for a in state.legal_actions()] if seat == state.current_player else []
        view = live.adapter.game.view(state, seat)
        return ViewMessage(
            table=live.id, version=live.info.version, seat=seat, view=view, legal=legal
        ).model_dump_json()

    def _send_state(self, conn: Connection, live: LiveTable) -> None:
        seat = live.seat_of(conn)
        conn.deliver(self._table_text(live, seat))
        view = self._view_text(live, seat)
        if view is not None:
            conn.deliver(view)

    def _broadcast(self, live: LiveTable, table: bool, view: bool) -> None:
        texts: dict[int | None, tuple[str | None, str | None]] = {}
        for conn in list(live.watchers):
            seat = live.seat_of(conn)
            if seat not in texts:
                texts[seat] = (
                    self._table_text(live, seat) if table else None,
                    self._view_text(live, seat) if view else None,
                )
            for text in texts[seat]:
                if text is not None:
                    conn.deliver(text)

    @staticmethod
    def _error(conn: Connection, live: LiveTable, exc: ProtocolError) -> None:
        conn.deliver(
            ErrorMessage(
                code=exc.code, message=str(exc), version=live.info.version
            ).model_dump_json()
        )

    # -- connections -------------------------------------------------------------------------

    async def attach(self, table_id: str, conn: Connection) -> LiveTable:
        """Start sending table ``table_id`` to ``conn``: its state at once, then every change."""
        live = await self.live(table_id)
        # No await between the lookup and this line, so the table cannot be forgotten meanwhile.
        live.watchers.add(conn)
        self._send_state(conn, live)
        return live

    def detach(self, live: LiveTable, conn: Connection) -> None:
        """Stop sending to ``conn``."""
        live.watchers.discard(conn)
        self._forget_if_idle(live)

    async def handle(self, live: LiveTable, conn: Connection, text: str) -> None:
        """Act on one client message; refusals go back to ``conn`` as ``error`` messages."""
        try:
            message = parse_client_message(text)
            if isinstance(message, PingMessage):
                conn.deliver(PongMessage().model_dump_json())
            elif isinstance(message, ActionMessage):
                await self.play(live, conn.user, message.version, message.action)
            else:
                self._send_state(conn, live)
        except ProtocolError as exc:
            self._error(conn, live, exc)
            if exc.code == "stale":
                self._send_state(conn, live)

    # -- play --------------------------------------------------------------------------------

    async def play(self, live: LiveTable, user: UserInfo | None, version: int, action: str) -> None:
        """Apply ``action`` for ``user`` at state ``version``; :class:`ProtocolError` if refused."""
        async with live.lock:
            seat = live.info.seat_of(user.id if user else None)
            if seat is None:
                raise ProtocolError("not_seated", "you have no seat at this table; join it first")
            await self._apply(live, seat, version, action)

    async def _apply(self, live: LiveTable, seat: int, version: int, text: str) -> None:
        """The checks and the commit; the caller holds ``live.lock``."""
        state = live.state
        if live.info.status == "waiting" or state is None:
            raise ProtocolError("not_started", "the game has not started yet")
        if live.info.status == "over" or state.is_over:
            raise ProtocolError("game_over", "the game is over; no more actions")
        if state.current_player != seat:
            raise ProtocolError(
                "not_your_turn", f"it is seat {state.current_player}'s turn, not yours ({seat})"
            )
        if version != live.info.version:
            raise ProtocolError(
                "stale",
                f"your action was for version {version}; the game is at "
                f"version {live.info.version}",
            )
        try:
            action = state.parse_action(text)
            after = state.apply(action)
        except ValueError as exc:
            raise ProtocolError("illegal", str(exc)) from exc
        number = live.info.version + 1
        outcome = after.outcome.to_json() if after.is_over and after.outcome else None
        final = after.to_record() if outcome is not None else None
        try:
            await self.db.run(
                lambda s: save_move(s, live.id, number, seat, str(action), final, outcome)
            )
        except (StaleWrite, SQLAlchemyError) as exc:
            log.exception("could not save move %s of table %s", number, live.id)
            raise ProtocolError("server_error", f"the move could not be saved: {exc}") from exc
        live.state = after
        live.info = replace(
            live.info,
            version=number,
            outcome=outcome,
            status="over" if outcome is not None else "playing",
        )
        self._broadcast(live, table=outcome is not None, view=True)
        self._kick_bots(live)

    # -- bots --------------------------------------------------------------------------------

    def _bot_to_move(self, live: LiveTable) -> str | None:
        state = live.state
        if live.info.status != "playing" or state is None or state.current_player is None:
            return None
        return live.info.seats[state.current_player].bot

    def _kick_bots(self, live: LiveTable) -> None:
        if live.bot_task is None and self._bot_to_move(live) is not None:
            live.bot_task = asyncio.create_task(self._run_bots(live), name=f"bots-{live.id}")

    async def _run_bots(self, live: LiveTable) -> None:
        try:
            while True:
                bot = self._bot_to_move(live)
                if bot is None:
                    break
                await asyncio.sleep(self.bots.delay)
                await self._bot_move(live, bot)
        finally:
            # Cleared with no await after the last check, so a human's move can start a new task.
            live.bot_task = None
            self._forget_if_idle(live)

    async def _bot_move(self, live: LiveTable, bot: str) -> None:
        state = live.state
        assert state is not None and state.current_player is not None  # _bot_to_move said so
        seat, version = state.current_player, live.info.version
        legal = list(state.legal_actions())
        view = live.adapter.game.view(state, seat)
        seed = self._rng.getrandbits(63)
        try:
            choice = str(await self.bots.choose(live.info.game, bot, view, legal, seed))
        except Exception:
            # A bug in one bot must not freeze the table: log it and play a random legal action.
            log.exception("bot %s failed at table %s; playing a random action", bot, live.id)
            choice = str(random.Random(seed).choice(legal))
        async with live.lock:
            if live.info.version != version:
                return
            try:
                await self._apply(live, seat, version, choice)
            except ProtocolError as exc:
                log.error("bot %s at table %s: %s", bot, live.id, exc)
                if exc.code == "server_error":
                    raise

    # -- lobby -------------------------------------------------------------------------------

    async def create(
        self, user: UserInfo, game: str, players: int, options: dict[str, Any] | None
    ) -> TableInfo:
        """A new waiting table of ``game`` for ``players`` with ``user`` in seat 0."""
        try:
            adapter = get_adapter(game)
            counts = adapter.player_counts
            if players not in counts:
                raise ValueError(
                    f"{adapter.title} is for {', '.join(map(str, counts))} players, not {players}"
                )
            clean = adapter.clean_options(options, players)
        except ValueError as exc:
            raise TableError(422, str(exc)) from exc
        table_id = await self.db.run(lambda s: create_table(s, user.id, game, players, clean))
        return (await self.live(table_id)).info

    async def _change(self, table_id: str, user: UserInfo, change: str, **kwargs: Any) -> TableInfo:
        live = await self.live(table_id)
        async with live.lock:
            if live.info.status != "waiting":
                raise TableError(409, "the game has started; seats cannot change now")
            seats: list[SeatInfo] = getattr(self, f"_seats_{change}")(live.info, user, **kwargs)

            def save(session: Session) -> None:
                for seat in seats:
                    save_seat(session, table_id, seat)

            await self.db.run(save)
            for seat in seats:
                live.info = live.info.with_seat(seat)
            self._broadcast(live, table=True, view=False)
            return live.info

    async def join(self, table_id: str, user: UserInfo, seat: int | None = None) -> TableInfo:
        """Sit ``user`` at an empty seat (the first one unless ``seat`` is given)."""
        return await self._change(table_id, user, "join", seat=seat)

    async def leave(self, table_id: str, user: UserInfo) -> TableInfo:
        """Free ``user``'s seat at a waiting table."""
        return await self._change(table_id, user, "leave")

    async def set_bot(self, table_id: str, user: UserInfo, seat: int, bot: str | None) -> TableInfo:
        """The owner puts bot ``bot`` in ``seat`` (``None`` takes a bot out)."""
        return await self._change(table_id, user, "bot", seat=seat, bot=bot)

    async def fill(self, table_id: str, user: UserInfo, bot: str) -> TableInfo:
        """The owner fills every empty seat with bot ``bot``."""
        return await self._change(table_id, user, "fill", bot=bot)

    @staticmethod
    def _seats_join(info: TableInfo, user: UserInfo, seat: int | None) -> list[SeatInfo]:
        if info.seat_of(user.id) is not None:
            return []
        free = [s.seat for s in info.seats if s.empty]
        if not free:
            raise TableError(409, "the table is full")
        if seat is None:
            seat = free[0]
        elif seat not in free:
            raise TableError(409, f"seat {seat} is not free; free seats: {free}")
        return [SeatInfo(seat, user.id, user.name)]

    @staticmethod
    def _seats_leave(info: TableInfo, user: UserInfo) -> list[SeatInfo]:
        seat = info.seat_of(user.id)
        return [] if seat is None else [SeatInfo(seat)]

    @staticmethod
    def _check_owner(info: TableInfo, user: UserInfo) -> None:
        if info.owner_id != user.id:
            raise TableError(403, f"only the table's host ({info.owner_name}) may do this")

    def _check_bot(self, info: TableInfo, bot: str) -> None:
        known = get_adapter(info.game).bots()
        if bot not in known:
            raise TableError(422, f"unknown {info.game} bot {bot!r}; known: {', '.join(known)}")

    def _seats_bot(
        self, info: TableInfo, user: UserInfo, seat: int, bot: str | None
    ) -> list[SeatInfo]:
        self._check_owner(info, user)
        if not 0 <= seat < info.players:
            raise TableError(422, f"no seat {seat}; seats are 0 to {info.players - 1}")
        if info.seats[seat].user_id is not None:
            raise TableError(409, f"seat {seat} is taken by {info.seats[seat].user_name}")
        if bot is not None:
            self._check_bot(info, bot)
        return [SeatInfo(seat, bot=bot)]

    def _seats_fill(self, info: TableInfo, user: UserInfo, bot: str) -> list[SeatInfo]:
        self._check_owner(info, user)
        self._check_bot(info, bot)
        return [SeatInfo(s.seat, bot=bot) for s in info.seats if s.empty]

    async def start(self, table_id: str, user: UserInfo) -> TableInfo:
        """The owner starts the game once every seat is taken."""
        live = await self.live(table_id)
        async with live.lock:
            info = live.info
            self._check_owner(info, user)
            if info.status != "waiting":
                raise TableError(409, "the game has already started")
            empty = [s.seat for s in info.seats if s.empty]
            if empty:
                raise TableError(409, f"seats {empty} are empty: invite someone or add bots")
            state = live.adapter.new_state(info.players, info.options, self._rng)
            record = state.to_record()
            options = dict(record.get("options", info.options))
            await self.db.run(lambda s: save_start(s, table_id, options, record))
            live.state = state
            live.info = replace(info, status="playing", options=options, version=0)
            self._broadcast(live, table=True, view=True)
            self._kick_bots(live)
            return live.info
