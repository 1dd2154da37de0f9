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

Presence is what this server process sees: on several processes, a partner connected only to
another process counts as away here (as for the friendly table's hand-over).
"""

from __future__ import annotations

from dataclasses import dataclass

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
        handed = []
        for seat in info.seats:
            if not seat.human or seat.forfeit is not None or seat.user_id is None:
                continue
            since = live.away_since(seat.user_id)
            if since is not None and (now - since).total_seconds() >= self.seconds:
                await forfeit(services, live, seat.seat, AWAY)
                handed.append(seat.seat)
                if live.info.status != "playing":
                    break
        return handed
