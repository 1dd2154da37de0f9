"""Absentees at an event's tables that have no player clock (Recto Verso's timed rounds).

At a table with clocks an entrant who does not show loses on time (the tables' own clocks,
:mod:`otherside.server.tables.forfeits`). A Recto Verso table has none: between rounds it waits
for its people, so one absent partner would stall the table, and with it the round and the
event. The director therefore hands the seat of a person who has had no connection to the
table for ``Limits.away_seconds`` (from when the table was made, for one who never came) to a
bot — the very hand-over a present partner may ask for at a friendly table
(:mod:`otherside.server.tables.absence`), here without anyone having to ask.

**Decision (what is fair to a partnership):** the present partner plays on with the bot partner
and is ranked by what the pair achieves (their pair's rank among the round's pairs,
:func:`~otherside.server.tournaments.results.partnership_points`); the absent partner loses the
game: 0 points. A pair of whom nobody came ranks below every pair that played. Punishing the
present partner for the other's absence (the pair losing) would make every entrant's result
hang on a stranger's connection; letting the absentee share the pair's points would reward not
coming.

Presence is the whole cluster's: a partner connected through another server process is not
away (:mod:`otherside.server.cluster.presence`, as for the friendly table's hand-over).
"""

from __future__ import annotations

from dataclasses import dataclass

from otherside.server.cluster.presence import away_since
from otherside.server.tables.forfeits import forfeit
from otherside.server.tables.live import LiveTable
from otherside.server.tables.services import Services

AWAY = "away"  # the forfeit's reason, as at a friendly table


@dataclass(frozen=True)
class HandOverAbsent:
    """A command of an event table's actor: the seats of people gone ``seconds`` or more go to
    a bot (tables with player clocks are left to their clocks)."""

    seconds: float

    async def run(self, live: LiveTable, services: Services) -> list[int]:
        """The seats handed over now."""
        info = live.info
        if info.status != "playing" or info.pace.kind != "rounds" or live.state is None:
            return []
        now = services.clock.now()
        people = {
            seat.seat: seat.user_id
            for seat in info.seats
            if seat.human and seat.forfeit is None and seat.user_id is not None
        }
        away = await away_since(services.cluster.presence, live, list(people.values()))
        handed = []
        for seat, user in people.items():
            since = away[user]
            if since is not None and (now - since).total_seconds() >= self.seconds:
                await forfeit(services, live, seat, AWAY)
                handed.append(seat)
                if live.info.status != "playing":
                    break
        return handed
