"""Faults under load: does any table freeze, is any acknowledged move lost?

Starts a throwaway PostgreSQL cluster, ``--workers`` table server processes on it (a port each,
as hosts behind a load balancer) and ``--tables`` tables of two guests playing random Verso
actions (every ``--bot-every``-th table one guest against the random bot, whose turns the
server plays). Once every table plays, a fault every ``--every`` seconds, in turn:

- ``kill``: ``kill -9`` of a server process (with its bot workers), started again on its port;
- ``restart``: PostgreSQL stopped at once (``immediate``, as a crash) and started again;
- ``drop``: every server connection ended by PostgreSQL (``pg_terminate_backend``);

each fault ``--every`` seconds after the previous one is over, then a quiet tail of ``--tail``
seconds. A server process that exits on its own is started again, as a supervisor (systemd)
would, and said so. It prints, for each fault, how long until every table
that was playing acknowledged a move again; the tables *frozen* (no move acknowledged in the
tail's second half, although every fault is over by then); and every acknowledged move checked
against the database. ``--plot FILE`` draws the moves per second with the faults marked.

    python benchmarks/chaos.py --workers 2 --tables 60 --faults 9 --every 8 --plot chaos.png
"""

from __future__ import annotations

import argparse
import itertools
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from cluster_rig import Postgres, cleaned_up
from load_tables import lifted_guards, stored_moves
from otherside.testing.servers import SOURCE, ServerProcess
from table_players import start_crowd

KINDS = ("kill", "restart", "drop")
DATABASE = "chaos"
PLAYING_BEFORE = 3.0  # a table acknowledged a move this close before a fault: it was playing


@dataclass
class Fault:
    kind: str
    at: float  # monotonic, when it began
    over: float  # when it was over (PostgreSQL up again, the process restarted)
    detail: str
    back: float | None = None  # s until every table playing at the fault moved again
    not_back: int = 0  # tables playing at the fault that did not move again before the next


def serve(url: str, port: int | None, logs: Path, index: int) -> ServerProcess:
    return ServerProcess(
        url,
        port,
        "--bot-workers",
        "1",
        *lifted_guards(SOURCE),
        log_level="warning",
        log=logs / f"serve{index}-{time.monotonic():.0f}.log",
        wait=False,
    )


def inject(
    kind: str,
    pg: Postgres,
    servers: list[ServerProcess],
    url: str,
    logs: Path,
    k: int,
    killed: set[int],
) -> str:
    """One fault; what it did, in words."""
    if kind == "kill":
        index = k % len(servers)
        old = servers[index]
        killed.add(old.pid)
        old.kill()
        servers[index] = serve(url, old.port, logs, index)
        return f"process {index + 1} killed (pid {old.pid}), started again"
    if kind == "restart":
        began = time.monotonic()
        pg.restart(down=1.0)
        return f"PostgreSQL down {time.monotonic() - began:.1f} s"
    dropped = pg.drop_connections(DATABASE)
    return f"{dropped} connections dropped"


def recoveries(faults: list[Fault], times: dict[int, list[float]], end: float) -> None:
    """Fill each fault's ``back`` (from the fault's end) and ``not_back`` from the tables'
    acknowledgement times."""
    for index, fault in enumerate(faults):
        until = faults[index + 1].at if index + 1 < len(faults) else end
        waits: list[float] = []
        for stamps in times.values():
            if not any(fault.at - PLAYING_BEFORE <= t <= fault.at for t in stamps):
                continue
            after = [t for t in stamps if fault.over < t <= until]
            if after:
                waits.append(min(after) - fault.over)
            else:
                fault.not_back += 1
        fault.back = max(waits) if waits else None


