"""The commit of an action: stored first (the move row, the table's version, clocks and
deadlines, ratings if it ended a rated game, in one transaction), then told to every watcher.
A server killed in between loses no move it announced."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace

from sqlalchemy.exc import SQLAlchemyError

from otherside.core.game import Action, State
from otherside.i18n import N_
from otherside.server.cluster.catch_up import refresh
from otherside.server.live import fanout
from otherside.server.store.outage import log_failure
from otherside.server.store.records import StaleWrite
from otherside.server.tables import timing
from otherside.server.tables.errors import Refused
from otherside.server.tables.live import LiveTable
from otherside.server.tables.outcome_words import forfeit_outcome
from otherside.server.tables.services import Services

log = logging.getLogger("otherside.server")


@asynccontextmanager
async def stored(services: Services, live: LiveTable, what: str) -> AsyncIterator[None]:
    """Around a write of ``live``'s play (``what``, for the log): a table another server
    process moved on first is caught up and refused ``stale``; a database failure is logged
    and refused ``server_error`` (the driver's words stay in the log, the player is told in
    ours). Either way nothing changed."""
    try:
        yield
    except StaleWrite as exc:
        await refresh(services, live)
        raise Refused(
            "stale",
            N_("the game moved on meanwhile (version {version})"),
            version=live.info.version,
        ) from exc
    except SQLAlchemyError as exc:
        log_failure(log, "could not save %s of table %s", what, live.id)
        raise Refused("server_error") from exc


async def commit(
    services: Services,
    live: LiveTable,
    seat: int,
    action: Action,
    after: State,
    forfeit: str | None = None,
) -> None:
    """Store ``seat``'s ``action`` leading to ``after``, then tell everyone. ``forfeit`` marks
    the seat as given up by this action (a resignation through the game's own action).

    Raises:
        Refused: ``stale`` if another server process moved the table on first (the
            table has caught up), ``server_error`` if the database failed; nothing changed.
    """
    now = services.clock.now()
    info = live.info
    number = info.version + 1
    if forfeit is not None:
        info = info.with_seat(replace(info.seats[seat], forfeit=forfeit))
    outcome = after.outcome.to_json() if after.is_over and after.outcome else None
    if outcome is not None and forfeit is not None:
        outcome = forfeit_outcome(outcome, info, seat, forfeit)
    final = after.to_record() if outcome is not None else None
    plan = timing.after_action(info, seat, after, now)
    async with stored(services, live, f"move {number}"):
        rated = await services.store.move(
            info, seat, str(action), final, outcome, plan, now, forfeit=forfeit is not None
        )
    live.state, live.moved_at = after, now
    live.info = timing.with_timing(
        info,
        plan,
        version=number,
        outcome=outcome,
        status="over" if outcome is not None else "playing",
        updated_at=now,
    )
    live.rated(rated)
    fanout.broadcast(live, now, table=outcome is not None or forfeit is not None, view=True)
    if outcome is not None:
        services.cluster.forget(live.id)
    services.kick_bots(live)
    services.on_deadline_change(live.info.deadline_at)
