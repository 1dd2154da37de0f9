"""Catching up with the other server processes on one database.

A change made in another process reaches this one as a notification (:mod:`.peers`). A move
comes with the move itself (:mod:`.moves`): a table held here at the version before it applies
it as its owner did (:class:`Follow`), with no database read. Any other change, or a move that
does not follow on from what is held here, makes :meth:`CatchUp.on_remote` bring the table up to
the database — in a task of its own per table, so that the listener never waits on the
database, and the changes heard while it runs make one more catch-up, not one each. Chat lines
are passed on to the watchers here, and a person's ``ready`` to a bot waiting here
(:mod:`otherside.server.tables.ready`).
:meth:`CatchUp.adopt` takes over the tables whose owner died. :func:`refresh` is the catch-up
itself, run by the table's actor (also when a write finds the database changed first);
:func:`restart` reloads a table whose state a failure left in doubt.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from otherside.core.game import Game, State
from otherside.core.simultaneous import apply_as
from otherside.server.cluster.moves import NotedMove, heard_move
from otherside.server.live import fanout
from otherside.server.store.contract import TableStore, seated_ratings
from otherside.server.store.outage import log_failure
from otherside.server.store.records import MoveRow, TableInfo
from otherside.server.tables import ready
from otherside.server.tables.chat import heard
from otherside.server.tables.live import (
    GameClock,
    LiveTable,
    applied,
    reached_at,
    rebuild,
    ticket,
)
from otherside.server.tables.timing import with_timing

if TYPE_CHECKING:
    from otherside.server.tables.hub import TableHub
    from otherside.server.tables.services import Services

log = logging.getLogger("otherside.server")
FIRST_BACKOFF = 0.1  # seconds before a failed catch-up is tried again (doubling)
LAST_BACKOFF = 5.0


async def refresh(services: Services, live: LiveTable) -> None:
    """Bring a table held in memory up to the database (another process changed it); run by
    the table's actor."""
    store = services.store
    read = ticket()
    info = await store.table(live.id)
    if info is None:
        return
    known = live.info.version if live.state is not None else None
    # The moves are read in another transaction than ``info``, and others may have been
    # committed in between: replay only up to ``info.version``, the version stored below.
    upto = info.version
    # A takeback since (the count differs) may be followed by moves up to the version held
    # here or beyond: the moves after it are another line, so the game is rebuilt.
    taken_back = info.takebacks != live.info.takebacks
    if info.status != "waiting" and (known is None or info.version < known or taken_back):
        live.state, live.moved_at = await stored_state(store, live.game, live.game_clock, info)
    elif info.status != "waiting" and info.version > (known or 0) and live.state is not None:
        moves = await store.moves_after(live.id, known or 0, upto=upto)
        for move, state in applied(live.state, live.game_clock, moves):
            live.state, live.moved_at = state, move.played_at
    # A stamp alone (the store's ``updated_at`` may differ from the one kept in memory by a
    # fraction of a second) is not news for the watchers.
    changed = replace(live.info, updated_at=info.updated_at) != info
    live.info = info
    if changed:
        live.ratings = await seated_ratings(store, info)
        fanout.broadcast(live, services.clock.now(), table=True, view=True)
    live.read_ticket = read
    services.kick_bots(live)


async def stored_state(
    store: TableStore, game: Game, clock: GameClock, info: TableInfo
) -> tuple[State | None, datetime | None]:
    """The game of the stored table ``info``, rebuilt from its first record and its moves up
    to ``info.version``, and when it reached that position
    (:func:`~otherside.server.tables.live.reached_at`); ``None`` for both before it starts."""
    if info.status == "waiting":
        return None, None
    # Up to the version read: ``info`` and the state must agree.
    initial, moves = await store.moves(info.id, upto=info.version)
    return await replayed_state(game, clock, info, initial, moves)


