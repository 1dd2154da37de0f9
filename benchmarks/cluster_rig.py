"""What ``load_cluster.py`` runs its load against, set up and torn down on this machine: a
throwaway PostgreSQL cluster, the table server's processes, Debian's nginx in front of them, and
the CPU each of them (and everything else) used, read from ``/proc``."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from otherside.testing.servers import (
    HOST,
    LIFTED_GUARDS,
    ServerProcess,
    free_port,
    stop_group,
    wait_healthy,
)

TICKS = os.sysconf("SC_CLK_TCK")


def as_root() -> bool:
    return os.geteuid() == 0


def apt_install(package: str, console: Console) -> None:
    """Install a Debian package (root only), saying so."""
    if not as_root():
        raise SystemExit(f"{package} is missing: install it (apt-get install {package})")
    console.print(f"[yellow]installing Debian's {package} (apt-get install -y {package})")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(
        ["apt-get", "install", "-y", "-qq", package], check=True, env=env, stdout=subprocess.DEVNULL
    )


# -- CPU from /proc ---------------------------------------------------------------------------


def process_table() -> dict[int, tuple[int, int]]:
    """Every process now: pid -> (parent pid, user + system ticks)."""
    found: dict[int, tuple[int, int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as stat:
                text = stat.read()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()
        found[int(entry.name)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
    return found


def machine_ticks() -> tuple[int, int]:
    """(busy, total) ticks of every core since boot, from ``/proc/stat``."""
    with open("/proc/stat") as stat:
        values = [int(v) for v in stat.readline().split()[1:9]]
    idle = values[3] + values[4]  # idle + iowait
    return sum(values) - idle, sum(values)


def tree(table: dict[int, tuple[int, int]], root: int) -> set[int]:
    """``root`` and all its descendants in ``table``."""
    children: dict[int, list[int]] = {}
    for pid, (parent, _ticks) in table.items():
        children.setdefault(parent, []).append(pid)
    found, todo = set(), [root]
    while todo:
        pid = todo.pop()
        if pid in table and pid not in found:
            found.add(pid)
            todo.extend(children.get(pid, []))
    return found


@dataclass
class CpuSample:
    at: float
    table: dict[int, tuple[int, int]]
    machine: tuple[int, int]

    @classmethod
    def now(cls) -> CpuSample:
        return cls(time.monotonic(), process_table(), machine_ticks())


def cpu_percent(before: CpuSample, after: CpuSample, pids: set[int]) -> float:
    """CPU of ``pids`` between two samples, in % of one core (a process born in between counts
    from its start; one that ended in between is lost)."""
    ticks = 0
    for pid in pids:
        if pid in after.table:
            ticks += after.table[pid][1] - before.table.get(pid, (0, 0))[1]
    return 100.0 * ticks / TICKS / (after.at - before.at)


def machine_percent(before: CpuSample, after: CpuSample) -> tuple[float, float]:
    """(busy, idle) of the whole machine between two samples, in % of one core."""
    busy = after.machine[0] - before.machine[0]
    idle = after.machine[1] - before.machine[1] - busy
    scale = 100.0 / TICKS / (after.at - before.at)
    return busy * scale, idle * scale


# -- PostgreSQL --------------------------------------------------------------------------------


def _major(path: str) -> int:
    """The major version of ``/usr/lib/postgresql/<major>/bin``."""
    return int(Path(path).parent.name)


class Postgres:
    """A throwaway PostgreSQL cluster on loopback, in its own temporary directory."""

    def __init__(self, console: Console) -> None:
        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_major)
        if not bins:
            apt_install("postgresql", console)
            bins = sorted(
                glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[4])
            )
        self.bin = Path(bins[-1])
        self.dir = Path(tempfile.mkdtemp(prefix="otherside-bench-pg."))
        self.port = free_port()
        self.started = False
        if as_root():
            shutil.chown(self.dir, "postgres")

    def _run(self, *args: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if as_root() else []
        subprocess.run([*prefix, *args], check=True, stdout=subprocess.DEVNULL)

    def start(self, settings: list[str]) -> None:
        """Start it with PostgreSQL's defaults but for ``settings`` (``name=value``)."""
        data = self.dir / "data"
        self._run(str(self.bin / "initdb"), "-D", str(data), "-U", "otherside", "--auth=trust")
        extra = " ".join(f"-c {setting}" for setting in settings)
        options = (
            f"-p {self.port} -k {self.dir} -c listen_addresses={HOST} -c max_connections=300 "
            + extra
        )
        self.options = options
        self._run(
            str(self.bin / "pg_ctl"), "-D", str(data), "-l", str(self.dir / "log"), "-w",
            "-o", options, "start",
        )  # fmt: skip
        self.started = True

    def restart(self, down: float = 0.0) -> None:
        """A database outage: stop at once (``immediate``: every connection cut, no checkpoint,
        as a crash), stay down ``down`` seconds, start again on the same port and data."""
        data = str(self.dir / "data")
        self._run(str(self.bin / "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop")
        time.sleep(down)
        self._run(
            str(self.bin / "pg_ctl"), "-D", data, "-l", str(self.dir / "log"), "-w",
            "-o", self.options, "start",
        )  # fmt: skip

    def drop_connections(self, database: str) -> int:
        """Every connection to ``database`` ended by the server (``pg_terminate_backend``), as
        a pooler or a failover does; how many there were."""
        import psycopg

        conninfo = f"postgresql://otherside@{HOST}:{self.port}/postgres"
        with psycopg.connect(conninfo, autocommit=True) as connection:
            rows = connection.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                (database,),
            ).fetchall()
        return len(rows)

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://otherside@{HOST}:{self.port}/{database}"

    def sql(self, statement: str) -> None:
        import psycopg

        conninfo = f"postgresql://otherside@{HOST}:{self.port}/postgres"
        with psycopg.connect(conninfo, autocommit=True) as connection:
            connection.execute(statement.encode())

    def postmaster(self) -> int:
        return int((self.dir / "data" / "postmaster.pid").read_text().split()[0])

    def stop(self) -> None:
        if self.started:
            with contextlib.suppress(subprocess.CalledProcessError):
                self._run(str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-m",
                          "immediate", "stop")  # fmt: skip
            self.started = False
        shutil.rmtree(self.dir, ignore_errors=True)


