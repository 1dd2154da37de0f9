"""The table runtime: the one authority over every game being played.

Each table in memory (:class:`LiveTable`) holds the game state, an ``asyncio.Lock`` and the
connections watching it. A message is checked in this order — known type and shape, a seated
player, the game started and not over, that player allowed to act now, the client's state
version current, the action legal — and refused with an ``error`` naming the first failed check,
changing nothing. An accepted action is written to the database (move row with the server's
time, version, clocks and deadlines in one transaction) *before* anyone is told, so a killed
server loses no move it announced; then every connection gets its own view: a seat its seat's
view, a spectator the public one.

Several seats may act at once when the game says so (:mod:`otherside.core.simultaneous`: a
Recto Verso build); the state version is then only a hint, and an action still legal when it
arrives is applied. Time comes from the injected :class:`~otherside.server.clock.Clock`: each
move is stamped with it, a game with a timer of its own reads it (through :class:`GameClock`),
and the clocks of the table's pace run on it (:mod:`otherside.server.tables.timing`); the scheduler
(:mod:`otherside.server.tables.scheduler`) calls :meth:`TableHub.on_deadline` when something is due.

A player may forfeit at any time (resign, run out of time, leave a started game): in a game of
two seats (or one) the game ends and the other player wins; in a bigger game a bot plays the
seat on so that the others can finish, and the result counts as a loss for the player.

Bot seats play by themselves: one task per table keeps choosing (in worker threads, see
:mod:`otherside.server.tables.bot_workers`) while a seat that may act is a bot. After a restart,
:meth:`TableHub.resume` rebuilds every unfinished game from its first record and moves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Protocol, TypeVar

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from otherside.core.game import Action, Game, State
from otherside.core.simultaneous import actors, apply_as, is_simultaneous, legal_actions_of
from otherside.server.accounts.limits import Limits
from otherside.server.accounts.sessions import UserInfo
from otherside.server.clock import Clock, SystemClock, seconds
from otherside.server.cluster.peers import PostgresCluster, SoloCluster
from otherside.server.live.protocol import (
    CHAT_CHARS,
    ActionMessage,
    ChatLineOut,
    ChatMessage,
    ChatOutMessage,
    ClockOut,
    ErrorMessage,
    PingMessage,
    PongMessage,
    ProtocolError,
    ResignMessage,
    TableMessage,
    ViewMessage,
    parse_client_message,
)
from otherside.server.ratings.rated import RatedSeat, places, rate_game, ratings_of
from otherside.server.store.db import Database
from otherside.server.store.queries import (
    MoveRow,
    SeatInfo,
    StaleWrite,
    TableInfo,
    Timing,
    check_seats,
    count_waiting_hosted,
    create_table,
    load_moves,
    load_moves_after,
    load_table,
    playing_table_ids,
    recent_chat,
    save_chat,
    save_end,
    save_move,
    save_rematch,
    save_seat,
    save_start,
    save_timing,
)
from otherside.server.tables import timing
from otherside.server.tables.adapters import GameAdapter, get_adapter
from otherside.server.tables.bot_workers import BotRunner
from otherside.server.tables.entropy import fresh_seed
from otherside.server.tables.pace import Pace

log = logging.getLogger("otherside.server")
R = TypeVar("R")
CHAT_HISTORY = 50
FORFEIT_WORDS = {"resigned": "resigned", "timeout": "ran out of time", "left": "left the game"}


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


class GameClock:
    """What a game with a timer of its own reads: the server's clock in epoch seconds, or,
    while a game is rebuilt from its moves, the time each move was played (``pinned``)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.pinned: float | None = None

    def __call__(self) -> float:
        return self.pinned if self.pinned is not None else seconds(self.clock)


@dataclass(eq=False)
class LiveTable:
    """A table held in memory while it is watched or played."""

    info: TableInfo
    adapter: GameAdapter
    game: Game
    game_clock: GameClock
    state: State | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: set[Connection] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    ratings: dict[int, float] = field(default_factory=dict)
    chat_times: dict[int, list[datetime]] = field(default_factory=dict)

    @property
    def id(self) -> str:
        """The table id."""
        return self.info.id

    def seat_of(self, conn: Connection) -> int | None:
        """The seat the connection's user plays, or ``None`` for a spectator (also for a
        player who forfeited: a bot plays their seat now)."""
        return self.info.playing_seat_of(conn.user.id if conn.user else None)


def replayed(
    game: Game, clock: GameClock, initial: dict[str, Any] | None, moves: list[MoveRow]
) -> Iterator[tuple[MoveRow | None, State]]:
    """The states of a stored game: the first, then after each move (with that move).

    The game's clock is pinned to each move's time while it is applied, so a game with a timer
    of its own (a Recto Verso round) replays, and resumes, exactly as it was played.
    """
    if initial is None:
        raise ValueError("a started table has no first record")
    clock.pinned = moves[0].played_at.timestamp() if moves else None
    try:
        state = game.replay(initial)
        yield None, state  # seen at the time of the first move, as before it was played
    finally:
        clock.pinned = None
    yield from applied(state, clock, moves)


