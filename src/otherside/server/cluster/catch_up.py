"""Catching up with the other server processes on one database.

A change made in another process reaches this one as a notification (:mod:`.peers`):
:meth:`CatchUp.on_remote` brings a table held here up to the database — in a task of its own
per table, so that the listener never waits on the database, and the changes heard while it
runs make one more catch-up, not one each — and passes chat lines on to the watchers here.
:meth:`CatchUp.adopt` takes over the tables whose owner died. :func:`refresh` is the catch-up
itself, run by the table's actor (also when a write finds the database changed first);
:func:`restart` reloads a table whose state a failure left in doubt.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from otherside.core.game import Game, State
from otherside.server.live import fanout
from otherside.server.store.records import TableInfo
from otherside.server.store.tables import TableStore, seated_ratings
from otherside.server.tables.chat import heard
from otherside.server.tables.live import GameClock, LiveTable, applied, rebuild

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
    info = await store.table(live.id)
    if info is None:
        return
    known = live.info.version if live.state is not None else None
    # The moves are read in another transaction than ``info``, and others may have been
    # committed in between: replay only up to ``info.version``, the version stored below.
    upto = info.version
    if info.status != "waiting" and (known is None or info.version < known):
        live.state = await stored_state(store, live.game, live.game_clock, info)
    elif info.status != "waiting" and info.version > (known or 0) and live.state is not None:
        moves = await store.moves_after(live.id, known or 0, upto=upto)
        for _move, state in applied(live.state, live.game_clock, moves):
            live.state = state
    # A stamp alone (the store's ``updated_at`` may differ from the one kept in memory by a
    # fraction of a second) is not news for the watchers.
    changed = replace(live.info, updated_at=info.updated_at) != info
    live.info = info
    if changed:
        live.ratings = await seated_ratings(store, info)
        fanout.broadcast(live, services.clock.now(), table=True, view=True)
    services.kick_bots(live)


async def stored_state(
    store: TableStore, game: Game, clock: GameClock, info: TableInfo
) -> State | None:
    """The game of the stored table ``info``, rebuilt from its first record and its moves up
    to ``info.version`` (``None`` before it starts)."""
    if info.status == "waiting":
        return None
    # Up to the version read: ``info`` and the state must agree.
    initial, moves = await store.moves(info.id, upto=info.version)
    return await asyncio.to_thread(rebuild, game, clock, initial, moves)


async def restart(services: Services, live: LiveTable) -> None:
    """Reload the table from the database, its game rebuilt from the start, and show it to its
    watchers: a failure left what is in memory in doubt. Run by the table's actor."""
    info = await services.store.table(live.id)
    if info is None:
        return
    live.state = await stored_state(services.store, live.game, live.game_clock, info)
    live.info = info
    live.ratings = await seated_ratings(services.store, info)
    fanout.broadcast(live, services.clock.now(), table=True, view=True)
    services.kick_bots(live)


@dataclass(frozen=True)
class Refresh:
    """Catch up with the database."""

    async def run(self, live: LiveTable, services: Services) -> None:
        """See :func:`refresh`."""
        await refresh(services, live)


class CatchUp:
    """This process's tables following the others' changes.

    Args:
        hub: the tables held here.
    """

    def __init__(self, hub: TableHub) -> None:
        self.hub = hub
        self._catching_up: set[str] = set()  # tables catching up with another process's change
        self._behind: set[str] = set()  # of those, the ones changed again meanwhile

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
                    log.exception("could not catch up with table %s; retrying", table_id)
                    self._behind.add(table_id)
                    await asyncio.sleep(backoff)
                    backoff = min(backoff * 2, LAST_BACKOFF)
                    continue
                backoff = FIRST_BACKOFF
                hub.services.on_deadline_change(live.info.deadline_at)
                if table_id not in self._behind:
                    break
        finally:
            # No await since the last look at ``_behind``: a change heard from now on starts
            # a new catch-up.
            self._catching_up.discard(table_id)
