"""One owner per live table: the :class:`TableActor`, a queue and a task that runs the table's
commands one at a time, in the order they came (as lichess's round actors do).

Everything that changes a live table is a :class:`Command` — a move, a resignation, a chat line,
a deadline, a bot's move, a seat change, a catch-up with the database — and goes through
:meth:`TableActor.ask`, which waits for its result. A command that fails answers its caller
with the error, and the actor goes on with the next one. A refusal (:class:`Refused`)
changed nothing; any other failure may have left the table in memory half-changed, so the
table is restarted from the database (``recover``) before the next command.
The task itself is supervised: should the loop ever fail, it is logged and started again, so
that no table is left without an owner.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from otherside.server.store.outage import log_failure
from otherside.server.tables import ready
from otherside.server.tables.errors import Refused
from otherside.server.tables.live import LiveTable
from otherside.server.tasks import reap

if TYPE_CHECKING:
    from otherside.server.tables.services import Services

log = logging.getLogger("otherside.server")
R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)
FIRST_BACKOFF = 0.05  # seconds before a failed actor loop starts again (doubling)
LAST_BACKOFF = 5.0


class Command(Protocol[R_co]):
    """Something a table does, run by its actor with the table to itself."""

    async def run(self, live: LiveTable, services: Services) -> R_co:
        """Do it; the result goes to whoever asked."""
        ...


@dataclass
class _Job:
    command: Command[Any]
    answer: asyncio.Future[Any]


class TableActor:
    """The owner of one live table: its commands run here, one after another.

    Args:
        live: the table.
        services: what the commands use (storage, clock, the other processes...).
        recover: restarts the table from the database after a failure that was no refusal.
    """

    def __init__(
        self,
        live: LiveTable,
        services: Services,
        recover: Callable[[TableActor], Awaitable[None]] | None = None,
    ) -> None:
        self.live = live
        self.services = services
        self._recover = recover
        self._queue: asyncio.Queue[_Job] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._running: _Job | None = None
        self._stopped = False
        self._suspect = False  # a command failed mid-way: restart from the database first
        self.restarts = 0  # times the loop failed and was started again
        self.recoveries = 0  # times the table was restarted from the database

    @property
    def id(self) -> str:
        """The table's id."""
        return self.live.id

    @property
    def busy(self) -> bool:
        """A command runs or waits to run."""
        return self._running is not None or not self._queue.empty()

    @property
    def stopped(self) -> bool:
        """The table was let go: this actor runs nothing more."""
        return self._stopped

    def start(self) -> None:
        """Run the loop (once)."""
        if self._task is None and not self._stopped:
            self._task = asyncio.create_task(self._supervise(), name=f"table-{self.id}")

    async def ask(self, command: Command[R]) -> R:
        """Run ``command`` after those asked before it; its result (or its error)."""
        if self._stopped:
            raise RuntimeError(f"table {self.id} is no longer held here")
        if self._task is not None and asyncio.current_task() is self._task:
            # A command waiting for a command of its own table would wait for ever.
            raise RuntimeError(f"a command of table {self.id} asked its own actor")
        answer: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Job(command, answer))
        self.start()
        return await answer

    async def stop(self) -> None:
        """Stop the loop; commands still waiting are cancelled."""
        self.close()
        await reap(self._task)

    def close(self) -> None:
        """Stop the loop without waiting for it (the table is let go, idle)."""
        self._stopped = True
        if self._task is not None:
            self._task.cancel()
        if self._running is not None:
            self._running.answer.cancel()
        while not self._queue.empty():
            self._queue.get_nowait().answer.cancel()

    async def _supervise(self) -> None:
        delay = FIRST_BACKOFF
        while True:
            try:
                await self._serve()
            except Exception:
                self.restarts += 1
                self._suspect = True
                log_failure(log, "the actor of table %s failed; restarting it", self.id)
                await asyncio.sleep(delay)
                delay = min(delay * 2, LAST_BACKOFF)

    async def _serve(self) -> None:
        while True:
            job = await self._queue.get()
            if job.answer.done():
                continue  # whoever asked has given up waiting
            self._running = job
            try:
                if self._suspect:
                    await self._restart_from_database()
                result = await job.command.run(self.live, self.services)
            except asyncio.CancelledError:
                if self._stopped or _cancelling():
                    raise
                # Something the command awaited was cancelled, not this loop: the command
                # failed, the table goes on.
                self._suspect = True
                if not job.answer.done():
                    job.answer.set_exception(RuntimeError(f"a command of table {self.id} was cut"))
            except Exception as exc:
                if not isinstance(exc, Refused):
                    self._suspect = True
                    log.warning("a command of table %s failed: %r", self.id, exc)
                if not job.answer.done():
                    job.answer.set_exception(exc)
            else:
                if not job.answer.done():
                    job.answer.set_result(result)
            finally:
                self._running = None
                ready.look_again(self.live)

    async def _restart_from_database(self) -> None:
        """Bring the table back in line with the database; if that fails too (the database is
        away), the command runs on what is known and the next one tries again."""
        if self._recover is None:
            self._suspect = False
            return
        try:
            await self._recover(self)
        except Exception:
            log_failure(log, "table %s could not be restarted from the database", self.id)
            return
        self._suspect = False
        self.recoveries += 1


def _cancelling() -> bool:
    """Whether the running task itself is being cancelled."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0
