"""Real ``otherside serve`` processes, started from outside as an operator would.

One way to start the table server for the tests that attack it over real sockets and for the
benchmarks that load it: on a free loopback port, in a session of its own (so that ``kill -9``
reaches the bot workers and uvicorn workers it started too), its output in a log file, ready
once ``/api/health`` answers. ``source`` starts the code of another checkout (its ``src``
directory first on ``PYTHONPATH``, the same interpreter and installed dependencies), which is how
a benchmark runs an older commit side by side with this one.

    server = ServerProcess("sqlite:////tmp/t.db")   # started and healthy
    server.url                                      # http://127.0.0.1:<port>
    server.cpu_seconds()                            # the process tree's user + system CPU
    server.kill()                                   # kill -9, or server.stop(): SIGTERM first

The tests call :func:`fork_servers` once: their servers are then forked from a process that
has imported the server already (:mod:`otherside.testing.zygote`), which spares each start
some two and a half seconds of CPU. The benchmarks start every server afresh.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import json
import os
import random
import resource
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Protocol

HOST = "127.0.0.1"
STARTUP_SECONDS = 90.0  # a loaded machine (the test suite on both cores) starts slowly
REQUEST_SECONDS = 60.0
"""How long a client waits for a server process's answer (httpx waits 5 s by default, which a
loaded machine exceeds: a sign-up beside a starting worker took longer)."""
KEEP_IDLE_SECONDS = 2.0
"""How long a client keeps an idle connection to a server process for its next request: less
than the server's keep-alive (5 s), so that it never sends a request on a connection the
server is closing (on a loaded machine the two cross: "Server disconnected without sending a
response")."""


@functools.cache
def shared_tls() -> ssl.SSLContext:
    """One TLS context for every HTTP client a process makes (``httpx.AsyncClient(...,
    verify=shared_tls())``, or its transport's): httpx otherwise loads the system's certificates
    for each client or transport, some 45 ms of CPU each, though plain HTTP uses none. Many
    clients made at once (a burst of requests "at once", a load's players) blocked the event loop
    for seconds: the burst came spread over that time, and a connection opened before the stall
    sent its request after the server's request timeout, which closed it unanswered."""
    return ssl.create_default_context()


SOURCE = Path(__file__).resolve().parents[2]
"""The ``src`` directory this package was imported from."""
LIFTED_CREATION = (
    "guests_per_address=1000000",
    "tables_per_address=1000000",
    "tables_per_user=1000000",
)
"""Per-address limits of creation lifted: one client address makes every guest and table of a
test or a load."""
LIFTED_READS = (
    "lobby_lists_per_minute=1000000",
    "player_pages_per_minute=1000000",
    "lesson_moves_per_minute=1000000",
)
"""The rates of costly reads lifted: one client address reads the lobby's lists, players' pages
and lessons for all the people of a test or a load (the rates have tests of their own)."""
LIFTED_LIMITS = (*LIFTED_CREATION, *LIFTED_READS)
"""Per-address limits lifted (the servers of the tests and loads): both of the above."""
LIFTED_GUARDS = (
    "connections_per_address=1000000",
    "websockets_per_address=1000000",
    "replays_per_minute=1000000",
)
"""Per-address connection caps lifted, for a load from one client address (a server whose code
has them: ``--guard``)."""


def has_guards(source: Path) -> bool:
    """Whether the code at ``source`` takes ``serve --guard`` (older commits do not)."""
    return (source / "otherside" / "server" / "http" / "guards.py").exists()


def has_read_rates(source: Path) -> bool:
    """Whether the code at ``source`` has the rates of costly reads (older commits would refuse
    their ``--limit`` settings)."""
    return (source / "otherside" / "server" / "accounts" / "rates.py").exists()


_TICKS = os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def fresh_database(postgres: str | None, name: str, work: Path) -> Iterator[str]:
    """A new, empty database for one run: a SQLite file ``name``.db in ``work``, or, given the
    URL of a PostgreSQL server, a database ``name`` created on it and dropped afterwards."""
    if not postgres:
        yield f"sqlite:///{work / f'{name}.db'}"
        return
    import sqlalchemy

    admin = sqlalchemy.make_url(postgres)
    engine = sqlalchemy.create_engine(admin, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(sqlalchemy.text(f"CREATE DATABASE {name}"))
    try:
        yield admin.set(database=name).render_as_string(hide_password=False)
    finally:
        with engine.connect() as connection:
            connection.execute(sqlalchemy.text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        engine.dispose()


_PORTS = random.SystemRandom()


def _ephemeral_ports() -> tuple[int, int]:
    """The ports the kernel hands out itself (to ``bind(0)`` and to outgoing connections)."""
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return int(low), int(high)
    except (OSError, ValueError):
        return 32768, 60999


def free_port() -> int:
    """A TCP port free on loopback now, below the kernel's ephemeral range: a port the kernel
    handed out could be handed out again, to an outgoing connection, before the server that
    was to listen on it had bound it (a flood test on the other core opens thousands), and
    that server then stopped with "address already in use"."""
    low = _ephemeral_ports()[0]
    for _ in range(100):
        port = _PORTS.randrange(min(20000, low // 2), low)
        with socket.socket() as probe:
            try:
                probe.bind((HOST, port))
            except OSError:
                continue
            return port
    with socket.socket() as probe:  # every try taken: the kernel's choice
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def healthy(url: str) -> bool:
    """Whether the server at ``url`` answers its health check now."""
    try:
        with urllib.request.urlopen(f"{url}/api/health", timeout=1) as answer:
            return bool(answer.status == 200)
    except (OSError, urllib.error.URLError):
        return False


class Process(Protocol):
    """What the tests and benchmarks use of a started process: ``subprocess.Popen``, or a
    :class:`Forked` server."""

    @property
    def pid(self) -> int: ...

    @property
    def args(self) -> object: ...

    @property
    def returncode(self) -> int | None: ...

    def poll(self) -> int | None: ...

    def wait(self, timeout: float | None = None) -> int: ...


def wait_healthy(url: str, processes: Sequence[Process], limit: float = STARTUP_SECONDS) -> None:
    """Wait until ``url`` answers its health check.

    Raises:
        RuntimeError: one of ``processes`` (those that should serve it) exited, or nothing
            answered within ``limit`` seconds.
    """
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        for process in processes:
            if process.poll() is not None:
                raise RuntimeError(f"{process.args!r} exited with {process.returncode}")
        if healthy(url):
            return
        time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer within {limit:.0f} s")


def stop_group(process: Process, grace: float = 20.0) -> None:
    """Stop a process started in a session of its own: SIGTERM to its group (a clean stop hands
    leases back), then ``kill -9`` of whatever is left of it after ``grace`` seconds."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=grace)
    kill_group(process)


def kill_group(process: Process) -> None:
    """``kill -9`` a process started in a session of its own and everything it started."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=10)


def _stat(pid: int) -> tuple[int, int] | None:
    """(parent pid, user + system ticks) of ``pid``, or ``None`` once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            text = stat.read()
    except OSError:
        return None
    # The command name, in parentheses, may hold spaces: the fields start after its last ")".
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), int(fields[11]) + int(fields[12])


def tree_pids(root: int) -> set[int]:
    """``root`` and every live process descended from it (read from ``/proc``)."""
    parents: dict[int, int] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit() and (found := _stat(int(entry.name))) is not None:
            parents[int(entry.name)] = found[0]
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    tree, todo = set(), [root]
    while todo:
        pid = todo.pop()
        if pid in parents and pid not in tree:
            tree.add(pid)
            todo.extend(children.get(pid, ()))
    return tree


def cpu_seconds(pids: set[int]) -> float:
    """User + system CPU seconds that the live processes ``pids`` have used so far."""
    ticks = sum(found[1] for pid in pids if (found := _stat(pid)) is not None)
    return ticks / _TICKS


def status_path(folder: Path, pid: int) -> Path:
    """Where the zygote that forked process ``pid`` writes how it ended."""
    return folder / str(pid)


class Forked:
    """A server process forked by the zygote, with what the tests use of ``subprocess.Popen``
    (it is the zygote's child, so its end is read from the status the zygote writes)."""

    def __init__(self, pid: int, args: list[str], status: Path) -> None:
        self.pid = pid
        self.args = args
        self.returncode: int | None = None
        self._status = status

    def poll(self) -> int | None:
        """The process's exit code (minus the signal that killed it) once it has ended."""
        if self.returncode is None:
            with contextlib.suppress(FileNotFoundError):
                self.returncode = int(self._status.read_text())
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Wait for the end; ``subprocess.TimeoutExpired`` after ``timeout`` seconds."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while (code := self.poll()) is None:
            if deadline is not None and time.monotonic() >= deadline:
                raise subprocess.TimeoutExpired(self.args, timeout or 0.0)
            time.sleep(0.02)
        return code


class _Zygote:
    """The process the servers are forked from (:mod:`otherside.testing.zygote`)."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="otherside-zygote-"))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "otherside.testing.zygote", str(self.folder)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(SOURCE)},
        )
        self.lock = threading.Lock()
        atexit.register(self.close)

    def fork(self, args: list[str], env: Mapping[str, str], log: Path) -> Forked:
        """``args`` (``python -m otherside …``) run in a forked process."""
        request = {
            "argv": args[3:],
            "env": dict(env),
            "cwd": os.getcwd(),
            "log": str(log),
            "nofile": list(resource.getrlimit(resource.RLIMIT_NOFILE)),
        }
        with self.lock:
            stdin: IO[bytes] | None = self.process.stdin
            stdout: IO[bytes] | None = self.process.stdout
            assert stdin is not None and stdout is not None
            stdin.write(json.dumps(request).encode() + b"\n")
            stdin.flush()
            line = stdout.readline()
        if not line:
            raise RuntimeError("the zygote exited; see its output above")
        answer = json.loads(line)
        if "error" in answer:
            raise RuntimeError(answer["error"])
        pid = int(answer["pid"])
        return Forked(pid, args, status_path(self.folder, pid))

    def close(self) -> None:
        """End the zygote (the servers it forked are the tests' to stop) and its folder."""
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)


_zygote: _Zygote | None = None
_forking = False


def fork_servers() -> None:
    """Fork this process's later servers from a zygote (started at the first of them)."""
    global _forking
    _forking = True


def _the_zygote() -> _Zygote:
    """This process's zygote, started at the first call."""
    global _zygote
    if _zygote is None:
        _zygote = _Zygote()
    return _zygote


def _forked(args: list[str], env: Mapping[str, str], log: Path) -> Forked:
    return _the_zygote().fork(args, env, log)


class ServerProcess:
    """``otherside serve`` on ``database``, in a session of its own.

    Args:
        database: the SQLAlchemy URL (a SQLite file, or PostgreSQL).
        port: the TCP port on loopback (a free one by default).
        *extra: more ``serve`` arguments (``"--workers", "2"``).
        bot_delay: seconds a bot waits before acting.
        source: the ``src`` directory of the code to run (this one by default).
        limits: ``--limit`` settings (by default the per-address limits lifted, those that
            the code at ``source`` has: :data:`LIFTED_LIMITS`).
        log_level: uvicorn's log level.
        log: the file to write the server's output to (kept); a temporary file by default,
            removed when the server is stopped.
        env: more environment variables for the server.
        wait: wait until the server answers its health check.
        launcher: the program run with the ``serve`` arguments instead of ``python -m
            otherside`` (a test's few lines that change something first, then run the
            ordinary command); started afresh, never forked.
    """

    def __init__(
        self,
        database: str,
        port: int | None = None,
        *extra: str,
        bot_delay: float = 0.0,
        source: Path | None = None,
        limits: Sequence[str] | None = None,
        log_level: str = "info",
        log: Path | None = None,
        env: Mapping[str, str] | None = None,
        wait: bool = True,
        launcher: Sequence[str] | None = None,
    ) -> None:
        self.database = database
        self.port = port if port is not None else free_port()
        self.url = f"http://{HOST}:{self.port}"
        self.source = source or SOURCE
        if limits is None:
            limits = LIFTED_LIMITS if has_read_rates(self.source) else LIFTED_CREATION
        args = [
            *(launcher or (sys.executable, "-m", "otherside")),
            "serve",
            "--host",
            HOST,
            "--port",
            str(self.port),
            "--database",
            database,
            "--bot-delay",
            str(bot_delay),
            *(arg for limit in limits for arg in ("--limit", limit)),
            "--log-level",
            log_level,
            *extra,
        ]
        self._temporary_log = log is None
        if log is None:
            descriptor, name = tempfile.mkstemp(prefix="otherside-serve-", suffix=".log")
            os.close(descriptor)
            log = Path(name)
        self.log_path = log
        environment = {**os.environ, **(env or {}), "PYTHONPATH": str(self.source)}
        self.process: Process
        if _forking and self.source == SOURCE and launcher is None:
            self.process = _forked(args, environment, log)
        else:
            with log.open("ab") as out:
                self.process = subprocess.Popen(
                    args, env=environment, stdout=out, stderr=out, start_new_session=True
                )
        if wait:
            self.wait_up()

    @property
    def pid(self) -> int:
        """The server's process id (the uvicorn supervisor's with ``--workers`` above 1)."""
        return self.process.pid

    def running(self) -> bool:
        """Whether the server's process is still alive."""
        return self.process.poll() is None

    def log(self) -> str:
        """The end of what the server printed."""
        try:
            return self.log_path.read_text(errors="replace")[-6000:]
        except OSError:
            return ""

    def wait_up(self, limit: float = STARTUP_SECONDS) -> None:
        """Wait until the server answers its health check.

        Raises:
            RuntimeError: the server exited or did not answer in time (its log said); it is
                killed.
        """
        try:
            wait_healthy(self.url, [self.process], limit)
        except RuntimeError as exc:
            text = self.log()
            self.kill()
            raise RuntimeError(f"{exc}; the server's log:\n{text}") from None

    def pids(self) -> set[int]:
        """The server's process and every live process it started."""
        return tree_pids(self.pid)

    def cpu_seconds(self) -> float:
        """User + system CPU seconds used so far by the server's live process tree."""
        return cpu_seconds(self.pids())

    def stop(self) -> None:
        """A clean stop (SIGTERM), then ``kill -9`` of anything left of it."""
        stop_group(self.process)
        self._forget_log()

    def kill(self) -> None:
        """``kill -9`` the server and every process it started."""
        kill_group(self.process)
        self._forget_log()

    def _forget_log(self) -> None:
        if self._temporary_log:
            self.log_path.unlink(missing_ok=True)