async def replayed_state(
    game: Game,
    clock: GameClock,
    info: TableInfo,
    initial: dict[str, Any] | None,
    moves: list[MoveRow],
) -> tuple[State | None, datetime | None]:
    """:func:`stored_state` from the first record and moves read with ``info`` (all of them,
    up to its version), rebuilt off the event loop."""
    if info.status == "waiting":
        return None, None
    state = await asyncio.to_thread(rebuild, game, clock, initial, moves)
    return state, reached_at(info, moves)


async def restart(services: Services, live: LiveTable) -> None:
    """Reload the table from the database, its game rebuilt from the start, and show it to its
    watchers: a failure left what is in memory in doubt. Run by the table's actor."""
    read = ticket()
    held = await services.store.held(live.id)  # in one read, as a table's load
    if held is None:
        return
    live.state, live.moved_at = await replayed_state(
        live.game, live.game_clock, held.info, held.initial, held.moves
    )
    live.info = held.info
    live.ratings = held.ratings
    live.read_ticket = read
    fanout.broadcast(live, services.clock.now(), table=True, view=True)
    services.kick_bots(live)


@dataclass(frozen=True)
class Refresh:
    """Catch up with the database, unless a read of the table that began after ``since`` (a
    :func:`~otherside.server.tables.live.ticket`) did already, and after the last change heard
    from another process that could not be applied here: in a burst of ``sync`` messages
    (a process died and its players all came here) a table's load answers those sent on
    connections opened before it began, and one read answers those asked while it waited."""

    since: int | None = None  # None: read whatever was read before

    async def run(self, live: LiveTable, services: Services) -> None:
        """See :func:`refresh`."""
        if self.since is not None and live.read_ticket > max(self.since, live.heard_ticket):
            return
        await refresh(services, live)


@dataclass(frozen=True)
class Follow:
    """Apply a move another process committed (``move``, from its announcement) as that process
    did: the game's own ``apply`` at the time it was played, then the clocks and deadlines it
    set."""

    move: NotedMove

    async def run(self, live: LiveTable, services: Services) -> bool:
        """``True`` once the table has the move (applied now, or known already); ``False`` if
        it must catch up with the database instead (nothing changed): the table is not at the
        version just before (or not after as many takebacks), the game is not in play here, or
        the move does not apply here."""
        move, info, state = self.move, live.info, live.state
        if move.takebacks != info.takebacks:
            # A takeback here or there that the other has not seen: the same version may be
            # another position; the database says which.
            return False
        if info.version >= move.version:
            return True  # a catch-up or a load read it from the database first
        if info.version != move.version - 1 or info.status != "playing" or state is None:
            return False
        live.game_clock.pinned = move.at.timestamp()
        try:
            after = apply_as(state, move.seat, move.action)
        except ValueError:
            return False  # not the owner's position: the database says what happened
        finally:
            live.game_clock.pinned = None
        if after.is_over:
            return False  # the owner announces an ending move without it: something differs
        live.state, live.moved_at = after, move.at
        live.info = with_timing(replace(info, version=move.version, updated_at=move.at), move.plan)
        fanout.broadcast(live, services.clock.now(), table=False, view=True)
        services.kick_bots(live)
        return True


