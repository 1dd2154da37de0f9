"""Load benchmark of the table server: N concurrent Verso tables of websocket clients, this tree
alone or side by side with an older commit.

Starts ``otherside serve`` on a fresh database (a temporary SQLite file, or a new database on the
PostgreSQL server of ``--database``) on loopback, then N tables of two guests each playing random
legal Verso actions after ``--think`` seconds (0: as fast as the server answers), a new table when
a game ends (``table_players.py``: the clients reconnect as the page does). Once every table
plays (or after ``--warmup`` seconds at most) it measures for ``--duration`` seconds and prints:

- the moves per second the players saw acknowledged (a move is acknowledged when its player
  receives the view of its version);
- the server's CPU per move: user + system time of the server's processes (with their bot
  workers, from ``/proc/<pid>/stat``) over the window, divided by the moves acknowledged in it;
- the p50/p99 time from sending an action to receiving the view it made;
- every acknowledged move checked against the database at the end: each acknowledged
  ``(table, version, action)`` must be a row of ``moves``.

``--against REV`` checks REV out into a temporary git worktree and runs the same load on a server
started from that tree's ``src`` (the same interpreter and dependencies) and on this tree's,
alternately, for ``--rounds`` rounds, each on a fresh database; it prints every round and then
the median of the rounds of each side side by side, with their ratio, and the ratio within each
round (its median and range: the two runs of a round are back to back, so a machine whose speed
drifts between rounds moves both), so that a slower change is seen in one run. ``--plot FILE``
draws the rounds.

``--workers N`` (PostgreSQL) starts N server processes, one port each (as hosts behind a load
balancer); a pair's two players use the process of its table number, and a refused connection
moves the pair on to the next process. ``--kill-after S`` sends ``kill -9`` to the first process
S seconds into the measured window (with one process, it is started again at once on the same
port and database, as a supervisor would) and reports the failover: how long until every table
that was playing acknowledged a move again (``failover s``, its players' thinking before that
move included), and until every table cut off could be played again (``served s``: one of its
players, connected again, had a view with actions to choose from).

    python benchmarks/load_tables.py --preset saturated --duration 15 --against adb35a0 --rounds 3
    python benchmarks/load_tables.py --preset replies --duration 60     # 300 tables, 1 s think
    python benchmarks/load_tables.py --tables 40 --think 0.2 --database \\
        postgresql+psycopg://otherside@127.0.0.1:54330/postgres --workers 2 --kill-after 5
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import statistics
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from otherside.testing.servers import (
    LIFTED_GUARDS,
    SOURCE,
    ServerProcess,
    cpu_seconds,
    fresh_database,
    has_guards,
)
from table_players import start_crowd

REPOSITORY = Path(__file__).resolve().parents[1]
SETTLE = 2.0  # seconds from the last table's start to the measurement's
PRESETS = {
    # The standard measurements (issue 32): saturated throughput, and replies at rest.
    "saturated": {"tables": 40, "think": 0.0},
    "replies": {"tables": 300, "think": 1.0},
}


@dataclass
class Side:
    """One code base under test: its label and its ``src`` directory."""

    label: str
    source: Path


@dataclass
class Result:
    """One run of the load on one side."""

    side: str
    round: int
    moves_per_s: float
    cpu_us_per_move: float | None  # None when a server was killed (its CPU is lost with it)
    p50: float
    p99: float
    games: int
    acknowledged: int
    not_stored: int
    reconnects: int
    clients_cpu: float  # % of one core, all client processes
    errors: dict[str, int] = field(default_factory=dict)
    failover: float | None = None  # s from the kill to the last table playing again
    served: float | None = None  # s from the kill to the last table cut off served again
    served_half: float | None = None  # ... to half of them served again (the median)
    never_back: int = 0  # tables playing at the kill that never played again


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@contextlib.contextmanager
def checkout(revision: str) -> Iterator[Path]:
    """``revision`` checked out into a temporary git worktree, removed afterwards."""
    place = Path(tempfile.mkdtemp(prefix="otherside-against-")) / "tree"
    git = ["git", "-C", str(REPOSITORY)]
    subprocess.run(
        [*git, "worktree", "add", "--detach", "--quiet", str(place), revision], check=True
    )
    try:
        yield place
    finally:
        subprocess.run([*git, "worktree", "remove", "--force", str(place)], check=False)
        shutil.rmtree(place.parent, ignore_errors=True)


def describe(tree: Path, revision: str | None = None) -> str:
    """A short name of the code: ``revision``'s abbreviated commit, or the tree's checkout
    (``-dirty`` when it has changes not committed)."""
    command = (
        ["rev-parse", "--short", revision] if revision else ["describe", "--always", "--dirty"]
    )
    found = subprocess.run(
        ["git", "-C", str(tree), *command], capture_output=True, text=True, check=False
    )
    return found.stdout.strip() or tree.name


def stored_moves(url: str) -> dict[tuple[str, int], str]:
    """Every move row of the database: (table, number) -> action."""
    engine = sqlalchemy.create_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(sqlalchemy.text("SELECT table_id, number, action FROM moves"))
            return {(table, number): action for table, number, action in rows}
    finally:
        engine.dispose()


def one_run(
    side: Side, round_index: int, args: argparse.Namespace, work: Path, console: Console
) -> Result:
    name = f"load_{os.getpid()}_{round_index}_{''.join(c for c in side.label if c.isalnum())}"
    with fresh_database(args.database, name, work) as url:
        servers = [
            ServerProcess(
                url,
                None,
                "--bot-workers",
                "0",
                *lifted_guards(side.source),
                source=side.source,
                log_level="warning",
                log=work / f"{name}-serve{index}.log",
                wait=False,
            )
            for index in range(args.workers)
        ]
        try:
            for server in servers:
                server.wait_up()
            result = measure(side, round_index, args, url, servers, work, console)
        finally:
            for server in servers:
                server.stop()
        stored = stored_moves(url)
    acknowledged = result.pop("acknowledged_moves")
    not_stored = sum(
        1 for table, number, action in acknowledged if stored.get((table, number)) != action
    )
    return Result(acknowledged=len(acknowledged), not_stored=not_stored, **result)


def measure(
    side: Side,
    round_index: int,
    args: argparse.Namespace,
    url: str,
    servers: list[ServerProcess],
    work: Path,
    console: Console,
) -> dict[str, Any]:
    crowd = start_crowd(
        [server.url for server in servers],
        args.tables,
        args.clients,
        args.think,
        args.warmup,
        args.duration,
    )
    window, playing, kill_at, clients = crowd.window, crowd.playing, crowd.kill_at, crowd.processes
    began = window.start.value = time.monotonic()
    killed = False
    cpu_before = clients_before = 0.0
    title = f"round {round_index + 1} {side.label}"
    try:
        with Progress(
            TextColumn(title),
            BarColumn(),
            TextColumn("{task.fields[phase]}, {task.fields[moves]} moves"),
            TimeRemainingColumn(),
            console=console,
            transient=True,
        ) as progress:
            bar = progress.add_task(title, total=window.deadline - began, moves=0, phase="warm-up")
            measuring = False
            while time.monotonic() < window.deadline:
                time.sleep(0.1)
                now = time.monotonic()
                if not window.begin.value and playing.value >= args.tables:
                    window.begin.value = min(window.measure_from, now + SETTLE)
                if not measuring and now >= window.measure_from:
                    measuring = True
                    cpu_before = sum(server.cpu_seconds() for server in servers)
                    clients_before = cpu_seconds({c.pid for c in clients if c.pid})
                if (
                    args.kill_after is not None
                    and not killed
                    and now >= window.measure_from + args.kill_after
                ):
                    killed = True
                    servers[0] = kill_one(servers[0], len(servers) == 1, url)
                    kill_at.value = time.monotonic()
                progress.update(
                    bar,
                    total=window.deadline - began,
                    completed=now - began,
                    moves=sum(v.value for v in crowd.progress),
                    phase=("killed one, " if killed else "")
                    + ("" if measuring else f"{playing.value} tables playing, ")
                    + ("measuring" if measuring else "warm-up"),
                )
        cpu_after = sum(server.cpu_seconds() for server in servers)
        clients_after = cpu_seconds({c.pid for c in clients if c.pid})
        tallies = [crowd.results.get(timeout=60 + 3 * args.think) for _ in clients]
    finally:
        for client in clients:
            if client.is_alive():
                client.terminate()
            client.join(timeout=5)
    moves = sum(t["moves"] for t in tallies)
    latencies = [ms for t in tallies for ms in t["latencies"]]
    errors: dict[str, int] = {}
    for t in tallies:
        for kind, count in t["errors"].items():
            errors[kind] = errors.get(kind, 0) + count
    failover: float | None = None
    served: float | None = None
    served_half: float | None = None
    never_back = 0
    if killed:
        back = {int(slot): at for t in tallies for slot, at in t["back_after_kill"].items()}
        playing = {slot for t in tallies for slot in t["playing_at_kill"]}
        waits = [back[slot] - kill_at.value for slot in playing if slot in back]
        never_back = len(playing) - len(waits)
        failover = max(waits) if waits else None
        again = [at - kill_at.value for t in tallies for at in t["served_after_kill"].values()]
        served = max(again) if again else None
        served_half = statistics.median(again) if again else None
    return {
        "side": side.label,
        "round": round_index + 1,
        "moves_per_s": moves / args.duration,
        "cpu_us_per_move": None if killed or not moves else 1e6 * (cpu_after - cpu_before) / moves,
        "p50": statistics.median(latencies) if latencies else float("nan"),
        "p99": percentile(latencies, 0.99),
        "games": sum(t["games"] for t in tallies),
        "acknowledged_moves": [tuple(m) for t in tallies for m in t["acknowledged"]],
        "reconnects": sum(t["reconnects"] for t in tallies),
        "clients_cpu": 100 * (clients_after - clients_before) / args.duration,
        "errors": errors,
        "failover": failover,
        "served": served,
        "served_half": served_half,
        "never_back": never_back,
    }


def lifted_guards(source: Path) -> list[str]:
    """``--guard`` settings lifting the per-address caps, for code that has them: every
    player of the load comes from one address."""
    if not has_guards(source):
        return []
    return [arg for guard in LIFTED_GUARDS for arg in ("--guard", guard)]


def kill_one(server: ServerProcess, restart: bool, url: str) -> ServerProcess:
    """``kill -9`` ``server`` (and its bot workers); with no other process to fail over to, the
    same server started again on its port and database, without waiting for it."""
    server.kill()
    if not restart:
        return server
    return ServerProcess(
        url,
        server.port,
        "--bot-workers",
        "0",
        *lifted_guards(server.source),
        source=server.source,
        log_level="warning",
        log=server.log_path.with_suffix(".restarted.log"),
        wait=False,
    )


# -- output ------------------------------------------------------------------------------------


def show_rounds(results: list[Result], console: Console) -> None:
    table = Table(title="every run")
    for name in (
        "round", "code", "moves/s", "µs CPU/move", "p50 ms", "p99 ms", "acked", "not stored",
        "failover s", "served s",
    ):  # fmt: skip
        table.add_column(name, justify="left" if name == "code" else "right")
    for r in results:
        table.add_row(
            str(r.round),
            r.side,
            f"{r.moves_per_s:.0f}",
            "—" if r.cpu_us_per_move is None else f"{r.cpu_us_per_move:,.0f}",
            f"{r.p50:.1f}",
            f"{r.p99:.1f}",
            str(r.acknowledged),
            str(r.not_stored),
            "—" if r.failover is None else f"{r.failover:.1f}",
            "—" if r.served is None else f"{r.served:.1f}",
        )
    console.print(table)
    for r in results:
        errors = ", ".join(f"{k} {v}" for k, v in sorted(r.errors.items())) or "none"
        console.print(
            f"round {r.round} {r.side}: {r.games} games finished, {r.reconnects} reconnections, "
            f"clients at {r.clients_cpu:.0f}% of a core, errors: {errors}"
            + (f"; {r.never_back} tables never played again" if r.never_back else "")
            + (
                f"; half the tables cut off served again within {r.served_half:.2f} s"
                if r.served_half is not None
                else ""
            )
        )


def median_of(results: list[Result], side: str, attribute: str) -> float:
    values = [getattr(r, attribute) for r in results if r.side == side]
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else float("nan")


def paired_ratios(results: list[Result], base: str, this: str, attribute: str) -> list[float]:
    """``this`` over ``base`` within each round: the two runs of a round are back to back, so
    a machine that speeds up or slows down between rounds (this one varies by ±20% over
    minutes) moves both and their ratio far less than either median."""
    by_round: dict[int, dict[str, float]] = {}
    for r in results:
        value = getattr(r, attribute)
        if value is not None:
            by_round.setdefault(r.round, {})[r.side] = value
    return [
        pair[this] / pair[base] for pair in by_round.values() if pair.get(base) and this in pair
    ]


def show_side_by_side(results: list[Result], sides: list[Side], console: Console) -> None:
    base, this = sides[0].label, sides[-1].label
    table = Table(title=f"median of {len(results) // len(sides)} rounds each")
    table.add_column("")
    for side in sides:
        table.add_column(side.label, justify="right")
    table.add_column(f"{this} / {base}", justify="right")
    table.add_column("per round: median (range)", justify="right")
    for name, attribute, form in (
        ("moves/s", "moves_per_s", "{:,.0f}"),
        ("µs server CPU per move", "cpu_us_per_move", "{:,.0f}"),
        ("reply p50 ms", "p50", "{:.1f}"),
        ("reply p99 ms", "p99", "{:.1f}"),
    ):
        values = [median_of(results, side.label, attribute) for side in sides]
        ratios = paired_ratios(results, base, this, attribute)
        table.add_row(
            name,
            *(form.format(v) for v in values),
            f"{values[-1] / values[0]:.2f}" if values[0] else "—",
            f"{statistics.median(ratios):.2f} ({min(ratios):.2f}–{max(ratios):.2f})"
            if ratios
            else "—",
        )
    console.print(table)
    console.print(
        "A difference smaller than the per-round range is within the machine's noise: "
        "run more rounds before believing it."
    )


def plot(results: list[Result], sides: list[Side], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, 2, figsize=(10, 4), constrained_layout=True)
    for axis, attribute, label in (
        (axes[0], "moves_per_s", "moves/s acknowledged"),
        (axes[1], "cpu_us_per_move", "µs of server CPU per move"),
    ):
        for side in sides:
            mine = [
                r for r in results if r.side == side.label and getattr(r, attribute) is not None
            ]
            axis.plot(
                [r.round for r in mine],
                [getattr(r, attribute) for r in mine],
                "o-",
                label=side.label,
            )
        axis.set_xlabel("round")
        axis.set_ylabel(label)
        axis.set_ylim(bottom=0)
        axis.xaxis.get_major_locator().set_params(integer=True)
        axis.legend()
    figure.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--preset", choices=sorted(PRESETS), help="the issue's standard loads")
    parser.add_argument("--tables", type=int, help="concurrent tables (default 200)")
    parser.add_argument("--think", type=float, help="mean seconds before acting (default 1.0)")
    parser.add_argument("--duration", type=float, default=60.0, help="measured seconds a run")
    parser.add_argument(
        "--warmup",
        type=float,
        default=120.0,
        help="measuring starts once every table plays, or after this many seconds at the latest",
    )
    parser.add_argument("--clients", type=int, default=1, help="client processes")
    parser.add_argument(
        "--database", help="a PostgreSQL server's URL: each run gets a new database on it"
    )
    parser.add_argument("--workers", type=int, default=1, help="server processes, a port each")
    parser.add_argument(
        "--kill-after", type=float, help="kill -9 the first server this far into the window"
    )
    parser.add_argument("--against", metavar="REV", help="an older commit to run side by side")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each side, alternately")
    parser.add_argument("--plot", metavar="FILE", help="draw the rounds (PNG)")
    args = parser.parse_args()
    preset = PRESETS.get(args.preset or "", {})
    args.tables = args.tables if args.tables is not None else preset.get("tables", 200)
    args.think = args.think if args.think is not None else preset.get("think", 1.0)
    if args.workers > 1 and not args.database:
        parser.error("--workers above 1 needs --database (PostgreSQL)")
    console = Console()

    def on_term(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt  # clean up (servers, the temporary worktree) as on Ctrl-C

    signal.signal(signal.SIGTERM, on_term)
    with contextlib.ExitStack() as stack:
        sides = [Side(describe(SOURCE.parent), SOURCE)]
        if args.against:
            tree = stack.enter_context(checkout(args.against))
            sides.insert(0, Side(describe(REPOSITORY, args.against), tree / "src"))
        work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="otherside-load-")))
        console.print(
            f"{args.tables} tables, think {args.think} s, {args.duration:.0f} s measured after "
            f"{args.warmup:.0f} s, {args.workers} server process(es) on "
            f"{'PostgreSQL' if args.database else 'SQLite'}, {args.clients} client process(es), "
            f"load average {os.getloadavg()[0]:.1f}"
        )
        results: list[Result] = []
        for round_index in range(args.rounds):
            # Alternate which side goes first, so that neither always meets a warmer machine.
            order = sides if round_index % 2 == 0 else sides[::-1]
            for side in order:
                result = one_run(side, round_index, args, work, console)
                results.append(result)
                console.print(
                    f"round {result.round} {result.side}: {result.moves_per_s:.0f} moves/s, "
                    + (
                        "server CPU n/a (killed)"
                        if result.cpu_us_per_move is None
                        else f"{result.cpu_us_per_move:,.0f} µs server CPU/move"
                    )
                    + f", p50 {result.p50:.1f} ms, p99 {result.p99:.1f} ms, "
                    f"{result.not_stored} of {result.acknowledged} acknowledged moves not stored"
                )
    show_rounds(results, console)
    if len(sides) > 1:
        show_side_by_side(results, sides, console)
    lost = sum(r.not_stored for r in results)
    console.print(
        f"durability: {sum(r.acknowledged for r in results)} acknowledged moves, "
        + ("every one stored" if not lost else f"[red]{lost} NOT stored")
    )
    if args.plot:
        plot(results, sides, args.plot)
        console.print(f"plot: {args.plot}")


if __name__ == "__main__":
    main()
