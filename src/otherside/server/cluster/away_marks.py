"""What a table's watchers are shown of its players' presence across server processes.

The ``table`` message says which players are away, and since when
(:meth:`~otherside.server.tables.live.LiveTable.shown_away`): with several processes a partner
may be connected through another one. A move's message must not read the database, so each
process keeps, beside every table watched through it, the other processes' presence rows as
last read (its ``elsewhere``, an :class:`~.presence.Elsewhere`):

- read once when someone starts watching the table here (:meth:`AwayMarks.arriving`), before
  they are sent the table;
- read again when another process says players came or went there
  (:data:`~.presence.PRESENCE`, sent with each write of its presence, and by the process that
  marks a dead one's players gone, :mod:`.presence`), or after this process's notification
  connection was lost (everything may have been missed);

and when what the watchers are shown changed, they are sent the ``table`` again (where players
are told of each other's coming and going at once,
:meth:`~otherside.server.tables.live.LiveTable.tells_presence`). A table held here that nobody
watches is not followed: it is read again when someone comes. A process alone (SQLite) has no
others, and reads nothing.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from otherside.server.cluster.presence import Seen
from otherside.server.live import fanout
from otherside.server.store.outage import log_failure
from otherside.server.tables.live import LiveTable

if TYPE_CHECKING:
    from otherside.server.tables.hub import TableHub

log = logging.getLogger("otherside.server")
FIRST_BACKOFF = 0.2  # seconds before a failed read is tried again (doubling)
LAST_BACKOFF = 5.0
UNREAD = "could not read who is connected to table %s; retrying"


@dataclass(frozen=True)
class Read:
    """What :meth:`AwayMarks.read` found (``seen``; ``None``: the read failed), the number of
    the read (``asked``) and how many announcements had been heard when it began (``heard``)."""

    asked: int
    heard: int
    seen: dict[int, Seen] | None


class AwayMarks:
    """The others' presence at the tables watched through this process, kept current.

    Args:
        hub: the tables held here.
    """

    def __init__(self, hub: TableHub) -> None:
        self.hub = hub
        self.heard = 0  # announcements heard (one during a first read may have gone unheeded)
        self._asked = 0  # reads started, for their order (:class:`~.presence.Elsewhere`)
        self._reading: set[LiveTable] = set()  # tables with a read under way in the background
        self._again: set[LiveTable] = set()  # of those, the ones told of a change meanwhile
        self._arriving: dict[str, asyncio.Future[Read]] = {}  # reads for newcomers, by table

    def hear(self, message: dict[str, Any]) -> None:
        """Players came or went at ``message``'s table through another process: read it
        again if it is watched here."""
        self.heard += 1
        self._if_watched(str(message.get("table")))

    def resync(self) -> None:
        """This process may have missed announcements: read every table watched here again."""
        self.heard += 1
        for table_id in self.hub.held_ids():
            self._if_watched(table_id)

    def _if_watched(self, table_id: str) -> None:
        live = self.hub.loaded(table_id)
        if live is not None and live.watchers:
            self.soon(live)

    def soon(self, live: LiveTable) -> None:
        """Read ``live``'s presence again in the background (until it succeeds, or nobody
        watches the table here any more); the changes told while a read is under way make one
        more read, not one each."""
        if live in self._reading:
            self._again.add(live)
            return
        self._reading.add(live)
        self.hub.background(self._read_on(live))

    async def arriving(self, table_id: str) -> Read:
        """:meth:`read`, for someone about to watch ``table_id`` here: one under way for another
        newcomer to it is theirs too (a process died and its players all come here at once;
        an announcement heard since it began makes :meth:`watched` read again)."""
        under_way = self._arriving.get(table_id)
        if under_way is None:
            under_way = asyncio.get_running_loop().create_future()
            self._arriving[table_id] = under_way
            self.hub.background(self._read_for_arrivals(table_id, under_way))
        return await asyncio.shield(under_way)

    async def _read_for_arrivals(self, table_id: str, found: asyncio.Future[Read]) -> None:
        try:
            found.set_result(await self.read(table_id))
        finally:
            del self._arriving[table_id]
            if not found.done():  # stopped (the hub closing)
                found.cancel()

    async def read(self, table_id: str) -> Read:
        """The others' presence at ``table_id``, read now (numbered, and a failure logged):
        for someone about to watch it here (:meth:`watched` keeps it), or again."""
        self._asked += 1
        asked, heard = self._asked, self.heard
        try:
            seen = await self.hub.cluster.presence.elsewhere(table_id)
        except Exception:
            log_failure(log, UNREAD, table_id)
            return Read(asked, heard, None)
        return Read(asked, heard, seen)

    def watched(self, live: LiveTable, read: Read) -> None:
        """Someone is about to watch ``live`` here: keep what :meth:`read` found for them
        (unless a later read's is kept), and read again if it failed, or if an announcement
        came meanwhile (unheeded, if nobody watched the table here)."""
        if read.seen is not None:
            self._keep(live, read.asked, read.seen)
        if read.seen is None or self.heard != read.heard:
            self.soon(live)

    async def _read_on(self, live: LiveTable) -> None:
        backoff = FIRST_BACKOFF
        try:
            while True:
                self._again.discard(live)
                found = await self.read(live.id)
                if found.seen is None:  # failed (logged)
                    await asyncio.sleep(backoff)
                    backoff = min(backoff * 2, LAST_BACKOFF)
                    if not live.watchers or self.hub.loaded(live.id) is not live:
                        return  # nobody to show it to: read when someone comes
                    continue
                self._keep(live, found.asked, found.seen)
                backoff = FIRST_BACKOFF
                if live not in self._again:
                    return
        finally:
            # No await since the last look at ``_again``: a change told from now on starts a
            # read of its own.
            self._reading.discard(live)
            self._again.discard(live)

    def _keep(self, live: LiveTable, asked: int, seen: dict[int, Seen]) -> None:
        before = live.shown_away()
        if not live.elsewhere.keep(asked, seen):
            return  # a later read was kept first
        if live.tells_presence() and live.shown_away() != before:
            fanout.broadcast(live, self.hub.services.clock.now(), table=True, view=False)
