"""One bot worker process and its pipe, as the server sees it: started once (however many ask
at once), one job at a time on the pipe, each answer matched to its job by number.

Two coroutines must never read one worker's output: a decision that found the process started
but not yet ready (:meth:`ProcessWorker.warm` still reading its first frame) used to read beside
the warm-up — "readexactly() called while another coroutine is already waiting for incoming
data", and the bot played a random move. So the start is one task that every caller waits for,
a job holds the pipe until its answer came, and every job carries a number that the worker
echoes (:func:`~otherside.server.bots.process.serve`): an answer to any other number (a
job given up on, the ready frame) is dropped, never taken for this job's.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import sys
from pathlib import Path
from typing import Any

import otherside
from otherside.server.bots.process import HEADER_BYTES, MODULE, body_size, decode, encode

log = logging.getLogger("otherside.server")
START_SECONDS = 120.0  # a worker's start-up on a loaded machine (not counted in any cap)
_PACKAGE_ROOT = str(Path(otherside.__file__).resolve().parents[1])


class ProcessWorker:
    """One worker process (started when first needed, restarted after it was stopped)."""

    def __init__(self, quick_only: bool) -> None:
        self.quick_only = quick_only
        self.busy = False
        self.process: asyncio.subprocess.Process | None = None
        self._starting = asyncio.Lock()  # one start, however many callers wait for it
        self._pipe = asyncio.Lock()  # one job between a write and its answer
        self._numbers = itertools.count(1)

    async def _started(self) -> asyncio.subprocess.Process:
        async with self._starting:
            # A caller that waited here finds the process the one before it started, ready.
            if self.process is not None and self.process.returncode is None:
                return self.process
            path = os.environ.get("PYTHONPATH")
            root = os.pathsep.join(filter(None, [_PACKAGE_ROOT, path]))
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                MODULE,
                "--server",
                str(os.getpid()),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                env={**os.environ, "PYTHONPATH": root},
            )
            self.process = process
            try:
                async with asyncio.timeout(START_SECONDS):
                    await _frame(process)  # ("ready", pid)
            except BaseException:
                await self.stop()
                raise
            return process

    async def warm(self) -> None:
        """Start the process now (a failure is left to the first decision to meet)."""
        with contextlib.suppress(Exception):
            await self._started()

    async def run(self, job: tuple[Any, ...], seconds: float) -> Any:
        """The job's answer (a decision's: the index of the action chosen); ``TimeoutError``
        (the worker stopped) after ``seconds`` of thinking, ``RuntimeError`` if it failed."""
        async with self._pipe:
            process = await self._started()
            assert process.stdin is not None
            number = next(self._numbers)
            try:
                process.stdin.write(encode((number, *job)))
                await process.stdin.drain()
                async with asyncio.timeout(seconds):
                    reply = await _answer(process, number)
            except BaseException:
                # Overrun, cancelled or broken: this worker's state is unknown, start afresh.
                await self.stop()
                raise
        if reply[0] != "ok":
            raise RuntimeError(str(reply[1]))
        return reply[1]

    async def stop(self) -> None:
        """Kill the process (if any) and reap it."""
        process, self.process = self.process, None
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()


async def _answer(process: asyncio.subprocess.Process, number: int) -> tuple[str, Any]:
    """The worker's answer to job ``number`` (``("ok", value)`` or ``("error", words)``)."""
    while True:
        frame = await _frame(process)
        if isinstance(frame, tuple) and len(frame) == 3 and frame[0] == number:
            return frame[1], frame[2]
        log.warning("bot worker %s: dropped an answer to no waiting job", process.pid)


async def _frame(process: asyncio.subprocess.Process) -> Any:
    """The worker's next frame; ``EOFError`` when it exited."""
    assert process.stdout is not None
    try:
        header = await process.stdout.readexactly(HEADER_BYTES)
        return decode(await process.stdout.readexactly(body_size(header)))
    except asyncio.IncompleteReadError as exc:
        raise EOFError("the bot worker exited") from exc