# -- nginx -------------------------------------------------------------------------------------

NGINX_CONF = """\
worker_processes auto;
worker_rlimit_nofile 65536;
pid {dir}/nginx.pid;
error_log {dir}/nginx-error.log warn;
events {{ worker_connections 16384; }}
http {{
    access_log off;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    # "Connection: upgrade" for a websocket, nothing otherwise (keeps upstream keep-alive).
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ''      '';
    }}
    upstream otherside {{
        least_conn;
{servers}
        keepalive 64;
    }}
    upstream otherside_tables {{
        {balance}
{servers}
    }}
    server {{
        listen {host}:{port} backlog=4096;
        proxy_http_version 1.1;
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $connection_upgrade;
        proxy_read_timeout 1h;
        proxy_send_timeout 1h;
        location /ws/tables/ {{
            proxy_pass http://otherside_tables;
        }}
        location / {{
            proxy_pass http://otherside;
        }}
    }}
}}
"""


# Both players of a table on one process (by its websocket address), or each connection to
# the least busy process.
BALANCE = {"table": "hash $request_uri consistent;", "conn": "least_conn;"}


class Nginx:
    """Debian's nginx as the reverse proxy in front of the server processes."""

    def __init__(self, directory: Path, console: Console) -> None:
        binary = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")
        if binary is None:
            apt_install("nginx-light", console)
            binary = shutil.which("nginx", path="/usr/sbin:/usr/bin")
        if binary is None:
            raise SystemExit("nginx is not installed")
        self.binary = binary
        self.dir = directory
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, port: int, upstreams: list[int], balance: str) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        servers = "\n".join(f"        server {HOST}:{p} max_fails=0;" for p in upstreams)
        conf = self.dir / "nginx.conf"
        conf.write_text(
            NGINX_CONF.format(
                dir=self.dir,
                host=HOST,
                port=port,
                servers=servers,
                balance=BALANCE[balance],
            )
        )
        self.process = subprocess.Popen(
            [self.binary, "-c", str(conf), "-p", str(self.dir), "-g", "daemon off;"],
            start_new_session=True,
            stderr=subprocess.DEVNULL,
        )
        wait_up(f"http://{HOST}:{port}", [self.process])

    def stop(self) -> None:
        if self.process is not None:
            stop_group(self.process)
            self.process = None


# -- server processes ---------------------------------------------------------------------------


def wait_up(url: str, processes: list[subprocess.Popen[bytes]], limit: float = 90) -> None:
    """Wait until ``url`` answers its health check, or stop the benchmark saying why."""
    try:
        wait_healthy(url, processes, limit)
    except RuntimeError as exc:
        raise SystemExit(str(exc)) from None


