"""The hub: every table this server process holds in memory, each with its actor.

:meth:`TableHub.actor` finds a table's actor, loading the table (its game rebuilt from the
first record and the moves) on first use, and starts it; every change to a table is a command
its actor runs (:mod:`.actor`), asked through :meth:`TableHub.ask`. The hub also keeps who
watches a table (:meth:`attach`, :meth:`detach`), lets idle tables go, resumes the games in
progress after a restart and stops everything at shutdown. What the commands do lives in their
own modules: :mod:`.play`, :mod:`.forfeits`, :mod:`.deadlines`, :mod:`.chat`,
:mod:`.bot_turns`, :mod:`.seating`; following other processes in
:mod:`otherside.server.cluster.catch_up`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

from otherside.server.accounts.limiter import Limiter
from otherside.server.accounts.limits import Limits, Throttles
from otherside.server.bots.workers import BotRunner
from otherside.server.clock import Clock, SystemClock
from otherside.server.cluster.away_marks import AwayMarks
from otherside.server.cluster.catch_up import CatchUp, replayed_state, restart
from otherside.server.cluster.peers import PostgresCluster, SoloCluster
from otherside.server.live import fanout
from otherside.server.store.contract import TableStore, seated_ratings
from otherside.server.store.db import Database
from otherside.server.store.records import Held, TableInfo
from otherside.server.store.tables import SqlTableStore
from otherside.server.tables import bot_turns, chat
from otherside.server.tables.actor import Command, TableActor
from otherside.server.tables.adapters import get_adapter
from otherside.server.tables.errors import Refused
from otherside.server.tables.live import Connection, GameClock, LiveTable, ticket
from otherside.server.tables.services import Services

R = TypeVar("R")


class TableHub:
    """The live tables of this process: found, loaded, started, let go.

    Args:
        db: the database (``None`` with a ``store`` of its own: tests in memory).
        bots: the runner choosing bot actions.
        clock: where time comes from (the scheduler, clocks, move stamps).
        limits: the server's limits (chat lines a minute, open tables per host).
        cluster: the other server processes on the same database, if any
            (:mod:`otherside.server.cluster.peers`): whom to tell of changes, which tables are
            ours.
        store: the tables' storage (by default :class:`SqlTableStore` on ``db``).
    """

    def __init__(
        self,
        db: Database | None,
        bots: BotRunner,
        clock: Clock | None = None,
        limits: Limits | None = None,
        cluster: SoloCluster | PostgresCluster | None = None,
        store: TableStore | None = None,
    ) -> None:
        self.db = db
        self.cluster = cluster or SoloCluster()
        if store is None:
            if db is None:
                raise ValueError("a table hub needs a database or a store")
            store = SqlTableStore(db, self.cluster)
        self.services = Services(
            store=store,
            clock=clock or SystemClock(),
            cluster=self.cluster,
            limits=limits or Limits(),
            bots=bots,
            ask=self.ask,
            background=self.background,
            forget_if_idle=self.forget_if_idle,
            kick_bots=lambda live: bot_turns.kick(self.services, live),
        )
        if db is not None:
            # Chat lines are counted where every process sees them (a hub without a database,
            # on a memory store, counts nothing).
            self.services.throttles = Throttles(
                self.services.limits, Limiter(db, self.services.clock)
            )
        self.catch_up = CatchUp(self)
        self.away_marks = AwayMarks(self)
        self._actors: dict[str, TableActor] = {}
        self._loads: dict[str, asyncio.Future[TableActor]] = {}  # tables being loaded
        self._tasks: set[asyncio.Task[None]] = set()  # bots and catch-ups, stopped at close

    @property
    def limits(self) -> Limits:
        """The server's limits."""
        return self.services.limits

    # -- finding and loading -------------------------------------------------------------

    async def actor(self, table_id: str, known: TableInfo | None = None) -> TableActor:
        """The actor of table ``table_id``, loaded and started on first use
        (``Refused("no_table")`` if there is no such table); ``known``: the table as this
        process just wrote it (a new table), taken as it is rather than read back."""
        while True:
            found = self._actors.get(table_id)
            if found is not None:
                return found
            # One load per table, whoever asks meanwhile waits for it; other tables load at once.
            loading = self._loads.get(table_id)
            if loading is None:
                loading = self._loads[table_id] = asyncio.ensure_future(self._load(table_id, known))
                loading.add_done_callback(lambda _: self._loads.pop(table_id, None))
            loaded = await asyncio.shield(loading)
            if not loaded.stopped:
                return loaded
            # Let go, idle, before this caller's turn came: load it again.

    async def live(self, table_id: str, known: TableInfo | None = None) -> LiveTable:
        """The live table ``table_id``, loaded on first use (``known``: see :meth:`actor`)."""
        return (await self.actor(table_id, known)).live

    async def ask(self, table_id: str, command: Command[R]) -> R:
        """Run ``command`` on table ``table_id`` (in order with its other commands)."""
        return await (await self.actor(table_id)).ask(command)

    def loaded(self, table_id: str) -> LiveTable | None:
        """The live table ``table_id`` if it is in memory (no loading)."""
        found = self._actors.get(table_id)
        return found.live if found is not None else None

    def loading(self, table_id: str) -> asyncio.Future[TableActor] | None:
        """The load of ``table_id`` under way, if any."""
        return self._loads.get(table_id)

    def held_ids(self) -> list[str]:
        """The tables in memory."""
        return list(self._actors)

    async def _load(self, table_id: str, known: TableInfo | None = None) -> TableActor:
        store = self.services.store
        read = ticket()
        if known is not None and known.status == "waiting":
            # A table just made: no moves, nothing rated yet but its host's rating.
            held: Held | None = Held(known, None, [], await seated_ratings(store, known), {})
        else:
            # One read for it all: when a process dies its players all come here at once.
            held = await store.held(table_id)
        if held is None:
            raise Refused("no_table", table=table_id)
        info = held.info
        adapter = get_adapter(info.game)
        game_clock = GameClock(self.services.clock)
        game = adapter.game_with_clock(game_clock)
        state, moved_at = await replayed_state(game, game_clock, info, held.initial, held.moves)
        live = LiveTable(info, adapter, game, game_clock, state, moved_at=moved_at)
        live.loaded_at = self.services.clock.now()
        live.read_ticket = read
        if self.services.bots.delay > 0:  # bots unpaced (tests) wait for no one
            live.ready_pause = adapter.ready_pause
        if known is not None:
            live.chat = []  # a table just made: nobody has said anything at it yet
        live.ratings = held.ratings
        live.rating_changes = held.changes
        actor = TableActor(live, self.services, recover=self._recover)
        self._actors[table_id] = actor
        actor.start()
        return actor

    async def _recover(self, actor: TableActor) -> None:
        await restart(self.services, actor.live)

    # -- watchers ------------------------------------------------------------------------

    async def attach(self, table_id: str, conn: Connection) -> LiveTable:
        """Start sending table ``table_id`` to ``conn``: its state and recent chat at once,
        then every change."""
        # Who is connected through the other processes, read before the table is sent (while
        # it loads): a partner there is not away (and followed from now on, cluster.away_marks).
        others = None
        if self.cluster.shared:
            others, _ = await asyncio.gather(
                self.away_marks.arriving(table_id), self.live(table_id)
            )
        # Found at once if loaded (no suspension): the table may have been let go meanwhile.
        live = await self.live(table_id)
        # No await between the lookup and this line, so the table cannot be forgotten meanwhile.
        came_back = conn.user is not None and live.away_since(conn.user.id) is not None
        if others is not None:
            self.away_marks.watched(live, others)
        live.watchers.add(conn)
        if conn.user is not None:
            live.gone.pop(conn.user.id, None)
        now = self.services.clock.now()
        fanout.send_state(conn, live, now)
        if came_back and conn.user is not None:
            self.cluster.presence.tell(table_id, conn.user.id, True, now)
            self._presence_changed(live, conn.user.id, skip=conn)
        await chat.send_recent(self.services, live, conn)
        return live

    def detach(self, live: LiveTable, conn: Connection) -> None:
        """Stop sending to ``conn``."""
        live.watchers.discard(conn)
        user = conn.user
        if user is not None and live.away_since(user.id) is not None:
            now = self.services.clock.now()
            live.gone[user.id] = now
            self.cluster.presence.tell(live.id, user.id, False, now)
            self._presence_changed(live, user.id)
        self.forget_if_idle(live)

    def _presence_changed(
        self, live: LiveTable, user_id: int, skip: Connection | None = None
    ) -> None:
        """A player came or went: the others learn it where it matters, at a game in play whose
        players have no clock (a partner gone long may be played on for, :mod:`.absence`)."""
        if live.tells_presence() and live.info.playing_seat_of(user_id) is not None:
            fanout.broadcast(live, self.services.clock.now(), table=True, view=False, skip=skip)

    def forget_if_idle(self, live: LiveTable) -> None:
        """Let ``live`` go from memory unless something holds it here."""
        # Games this process owns stay in memory (one object per table, so a handler holding it
        # never acts on a stale copy); others only while watched or moving.
        actor = self._actors.get(live.id)
        if actor is None or actor.live is not live:
            return
        if live.watchers or live.bot_task is not None or actor.busy:
            return
        if live.info.status == "playing" and self.cluster.holds(live.id):
            return
        del self._actors[live.id]
        actor.close()

    # -- the life of the process ---------------------------------------------------------

    def background(
        self, work: Coroutine[Any, Any, None], name: str | None = None
    ) -> asyncio.Task[None]:
        """Run ``work`` in a task of this hub's (stopped by :meth:`close`)."""
        task = asyncio.create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def resume(self) -> int:
        """Load every unfinished game and let its bots play on; the number resumed."""
        ids = await self.services.store.playing_ids()
        for table_id in ids:
            bot_turns.kick(self.services, await self.live(table_id))
        return len(ids)

    async def close(self) -> None:
        """Stop the bots, the catch-ups and the actors (at server shutdown)."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        actors = list(self._actors.values())
        self._actors.clear()
        await asyncio.gather(*(actor.stop() for actor in actors), return_exceptions=True)
