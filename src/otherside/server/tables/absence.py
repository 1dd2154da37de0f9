"""A partner who is gone: in a game without player clocks (Recto Verso's rounds) nobody is
replaced on a timer during play; the table waits for the people. When a player has had no
connection to the table for a while (``Limits.away_seconds``), another player at it may play
on with a bot in their seat: the same hand-over as a player who leaves (:mod:`.forfeits`).
A connection through any server process counts (:mod:`otherside.server.cluster.presence`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from otherside.server.accounts.sessions import UserInfo
from otherside.server.cluster.presence import away_since
from otherside.server.store.records import TableInfo
from otherside.server.tables.errors import Refused
from otherside.server.tables.forfeits import forfeit
from otherside.server.tables.live import LiveTable
from otherside.server.tables.services import Services


def check_away(
    info: TableInfo,
    asker: UserInfo,
    seat: int,
    since: datetime | None,
    now: datetime,
    least: float,
) -> None:
    """``asker`` may hand ``seat`` to a bot: both play the game, the seat's player is another
    person without a clock, gone since ``since`` (``None``: here) for ``least`` s or more."""
    if info.status != "playing":
        raise Refused("not_playing")
    if info.playing_seat_of(asker.id) is None:
        raise Refused("no_seat")
    if not 0 <= seat < info.players:
        raise Refused("no_such_seat", seat=seat, players=info.players)
    target = info.seats[seat]
    if not target.human or target.user_id == asker.id:
        raise Refused("not_a_person", seat=seat)
    if target.time_left_ms is not None or info.pace.kind != "rounds":
        raise Refused("has_a_clock")
    if since is None or (now - since).total_seconds() < least:
        raise Refused("not_away", name=target.user_name or "", seconds=least)


@dataclass(frozen=True)
class PlayOnWithBot:
    """``user``, a player, hands ``seat``, whose player has been gone long enough, to a bot."""

    user: UserInfo
    seat: int

    async def run(self, live: LiveTable, services: Services) -> TableInfo:
        """The table after."""
        info = live.info
        target = info.seats[self.seat] if 0 <= self.seat < info.players else None
        since = None
        if target is not None and target.user_id is not None:
            # Connected through any server process counts, not only this one's sockets.
            away = await away_since(services.cluster.presence, live, [target.user_id])
            since = away[target.user_id]
        now = services.clock.now()
        check_away(info, self.user, self.seat, since, now, services.limits.away_seconds)
        await forfeit(services, live, self.seat, "away")
        return live.info
