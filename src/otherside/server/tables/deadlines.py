"""What is due at a table, acted on when the scheduler (:mod:`.scheduler`) says its deadline
has come: the game's own timer (a Recto Verso round ends with its actors' one action left, the
timeout), a player's time running out (a forfeit, :mod:`.forfeits`), a reminder of a
turn-based game; and the live clocks of the seats (:mod:`.timing` computes them)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from otherside.core.game import State
from otherside.core.simultaneous import actors, apply_as, legal_actions_of
from otherside.server.cluster.catch_up import refresh
from otherside.server.live import fanout
from otherside.server.tables import timing
from otherside.server.tables.commit import commit
from otherside.server.tables.forfeits import forfeit
from otherside.server.tables.live import LiveTable
from otherside.server.tables.services import Services

if TYPE_CHECKING:
    from otherside.server.tables.hub import TableHub


async def on_deadline(hub: TableHub, table_id: str) -> bool:
    """Act on whatever is due at ``table_id`` now (called by the scheduler). Safe to call at
    any time. ``False`` when another server process owns the table (it acts, not this one)."""
    if not await hub.cluster.acquire(table_id):
        return False
    actor = await hub.actor(table_id)
    await actor.ask(Due())
    hub.forget_if_idle(actor.live)
    return True


@dataclass(frozen=True)
class Due:
    """Do what is due at the table now (nothing if nothing is)."""

    async def run(self, live: LiveTable, services: Services) -> None:
        """Catch up with the database if others share it, then act."""
        if services.cluster.shared:
            await refresh(services, live)
        state = live.state
        if live.info.status == "playing" and state is not None:
            await _due(services, live, state)


async def _due(services: Services, live: LiveTable, state: State) -> None:
    now = services.clock.now()
    timer = timing.game_deadline(state)
    if timer is not None and now >= timer:
        # Once its time is up a game leaves its actors one action: the timeout.
        for seat in actors(state):
            legal = legal_actions_of(state, seat)
            if len(legal) == 1:
                await commit(services, live, seat, legal[0], apply_as(state, seat, legal[0]))
                return
    late = timing.out_of_time(live.info, now)
    if late is not None:
        await forfeit(services, live, late, "timeout")
        return
    remind = timing.reminder_due(live.info, now)
    info = live.info if remind is None else replace(live.info, reminded_at=now)
    plan = timing.after_action(info, None, state, now)
    if plan.deadline_at != live.info.deadline_at or remind is not None:
        await services.store.timing(info, plan, now)
        live.info = timing.with_timing(info, plan)
    if remind is not None:
        services.remind(live, remind)
        fanout.broadcast(live, now, table=True, view=False)


def time_left(services: Services, live: LiveTable, seat: int) -> int | None:
    """``seat``'s live clock now, in ms (``None`` without one)."""
    return timing.time_left(live.info, seat, services.clock.now())