class CatchUp:
    """This process's tables following the others' changes.

    Args:
        hub: the tables held here.
    """

    def __init__(self, hub: TableHub) -> None:
        self.hub = hub
        self._catching_up: set[str] = set()  # tables catching up with another process's change
        self._behind: set[str] = set()  # of those, the ones changed again meanwhile
        self.reads = 0  # catch-ups with the database after a notification (for health, tests)
        self.followed = 0  # moves applied from their notification, with no read

    async def on_remote(self, message: dict[str, Any]) -> None:
        """Another server process changed a table (``message`` from :mod:`.peers`): catch up
        if this process holds it, and pass a chat line on to the watchers here."""
        if message.get("kind") == "resync":
            for held in self.hub.held_ids():
                self._soon(held)
            return
        table_id = str(message.get("table"))
        if message.get("kind") == "chat":
            self.hub.background(self._pass_chat(table_id, message.get("line")))
            return
        if message.get("kind") == ready.READY:
            # A person's word for the bot waiting here (nothing stored to catch up with).
            if (live := self.hub.loaded(table_id)) is not None:
                ready.heard(live, message)
            return
        move = heard_move(message) if message.get("kind") == "move" else None
        if move is None or not self._follow(table_id, move):
            self._soon(table_id)

    def counts(self) -> dict[str, int]:
        """How this process followed the others: moves applied from their notification
        (``followed``) and catch-ups that read the database (``reads``)."""
        return {"followed": self.followed, "reads": self.reads}

    def _follow(self, table_id: str, move: NotedMove) -> bool:
        """Apply ``move`` from its notification if the table is held here (``True``: done
        with it, or to be done by its actor); ``False``: catch up with the database."""
        hub = self.hub
        live = hub.loaded(table_id)
        if live is None:
            # Not held here: nothing to do; being loaded: the load may have read the table
            # before this move, so catch up once it is done.
            return hub.loading(table_id) is None
        hub.forget_if_idle(live)
        if hub.loaded(table_id) is None:
            return True
        hub.background(self._apply(table_id, move))
        return True

    async def _apply(self, table_id: str, move: NotedMove) -> None:
        # The table's actor runs it, in order with the table's other commands (a catch-up
        # asked for before it too: the version decides whether the move is still news).
        try:
            done = await self.hub.ask(table_id, Follow(move))
        except Exception:
            log_failure(log, "could not apply move %d of table %s heard", move.version, table_id)
            done = False
        if done:
            self.followed += 1
            held = self.hub.loaded(table_id)
            if held is not None:
                self.hub.services.on_deadline_change(held.info.deadline_at)
        else:
            self._soon(table_id)

    async def adopt(self, table_ids: list[str]) -> None:
        """Make sure the bots of these tables play: take over those without an owner (their
        process died) — lease, load, catch up — and restart ours if their bots stopped."""
        hub = self.hub
        for table_id in table_ids:
            held = hub.loaded(table_id)
            if held is not None and held.bot_task is not None:
                continue
            if await hub.cluster.acquire(table_id):
                await hub.ask(table_id, Refresh())

    async def _held_after_load(self, table_id: str) -> LiveTable | None:
        """The table if this process holds it, once a load of it under way is done: a load
        may have read the database before a change heard now, which must not be lost on it."""
        loading = self.hub.loading(table_id)
        if loading is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(loading)
        return self.hub.loaded(table_id)

    async def _pass_chat(self, table_id: str, line: Any) -> None:
        live = await self._held_after_load(table_id)
        if live is not None:
            heard(live, line)

    def _soon(self, table_id: str) -> None:
        # What is held here is behind the database until a read that begins from now on.
        if (held := self.hub.loaded(table_id)) is not None:
            held.heard_ticket = ticket()
        if table_id in self._catching_up:
            self._behind.add(table_id)
            return
        self._catching_up.add(table_id)
        self.hub.background(self._catch_up(table_id))

    async def _catch_up(self, table_id: str) -> None:
        hub = self.hub
        backoff = FIRST_BACKOFF
        try:
            while True:
                self._behind.discard(table_id)
                live = await self._held_after_load(table_id)
                if live is None:
                    break
                # Nobody here watches it and this process does not own it: forget it rather
                # than follow every move of a table it only served a request of.
                hub.forget_if_idle(live)
                if hub.loaded(table_id) is None:
                    break
                try:
                    await hub.ask(table_id, Refresh())
                except Exception:
                    # The database away, or the table busy failing: a table left behind would
                    # show an old position for ever, so try again, later and later, until it
                    # is caught up (or let go). Other tables catch up in their own tasks.
                    log_failure(log, "could not catch up with table %s; retrying", table_id)
                    self._behind.add(table_id)
                    await asyncio.sleep(backoff)
                    backoff = min(backoff * 2, LAST_BACKOFF)
                    continue
                backoff = FIRST_BACKOFF
                self.reads += 1
                hub.services.on_deadline_change(live.info.deadline_at)
                if table_id not in self._behind:
                    break
        finally:
            # No await since the last look at ``_behind``: a change heard from now on starts
            # a new catch-up.
            self._catching_up.discard(table_id)