class Servers:
    """The table server's processes for one run, in one of the two layouts."""

    def __init__(self, database: str, count: int, layout: str, logs: Path) -> None:
        self.database = database
        self.count = count
        self.layout = layout
        self.logs = logs
        self.servers: list[ServerProcess] = []
        self.ports: list[int] = []

    def _serve(self, port: int, *extra: str) -> ServerProcess:
        # Every connection comes from nginx, so from one address: lift the per-address caps
        # (else most of the load is answered 503 by the guards, not served).
        guards = [arg for guard in LIFTED_GUARDS for arg in ("--guard", guard)]
        return ServerProcess(
            self.database,
            port,
            *extra,
            *guards,
            log_level="warning",
            log=self.logs / f"serve-{port}.log",
            wait=False,
        )

    def start(self) -> None:
        if self.layout == "workers":
            self.ports = [free_port()]
            self.servers = [self._serve(self.ports[0], "--workers", str(self.count))]
        else:
            self.ports = [free_port() for _ in range(self.count)]
            self.servers = [self._serve(port) for port in self.ports]
        for port in self.ports:
            wait_up(f"http://{HOST}:{port}", [server.process for server in self.servers])
        if self.layout == "workers":
            # Every worker has started (and migrated) once each has a listening socket.
            deadline = time.monotonic() + 90
            while len(self.serving(process_table())) < self.count:
                if time.monotonic() > deadline:
                    raise SystemExit("the uvicorn workers did not all start")
                time.sleep(0.2)
            time.sleep(2)

    def serving(self, table: dict[int, tuple[int, int]]) -> list[int]:
        """The pid of each process serving requests (in the ``workers`` layout, uvicorn's
        workers, not their supervisor; ``--workers 1`` serves in the process itself)."""
        if self.layout != "workers" or self.count == 1:
            return [server.pid for server in self.servers]
        supervisor = self.servers[0].pid
        return sorted(
            pid
            for pid, (parent, _ticks) in table.items()
            if parent == supervisor and b"spawn_main" in _cmdline(pid)
        )

    def groups(self, table: dict[int, tuple[int, int]]) -> list[set[int]]:
        """The pids of each server process with its bot workers; in the ``workers`` layout the
        uvicorn supervisor (and its resource tracker) go with the first worker."""
        groups = [tree(table, pid) for pid in self.serving(table)]
        if self.layout == "workers" and self.count > 1 and groups:
            groups[0] |= tree(table, self.servers[0].pid) - set().union(*groups)
        return groups

    def stop(self) -> None:
        for server in self.servers:
            server.stop()
        self.servers = []


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


@contextlib.contextmanager
def cleaned_up() -> Iterator[list[Callable[[], None]]]:
    """A list of undo steps, run last first whatever happens (also on Ctrl-C or SIGTERM)."""
    steps: list[Callable[[], None]] = []

    def on_term(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, on_term)
    try:
        yield steps
    finally:
        with contextlib.suppress(KeyboardInterrupt):
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # finish cleaning up first
        for step in reversed(steps):
            with contextlib.suppress(Exception):
                step()
        signal.signal(signal.SIGTERM, previous)
        signal.signal(signal.SIGINT, signal.default_int_handler)


class Profiler:
    """py-spy sampling each server process for a while (``--profile``), into collapsed stacks;
    :func:`hot_frames` reads them."""

    def __init__(self, directory: Path) -> None:
        binary = shutil.which("py-spy") or shutil.which(
            "py-spy", path=str(Path(sys.executable).parent)
        )
        if binary is None:
            raise SystemExit("--profile needs py-spy: pip install py-spy")
        self.binary = binary
        self.dir = directory
        self.dir.mkdir(parents=True, exist_ok=True)
        self.running: list[subprocess.Popen[bytes]] = []

    def start(self, name: str, pids: list[int], seconds: float) -> list[Path]:
        outputs = []
        for index, pid in enumerate(pids):
            out = self.dir / f"{name}-server{index + 1}.txt"
            command = [
                self.binary, "record", "--pid", str(pid), "--duration", str(int(seconds)),
                "--rate", "50", "--format", "raw", "--output", str(out), "--nonblocking", "--gil",
                "--function",
            ]  # fmt: skip
            self.running.append(
                subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            )
            outputs.append(out)
        return outputs

    def wait(self) -> None:
        for process in self.running:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        self.running = []


def hot_frames(paths: list[Path], top: int = 12) -> list[tuple[float, str]]:
    """The functions of the project (and the libraries it calls) on the most sampled stacks,
    inclusive: (share of samples, frame), highest first."""
    total = 0
    inclusive: dict[str, int] = {}
    for path in paths:
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            if not stack:
                continue
            samples = int(count)
            total += samples
            for frame in set(stack.split(";")):
                if "(otherside/" in frame:
                    inclusive[frame] = inclusive.get(frame, 0) + samples
    ranked = sorted(inclusive.items(), key=lambda item: -item[1])[:top]
    return [(count / max(total, 1), frame) for frame, count in ranked]
