"""Runs analyses: asked for through :meth:`Analyst.ask`, computed one decision at a time in
the bot workers' analysis lane (:meth:`otherside.server.bots.workers.BotRunner.assess`),
progress and result written to the database for every process to read.

A finished game never changes, so an analysis is computed once: the process whose request
created the row computes it; another request, here or in another process, only reads it. A
process that stops mid-way leaves its row ``running``; the next request after
:data:`~otherside.server.analysis.rows.STALE` takes it over.
"""

from __future__ import annotations

import asyncio
import logging

from otherside.server.analysis import rows
from otherside.server.analysis.plans import Budget, Plan, plan
from otherside.server.bots.workers import BotRunner
from otherside.server.clock import Clock
from otherside.server.store.db import Database
from otherside.server.store.outage import log_failure
from otherside.server.store.queries import load_moves
from otherside.server.store.records import TableInfo
from otherside.server.tables.adapters import get_adapter
from otherside.server.tables.live import GameClock, replayed

log = logging.getLogger("otherside.server")


class Analyst:
    """The analyses this process computes.

    Args:
        db: the database the analyses are kept in.
        runner: the bot workers that weigh each decision.
        clock: the server's time (progress stamps, stale claims).
        node: this process's name in the cluster (the owner of what it computes).
        budget: what each decision may cost the bots.
    """

    def __init__(
        self, db: Database, runner: BotRunner, clock: Clock, node: str, budget: Budget
    ) -> None:
        self.db = db
        self.runner = runner
        self.clock = clock
        self.node = node
        self.budget = budget
        self._running: dict[str, asyncio.Task[None]] = {}

    async def ask(self, info: TableInfo) -> rows.AnalysisRow:
        """The analysis of the finished table ``info`` after asking for it: started here if
        nobody had asked (or its computation failed or was abandoned), else as it stands."""
        found = await self.db.run(lambda s: rows.read(s, info.id))
        if found is not None and found.status == "done":
            return found
        work = await self._plan(info)
        now = self.clock.now()
        row, mine = await self.db.run(
            lambda s: rows.ask(s, info.id, info.game, len(work.jobs), self.node, now)
        )
        if mine and info.id not in self._running:
            task = asyncio.create_task(self._compute(info.id, work), name="otherside-analysis")
            self._running[info.id] = task
            task.add_done_callback(lambda _: self._running.pop(info.id, None))
        return row

    async def _plan(self, info: TableInfo) -> Plan:
        initial, moves = await self.db.run(lambda s: load_moves(s, info.id))
        game_clock = GameClock(self.clock)
        game = get_adapter(info.game).game_with_clock(game_clock)

        def build() -> Plan:
            states = list(replayed(game, game_clock, initial, moves))
            return plan(info.game, states, game.view, self.budget)

        return await asyncio.to_thread(build)

    async def _compute(self, table_id: str, work: Plan) -> None:
        answers = []
        try:
            for job in work.jobs:
                answers.append(await self.runner.assess(table_id, job, self.budget.think))
                await self._progress(table_id, len(answers))
            result = {**work.combine(answers), "computed_at": self.clock.now().isoformat()}
            status = "done"
        except asyncio.CancelledError:
            raise  # the server is stopping: the row is taken over once stale
        except Exception:
            log_failure(log, "the analysis of table %s failed", table_id)
            result, status = None, "failed"
        now = self.clock.now()
        await self.db.run(lambda s: rows.finish(s, table_id, self.node, status, result, now))

    async def _progress(self, table_id: str, done: int) -> None:
        now = self.clock.now()
        await self.db.run(lambda s: rows.progress(s, table_id, self.node, done, now))

    async def close(self) -> None:
        """Stop the analyses in progress (their rows are taken over once stale)."""
        for task in list(self._running.values()):
            task.cancel()
        await asyncio.gather(*self._running.values(), return_exceptions=True)
