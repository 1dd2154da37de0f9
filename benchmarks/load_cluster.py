"""Load benchmark of the table server on several processes behind a real reverse proxy.

For each process count (``--processes 1,2,4``) and table count (``--tables 50,100,200``) it
starts that many server processes on one throwaway PostgreSQL cluster, Debian's nginx in front of
them (HTTP and websockets), and a client split over ``--clients`` processes (each an asyncio loop
of websocket players as in ``load_tables.py``: two guests per Verso table playing random legal
actions after ``--think`` seconds, a new table when a game ends; ``--arrivals`` pairs arrive a
second). Measuring starts once every table has started its game (or after ``--warmup`` seconds
at most, which the results then say), so that the figures are of a steady load, not of the
arrivals. It prints, per run, the moves/s served, the p50/p99 time from an action to each
seated player's view of it, the errors, and the CPU (user + system, from ``/proc/<pid>/stat``;
100% = one core) of each server process (with its bot workers), of PostgreSQL (all its
processes), of nginx, of each client process and of everything else on the machine, so that a
reader sees what saturates.

Layout (``--layout``): ``ports`` (the default) runs N ``otherside serve`` processes on N ports as
nginx's upstreams, as N hosts behind one load balancer would be; ``workers`` runs one
``otherside serve --workers N`` (one port; the kernel hands connections to the workers).
Balancing (``--balance``): ``table`` hashes a table's websocket address, so that both players of
a table reach the same process; ``conn`` sends each connection to the least busy process, so
that most moves cross processes through PostgreSQL's NOTIFY.

What it needs it sets up: nginx (``apt-get install nginx-light`` when missing, as root) and a
PostgreSQL cluster in a temporary directory on a free port (Debian's ``postgresql``, started
as the ``postgres`` user when run as root, like ``scripts/test``), a fresh database per run;
every process it started is stopped at the end, also on Ctrl-C.

    python benchmarks/load_cluster.py --plot cluster.png           # about 7 minutes
    python benchmarks/load_cluster.py --quick --plot cluster.png   # under 2 minutes
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import resource
import shutil
import signal
import ssl
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from multiprocessing.sharedctypes import Synchronized
from pathlib import Path
from typing import Any

import httpx
import websockets
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from cluster_rig import (
    HOST,
    CpuSample,
    Nginx,
    Postgres,
    Profiler,
    Servers,
    cleaned_up,
    cpu_percent,
    free_port,
    hot_frames,
    machine_percent,
    tree,
)

# Seconds a player waits for the server before counting its table as hung: far beyond a move's
# p99 even when overloaded, and short enough to be seen within the measured window.
SILENCE = 10.0
SETTLE = 3.0  # seconds between the last table's start and the measurement's

# -- the client ---------------------------------------------------------------------------------


@dataclass
class Tally:
    """What one client process saw during the measured window."""

    latencies: list[float] = field(default_factory=list)  # ms, action -> each player's view
    other_latencies: list[float] = field(default_factory=list)  # ms, -> the other player's
    # ms from the host's start (answered) to each player's first view of the game, SILENCE for
    # a player who saw none: the time a change takes to cross processes (the start is made
    # through whichever process nginx chose, the players may watch through another). Over the
    # whole run, warm-up included: most games start then (a game outlasts the window).
    start_latencies: list[float] = field(default_factory=list)
    moves: int = 0
    games: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    warmup_errors: dict[str, int] = field(default_factory=dict)  # before measuring
    lobby_retries: int = 0  # 409s that went away when asked again (all the run)

    def error(self, kind: str, window: Window) -> None:
        if window.open():
            self.errors[kind] = self.errors.get(kind, 0) + 1
        elif time.monotonic() < window.measure_from:
            self.warmup_errors[kind] = self.warmup_errors.get(kind, 0) + 1


@dataclass
class Window:
    """The measured window, the same in every client process: ``duration`` seconds from
    ``start`` (a ``time.monotonic()`` time, shared by the processes of one machine), which the
    parent moves earlier once every table plays."""

    start: Synchronized[float]
    duration: float

    @property
    def measure_from(self) -> float:
        return self.start.value

    @property
    def deadline(self) -> float:
        return self.start.value + self.duration

    def open(self) -> bool:
        return self.measure_from <= time.monotonic() <= self.deadline


async def player(
    base: str,
    cookie: str,
    table_id: str,
    sent: dict[int, float],
    tally: Tally,
    window: Window,
    think: float,
    rng: random.Random,
    started: float,
) -> bool:
    """Play one seat until the game ends (True) or time is up; ``sent`` (shared by the pair)
    has the time each version was asked for, ``started`` the time the game's start was
    answered."""
    url = base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
    mine: set[int] = set()
    last = -1
    async with websockets.connect(
        url, additional_headers={"Cookie": cookie}, max_size=2**20, compression=None
    ) as ws:
        while True:
            try:
                raw = await asyncio.wait_for(ws.recv(), SILENCE)
            except TimeoutError:
                # A table that never answers is a hang, not a slow server: count it, move on.
                tally.error(f"no message for {SILENCE:.0f} s", window)
                if last < 0 and time.monotonic() <= window.deadline:
                    tally.start_latencies.append(1000 * SILENCE)
                return False
            message = json.loads(raw)
            kind = message["type"]
            if kind == "error":
                tally.error(message.get("code", "error"), window)
                continue
            if kind != "view":
                continue
            version = message["version"]
            if version <= last:
                # The same version again (a catch-up broadcast after the table message): a
                # person would not act twice on it, nor see it as news.
                continue
            if last < 0 and time.monotonic() <= window.deadline:
                tally.start_latencies.append(1000 * (time.perf_counter() - started))
            last = version
            began = sent.get(version)
            if began is not None and window.open():
                ms = 1000 * (time.perf_counter() - began)
                tally.latencies.append(ms)
                if version in mine:
                    tally.moves += 1
                else:
                    tally.other_latencies.append(ms)
            mine.discard(version)
            if message["view"].get("outcome") is not None:
                return True
            if time.monotonic() > window.deadline:
                return False
            if message["legal"]:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                mine.add(version + 1)
                sent[version + 1] = time.perf_counter()
                sent.pop(version - 3, None)
                action = rng.choice(message["legal"])
                await ws.send(json.dumps({"type": "action", "version": version, "action": action}))


async def lobby(client: httpx.AsyncClient, path: str, tally: Tally, body: Any = None) -> Any:
    """POST to the lobby; a 409 is retried for a while, as a person would click again: the
    process answering may not have heard yet (by NOTIFY) of a change made through another
    one (the guest's join, when the host starts the game)."""
    for _attempt in range(20):
        answer = await client.post(path, json=body)
        if answer.status_code != 409:
            break
        tally.lobby_retries += 1
        await asyncio.sleep(0.25)
    if answer.is_error:
        kind = path.rsplit("/", 1)[-1] if path.count("/") > 2 else path
        raise LobbyError(f"HTTP {answer.status_code} {kind}")
    return answer.json()


class LobbyError(Exception):
    """A lobby request refused (other than a 409 that went away)."""


async def pair(
    base: str,
    seed: int,
    tally: Tally,
    window: Window,
    think: float,
    ready: Synchronized[int],
    tls: ssl.SSLContext,
) -> None:
    """Two guests playing game after game until the deadline (``ready`` counts the pairs whose
    first game has started); a failure is counted, then the pair starts again a moment later
    with new guests. ``tls`` is shared: httpx would otherwise load the system's certificates
    for each client (tens of ms of the event loop each, stalling the players already playing),
    though none is used on plain HTTP."""
    rng = random.Random(seed)
    started = False
    while time.monotonic() < window.deadline:
        try:
            async with (
                httpx.AsyncClient(base_url=base, timeout=30, verify=tls) as host,
                httpx.AsyncClient(base_url=base, timeout=30, verify=tls) as guest,
            ):
                for client in (host, guest):
                    await lobby(client, "/api/guest", tally)
                cookies = [
                    f"otherside_session={c.cookies.get('otherside_session')}" for c in (host, guest)
                ]
                while time.monotonic() < window.deadline:
                    made = await lobby(host, "/api/tables", tally, {"game": "verso", "players": 2})
                    await lobby(guest, f"/api/tables/{made['id']}/join", tally, {})
                    await lobby(host, f"/api/tables/{made['id']}/start", tally)
                    answered = time.perf_counter()
                    if not started:
                        started = True
                        with ready.get_lock():
                            ready.value += 1
                    sent: dict[int, float] = {}
                    ended = await asyncio.gather(
                        *(
                            player(base, c, made["id"], sent, tally, window, think, rng, answered)
                            for c in cookies
                        )
                    )
                    tally.games += all(ended) and window.open()
        except (LobbyError, httpx.HTTPError, websockets.WebSocketException, OSError) as exc:
            tally.error(str(exc) if isinstance(exc, LobbyError) else type(exc).__name__, window)
            await asyncio.sleep(1.0)


async def client_loop(
    base: str,
    seeds: list[int],
    window: Window,
    think: float,
    rate: float,
    progress: Synchronized[int],
    ready: Synchronized[int],
) -> Tally:
    tally = Tally()
    tls = ssl.create_default_context()
    tasks = []
    for index, seed in enumerate(seeds):
        # Pairs arrive at a steady ``rate`` a second (this process's share of it), as people
        # would, rather than all in the same instant.
        job = pair(base, seed, tally, window, think, ready, tls)
        tasks.append(asyncio.create_task(_after(index / rate, job)))
    while time.monotonic() < window.deadline:
        await asyncio.sleep(0.5)
        progress.value = tally.moves
    # The games in flight see their last answers (each player stops at the deadline).
    await asyncio.wait(tasks, timeout=5 + 2 * think)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return tally


async def _after(delay: float, work: Any) -> None:
    await asyncio.sleep(delay)
    await work


def client_main(
    base: str,
    seeds: list[int],
    window: Window,
    think: float,
    rate: float,
    progress: Synchronized[int],
    ready: Synchronized[int],
    results: Any,
) -> None:
    """One client process: its share of the pairs on its own event loop (uvloop if present)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops us
    runner: Callable[[Any], Tally] = asyncio.run
    with contextlib.suppress(ImportError):
        import uvloop

        runner = uvloop.run
    tally = runner(client_loop(base, seeds, window, think, rate, progress, ready))
    results.put(asdict(tally))


# -- one run -------------------------------------------------------------------------------------


@dataclass
class Run:
    database: str
    processes: int
    tables: int
    seconds: float
    moves_per_s: float
    p50: float
    p99: float
    p99_other: float
    start_p50: float
    start_p99: float
    all_playing_after: float | None  # seconds from the clients' start; None: not all in time
    playing: int  # tables whose first game had started when measuring began
    games: int
    errors: dict[str, int]
    warmup_errors: dict[str, int]
    lobby_retries: int
    servers_cpu: list[float]
    postgres_cpu: float
    proxy_cpu: float
    clients_cpu: list[float]
    others_cpu: float
    idle: float
    load_before: float


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def one_run(
    args: argparse.Namespace,
    pg: Postgres,
    processes: int,
    tables: int,
    work: Path,
    console: Console,
    cleanup: list[Callable[[], None]],
    sqlite: bool = False,
) -> Run:
    name = f"bench_{processes}_{tables}_{os.getpid()}"
    if sqlite:
        url = f"sqlite:///{work / f'{name}.db'}"
    else:
        pg.sql(f"CREATE DATABASE {name}")
        url = pg.url(name)
    servers = Servers(url, processes, args.layout, work)
    cleanup.append(servers.stop)
    servers.start()
    proxy = Nginx(work / f"nginx-{processes}-{tables}", console)
    cleanup.append(proxy.stop)
    port = free_port()
    proxy.start(port, servers.ports, args.balance)
    assert proxy.process is not None

    load_before = os.getloadavg()[0]
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    # Measuring starts when every table has started its game (and a few seconds more for the
    # last ones to settle), or after the longest warm-up: the clients' imports, then --warmup.
    window = Window(context.Value("d", time.monotonic() + 2.0 + args.warmup), args.duration)
    counters = [context.Value("q", 0) for _ in range(args.clients)]
    playing = [context.Value("q", 0) for _ in range(args.clients)]
    clients = [
        context.Process(
            target=client_main,
            args=(
                f"http://{HOST}:{port}",
                list(range(k, tables, args.clients)),
                window,
                args.think,
                args.arrivals / args.clients,
                counters[k],
                playing[k],
                results,
            ),
            daemon=True,
        )
        for k in range(args.clients)
    ]

    def stop_clients() -> None:
        for client in clients:
            if client.is_alive():
                client.terminate()
            client.join(timeout=5)

    cleanup.append(stop_clients)
    for client in clients:
        client.start()
    before: CpuSample | None = None
    profiler = Profiler(Path(args.profile)) if args.profile else None
    profiles: list[Path] = []
    with Progress(
        TextColumn(f"{processes} process(es), {tables} tables"),
        BarColumn(),
        TextColumn("{task.fields[phase]}, {task.fields[moves]} moves"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as progress:
        began = time.monotonic()
        bar = progress.add_task("run", total=window.deadline - began, moves=0, phase="warm-up")
        started_all: float | None = None
        ready = measured_playing = 0
        while time.monotonic() < window.deadline:
            now = time.monotonic()
            pause = window.measure_from - now if before is None else window.deadline - now
            time.sleep(min(0.5, max(0.01, pause)))
            ready = sum(c.value for c in playing)
            if started_all is None and before is None and ready >= tables:
                started_all = time.monotonic() - began
                window.start.value = min(window.measure_from, time.monotonic() + SETTLE)
            if before is None and time.monotonic() >= window.measure_from:
                before = CpuSample.now()
                measured_playing = ready
                if profiler is not None:
                    profiles = profiler.start(
                        f"p{processes}-t{tables}", servers.serving(before.table), args.duration
                    )
            progress.update(
                bar,
                total=window.deadline - began,
                completed=time.monotonic() - began,
                moves=sum(c.value for c in counters),
                phase="measuring" if before is not None else f"warm-up, {ready} tables playing",
            )
    after = CpuSample.now()
    assert before is not None
    tallies = [results.get(timeout=60 + 3 * args.think) for _ in clients]
    stop_clients()
    if profiler is not None:
        profiler.wait()
        console.print(f"where the server processes spent their CPU (py-spy, {profiles[0].parent}):")
        for share, frame in hot_frames(profiles):
            console.print(f"  {100 * share:5.1f}%  {frame}")

    elapsed = after.at - before.at
    latencies = [ms for t in tallies for ms in t["latencies"]]
    others = [ms for t in tallies for ms in t["other_latencies"]]
    starts = [ms for t in tallies for ms in t["start_latencies"]]
    errors: dict[str, int] = {}
    warmup_errors: dict[str, int] = {}
    for t in tallies:
        for into, key in ((errors, "errors"), (warmup_errors, "warmup_errors")):
            for kind, count in t[key].items():
                into[kind] = into.get(kind, 0) + count
    server_groups = servers.groups(after.table)
    ours = set().union(
        *server_groups,
        tree(after.table, pg.postmaster()),
        tree(after.table, proxy.process.pid),
        {c.pid for c in clients if c.pid is not None},
        {os.getpid()},
    )
    machine_busy, idle = machine_percent(before, after)
    run = Run(
        database="SQLite" if sqlite else "PostgreSQL",
        processes=processes,
        tables=tables,
        seconds=elapsed,
        moves_per_s=sum(t["moves"] for t in tallies) / args.duration,
        p50=statistics.median(latencies) if latencies else float("nan"),
        p99=percentile(latencies, 0.99),
        p99_other=percentile(others, 0.99),
        start_p50=percentile(starts, 0.5),
        start_p99=percentile(starts, 0.99),
        all_playing_after=started_all,
        playing=measured_playing,
        games=sum(t["games"] for t in tallies),
        errors=errors,
        warmup_errors=warmup_errors,
        lobby_retries=sum(t["lobby_retries"] for t in tallies),
        servers_cpu=[cpu_percent(before, after, g) for g in server_groups],
        postgres_cpu=cpu_percent(before, after, tree(after.table, pg.postmaster())),
        proxy_cpu=cpu_percent(before, after, tree(after.table, proxy.process.pid)),
        clients_cpu=[cpu_percent(before, after, {c.pid}) for c in clients if c.pid is not None],
        others_cpu=max(0.0, machine_busy - cpu_percent(before, after, ours)),
        idle=idle,
        load_before=load_before,
    )
    for step in (stop_clients, proxy.stop, servers.stop):
        step()
        cleanup.remove(step)
    if not sqlite:
        pg.sql(f"DROP DATABASE {name} WITH (FORCE)")
    return run


# -- output ------------------------------------------------------------------------------------


def show(runs: list[Run], args: argparse.Namespace, console: Console) -> None:
    table = Table(
        title=f"{args.layout} layout, balance by {args.balance}, think {args.think} s, "
        f"{args.duration:.0f} s measured once every table plays (at most {args.warmup:.0f} s)"
        + (f", PostgreSQL {' '.join(args.pg)}" if args.pg else "")
        + f"; CPU in % of one core ({os.cpu_count()} cores)"
    )
    for column in (
        "procs", "tables", "all play", "moves/s", "p50 ms", "p99 ms", "p99 other",
        "start→view p50/p99*", "errors", "409 again", "servers CPU", "PG", "nginx",
        "clients CPU", "others", "idle", "load",
    ):  # fmt: skip
        table.add_column(column, justify="right")
    for r in runs:
        table.add_row(
            str(r.processes) + (" SQLite" if r.database == "SQLite" else ""),
            str(r.tables),
            f"{r.all_playing_after:.0f} s"
            if r.all_playing_after is not None
            else f"{r.playing} by {args.warmup:.0f} s",
            f"{r.moves_per_s:.0f}",
            f"{r.p50:.1f}",
            f"{r.p99:.0f}",
            f"{r.p99_other:.0f}",
            f"{r.start_p50:.0f}/{r.start_p99:.0f}"
            + (" (hung)" if r.start_p99 >= 1000 * SILENCE else ""),
            str(sum(r.errors.values())),
            str(r.lobby_retries),
            "+".join(f"{c:.0f}" for c in r.servers_cpu),
            f"{r.postgres_cpu:.0f}",
            f"{r.proxy_cpu:.0f}",
            "+".join(f"{c:.0f}" for c in r.clients_cpu),
            f"{r.others_cpu:.0f}",
            f"{r.idle:.0f}",
            f"{r.load_before:.1f}",
        )
    console.print(table)
    console.print(
        f"* from the host's start to each player's first view, over the whole run (most games "
        f"start in the warm-up); a player with no view within {SILENCE:.0f} s counts as "
        f"{1000 * SILENCE:.0f} ms (hung)"
    )
    for r in runs:
        if r.errors or r.warmup_errors:
            console.print(
                f"{r.processes} process(es), {r.tables} tables: errors {r.errors}, "
                f"during the warm-up {r.warmup_errors}"
            )
    for database, processes in sorted({(r.database, r.processes) for r in runs}):
        good = [
            r
            for r in runs
            if (r.database, r.processes) == (database, processes)
            and r.p99 <= args.p99_limit
            and not r.errors
        ]
        best = max(good, key=lambda r: r.moves_per_s, default=None)
        console.print(
            f"{processes} process(es) on {database}: capacity at p99 ≤ {args.p99_limit:.0f} ms: "
            + (f"{best.moves_per_s:.0f} moves/s ({best.tables} tables)" if best else "none")
        )


def plot(runs: list[Run], args: argparse.Namespace, path: str) -> None:
    import matplotlib
    import matplotlib.ticker

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    fig, (left, middle, right) = plt.subplots(1, 3, figsize=(16, 4.8))
    counts = sorted({r.processes for r in runs})
    for tables in sorted({r.tables for r in runs}):
        for database, style in (("PostgreSQL", "o-"), ("SQLite", "*")):
            mine = sorted(
                (r for r in runs if (r.tables, r.database) == (tables, database)),
                key=lambda r: r.processes,
            )
            if not mine:
                continue
            xs = [r.processes for r in mine]
            label = f"{tables} tables" + (", SQLite" if database == "SQLite" else "")
            left.plot(xs, [r.moves_per_s for r in mine], style, label=label, markersize=9)
            line = middle.plot(xs, [r.p99 for r in mine], style, label=label, markersize=9)
            if database == "PostgreSQL":
                color = line[0].get_color()
                middle.plot(xs, [r.start_p99 for r in mine], "x--", color=color)
    # Head room above the highest point for the legend.
    top = 1.3 * max((r.moves_per_s for r in runs), default=1.0)
    left.set(xlabel="server processes", ylabel="moves/s served", xticks=counts, ylim=(0, top))
    left.set_title("throughput")
    middle.axhline(args.p99_limit, color="grey", linestyle=":")
    middle.set(xlabel="server processes", ylabel="p99 (ms)", xticks=counts)
    middle.set_yscale("log")
    middle.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    middle.yaxis.set_major_locator(matplotlib.ticker.LogLocator(subs=(1.0, 2.0, 5.0)))
    middle.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    middle.set_title("latency: action→view, start→first view")
    left.legend(fontsize="small")
    # Colours are the table counts (as on the left); here the line styles say what is timed.
    middle.legend(
        handles=[
            Line2D([], [], color="black", marker="o", label="action→view"),
            Line2D([], [], color="black", marker="x", linestyle="--", label="start→first view"),
            Line2D([], [], color="grey", linestyle=":", label="acceptable p99"),
        ],
        fontsize="small",
        loc="best",
    )
    labels = [f"{r.processes}{'s' if r.database == 'SQLite' else 'p'}/{r.tables}t" for r in runs]
    parts = [
        ("servers", [sum(r.servers_cpu) for r in runs]),
        ("PostgreSQL", [r.postgres_cpu for r in runs]),
        ("nginx", [r.proxy_cpu for r in runs]),
        ("clients", [sum(r.clients_cpu) for r in runs]),
        ("others", [r.others_cpu for r in runs]),
    ]
    bottom = [0.0] * len(runs)
    for label, values in parts:
        right.bar(labels, values, bottom=bottom, label=label)
        bottom = [b + v for b, v in zip(bottom, values, strict=True)]
    right.axhline(100 * (os.cpu_count() or 1), color="black", linestyle=":")
    right.set(ylabel="CPU (% of one core)")
    right.set_title("where the CPU went")
    right.tick_params(axis="x", rotation=60)
    right.legend(fontsize="small")
    fig.suptitle(
        f"otherside table server behind nginx ({args.layout} layout, balance by "
        f"{args.balance}, think {args.think} s)"
    )
    fig.tight_layout()
    fig.savefig(path, dpi=120)


# -- main --------------------------------------------------------------------------------------


def wait_for_quiet(limit: float, console: Console, longest: float = 1800.0) -> None:
    """Wait (at most ``longest`` seconds) until the machine's 1-minute load average is below
    ``limit``: on a machine shared with others, measure when they are quiet."""
    began = time.monotonic()
    with console.status(f"waiting for the load average to fall below {limit}"):
        while os.getloadavg()[0] >= limit and time.monotonic() - began < longest:
            time.sleep(5)
    waited = time.monotonic() - began
    if waited > 5:
        console.print(f"waited {waited:.0f} s for load {os.getloadavg()[0]:.2f}")


def counts(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part.strip()]


# The sizes of a run, unless given. On two cores the lobby opens about six tables a second
# (guests, table, join, start: a dozen transactions a pair), so a warm-up of 200 tables takes
# half a minute; the full size takes about seven minutes, the quick one under two.
FULL: dict[str, Any] = {"tables": [50, 100, 200], "duration": 20.0, "warmup": 45.0}
QUICK: dict[str, Any] = {"tables": [100], "duration": 12.0, "warmup": 25.0}


def size_text(size: dict[str, Any]) -> str:
    return ", ".join(
        f"--{name} {','.join(map(str, value)) if isinstance(value, list) else f'{value:g}'}"
        for name, value in size.items()
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=counts, default=[1, 2, 4], help="e.g. 1,2,4")
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"the small size, under two minutes: {size_text(QUICK)} unless given",
    )
    parser.add_argument(
        "--tables", type=counts, help=f"e.g. 100,200 (default {','.join(map(str, FULL['tables']))})"
    )
    parser.add_argument(
        "--duration", type=float, help=f"seconds measured (default {FULL['duration']:g})"
    )
    parser.add_argument(
        "--warmup",
        type=float,
        help="the longest warm-up: measuring starts once every table plays, or after this many "
        f"seconds (default {FULL['warmup']:g})",
    )
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between actions")
    parser.add_argument(
        "--arrivals", type=float, default=40.0, help="pairs of players arriving a second"
    )
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument("--layout", choices=["ports", "workers"], default="ports")
    parser.add_argument("--balance", choices=["table", "conn"], default="table")
    parser.add_argument("--p99-limit", type=float, default=100.0, help="acceptable p99, ms")
    parser.add_argument(
        "--sqlite",
        action="store_true",
        help="first run one process on SQLite (the default, single-process deployment) "
        "behind the same nginx, for each table count, as a baseline",
    )
    parser.add_argument(
        "--wait-for-load",
        type=float,
        metavar="LOAD",
        help="before each run, wait until the 1-minute load average is below LOAD",
    )
    parser.add_argument(
        "--pg",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a PostgreSQL setting (repeatable), e.g. synchronous_commit=off",
    )
    parser.add_argument(
        "--profile",
        metavar="DIR",
        help="sample the server processes with py-spy while measuring (costs them some CPU: "
        "not for the figures) and keep the stacks in DIR",
    )
    parser.add_argument("--plot", help="write a plot of the runs to this PNG file")
    parser.add_argument("--json", help="write every run's figures to this JSON file")
    args = parser.parse_args()
    for name, value in (QUICK if args.quick else FULL).items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    # A results table wider than 80 columns also when the output goes to a file.
    console = Console(width=None if sys.stdout.isatty() else 200)
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # thousands of sockets
    console.print(
        f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores before the first run"
    )
    runs: list[Run] = []
    with cleaned_up() as cleanup:
        work = Path(tempfile.mkdtemp(prefix="otherside-bench."))
        cleanup.append(lambda: shutil.rmtree(work, ignore_errors=True))
        pg = Postgres(console)
        cleanup.append(pg.stop)
        pg.start(args.pg)
        plan = [(True, 1, tables) for tables in args.tables] if args.sqlite else []
        plan += [
            (False, processes, tables) for processes in args.processes for tables in args.tables
        ]
        for sqlite, processes, tables in plan:
            if args.wait_for_load is not None:
                wait_for_quiet(args.wait_for_load, console)
            runs.append(one_run(args, pg, processes, tables, work, console, cleanup, sqlite))
            r = runs[-1]
            console.print(
                f"{r.processes} process(es) on {r.database}, {tables} tables: "
                f"{r.moves_per_s:.0f} moves/s, p50 {r.p50:.1f} ms, p99 {r.p99:.0f} ms, "
                f"start→view p99 {r.start_p99:.0f} ms, "
                f"errors {r.errors or 0}; CPU servers {sum(r.servers_cpu):.0f}%, "
                f"PostgreSQL {r.postgres_cpu:.0f}%, nginx {r.proxy_cpu:.0f}%, "
                f"clients {sum(r.clients_cpu):.0f}%, others {r.others_cpu:.0f}%"
            )
    show(runs, args, console)
    if args.json:
        Path(args.json).write_text(json.dumps([asdict(r) for r in runs], indent=1))
    if args.plot:
        plot(runs, args, args.plot)
        console.print(f"plot written to {args.plot}")


if __name__ == "__main__":
    main()
