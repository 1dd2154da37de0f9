"""Games with no person seated (every seat a bot): bounded, so that one account's bot matches
cannot take the machine from the people playing.

- At most :attr:`~otherside.server.accounts.limits.Limits.all_bot_tables_per_user` run at once
  per host; starting one more is refused (429), counted in the same transaction as the start.
- Each ends after :attr:`~otherside.server.accounts.limits.Limits.all_bot_moves` moves, aborted:
  no winner, unrated. (Every game ends by its rules anyway — V13, S13.4's 100 plies without a
  lock, R15 — but a bot match of long searches may still cost hours of the workers.)
- Its host may stop it at any time (``POST /api/tables/{id}/stop``): aborted too.
- After a restart it resumes like any game in progress, still under these bounds (its moves
  counted, its host's count unchanged): stopping them at start-up would need to know which
  process of a cluster owns each, and resuming within the same limits keeps one rule.

Each bot decision is also capped in time and takes its turn among the tables
(:mod:`otherside.server.bots.workers`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from otherside.server.accounts.limits import Limits
from otherside.server.accounts.sessions import UserInfo
from otherside.server.live import fanout
from otherside.server.store.records import TableInfo
from otherside.server.tables.errors import Refused
from otherside.server.tables.live import LiveTable
from otherside.server.tables.services import Services

STOPPED = "stopped"
MOVE_LIMIT = "move_limit"


def is_all_bot(info: TableInfo) -> bool:
    """No seat of ``info`` is played by a person (bots only, or bots in every forfeited seat)."""
    return bool(info.seats) and not any(s.human for s in info.seats)


def bots_only_limit(info: TableInfo, limits: Limits) -> int | None:
    """How many games with bots only the host of ``info`` may run, if ``info`` is one."""
    return limits.all_bot_tables_per_user if is_all_bot(info) else None


def over_move_limit(info: TableInfo, limits: Limits) -> bool:
    """Whether ``info`` is a game with bots only that has played its last allowed move."""
    return info.status == "playing" and is_all_bot(info) and info.version >= limits.all_bot_moves


def aborted_outcome(scores: list[float], why: str, words: str) -> dict[str, Any]:
    """The outcome of a game that ended without a result: no winner, the scores as they stood.

    >>> aborted_outcome([1, 2], "stopped", "stopped by its host")["winners"]
    []
    """
    return {"scores": scores, "winners": [], "reason": words, "aborted": why}


async def end_aborted(services: Services, live: LiveTable, why: str) -> None:
    """End ``live``'s game as aborted (a command of its actor): stored, told, unrated."""
    state = live.state
    assert state is not None
    if why == STOPPED:
        words = "stopped by its host"
    else:
        words = f"ended after {live.info.version} moves, the limit of a game with bots only"
    outcome = aborted_outcome(list(state.scores), why, words)
    record = {**state.to_record(), "result": outcome}
    now = services.clock.now()
    # Unrated whatever the table says: an aborted game moves nobody's rating.
    info = replace(live.info, rated=False)
    await services.store.end(info, 0, outcome, record, now)
    live.info = replace(
        live.info, status="over", outcome=outcome, to_move=(), deadline_at=None, updated_at=now
    )
    fanout.broadcast(live, now, table=True, view=True)
    services.cluster.forget(live.id)
    if live.bot_task is not None:
        # The bots' decision in progress is dropped: its worker is freed for other tables.
        live.bot_task.cancel()


@dataclass(frozen=True)
class Stop:
    """The host stops their game with bots only: it ends aborted, unrated."""

    user: UserInfo

    async def run(self, live: LiveTable, services: Services) -> TableInfo:
        """The table after; ``Refused`` for anyone but the host (403), for a game with a
        person seated or one not in play (409)."""
        if live.info.owner_id != self.user.id:
            raise Refused("not_host", host=live.info.owner_name)
        if live.info.event_id is not None:
            # Its result is the event's: stopping it would decide it.
            raise Refused("event_table", event=live.info.event_id)
        if live.info.status != "playing" or live.state is None:
            raise Refused("not_playing")
        if not is_all_bot(live.info):
            raise Refused("not_bots_only")
        await end_aborted(services, live, STOPPED)
        return live.info


@dataclass(frozen=True)
class EndAtMoveLimit:
    """A game with bots only that has played its allowed moves ends, aborted."""

    async def run(self, live: LiveTable, services: Services) -> None:
        """End the game if it is still over the limit."""
        if live.state is not None and over_move_limit(live.info, services.limits):
            await end_aborted(services, live, MOVE_LIMIT)
