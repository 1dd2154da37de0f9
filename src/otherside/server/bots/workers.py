"""Bot seats: choosing a bot's action off the event loop, fairly and within a time cap.

A bot gets only the view of its seat and the legal actions (exactly what
:func:`otherside.bots.play_match` gives it) and thinks in a worker *process*
(:mod:`otherside.server.bots.process`), so a long search never holds up the websockets of
the other tables (a thread would share their interpreter lock). ``workers=0`` thinks in threads
of this process instead (in-process tests).

One client must not be able to take the machine from everyone else's bots:

- **Fair turns.** Decisions queue per table and the workers serve the tables in turn
  (:class:`~otherside.server.bots.queue.FairQueue`).
- **A quick lane.** Bots the registry marks quick (``random``, ``greedy``: milliseconds a
  decision) have a worker process of their own beside the ``workers`` that search, and every
  worker takes a waiting quick decision before a search: a greedy bot never waits behind a long
  search.
- **A time cap.** The host's ``think`` is checked against the server's cap when a seat is set,
  and lowered to it here (a table made before the cap was lowered). A worker still busy when a
  decision's time is up (the cap and a grace for the search to return; less in the quick lane)
  is killed and replaced, and the bot plays its game's ``random`` bot's move instead.
- **Analysis after the game** (:mod:`otherside.server.analysis`) goes through the same
  workers in a lane of its own, fair across tables too, that yields to live games: a worker
  takes an analysis job only when no decision waits, and one search worker is kept for them.
  A job is one ply with a small budget, so a decision waits for at most one such job.

One worker process and its pipe (one job at a time, answers matched by number) are
:mod:`~otherside.server.bots.pipe`'s. A worker exits by itself when the server dies,
even by ``kill -9`` (see :mod:`~otherside.server.bots.process`); :meth:`BotRunner.close`
stops them at shutdown.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from otherside.bots import spec as bot_spec
from otherside.bots.spec import BotSpec
from otherside.core.game import Action
from otherside.server.bots.pipe import ProcessWorker
from otherside.server.bots.process import run_job
from otherside.server.bots.queue import FairQueue

log = logging.getLogger("otherside.server")
THINK_CAP = 10.0  # seconds a decision may think, unless the server says otherwise
GRACE = 2.0  # seconds past the cap before a worker is stopped (a search finishing its depth)
QUICK_CAP = 2.0  # seconds a quick bot's decision may take before its worker is stopped


@dataclass(eq=False)
class Decision:
    """One bot decision waiting for, or in, a worker."""

    table: str
    game: str
    spec: BotSpec
    view: Mapping[str, Any]
    legal: Sequence[Action]
    seed: int
    quick: bool
    done: asyncio.Future[Action] = field(repr=False)

    @property
    def job(self) -> tuple[Any, ...]:
        """What a worker is sent (:func:`~otherside.server.bots.process.run_job`)."""
        return ("decide", self.game, str(self.spec), self.view, self.legal, self.seed)


@dataclass(eq=False)
class Assessing:
    """One ply of a finished game to weigh for its analysis (the analysis lane)."""

    table: str
    job: tuple[Any, ...]
    seconds: float
    done: asyncio.Future[Any] = field(repr=False)


class ThreadWorker:
    """A thread of this process (``workers=0``): it cannot be stopped, so past its time the
    decision falls back and the thread stays busy until the bot returns."""

    def __init__(self, pool: ThreadPoolExecutor, quick_only: bool) -> None:
        self.pool = pool
        self.quick_only = quick_only
        self.busy = False
        self.thinking: asyncio.Future[Any] | None = None

    async def run(self, job: tuple[Any, ...], seconds: float) -> Any:
        """The job's answer; ``TimeoutError`` after ``seconds``."""
        loop = asyncio.get_running_loop()
        self.thinking = loop.run_in_executor(self.pool, run_job, job)
        async with asyncio.timeout(seconds):
            return await asyncio.shield(self.thinking)

    async def stop(self) -> None:
        """Nothing to stop: a thread ends when its bot returns."""


Worker = ProcessWorker | ThreadWorker


