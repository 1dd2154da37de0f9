"""Forfeits: a player gives up (resigns), runs out of time, or leaves a started game.

In a game of two seats (or one) the game ends and the other player wins — through the game's
own ``resign`` action when the player may play it now, so that the record says it — and so in
a duel that ends on a forfeit (VERSUS); in a bigger game a bot plays the seat on so that the
others can finish, and the result counts as a loss for the player.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from otherside.core.simultaneous import apply_as, legal_actions_of
from otherside.server.accounts.sessions import UserInfo
from otherside.server.live import fanout
from otherside.server.tables import timing
from otherside.server.tables.commit import commit
from otherside.server.tables.live import LiveTable
from otherside.server.tables.outcome_words import forfeit_outcome
from otherside.server.tables.services import Services


@dataclass(frozen=True)
class Resign:
    """``user`` gives up the game (any time they hold a seat in a game in play)."""

    user: UserInfo | None

    async def run(self, live: LiveTable, services: Services) -> None:
        """Give up the seat; :class:`~otherside.server.tables.errors.Refused` if ``user``
        plays none."""
        seat = live.playing_seat(self.user)
        live.playing_state()
        await forfeit(services, live, seat, "resigned")


async def forfeit(services: Services, live: LiveTable, seat: int, reason: str) -> None:
    """``seat``'s player gives up (``reason``: resigned, timeout, left); see the module
    docstring for what follows."""
    state = live.state
    assert state is not None
    players = live.info.players
    if live.adapter.ends_on_forfeit or players == 1 or (reason == "resigned" and players == 2):
        own = [a for a in legal_actions_of(state, seat) if str(a) == "resign"]
        if own:
            await commit(services, live, seat, own[0], apply_as(state, seat, own[0]), reason)
        else:
            await _end(services, live, seat, reason)
        return
    bot = live.adapter.replacement_bot()
    seat_info = replace(live.info.seats[seat], bot=bot, forfeit=reason, time_left_ms=None)
    info = live.info.with_seat(seat_info)
    now = services.clock.now()
    plan = timing.after_action(info, None, state, now)
    await services.store.hand_over(live.info, seat_info, plan, now)
    live.info = timing.with_timing(replace(info, updated_at=now), plan)
    fanout.broadcast(live, now, table=True, view=True)
    services.kick_bots(live)
    services.on_deadline_change(live.info.deadline_at)


async def _end(services: Services, live: LiveTable, seat: int, reason: str) -> None:
    """End the game without a move: ``seat`` loses, everyone else wins."""
    state = live.state
    assert state is not None
    now = services.clock.now()
    info = live.info.with_seat(replace(live.info.seats[seat], forfeit=reason))
    others = [s for s in range(info.players) if s != seat]
    outcome = forfeit_outcome(
        {"scores": list(state.scores), "winners": others, "reason": ""}, info, seat, reason
    )
    record = {**state.to_record(), "result": outcome}
    live.rated(await services.store.end(info, seat, outcome, record, now))
    live.info = replace(
        info, status="over", outcome=outcome, to_move=(), deadline_at=None, updated_at=now
    )
    fanout.broadcast(live, now, table=True, view=True)
    services.cluster.forget(live.id)
