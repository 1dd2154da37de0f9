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
(:mod:`otherside.server.tables.bot_workers`).
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from otherside.server.accounts.limits import Limits
from otherside.server.accounts.sessions import UserInfo
from otherside.server.store.queries import TableInfo, count_all_bot_playing, save_end

if TYPE_CHECKING:
    from otherside.server.tables.hub import LiveTable, TableHub

STOPPED = "stopped"
MOVE_LIMIT = "move_limit"


def is_all_bot(info: TableInfo) -> bool:
    """No seat of ``info`` is played by a person (bots only, or bots in every forfeited seat)."""
    return bool(info.seats) and not any(s.human for s in info.seats)


def reserve_start(session: Session, info: TableInfo, limits: Limits) -> None:
    """Refuse (429) to start ``info`` when it has bots only and its host runs enough such
    games already; called in the start's transaction, so simultaneous starts count."""
    from otherside.server.tables.hub import TableError

    if not is_all_bot(info):
        return
    most = limits.all_bot_tables_per_user
    if count_all_bot_playing(session, info.owner_id) >= most:
        raise TableError(
            429,
            f"you already run {most} games with bots only: stop one or wait for it to end "
            "(a game with a person seated does not count)",
        )


def over_move_limit(info: TableInfo, limits: Limits) -> bool:
    """Whether ``info`` is a game with bots only that has played its last allowed move."""
    return info.status == "playing" and is_all_bot(info) and info.version >= limits.all_bot_moves


def aborted_outcome(scores: list[float], why: str, words: str) -> dict[str, Any]:
    """The outcome of a game that ended without a result: no winner, the scores as they stood.

    >>> aborted_outcome([1, 2], "stopped", "stopped by its host")["winners"]
    []
    """
    return {"scores": scores, "winners": [], "reason": words, "aborted": why}


async def end_aborted(hub: TableHub, live: LiveTable, why: str) -> None:
    """End ``live``'s game as aborted (the caller holds its lock): stored, told, unrated."""
    state = live.state
    assert state is not None
    if why == STOPPED:
        words = "stopped by its host"
    else:
        words = f"ended after {live.info.version} moves, the limit of a game with bots only"
    outcome = aborted_outcome(list(state.scores), why, words)
    record = {**state.to_record(), "result": outcome}
    now = hub.clock.now()
    info = live.info

    def write(session: Session) -> None:
        save_end(session, live.id, info.version, outcome, record, now)
        hub.cluster.announce(session, live.id, "table")

    await hub.db.run(write)
    live.info = replace(
        info, status="over", outcome=outcome, to_move=(), deadline_at=None, updated_at=now
    )
    hub.tell(live)
    hub.cluster.forget(live.id)


async def stop(hub: TableHub, table_id: str, user: UserInfo) -> TableInfo:
    """The host stops their game with bots only: it ends aborted, its bot's thinking dropped.

    Raises:
        TableError: 403 for anyone but the host, 409 for a game with a person seated or one
            not in play.
    """
    from otherside.server.tables.hub import TableError

    live = await hub.live(table_id)
    async with live.lock:
        if live.info.owner_id != user.id:
            raise TableError(403, f"only the table's host ({live.info.owner_name}) may stop it")
        if live.info.status != "playing":
            raise TableError(409, "only a game in play can be stopped")
        if not is_all_bot(live.info):
            raise TableError(
                409, "only a game with bots only can be stopped; players may resign or leave"
            )
        await end_aborted(hub, live, STOPPED)
        task = live.bot_task
    if task is not None and task is not asyncio.current_task():
        # The bots' decision in progress is dropped: its worker is freed for other tables.
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    return live.info