class BotRunner:
    """Chooses bot actions in worker processes: fair turns across tables, a quick lane and a
    time cap (see the module's docstring). Workers start on the first decision.

    Args:
        workers: processes that may search at once (more tables than workers take turns),
            beside the quick lane's one; 0 for threads of this process instead.
        delay: seconds a bot waits before acting, so that people can follow the game.
        think_cap: the most seconds a decision may think (the server's limit).
        grace: seconds past its cap before a decision's worker is stopped.
    """

    def __init__(
        self,
        workers: int = 2,
        delay: float = 0.0,
        think_cap: float = THINK_CAP,
        grace: float = GRACE,
    ) -> None:
        self.delay = delay
        self.think_cap = think_cap
        self.grace = grace
        self.fallbacks = 0  # decisions that fell back to a random move (overrun or failure)
        self._quick: FairQueue[Decision] = FairQueue()
        self._slow: FairQueue[Decision] = FairQueue()
        self._analysis: FairQueue[Assessing] = FairQueue()
        self._assessing = 0  # analysis jobs in workers now
        self._tasks: set[asyncio.Task[None]] = set()
        self._pool: ThreadPoolExecutor | None = None
        self.workers: list[Worker]
        if workers > 0:
            self.workers = [ProcessWorker(quick_only=True)]
            self.workers += [ProcessWorker(quick_only=False) for _ in range(workers)]
        else:
            self._pool = ThreadPoolExecutor(max_workers=3, thread_name_prefix="otherside-bot")
            self.workers = [ThreadWorker(self._pool, quick_only=True)]
            self.workers += [ThreadWorker(self._pool, quick_only=False) for _ in range(2)]

    async def choose(
        self,
        table: str,
        game: str,
        bot: str,
        view: Mapping[str, Any],
        legal: Sequence[Action],
        seed: int,
    ) -> Action:
        """The action bot ``bot`` chooses at ``table``, when the table's turn comes; the
        game's ``random`` bot's choice if the bot overran its time or failed."""
        spec = bot_spec.capped(game, BotSpec.parse(bot), self.think_cap)
        quick = bot_spec.is_quick(game, spec)
        done: asyncio.Future[Action] = asyncio.get_running_loop().create_future()
        decision = Decision(table, game, spec, view, legal, seed, quick, done)
        (self._quick if quick else self._slow).put(table, decision)
        self._dispatch()
        return await done

    async def assess(self, table: str, job: tuple[Any, ...], seconds: float) -> Any:
        """The answer of an analysis job of finished game ``table`` (a worker's
        :func:`~otherside.server.bots.process.run_job`), when the analysis lane's turn
        comes; ``TimeoutError`` past ``seconds`` and the grace, ``RuntimeError`` if it failed.

        The lane yields to live games: a worker takes an analysis job only when no decision
        waits, and one search worker (when there are two or more) is always left to them.
        """
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._analysis.put(table, Assessing(table, job, seconds, done))
        self._dispatch()
        return await done

    def waiting(self) -> int:
        """Decisions queued, not yet in a worker."""
        return len(self._quick) + len(self._slow)

    def _analysis_room(self) -> bool:
        searchers = sum(1 for worker in self.workers if not worker.quick_only)
        return self._assessing < max(1, searchers - 1)

    def _dispatch(self) -> None:
        for worker in self.workers:
            if worker.busy:
                continue
            decision = self._next(worker.quick_only)
            work: Any
            if decision is not None:
                work = self._run(worker, decision)
            elif not worker.quick_only and self._analysis_room() and self._analysis:
                self._assessing += 1
                work = self._run_assessing(worker, self._analysis.take())
            else:
                continue
            worker.busy = True
            task = asyncio.create_task(work, name="otherside-bot-job")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _next(self, quick_only: bool) -> Decision | None:
        # Quick decisions first, in every worker; a cancelled one (its table stopped) is dropped.
        lanes = (self._quick,) if quick_only else (self._quick, self._slow)
        for lane in lanes:
            while (decision := lane.take()) is not None:
                if not decision.done.done():
                    return decision
        return None

    async def _run(self, worker: Worker, decision: Decision) -> None:
        cap = min(QUICK_CAP, self.think_cap) if decision.quick else self.think_cap
        thinking = asyncio.ensure_future(worker.run(decision.job, cap + self.grace))
        waits: set[asyncio.Future[Any]] = {thinking, decision.done}
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            if not thinking.done():
                # Nobody waits for this decision any more (its table stopped): free the worker
                # now rather than after a long search.
                thinking.cancel()
            index = await thinking
            action = decision.legal[index]
        except asyncio.CancelledError:
            thinking.cancel()
            dropped = decision.done.cancelled()
            decision.done.cancel()
            if not dropped:
                raise  # this runner is closing
            return
        except Exception as exc:
            self.fallbacks += 1
            why = "ran out of time" if isinstance(exc, TimeoutError) else f"failed ({exc})"
            log.warning(
                "bot %s at table %s %s; it plays a random move", decision.spec, decision.table, why
            )
            action = _fallback(decision)
        finally:
            self._free(worker)
        if not decision.done.done():
            decision.done.set_result(action)

    async def _run_assessing(self, worker: Worker, item: Assessing | None) -> None:
        assert item is not None  # taken only when the lane is not empty
        try:
            answer = await worker.run(item.job, item.seconds + self.grace)
        except asyncio.CancelledError:
            item.done.cancel()
            raise
        except Exception as exc:
            if not item.done.done():
                item.done.set_exception(exc)
        else:
            if not item.done.done():
                item.done.set_result(answer)
        finally:
            self._assessing -= 1
            self._free(worker)

    def _free(self, worker: Worker) -> None:
        thinking = worker.thinking if isinstance(worker, ThreadWorker) else None
        if thinking is not None and not thinking.done():
            # The thread goes on thinking: the worker is free once it returns.
            thinking.add_done_callback(lambda _: self._free(worker))
            return
        worker.busy = False
        self._dispatch()

    def warm(self) -> None:
        """Start the worker processes now rather than at their first decision: their imports
        take a second or more, which would hold up a table taken over from a process that
        died (its bots must move within a second or two)."""
        for worker in self.workers:
            if isinstance(worker, ProcessWorker):
                task = asyncio.create_task(worker.warm())
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        """Stop every worker (decisions in progress are dropped) and wait for them to exit."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await asyncio.gather(*(w.stop() for w in self.workers), return_exceptions=True)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)


def _fallback(decision: Decision) -> Action:
    return fallback_choice(decision.game, decision.view, decision.legal, decision.seed)


def fallback_choice(
    game: str, view: Mapping[str, Any], legal: Sequence[Action], seed: int
) -> Action:
    """A quick legal move for a bot that could not decide: what the game's ``random`` bot
    plays (a board move in VERSUS, never a resignation)."""
    bot = bot_spec.make(game, BotSpec(bot_spec.FALLBACK))
    return bot.choose(view, legal, random.Random(seed))
