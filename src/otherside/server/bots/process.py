"""A bot worker process: the program ``python -m otherside.server.bots.process --server PID``.

The server (:mod:`otherside.server.bots.workers`, through
:mod:`~otherside.server.bots.pipe`) starts a few of these and sends each one numbered job
at a time over its standard input: a decision (the worker makes the bot from its spec
(:mod:`otherside.bots.spec`), lets it choose among the legal actions and answers with the
chosen action's index) or a ply of a finished game to weigh for its analysis; the answer, with
the job's number, goes to its standard output. Frames are a 4-byte big-endian length and a
pickle; the first frame a worker writes says it is ready (its imports done), so that the
server's time cap of a decision counts thinking, not start-up.

A worker never outlives its server, however the server ends: it stops at the end of its input
(the server closed the pipe, or died and the kernel closed it), and a watchdog thread ends it
within a fraction of a second when its parent changes (the server was killed with ``kill -9``
while the bot was thinking). ``--server`` also marks the worker's command line, so that tools
and tests can find the workers of one server in ``/proc``.
"""

from __future__ import annotations

import argparse
import os
import pickle
import random
import signal
import struct
import sys
import traceback
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from otherside.server.lifeline import watch_parent

if TYPE_CHECKING:
    from otherside.core.game import Action

# The bots and games are imported only once the worker watches its parent (:func:`serve`): a
# worker started just as its server died must end at once, not after every bot's import (on
# a loaded machine, seconds). This module itself stays light for the server, which imports it.

MODULE = "otherside.server.bots.process"
_HEADER = struct.Struct(">I")


HEADER_BYTES = _HEADER.size


def encode(value: Any) -> bytes:
    """One frame carrying ``value``."""
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return _HEADER.pack(len(data)) + data


def body_size(header: bytes) -> int:
    """The size of the body that follows a frame's ``header``."""
    return int(_HEADER.unpack(header)[0])


def decode(body: bytes) -> Any:
    """The value a frame's body carries."""
    # Frames only ever come from our own server or worker process.
    return pickle.loads(body)


def write_frame(out: IO[bytes], value: Any) -> None:
    """Write one frame and flush it."""
    out.write(encode(value))
    out.flush()


def read_frame(source: IO[bytes]) -> Any | None:
    """The next frame's value; ``None`` at the end of the input."""
    header = source.read(HEADER_BYTES)
    if len(header) < HEADER_BYTES:
        return None
    size = body_size(header)
    body = source.read(size)
    return decode(body) if len(body) == size else None


def decide(
    game: str, spec: str, view: Mapping[str, Any], legal: Sequence[Action], seed: int
) -> int:
    """The index in ``legal`` of the action bot ``spec`` of ``game`` chooses (blocking).

    Raises:
        ValueError: the bot is unknown, or chose an action that is not among ``legal``.
    """
    from otherside.bots.spec import BotSpec, make

    bot = make(game, BotSpec.parse(spec))
    chosen = bot.choose(view, legal, random.Random(seed))
    for index, action in enumerate(legal):
        if action == chosen:
            return index
    raise ValueError(f"bot {spec} chose {chosen!s}, which is not legal")


def run_job(job: tuple[Any, ...]) -> Any:
    """Do one job: ``("decide", game, spec, view, legal, seed)`` (:func:`decide`) or
    ``("assess", game, …)`` (:func:`otherside.bots.analysis.assess`: a decision of a finished
    game weighed for its analysis)."""
    kind, *args = job
    if kind == "decide":
        return decide(*args)
    if kind == "assess":
        from otherside.bots.analysis import assess

        return assess(*args)
    raise ValueError(f"unknown job {kind!r}")


def serve(parent: int, source: IO[bytes], out: IO[bytes]) -> None:
    """Answer decisions from ``source`` on ``out`` until the input ends."""
    # A bot thinking may hold this thread for seconds: the watchdog ends the process anyway.
    watch_parent(parent, lambda: os._exit(0))
    from otherside.bots import bot_names
    from otherside.bots.analysis import assess  # noqa: F401 (imported before "ready" too)
    from otherside.games import GAME_NAMES

    # Every game's bots are imported before the worker says it is ready, so that a
    # decision's time cap counts thinking only, never a first import.
    for game in GAME_NAMES:
        bot_names(game)
    write_frame(out, ("ready", os.getpid()))
    while (frame := read_frame(source)) is not None:
        # The server numbers its jobs; the answer carries the number back, so that an answer
        # to a job the server gave up on is never taken for the next one's.
        number, *job = frame
        try:
            reply: tuple[int, str, Any] = (number, "ok", run_job(tuple(job)))
        except Exception as exc:
            traceback.print_exc(file=sys.stderr)
            reply = (number, "error", f"{type(exc).__name__}: {exc}")
        write_frame(out, reply)


def workers_of(server: int) -> list[int]:
    """The process ids of the bot workers started by server process ``server`` that are
    still running (read from ``/proc``; Linux)."""
    wanted = [MODULE, "--server", str(server)]
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            words = (entry / "cmdline").read_bytes().decode(errors="replace").split("\0")
            state = (entry / "stat").read_text().rpartition(")")[2].split()[0]
        except OSError:
            continue
        # A zombie has exited already (its parent has not reaped it yet).
        if state != "Z" and any(words[i : i + 3] == wanted for i in range(len(words))):
            found.append(int(entry.name))
    return found


def main(argv: Sequence[str] | None = None) -> None:
    """Run one worker for the server process ``--server``."""
    parser = argparse.ArgumentParser(prog=MODULE, description=__doc__)
    parser.add_argument("--server", type=int, required=True, help="the server's process id")
    args = parser.parse_args(argv)
    if os.getppid() != args.server:
        return  # the server died before this worker got going
    # Ctrl+C reaches the whole process group: the server decides when its workers stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    source, out = sys.stdin.buffer, sys.stdout.buffer
    # A bot that prints must not corrupt the frames: stray output goes to the server's log.
    sys.stdout = sys.stderr
    serve(args.server, source, out)


if __name__ == "__main__":
    main()