def plot(times: dict[int, list[float]], faults: list[Fault], start: float, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    stamps = sorted(t - start for ts in times.values() for t in ts)
    if not stamps:
        return
    width = int(stamps[-1]) + 1
    per_second = [0] * width
    for t in stamps:
        per_second[int(t)] += 1
    figure, axis = plt.subplots(figsize=(10, 3.5), constrained_layout=True)
    axis.plot(range(width), per_second, color="#444")
    colours = {"kill": "#c0392b", "restart": "#2f6db5", "drop": "#d68910"}
    for kind in KINDS:
        marks = [f.at - start for f in faults if f.kind == kind]
        for x in marks:
            axis.axvline(x, color=colours[kind], linestyle="--", linewidth=1)
        axis.plot([], [], color=colours[kind], linestyle="--", label=kind)
    axis.set_xlabel("seconds")
    axis.set_ylabel("moves acknowledged per second")
    axis.set_ylim(bottom=0)
    axis.legend(loc="lower right")
    figure.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--workers", type=int, default=2, help="server processes")
    parser.add_argument("--tables", type=int, default=60, help="concurrent tables")
    parser.add_argument("--think", type=float, default=0.3, help="mean seconds before acting")
    parser.add_argument("--bot-every", type=int, default=4, help="every k-th table: a bot")
    parser.add_argument("--faults", type=int, default=9, help="faults, kill/restart/drop in turn")
    parser.add_argument("--every", type=float, default=8.0, help="seconds between faults")
    parser.add_argument("--tail", type=float, default=20.0, help="quiet seconds at the end")
    parser.add_argument("--warmup", type=float, default=60.0, help="at most, before the first")
    parser.add_argument("--clients", type=int, default=1, help="client processes")
    parser.add_argument("--plot", metavar="FILE", help="moves per second with the faults (PNG)")
    parser.add_argument(
        "--logs", default="/tmp/otherside-chaos", help="where the servers' logs are kept"
    )
    args = parser.parse_args()
    console = Console()
    duration = args.every * args.faults + args.tail
    with cleaned_up() as undo:
        pg = Postgres(console)
        undo.append(pg.stop)
        pg.start([])
        pg.sql(f"CREATE DATABASE {DATABASE}")
        url = pg.url(DATABASE)
        logs = Path(args.logs)
        shutil.rmtree(logs, ignore_errors=True)
        logs.mkdir(parents=True)
        servers = [serve(url, None, logs, index) for index in range(args.workers)]
        undo.append(lambda: [server.stop() for server in servers])
        for server in servers:
            server.wait_up()
        console.print(
            f"{args.tables} tables (every {args.bot_every}th against a bot), think {args.think} s, "
            f"{args.workers} server processes on PostgreSQL, {args.faults} faults every "
            f"{args.every:.0f} s, then {args.tail:.0f} s quiet; load average "
            f"{os.getloadavg()[0]:.1f}"
        )
        crowd = start_crowd(
            [server.url for server in servers],
            args.tables,
            args.clients,
            args.think,
            args.warmup,
            duration,
            extendable=True,
            bot_every=args.bot_every,
            keep_times=True,
        )
        clients, window, playing = crowd.processes, crowd.window, crowd.playing
        undo.append(lambda: [c.terminate() for c in clients if c.is_alive()])
        began = window.start.value = time.monotonic()
        faults: list[Fault] = []
        killed: set[int] = set()  # our kills, not exits
        exits: list[str] = []
        kinds = itertools.cycle(KINDS)
        with Progress(
            TextColumn("{task.fields[phase]}"),
            BarColumn(),
            TextColumn("{task.fields[moves]} moves"),
            TimeRemainingColumn(),
            console=console,
            transient=True,
        ) as progress:
            bar = progress.add_task("chaos", total=1.0, moves=0, phase="warm-up")
            while time.monotonic() < window.deadline:
                time.sleep(0.1)
                now = time.monotonic()
                if not window.begin.value and playing.value >= args.tables:
                    window.begin.value = now
                for index, server in enumerate(servers):
                    code = server.process.poll()
                    if code is not None and server.pid not in killed:
                        # Exited on its own (a start that met the database down): a supervisor
                        # starts it again.
                        killed.add(server.pid)
                        servers[index] = serve(url, server.port, logs, index)
                        when = now - window.measure_from
                        exits.append(f"{when:5.1f} s  process {index + 1} exited ({code})")
                        progress.console.print(f"{exits[-1]}, started again")
                due = (faults[-1].over if faults else window.measure_from) + args.every
                if now >= window.measure_from and len(faults) < args.faults and now >= due:
                    kind = next(kinds)
                    at = time.monotonic()
                    detail = inject(kind, pg, servers, url, logs, len(faults), killed)
                    faults.append(Fault(kind, at, time.monotonic(), detail))
                    # The next fault and the tail count from this one's end.
                    assert window.extra is not None
                    window.extra.value += faults[-1].over - faults[-1].at
                    progress.console.print(f"{at - window.measure_from:5.1f} s  {kind}: {detail}")
                progress.update(
                    bar,
                    total=window.deadline - began,
                    completed=now - began,
                    moves=sum(v.value for v in crowd.progress),
                    phase=f"{len(faults)} of {args.faults} faults"
                    if now >= window.measure_from
                    else f"warm-up, {playing.value} tables playing",
                )
        tallies = [crowd.results.get(timeout=60 + 3 * args.think) for _ in clients]
        for client in clients:
            client.join(timeout=5)
        stored = stored_moves(url)
    times: dict[int, list[float]] = {}
    for tally in tallies:
        for slot, stamps in tally["ack_times"].items():
            times[int(slot)] = stamps
    end = window.deadline
    recoveries(faults, times, end)
    for line in exits:
        console.print(f"{line}: started again by the benchmark, as a supervisor would")
    console.print(f"the servers' logs: {args.logs}")
    report(args, faults, tallies, times, stored, end, console)
    if args.plot:
        plot(times, faults, window.measure_from, args.plot)
        console.print(f"plot: {args.plot}")


def report(
    args: argparse.Namespace,
    faults: list[Fault],
    tallies: list[dict[str, Any]],
    times: dict[int, list[float]],
    stored: dict[tuple[str, int], str],
    end: float,
    console: Console,
) -> None:
    table = Table(title="faults")
    for name in ("#", "fault", "what", "every table back after its end", "not back"):
        table.add_column(name, justify="left" if name in ("fault", "what") else "right")
    for index, fault in enumerate(faults, 1):
        table.add_row(
            str(index),
            fault.kind,
            fault.detail,
            "—" if fault.back is None else f"{fault.back:.1f} s",
            str(fault.not_back),
        )
    console.print(table)
    quiet_from = end - args.tail / 2
    frozen = sorted(
        slot for slot in range(args.tables) if not any(t >= quiet_from for t in times.get(slot, []))
    )
    acknowledged = [tuple(m) for t in tallies for m in t["acknowledged"]]
    wrong = [
        (table_id, number, action, stored.get((table_id, number)))
        for table_id, number, action in acknowledged
        if stored.get((table_id, number)) != action
    ]
    lost = len(wrong)
    for table_id, number, action, found in wrong[:10]:
        console.print(
            f"  table {table_id} move {number}: acknowledged {action!r}, stored {found!r}"
        )
    errors: dict[str, int] = {}
    for tally in tallies:
        for kind, count in tally["errors"].items():
            errors[kind] = errors.get(kind, 0) + count
    console.print(
        f"games finished {sum(t['games'] for t in tallies)}, reconnections "
        f"{sum(t['reconnects'] for t in tallies)}, client errors: "
        + (", ".join(f"{k} {v}" for k, v in sorted(errors.items())) or "none")
    )
    console.print(
        ("[green]no table frozen" if not frozen else f"[red]{len(frozen)} tables frozen: {frozen}")
        + f" (every table moved in the last {args.tail / 2:.0f} s)" * (not frozen)
    )
    console.print(
        f"durability: {len(acknowledged)} acknowledged moves, "
        + ("every one stored" if not lost else f"[red]{lost} NOT stored")
    )
    steps = {int(k): v for t in tallies for k, v in t["last_step"].items()}
    for slot in frozen:
        console.print(
            f"  table pair {slot}: last step at {steps.get(slot, 'none')} (the end at {end:.1f})"
        )
    if frozen or lost:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
