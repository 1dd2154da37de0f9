"""A person says when a bot starts the next round.

A bot whose only actions start a round (the adapter's ``ready_before``: Recto Verso's
``reveal`` of the cooperative game, R16, and ``turn`` of the game for 3 to 6, R13, either of
which starts the round's clock) does not act at its pace when a person plays at the table and
the server paces bots (:meth:`otherside.server.tables.live.LiveTable.bot_waits`): it waits for
a person's ``ready`` message (:class:`Ready`), so that someone still reading the last round's
result loses none of the next round's seconds, or until its deadline, the adapter's
``ready_pause`` after the move that ended the last round (or the start) on the server's clock
(:meth:`~otherside.server.tables.live.LiveTable.ready_deadline`, which every ``view`` carries
for its countdown, a spectator's too), so that an absent person never stalls the table
(:func:`until_ready`, run by :mod:`.bot_turns`). The moment is the game's, as stored with its
moves: the same in every process, and moved by no seat changing hands meanwhile.

Whose ``ready`` counts: any seated person's, the first one said. In the cooperative game that
is the bot's one partner. In the game for 3 to 6 the bot's partner is named by a token still
face down (R12): nobody, the server included, may single its owner out before it is turned, and
every person at the table reads the same result, so the first person ready starts the round.
A spectator's ``ready`` is refused, as one at another version.

Bots act in the process holding the table's lease, and a person's socket may be on another: a
``ready`` accepted there is told to the others (a ``ready`` note with the version, nothing
written) and the owner hears it (:func:`heard`, from :mod:`otherside.server.cluster.catch_up`).
A ``ready`` heard before the owner's bot began to wait (its table still following the round's
last move) is kept by its version, and the bot goes on at once when it gets there.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from otherside.i18n import N_
from otherside.server.accounts.sessions import UserInfo
from otherside.server.tables.errors import Refused
from otherside.server.tables.live import LiveTable
from otherside.server.tables.positions import stale
from otherside.server.tables.services import Services

READY = "ready"  # the kind of the note told to the other server processes


@dataclass(frozen=True)
class Ready:
    """``user``, a player, is ready for the next round, as of the table's ``version``."""

    user: UserInfo | None
    version: int

    async def run(self, live: LiveTable, services: Services) -> None:
        """Wake the bot waiting for it (here, or in the process owning the table);
        :class:`Refused` (changing nothing) from a spectator, at another version, or when no
        bot waits."""
        live.playing_seat(self.user)
        live.playing_state()
        if self.version != live.info.version:
            raise stale(self.version, live.info.version)
        if not live.bot_waits():
            raise Refused("not_waiting", N_("no bot waits for you to be ready now"))
        mark(live, self.version)
        if not services.cluster.holds(live.id):
            await services.cluster.tell(live.id, READY, version=self.version)


def mark(live: LiveTable, version: int) -> None:
    """A person is ready at ``version``: the bot waiting at it goes on."""
    live.ready_version = version
    look_again(live)


def look_again(live: LiveTable) -> None:
    """The table changed (a command ran on it): the bot waiting for a person, if any, looks
    again whether it still must (the last person may have left, the table moved on)."""
    if live.ready_wake is not None:
        live.ready_wake.set()


def heard(live: LiveTable, note: dict[str, Any]) -> None:
    """Another process accepted a ``ready`` at this table (``note``, as it told it)."""
    version = note.get("version")
    if isinstance(version, int) and not isinstance(version, bool):
        mark(live, version)


async def until_ready(services: Services, live: LiveTable) -> None:
    """Wait until a person is ready at the table's version, the table moves on, no bot waits
    any more (its people gone), or the server's clock reaches the wait's deadline (read again
    after each wake: the one the people are shown)."""
    version = live.info.version
    wake = live.ready_wake = asyncio.Event()
    try:
        while live.ready_version != version and live.info.version == version:
            now = services.clock.now()
            end = live.ready_deadline()
            if end is None or end <= now:
                return
            pause = asyncio.ensure_future(services.clock.sleep((end - now).total_seconds()))
            woken = asyncio.ensure_future(wake.wait())
            try:
                await asyncio.wait({pause, woken}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                pause.cancel()
                woken.cancel()
            wake.clear()
    finally:
        live.ready_wake = None
