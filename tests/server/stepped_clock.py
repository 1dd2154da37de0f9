"""A real ``otherside serve`` whose time stands still until the test moves it on.

The process is the ordinary command (``otherside serve``, the arguments of
:class:`tests.server.processes.Server`), started by a few lines that first give it a clock of
the test's: the server's time is the moment it started plus the seconds written in a file, which
the test rewrites (:meth:`SteppedTime.advance`); a sleep on that clock ends once the file says
its time has come. So a test of a deadline in a real process sleeps for none of it. The same
lines make Recto Verso's bots as quick as the server's bot delay (no person's pace of 1.5 s an
action), as ``tests/server/test_ready.py`` does in its own process, and offer one more bot for
it, ``steady``, which builds on and never says done: a round with no person saying done ends
only when the test moves the time past its limit, never just before (a jump then would also
pass the pause after it). Nothing in the server knows of them; only the test's own launcher
does.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

from otherside.testing.servers import ServerProcess

LAUNCHER = """
import asyncio
import sys
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import otherside.bots.rectoverso
from otherside.bots.base import register_bot
from otherside.server import app
from otherside.server.tables.adapters import RECTOVERSO, register_adapter


class SteppedClock:
    # The server's time: when it started, plus the seconds the test wrote in the file.
    def __init__(self, path):
        self.path = Path(path)
        self.start = datetime.now(UTC)

    def now(self):
        text = self.path.read_text().strip()
        return self.start + timedelta(seconds=float(text or 0))

    def sleep(self, seconds):
        # Counted from the call, not from the first await, as ManualClock.sleep: a sleep set up
        # (ensure_future) before the test moves the time on, and first run after, still ends
        # when it was asked to, not that many seconds after the move.
        return self._until(self.now() + timedelta(seconds=max(0.0, seconds)))

    async def _until(self, end):
        while self.now() < end:
            await asyncio.sleep(0.02)


class SteadyBot:
    # Builds on, never says done.
    name = "steady"

    def choose(self, view, legal, rng):
        return rng.choice([a for a in legal if str(a) != "done"] or list(legal))


clock = SteppedClock(sys.argv[1])
register_bot("rectoverso", "steady", quick=True)(SteadyBot)
app.SystemClock = lambda: clock
register_adapter(replace(RECTOVERSO, bot_pace=0.0))
sys.argv = ["otherside", *sys.argv[2:]]
from otherside.cli.main import main

main()
"""


class SteppedTime:
    """The test's hold on the server's time (the file its clock reads)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.seconds = 0.0
        self._write()

    def advance(self, seconds: float) -> None:
        """Move the server's time ``seconds`` on (its sleeps ending then wake within 20 ms)."""
        self.seconds += seconds
        self._write()

    def _write(self) -> None:
        # Written whole, then put in place: the server never reads half a number.
        fresh = self.path.with_suffix(".new")
        fresh.write_text(repr(self.seconds))
        os.replace(fresh, self.path)

    @staticmethod
    def moment(text: str) -> datetime:
        """A time the server sent (ISO 8601)."""
        return datetime.fromisoformat(text)

    @staticmethod
    def between(earlier: str, later: str) -> timedelta:
        """How far apart two times the server sent are."""
        return SteppedTime.moment(later) - SteppedTime.moment(earlier)


@contextlib.contextmanager
def stepped_server(
    database: str, folder: Path, *extra: str, bot_delay: float
) -> Iterator[tuple[ServerProcess, SteppedTime]]:
    """``otherside serve`` on ``database`` with ``extra`` arguments and bots waiting
    ``bot_delay`` seconds, its time the test's (its file in ``folder``), and the hold on it;
    killed (``kill -9``, with everything it started) after the block."""
    time = SteppedTime(folder / "server-time")
    server = ServerProcess(
        database,
        None,
        *extra,
        bot_delay=bot_delay,
        log_level="warning",
        launcher=(sys.executable, "-c", LAUNCHER, str(time.path)),
    )
    try:
        yield server, time
    finally:
        server.kill()
