"""A parent that has imported the server once, for the tests' server processes: each
``otherside serve`` the tests ask for is forked from it instead of started afresh.

A server process spends some two and a half seconds of CPU importing FastAPI, SQLAlchemy,
pydantic and its own modules before it serves, and the suite starts about a hundred on two
cores. The zygote (a child of the test process, started at its first server) imports them
once, then reads one request a line on its standard input and forks a process for it: a
session of its own, with the request's command line, environment, working directory, limit of
open files and log, running ``otherside`` as ``python -m otherside`` would. It answers with
the new process's id; when that process ends, its status is written to a file named by the id
in the zygote's folder (:class:`otherside.testing.servers.Forked` reads it).

Only tests use it: benchmarks start a fresh interpreter, so what they measure holds nothing
forked. The zygote exits when its standard input closes (its test process is gone); the
servers it started are stopped by the tests, as servers started with ``Popen`` are.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import runpy
import signal
import sys
import threading
import traceback
from pathlib import Path
from typing import Any

# What a server process imports before it serves (uvicorn loads its protocols by name).
import uvicorn.lifespan.on
import uvicorn.loops.uvloop
import uvicorn.protocols.http.httptools_impl
import uvicorn.protocols.websockets.websockets_sansio_impl

import otherside.cli.main
import otherside.server.app
from otherside.testing.servers import status_path

PRELOADED = (uvicorn.lifespan.on, uvicorn.loops.uvloop, otherside.cli.main, otherside.server.app)


def _reap(folder: Path) -> None:
    """Reap every child that has ended and write its status (as ``Popen.returncode``: the
    exit code, or minus the signal that killed it)."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        code = os.waitstatus_to_exitcode(status)
        partial = status_path(folder, pid).with_suffix(".part")
        partial.write_text(str(code))
        partial.replace(status_path(folder, pid))


def _child(request: dict[str, Any]) -> None:
    """Become the requested ``otherside`` process; never returns."""
    code = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})  # blocked by the fork
        os.setsid()
        log = os.open(request["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
        os.close(null)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        resource.setrlimit(resource.RLIMIT_NOFILE, tuple(request["nofile"]))
        sys.argv = ["otherside", *request["argv"]]
        try:
            # As ``python -m otherside`` runs it: the processes it spawns (uvicorn's workers)
            # prepare from ``otherside.__main__``, not from this module.
            runpy.run_module("otherside", run_name="__main__", alter_sys=True)
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:
        traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def serve(folder: Path) -> None:
    """Fork a process for each request on standard input until it closes."""
    signal.signal(signal.SIGCHLD, lambda *_: _reap(folder))
    for line in sys.stdin.buffer:
        request = json.loads(line)
        if threading.active_count() != 1:
            answer: dict[str, Any] = {"error": "the zygote has threads: forking is unsafe"}
        else:
            # No reaping between the fork and the removal below: a child that ended at once
            # keeps its status.
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})
            pid = os.fork()
            if pid == 0:
                _child(request)
            # Process ids come round again (32768 of them on many machines): the status of
            # an earlier child with this id would tell the new one ended.
            status_path(folder, pid).unlink(missing_ok=True)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
            answer = {"pid": pid}
        os.write(1, json.dumps(answer).encode() + b"\n")


if __name__ == "__main__":
    serve(Path(sys.argv[1]))
