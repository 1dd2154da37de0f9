"""What a table's commands use besides the table itself (:class:`Services`): storage, the
clock, the other server processes, the limits, the bots, and the few things the hub does for
them (asking a table's actor, running a task, letting an idle table go)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from otherside.server.accounts.limits import Limits, Throttles
from otherside.server.bots.workers import BotRunner
from otherside.server.clock import Clock
from otherside.server.cluster.peers import PostgresCluster, SoloCluster
from otherside.server.store.contract import TableStore
from otherside.server.tables.live import LiveTable

if TYPE_CHECKING:
    from otherside.server.tables.actor import Command


def _no_deadline_change(deadline: datetime | None) -> None:
    """Nobody listens for deadlines (no scheduler)."""


def _no_reminder(live: LiveTable, seat: int) -> None:
    """Nobody sends reminders (no scheduler)."""


def _nobody_streams(user_ids: Iterable[int]) -> None:
    """No event stream to wake (a hub without the app's streams)."""


@dataclass(eq=False)
class Services:
    """The tables' dependencies (made by the hub, one set for every table).

    Attributes:
        store: storage (:class:`~otherside.server.store.contract.TableStore`).
        clock: where time comes from (move stamps, clocks, deadlines).
        cluster: the other server processes: who owns a table.
        limits: the server's limits (chat lines a minute, open tables per host).
        throttles: where the limits are counted, shared by every server process (``None``
            for a hub without a database, which counts nothing).
        bots: the runner choosing bot actions.
        ask: runs a command on the actor of a table (by id), loading it if needed.
        background: runs a task of the hub's (stopped when the hub closes).
        forget_if_idle: lets a table go from memory if nothing holds it there.
        kick_bots: starts the table's bot turns if a bot may act (:mod:`.bot_turns`).
        on_deadline_change: a table's next deadline is now the one given (the scheduler).
        remind: a player must be reminded of their move (the scheduler mails).
        seated: accounts took seats at a table (written): their event streams in this
            process look for it (:mod:`otherside.server.live.nudges`).
    """

    store: TableStore
    clock: Clock
    cluster: SoloCluster | PostgresCluster
    limits: Limits
    bots: BotRunner
    ask: Callable[[str, Command[Any]], Awaitable[Any]]
    background: Callable[[Coroutine[Any, Any, None], str | None], asyncio.Task[None]]
    forget_if_idle: Callable[[LiveTable], None]
    kick_bots: Callable[[LiveTable], None]
    throttles: Throttles | None = None
    on_deadline_change: Callable[[datetime | None], None] = field(default=_no_deadline_change)
    remind: Callable[[LiveTable, int], None] = field(default=_no_reminder)
    seated: Callable[[Iterable[int]], None] = field(default=_nobody_streams)