def applied(
    state: State, clock: GameClock, moves: list[MoveRow]
) -> Iterator[tuple[MoveRow, State]]:
    """The states after each of ``moves`` from ``state``, each applied at its stored time."""
    try:
        for move in moves:
            clock.pinned = move.played_at.timestamp()
            state = apply_as(state, move.seat, move.action)
            yield move, state
    finally:
        clock.pinned = None


def rebuild(
    game: Game, clock: GameClock, initial: dict[str, Any] | None, moves: list[MoveRow]
) -> State:
    """The state of a game from its first record and its moves, as stored (after a restart)."""
    *_, (_move, state) = replayed(game, clock, initial, moves)
    return state


class TableHub:
    """Every live table, and the operations on tables (lobby and play).

    Args:
        db: the database.
        bots: the runner choosing bot actions.
        clock: where time comes from (the scheduler, clocks, move stamps).
        limits: the server's limits (chat lines a minute).
        cluster: the other server processes on the same database, if any
            (:mod:`otherside.server.cluster.peers`): whom to tell of changes, which tables are ours.
    """

    def __init__(
        self,
        db: Database,
        bots: BotRunner,
        clock: Clock | None = None,
        limits: Limits | None = None,
        cluster: SoloCluster | PostgresCluster | None = None,
    ) -> None:
        self.db = db
        self.bots = bots
        self.clock: Clock = clock or SystemClock()
        self.limits = limits or Limits()
        self.cluster = cluster or SoloCluster()
        self._live: dict[str, LiveTable] = {}
        self._loads: dict[str, asyncio.Future[LiveTable]] = {}  # tables being loaded
        self._tasks: set[asyncio.Task[None]] = set()  # bots and catch-ups, stopped at close
        self._catching_up: set[str] = set()  # tables catching up with another process's change
        self._behind: set[str] = set()  # of those, the ones changed again meanwhile
        # Called when a table's deadline may have moved earlier (the scheduler wakes up).
        self.on_deadline_change: Callable[[], None] = lambda: None
        # Called with (table, seat) when a player must be reminded (the scheduler mails).
        self.remind: Callable[[LiveTable, int], None] = lambda live, seat: None

    # -- loading ---------------------------------------------------------------------------

    async def live(self, table_id: str) -> LiveTable:
        """The live table ``table_id``, loaded (and its game replayed) on first use."""
        found = self._live.get(table_id)
        if found is not None:
            return found
        # One load per table, whoever asks meanwhile waits for it; other tables load at once.
        loading = self._loads.get(table_id)
        if loading is None:
            loading = self._loads[table_id] = asyncio.ensure_future(self._load(table_id))
            loading.add_done_callback(lambda _: self._loads.pop(table_id, None))
        return await asyncio.shield(loading)

    async def _load(self, table_id: str) -> LiveTable:
        info = await self.db.run(lambda s: load_table(s, table_id))
        if info is None:
            raise TableError(404, f"no table {table_id!r}")
        adapter = get_adapter(info.game)
        game_clock = GameClock(self.clock)
        game = adapter.game_with_clock(game_clock)
        state = None
        if info.status != "waiting":
            # Up to the version just read: ``info`` and ``state`` must agree.
            initial, moves = await self.db.run(lambda s: load_moves(s, table_id, upto=info.version))
            state = await asyncio.to_thread(rebuild, game, game_clock, initial, moves)
        live = LiveTable(info, adapter, game, game_clock, state)
        live.ratings = await self._load_ratings(info)
        self._live[table_id] = live
        return live

    async def _held_after_load(self, table_id: str) -> LiveTable | None:
        """The table if this process holds it, once a load of it under way is done: a load
        may have read the database before a change heard now, which must not be lost on it."""
        loading = self._loads.get(table_id)
        if loading is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(loading)
        return self._live.get(table_id)

    async def refresh(self, live: LiveTable) -> None:
        """Bring a table held in memory up to the database (another process changed it)."""
        async with live.lock:
            await self._refresh_locked(live)

    async def _refresh_locked(self, live: LiveTable) -> None:
        info = await self.db.run(lambda s: load_table(s, live.id))
        if info is None:
            return
        known = live.info.version if live.state is not None else None
        # The moves are read in another transaction than ``info``, and others may have been
        # committed in between: replay only up to ``info.version``, the version stored below.
        upto = info.version
        if info.status != "waiting" and (known is None or info.version < known):
            initial, moves = await self.db.run(lambda s: load_moves(s, live.id, upto=upto))
            live.state = await asyncio.to_thread(
                rebuild, live.game, live.game_clock, initial, moves
            )
        elif info.status != "waiting" and info.version > (known or 0) and live.state is not None:
            moves = await self.db.run(lambda s: load_moves_after(s, live.id, known or 0, upto=upto))
            for _move, state in applied(live.state, live.game_clock, moves):
                live.state = state
        changed = live.info != info
        live.info = info
        if changed:
            live.ratings = await self._load_ratings(info)
            self._broadcast(live, table=True, view=True)
        self._kick_bots(live)

    async def on_remote(self, message: dict[str, Any]) -> None:
        """Another server process changed a table (``message`` from :mod:`.cluster`): catch up
        if this process holds it, and pass a chat line on to the watchers here.

        The listener hears every process's changes one after another, so nothing here waits
        on the database: each table catches up in a task of its own, and the changes heard
        while it does make one more catch-up, not one each."""
        if message.get("kind") == "resync":
            for held in list(self._live):
                self._catch_up_soon(held)
            return
        table_id = str(message.get("table"))
        if message.get("kind") == "chat":
            self._background(self._pass_chat(table_id, message.get("line")))
            return
        self._catch_up_soon(table_id)

    def _background(
        self, work: Coroutine[Any, Any, None], name: str | None = None
    ) -> asyncio.Task[None]:
        """Run ``work`` in a task of this hub's (stopped by :meth:`close`)."""
        task = asyncio.create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _pass_chat(self, table_id: str, line: Any) -> None:
        live = await self._held_after_load(table_id)
        if live is not None:
            self._say(live, ChatLineOut.model_validate(line))

    def _catch_up_soon(self, table_id: str) -> None:
        if table_id in self._catching_up:
            self._behind.add(table_id)
            return
        self._catching_up.add(table_id)
        self._background(self._catch_up(table_id))

    async def _catch_up(self, table_id: str) -> None:
        try:
            while True:
                self._behind.discard(table_id)
                live = await self._held_after_load(table_id)
                if live is None:
                    break
                # Nobody here watches it and this process does not own it: forget it rather
                # than follow every move of a table it only served a request of.
                self._forget_if_idle(live)
                if table_id not in self._live:
                    break
                await self.refresh(live)
                self.on_deadline_change()
                if table_id not in self._behind:
                    break
        except Exception:
            # One table that cannot catch up must not keep the others behind.
            log.exception("could not catch up with table %s", table_id)
        finally:
            # No await since the last look at ``_behind``: a change heard from now on starts
            # a new catch-up.
            self._catching_up.discard(table_id)

    async def adopt(self, table_ids: list[str]) -> None:
        """Make sure the bots of these tables play: take over those without an owner (their
        process died) — lease, load, catch up — and restart ours if their bots stopped."""
        for table_id in table_ids:
            held = self._live.get(table_id)
            if held is not None and held.bot_task is not None:
                continue
            if await self.cluster.acquire(table_id):
                live = await self.live(table_id)
                await self.refresh(live)

    async def _load_ratings(self, info: TableInfo) -> dict[int, float]:
        users = [s.user_id for s in info.seats if s.user_id is not None]
        return await self.db.run(lambda s: ratings_of(s, info.game, users))

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
        """Stop the bots and catch-ups (at server shutdown)."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _forget_if_idle(self, live: LiveTable) -> None:
        # Games this process owns stay in memory (one object per table, so a handler holding it
        # never acts on a stale copy); others only while watched or moving.
        if live.watchers or live.bot_task is not None or live.lock.locked():
            return
        if live.info.status == "playing" and self.cluster.holds(live.id):
            return
        self._live.pop(live.id, None)

    # -- messages out ----------------------------------------------------------------------

    def _table_text(self, live: LiveTable, seat: int | None) -> str:
        out = live.info.to_out(live.adapter.title, live.ratings)
        return TableMessage(table=out, you=seat).model_dump_json()

    def _clock_out(self, live: LiveTable) -> ClockOut:
        info = live.info
        now = self.clock.now()
        return ClockOut(
            now=now.isoformat(),
            to_move=list(info.to_move) if info.status == "playing" else [],
            turn_started_at=info.turn_started_at.isoformat() if info.turn_started_at else None,
            time_left_ms=[s.time_left_ms for s in info.seats],
            deadline_at=info.deadline_at.isoformat() if info.deadline_at else None,
            pace=info.pace.to_json(),
        )

    def _view_text(self, live: LiveTable, seat: int | None, clock: ClockOut) -> str | None:
        state = live.state
        if state is None:
            return None
        playing = seat is not None and live.info.status == "playing"
        legal = [str(a) for a in legal_actions_of(state, seat)] if playing else []
        view = live.adapter.game.view(state, seat)
        return ViewMessage(
            table=live.id, version=live.info.version, seat=seat, view=view, legal=legal, clock=clock
        ).model_dump_json()

    def _send_state(self, conn: Connection, live: LiveTable) -> None:
        seat = live.seat_of(conn)
        conn.deliver(self._table_text(live, seat))
        view = self._view_text(live, seat, self._clock_out(live))
        if view is not None:
            conn.deliver(view)

    def _broadcast(self, live: LiveTable, table: bool, view: bool) -> None:
        texts: dict[int | None, tuple[str | None, str | None]] = {}
        clock = self._clock_out(live)
        for conn in list(live.watchers):
            seat = live.seat_of(conn)
            if seat not in texts:
                texts[seat] = (
                    self._table_text(live, seat) if table else None,
                    self._view_text(live, seat, clock) if view else None,
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
        """Start sending table ``table_id`` to ``conn``: its state and recent chat at once,
        then every change."""
        live = await self.live(table_id)
        # No await between the lookup and this line, so the table cannot be forgotten meanwhile.
        live.watchers.add(conn)
        self._send_state(conn, live)
        lines = await self.db.run(lambda s: recent_chat(s, table_id, CHAT_HISTORY))
        if lines:
            conn.deliver(ChatOutMessage(lines=lines).model_dump_json())
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
            elif isinstance(message, ResignMessage):
                await self.resign(live, conn.user)
            elif isinstance(message, ChatMessage):
                await self.chat(live, conn.user, message.text)
            else:
                self._send_state(conn, live)
        except ProtocolError as exc:
            self._error(conn, live, exc)
            if exc.code == "stale":
                self._send_state(conn, live)

    # -- play --------------------------------------------------------------------------------

    def _playing_seat(self, live: LiveTable, user: UserInfo | None) -> int:
        seat = live.info.playing_seat_of(user.id if user else None)
        if seat is None:
            if live.info.seat_of(user.id if user else None) is not None:
                raise ProtocolError("not_seated", "you gave up this seat; a bot plays it now")
            raise ProtocolError("not_seated", "you have no seat at this table; join it first")
        return seat

    def _check_playing(self, live: LiveTable) -> State:
        state = live.state
        if live.info.status == "waiting" or state is None:
            raise ProtocolError("not_started", "the game has not started yet")
        if live.info.status == "over" or state.is_over:
            raise ProtocolError("game_over", "the game is over; no more actions")
        return state

    async def play(self, live: LiveTable, user: UserInfo | None, version: int, action: str) -> None:
        """Apply ``action`` for ``user`` at state ``version``; :class:`ProtocolError` if refused."""
        async with live.lock:
            seat = self._playing_seat(live, user)
            self._check_playing(live)
            if timing.out_of_time(live.info, self.clock.now()) == seat:
                await self._forfeit(live, seat, "timeout")
                raise ProtocolError(
                    "out_of_time", "your time ran out: the game went on without you"
                )
            await self._apply(live, seat, version, action)

    async def _apply(
        self, live: LiveTable, seat: int, version: int, text: str, retried: bool = False
    ) -> None:
        """The checks and the commit; the caller holds ``live.lock``."""
        state = self._check_playing(live)
        may_act = actors(state)
        if seat not in may_act:
            whose = ", ".join(f"seat {s + 1}" for s in may_act)
            raise ProtocolError(
                "not_your_turn", f"it is {whose}'s turn, not yours (seat {seat + 1})"
            )
        simultaneous = is_simultaneous(state)
        if version != live.info.version and not simultaneous:
            raise ProtocolError(
                "stale",
                f"your action was for version {version}; the game is at "
                f"version {live.info.version}",
            )
        try:
            action = state.parse_action(text)
            after = apply_as(state, seat, action)
        except ValueError as exc:
            raise ProtocolError("illegal", str(exc)) from exc
        try:
            await self._commit(live, seat, action, after)
        except ProtocolError as exc:
            # Several players at once: a partner's move landed first elsewhere; the refreshed
            # state decides whether this one still stands.
            if exc.code != "stale" or not simultaneous or retried:
                raise
            await self._apply(live, seat, live.info.version, text, retried=True)

    async def _commit(
        self, live: LiveTable, seat: int, action: Action, after: State, forfeit: str | None = None
    ) -> None:
        """Store ``seat``'s ``action`` leading to ``after``, then tell everyone; the caller
        holds ``live.lock``. ``forfeit`` marks the seat as given up by this action (a resign)."""
        now = self.clock.now()
        info = live.info
        number = info.version + 1
        if forfeit is not None:
            info = info.with_seat(replace(info.seats[seat], forfeit=forfeit))
        outcome = after.outcome.to_json() if after.is_over and after.outcome else None
        if outcome is not None and forfeit is not None:
            outcome = _forfeit_outcome(outcome, info, seat, forfeit)
        final = after.to_record() if outcome is not None else None
        plan = timing.after_action(info, seat, after, now)

        def write(session: Session) -> dict[int, float]:
            save_move(session, live.id, number, seat, str(action), final, outcome, plan, now)
            if forfeit is not None:
                save_seat(session, live.id, info.seats[seat], now)
            self.cluster.announce(session, live.id, "move", version=number)
            return self._rate(session, info, outcome, now) if outcome is not None else {}

        try:
            rated = await self.db.run(write)
        except StaleWrite as exc:
            # Another server process moved this table on first: catch up, and say so.
            await self._refresh_locked(live)
            raise ProtocolError(
                "stale", f"the game moved on meanwhile (version {live.info.version})"
            ) from exc
        except SQLAlchemyError as exc:
            log.exception("could not save move %s of table %s", number, live.id)
            raise ProtocolError("server_error", f"the move could not be saved: {exc}") from exc
        live.state = after
        live.info = _with_timing(
            replace(
                info,
                version=number,
                outcome=outcome,
                status="over" if outcome is not None else "playing",
                updated_at=now,
            ),
            plan,
        )
        live.ratings.update(rated)
        self._broadcast(live, table=outcome is not None or forfeit is not None, view=True)
        if outcome is not None:
            self.cluster.forget(live.id)
        self._kick_bots(live)
        self.on_deadline_change()

    # -- forfeits: resign, time out, leave ---------------------------------------------------

    async def resign(self, live: LiveTable, user: UserInfo | None) -> None:
        """``user`` gives up the game (any time they hold a seat in a game in play)."""
        async with live.lock:
            seat = self._playing_seat(live, user)
            self._check_playing(live)
            await self._forfeit(live, seat, "resigned")

    async def _forfeit(self, live: LiveTable, seat: int, reason: str) -> None:
        """``seat``'s player gives up (``reason``: resigned, timeout, left); caller holds the
        lock. The game ends — through the game's own ``resign`` when the player may play it now,
        so that the record says it — in a duel that ends on a forfeit (VERSUS), in a solo game,
        or when a player of a two-player game resigns; otherwise a bot plays the seat on, so
        that the others can finish, and the result counts as a loss for the player."""
        state = live.state
        assert state is not None
        players = live.info.players
        if live.adapter.ends_on_forfeit or players == 1 or (reason == "resigned" and players == 2):
            own = [a for a in legal_actions_of(state, seat) if str(a) == "resign"]
            if own:
                await self._commit(live, seat, own[0], apply_as(state, seat, own[0]), reason)
            else:
                await self._end_by_forfeit(live, seat, reason)
            return
        bot = live.adapter.replacement_bot()
        seat_info = replace(live.info.seats[seat], bot=bot, forfeit=reason, time_left_ms=None)
        info = live.info.with_seat(seat_info)
        now = self.clock.now()
        plan = timing.after_action(info, None, state, now)

        def write(session: Session) -> None:
            save_seat(session, live.id, seat_info, now)
            save_timing(session, live.id, info.version, plan, now)
            self.cluster.announce(session, live.id, "table")

        await self.db.run(write)
        live.info = _with_timing(replace(info, updated_at=now), plan)
        self._broadcast(live, table=True, view=True)
        self._kick_bots(live)
        self.on_deadline_change()

    async def _end_by_forfeit(self, live: LiveTable, seat: int, reason: str) -> None:
        state = live.state
        assert state is not None
        now = self.clock.now()
        info = live.info.with_seat(replace(live.info.seats[seat], forfeit=reason))
        others = [s for s in range(info.players) if s != seat]
        outcome = _forfeit_outcome(
            {"scores": list(state.scores), "winners": others, "reason": ""}, info, seat, reason
        )
        record = {**state.to_record(), "result": outcome}

        def write(session: Session) -> dict[int, float]:
            save_end(session, live.id, info.version, outcome, record, now)
            save_seat(session, live.id, info.seats[seat], now)
            self.cluster.announce(session, live.id, "table")
            return self._rate(session, info, outcome, now)

        live.ratings.update(await self.db.run(write))
        live.info = replace(
            info, status="over", outcome=outcome, to_move=(), deadline_at=None, updated_at=now
        )
        self._broadcast(live, table=True, view=True)
        self.cluster.forget(live.id)

    def _rate(
        self, session: Session, info: TableInfo, outcome: dict[str, Any], now: datetime
    ) -> dict[int, float]:
        """Move the ratings of a rated table's players; their new ratings by user id."""
        if not info.rated:
            return {}
        forfeits = [s.seat for s in info.seats if s.forfeit is not None]
        finish = places(outcome["scores"], outcome["winners"], forfeits)
        rated = [RatedSeat(s.user_id, finish[s.seat]) for s in info.seats if s.user_id is not None]
        changes = rate_game(session, info.game, info.id, rated, now)
        return {user: after for user, (_before, after) in changes.items()}

    # -- deadlines -----------------------------------------------------------------------------

    async def on_deadline(self, table_id: str) -> bool:
        """Act on whatever is due at ``table_id`` now (called by the scheduler): the game's own
        timer, a player's time running out, a reminder. Safe to call at any time. ``False``
        when another server process owns the table (it acts, not this one)."""
        if not await self.cluster.acquire(table_id):
            return False
        live = await self.live(table_id)
        async with live.lock:
            if self.cluster.shared:
                await self._refresh_locked(live)
            state = live.state
            if live.info.status == "playing" and state is not None:
                await self._due(live, state)
        self._forget_if_idle(live)
        return True

    async def _due(self, live: LiveTable, state: State) -> None:
        now = self.clock.now()
        timer = timing.game_deadline(state)
        if timer is not None and now >= timer:
            # Once its time is up a game leaves its actors one action: the timeout.
            for seat in actors(state):
                legal = legal_actions_of(state, seat)
                if len(legal) == 1:
                    await self._commit(live, seat, legal[0], apply_as(state, seat, legal[0]))
                    return
        late = timing.out_of_time(live.info, now)
        if late is not None:
            await self._forfeit(live, late, "timeout")
            return
        remind = timing.reminder_due(live.info, now)
        info = live.info if remind is None else replace(live.info, reminded_at=now)
        plan = timing.after_action(info, None, state, now)
        if plan.deadline_at != live.info.deadline_at or remind is not None:

            def write(session: Session) -> None:
                save_timing(session, live.id, info.version, plan, now)
                self.cluster.announce(session, live.id, "table")

            await self.db.run(write)
            live.info = _with_timing(info, plan)
        if remind is not None:
            self.remind(live, remind)
            self._broadcast(live, table=True, view=False)

    def time_left(self, live: LiveTable, seat: int) -> int | None:
        """``seat``'s live clock now, in ms (``None`` without one)."""
        return timing.time_left(live.info, seat, self.clock.now())

    # -- chat ----------------------------------------------------------------------------------

    async def chat(self, live: LiveTable, user: UserInfo | None, text: str) -> None:
        """Store and pass on a line of chat from ``user`` (anyone signed in who watches)."""
        if user is None:
            raise ProtocolError("chat", "sign in (or play as a guest) to chat")
        line = " ".join(text.split())
        if not line:
            raise ProtocolError("chat", "an empty line is not sent")
        if len(line) > CHAT_CHARS:
            raise ProtocolError("chat", f"a chat line has at most {CHAT_CHARS} characters")
        now = self.clock.now()
        recent = [t for t in live.chat_times.get(user.id, []) if now - t < timedelta(minutes=1)]
        if len(recent) >= self.limits.chat_lines_per_minute:
            raise ProtocolError(
                "chat", f"at most {self.limits.chat_lines_per_minute} lines a minute; wait a moment"
            )
        live.chat_times[user.id] = [*recent, now]
        seat = live.info.playing_seat_of(user.id)
        said = ChatLineOut(name=user.name, seat=seat, text=line, at=now.isoformat())

        def write(session: Session) -> None:
            save_chat(session, live.id, user, seat, line, now)
            self.cluster.announce(session, live.id, "chat", line=said.model_dump())

        await self.db.run(write)
        self._say(live, said)

    def _say(self, live: LiveTable, line: ChatLineOut) -> None:
        out = ChatOutMessage(lines=[line]).model_dump_json()
        for conn in list(live.watchers):
            conn.deliver(out)

    # -- bots --------------------------------------------------------------------------------

    def _bots_to_act(self, live: LiveTable) -> list[tuple[int, str]]:
        state = live.state
        if live.info.status != "playing" or state is None:
            return []
        seats = live.info.seats
        return [(s, seats[s].bot) for s in actors(state) if seats[s].bot is not None]  # type: ignore[misc]

    def _kick_bots(self, live: LiveTable) -> None:
        if live.bot_task is None and self._bots_to_act(live):
            live.bot_task = self._background(self._run_bots(live), name=f"bots-{live.id}")

    async def _run_bots(self, live: LiveTable) -> None:
        try:
            # Bots move in the one process that owns the table.
            if not self.cluster.holds(live.id) and not await self.cluster.acquire(live.id):
                return
            delay = max(self.bots.delay, live.adapter.bot_pace) if self.bots.delay > 0 else 0.0
            while (bots := self._bots_to_act(live)) and self.cluster.holds(live.id):
                await asyncio.sleep(delay)
                for seat, bot in bots:
                    await self._bot_move(live, seat, bot)
        finally:
            # Cleared with no await after the last check, so a human's move can start a new task.
            live.bot_task = None
            self._forget_if_idle(live)

    async def _bot_move(self, live: LiveTable, seat: int, bot: str) -> None:
        state = live.state
        if state is None or seat not in actors(state) or live.info.seats[seat].bot != bot:
            return
        version = live.info.version
        legal = legal_actions_of(state, seat)
        view = live.adapter.game.view(state, seat)
        seed = fresh_seed()  # the bot's own randomness, shared with no other game
        try:
            choice = str(await self.bots.choose(live.info.game, bot, view, legal, seed))
        except Exception:
            # A bug in one bot must not freeze the table: log it and play a random legal action.
            log.exception("bot %s failed at table %s; playing a random action", bot, live.id)
            choice = str(random.Random(seed).choice(legal))
        async with live.lock:
            now_state = live.state
            if now_state is None or live.info.seats[seat].bot != bot:
                return
            if live.info.version != version and not is_simultaneous(now_state):
                return
            try:
                await self._apply(live, seat, live.info.version, choice)
            except ProtocolError as exc:
                if exc.code == "server_error":
                    raise
                # In a simultaneous game a partner may have acted meanwhile: choose again.
                log.info("bot %s at table %s: %s", bot, live.id, exc)

    # -- lobby -------------------------------------------------------------------------------

    async def create(
        self,
        user: UserInfo,
        game: str,
        players: int,
        options: dict[str, Any] | None,
        pace: dict[str, Any] | None = None,
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
            chosen = Pace.parse(pace, adapter.pace)
        except ValueError as exc:
            raise TableError(422, str(exc)) from exc
        most = self.limits.waiting_tables_per_user
        if await self.db.run(lambda s: count_waiting_hosted(s, user.id)) >= most:
            raise TableError(
                429, f"you already host {most} open tables: start one or leave one first"
            )
        now = self.clock.now()
        table_id = await self.db.run(
            lambda s: create_table(s, user.id, game, players, clean, chosen, now)
        )
        return (await self.live(table_id)).info

    async def _change(self, table_id: str, user: UserInfo, change: str, **kwargs: Any) -> TableInfo:
        live = await self.live(table_id)

        def decide(info: TableInfo) -> Callable[[Session], list[SeatInfo]]:
            if info.status != "waiting":
                raise TableError(409, "the game has started; seats cannot change now")
            seats: list[SeatInfo] = getattr(self, f"_seats_{change}")(info, user, **kwargs)
            now = self.clock.now()

            def save(session: Session) -> list[SeatInfo]:
                check_seats(session, table_id, "waiting", info.seats)
                for seat in seats:
                    save_seat(session, table_id, seat, now)
                self.cluster.announce(session, table_id, "table")
                return seats

            return save

        async with live.lock:
            for seat in await self._decided_and_saved(live, decide):
                live.info = live.info.with_seat(seat)
            live.ratings = await self._load_ratings(live.info)
            self._broadcast(live, table=True, view=False)
            return live.info

    async def _decided_and_saved(
        self, live: LiveTable, decide: Callable[[TableInfo], Callable[[Session], R]]
    ) -> R:
        """Decide on the table as this process knows it (``decide`` gives the write, whose
        result is the decision), then write. Another server process may have changed the table
        without this one having heard yet: if the write finds that (``StaleWrite``), or the
        decision is a refusal while other processes share the database, catch up with the
        database and decide once more (a second conflict: 409)."""
        for attempt in range(2):
            try:
                write = decide(live.info)
            except TableError:
                if attempt or not self.cluster.shared:
                    raise
                await self._refresh_locked(live)
                continue
            try:
                return await self.db.run(write)
            except StaleWrite as exc:
                if attempt:
                    raise TableError(409, "the table changed meanwhile: please try again") from exc
                await self._refresh_locked(live)
        raise AssertionError("unreachable")

    async def join(self, table_id: str, user: UserInfo, seat: int | None = None) -> TableInfo:
        """Sit ``user`` at an empty seat (the first one unless ``seat`` is given)."""
        return await self._change(table_id, user, "join", seat=seat)

    async def leave(self, table_id: str, user: UserInfo) -> TableInfo:
        """Free ``user``'s seat at a waiting table; at a started one, give the game up (a bot
        plays on in a game of three or more)."""
        live = await self.live(table_id)
        if live.info.status == "playing":
            async with live.lock:
                seat = live.info.playing_seat_of(user.id)
                if seat is None:
                    raise TableError(409, "you have no seat in this game")
                await self._forfeit(live, seat, "left")
                return live.info
        if live.info.status == "over":
            raise TableError(409, "the game is over")
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
            raise TableError(
                409,
                f"seat {seat + 1} is not free; free seats: {', '.join(str(s + 1) for s in free)}",
            )
        return [SeatInfo(seat, user.id, user.name, guest=user.is_guest)]

    @staticmethod
    def _seats_leave(info: TableInfo, user: UserInfo) -> list[SeatInfo]:
        seat = info.seat_of(user.id)
        return [] if seat is None else [SeatInfo(seat)]

    @staticmethod
    def _check_owner(info: TableInfo, user: UserInfo) -> None:
        if info.owner_id != user.id:
            raise TableError(403, f"only the table's host ({info.owner_name}) may do this")

    def _check_bot(self, info: TableInfo, bot: str) -> str:
        try:
            return get_adapter(info.game).check_bot(bot)
        except ValueError as exc:
            raise TableError(422, str(exc)) from exc

    def _seats_bot(
        self, info: TableInfo, user: UserInfo, seat: int, bot: str | None
    ) -> list[SeatInfo]:
        self._check_owner(info, user)
        if not 0 <= seat < info.players:
            raise TableError(422, f"no seat {seat}; seats are 0 to {info.players - 1}")
        if info.seats[seat].user_id is not None:
            raise TableError(409, f"seat {seat + 1} is taken by {info.seats[seat].user_name}")
        return [SeatInfo(seat, bot=self._check_bot(info, bot) if bot is not None else None)]

    def _seats_fill(self, info: TableInfo, user: UserInfo, bot: str) -> list[SeatInfo]:
        self._check_owner(info, user)
        spec = self._check_bot(info, bot)
        return [SeatInfo(s.seat, bot=spec) for s in info.seats if s.empty]

    async def rematch(self, table_id: str, user: UserInfo) -> TableInfo:
        """A new waiting table for the same game with the same seats (the next player first),
        hosted by ``user``, one of the players; the existing one if someone asked already."""
        live = await self.live(table_id)

        def decide(info: TableInfo) -> Callable[[Session], str | None]:
            if info.status != "over":
                raise TableError(409, "a rematch is for a finished game")
            if info.seat_of(user.id) is None:
                raise TableError(403, "only the game's players may ask for a rematch")
            if info.rematch_id is not None:
                return lambda session: None
            options = {
                spec.name: _next_first(info.options.get(spec.name), info.players)
                if spec.kind == "first_player"
                else info.options.get(spec.name, spec.default)
                for spec in live.adapter.options
            }
            seats = [
                SeatInfo(s.seat, s.user_id, s.user_name, s.bot if s.user_id is None else None)
                for s in info.seats
            ]
            now = self.clock.now()

            def write(session: Session) -> str:
                new_id = create_table(
                    session, user.id, info.game, info.players, options, info.pace, now, seats
                )
                if not save_rematch(session, info.id, new_id):
                    # Another server process made the rematch first: this one rolls back.
                    raise StaleWrite(f"table {info.id} has a rematch already")
                self.cluster.announce(session, info.id, "table")
                return new_id

            return write

        async with live.lock:
            made = await self._decided_and_saved(live, decide)
            if made is not None:
                live.info = replace(live.info, rematch_id=made)
                self._broadcast(live, table=True, view=False)
            rematch_id = live.info.rematch_id
        assert rematch_id is not None
        return (await self.live(rematch_id)).info

    async def start(self, table_id: str, user: UserInfo) -> TableInfo:
        """The owner starts the game once every seat is taken."""
        live = await self.live(table_id)

        def decide(info: TableInfo) -> Callable[[Session], tuple[State, TableInfo]]:
            self._check_owner(info, user)
            if info.status != "waiting":
                raise TableError(409, "the game has already started")
            empty = [s.seat + 1 for s in info.seats if s.empty]
            if empty:
                raise TableError(
                    409,
                    f"seat{'s' if len(empty) > 1 else ''} {', '.join(map(str, empty))} "
                    f"{'are' if len(empty) > 1 else 'is'} empty: invite someone or add bots",
                )
            state = live.adapter.new_state(info.players, info.options, live.game)
            record = state.to_record()
            options = dict(record.get("options", info.options))
            rated = info.players in live.adapter.rated_counts and all(
                s.human and not s.guest for s in info.seats
            )
            now = self.clock.now()
            plan = timing.starting(info.pace, info.seats, state, now)

            started = replace(info, status="playing", options=options, version=0, rated=rated)

            def write(session: Session) -> tuple[State, TableInfo]:
                check_seats(session, table_id, "waiting", info.seats)
                save_start(session, table_id, options, record, rated, plan, now)
                self.cluster.announce(session, table_id, "table")
                return state, _with_timing(started, plan)

            return write

        async with live.lock:
            live.state, live.info = await self._decided_and_saved(live, decide)
            self._broadcast(live, table=True, view=True)
            self._kick_bots(live)
            self.on_deadline_change()
            return live.info


def _with_timing(info: TableInfo, plan: Timing) -> TableInfo:
    """``info`` after its clocks and deadlines became ``plan``."""
    seats = tuple(
        replace(s, time_left_ms=plan.clocks[s.seat]) if s.seat in plan.clocks else s
        for s in info.seats
    )
    return replace(
        info,
        seats=seats,
        to_move=plan.to_move,
        turn_started_at=plan.turn_started_at,
        deadline_at=plan.deadline_at,
        reminded_at=plan.reminded_at,
    )


def _next_first(value: Any, players: int) -> Any:
    """The first player of a rematch: the seat after the last game's, or random again."""
    return (value + 1) % players if isinstance(value, int) else value


def _forfeit_outcome(
    outcome: dict[str, Any], info: TableInfo, seat: int, reason: str
) -> dict[str, Any]:
    name = info.seats[seat].user_name or f"Seat {seat + 1}"
    words = f"{name} {FORFEIT_WORDS.get(reason, reason)}"
    return {**outcome, "reason": words, "forfeit": {"seat": seat, "reason": reason}}
