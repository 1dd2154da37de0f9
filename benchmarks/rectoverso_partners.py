"""Recto Verso: human-free tables of two bot partners, each acting only on its own view.

Each table is one round on one standard card: the round of a 3-player game (R13), so that the
card gets R14's 120 s and no level's shorter limit cuts it. Only the two builders act, as they
would at a real table: at will, each about once every ``--pace`` seconds (each gap drawn
uniformly between half and one and a half times the pace, the first one from 0), their actions
interleaved in time order. The game's clock is injected and reads the table's simulated time,
so the stamps, the view's clock and R14's limit are the engine's own. Every decision is made by
a fresh bot from ``GAME.view(state, seat)`` and ``state.legal_actions_of(seat)``, as the server
does. A table ends when both builders have said done (matched or not) or at 120 s.

Prints, per difficulty and bot: the share of tables that match within 120 s (95% Wilson
interval), within each R16 level limit, the median and mean seconds and builder actions to a
match, how the others ended, and the CPU time per decision (median, p99, max).

    PYTHONPATH=src python benchmarks/rectoverso_partners.py --trials 8 --plot partners.png
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, cast

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from otherside.bots import make_bot
from otherside.core.rng import derive_seed
from otherside.games.rectoverso import GAME, RectoVersoGame
from otherside.games.rectoverso.cards import standard_cards
from otherside.games.rectoverso.flow import LEVEL_LIMITS, ROUND_LIMIT
from otherside.games.rectoverso.notation import Action
from otherside.simulate import SeatSpec, wilson


class SimulatedClock:
    """The table's time, which the harness moves forward action by action."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@dataclass(frozen=True)
class Table_:
    """One finished table."""

    bot: str
    difficulty: str
    card: int
    matched: bool
    reason: str
    seconds: float
    actions: int
    cpu: tuple[float, ...]  # seconds of CPU per decision
    wall: tuple[float, ...]


def play_table(bot: str, card: int, difficulty: str, trial: int, seed: int, pace: float) -> Table_:
    """One round of ``card`` by two ``bot`` partners (see the module docstring)."""
    spec = SeatSpec.parse(bot)
    table_seed = derive_seed(seed, "rectoverso-partners", card, trial)
    rng = random.Random(table_seed)
    clock = SimulatedClock()
    game = RectoVersoGame(clock=clock)
    options = {"difficulty": difficulty, "deck": [card]}
    state = game.new_state(3, seed=table_seed, options=options).apply("turn")
    builders = state.builders
    due = {seat: rng.uniform(0, pace) for seat in builders}
    cpu: list[float] = []
    wall: list[float] = []
    actions = 0
    while state.phase == "build":
        seat = min((s for s in builders if s not in state.done), key=due.__getitem__)
        clock.now = due[seat]
        legal = state.legal_actions_of(seat)
        view = GAME.view(state, seat)
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        bot_now = make_bot("rectoverso", spec.name, **dict(spec.options))
        action = cast(Action, bot_now.choose(view, legal, rng))
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start_wall)
        state = state.apply_as(seat, action)
        actions += 1
        due[seat] += rng.uniform(pace / 2, 1.5 * pace)
    result = state.results[-1]
    return Table_(
        bot, difficulty, card, result.matched, result.reason, result.seconds, actions,
        tuple(cpu), tuple(wall),
    )  # fmt: skip


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summarize(tables: list[Table_]) -> dict[str, Any]:
    """The figures of one bot at one difficulty (or all of them)."""
    n = len(tables)
    won = [t for t in tables if t.matched]
    share = len(won) / n
    cpu = [c for t in tables for c in t.cpu]
    wall = [w for t in tables for w in t.wall]
    endings = Counter(
        "conceded (both done, no match)" if t.reason == "both done" else t.reason
        for t in tables
        if not t.matched
    )
    return {
        "tables": n,
        "matched": len(won),
        "share": share,
        "ci": wilson(share, n),
        "within": {limit: sum(t.seconds <= limit for t in won) / n for limit in LEVEL_LIMITS},
        "seconds": [t.seconds for t in won],
        "actions": [t.actions for t in won],
        "endings": endings,
        "cpu_ms": (1000 * statistics.median(cpu), 1000 * _percentile(cpu, 0.99), 1000 * max(cpu)),
        "wall_ms": (1000 * statistics.median(wall), 1000 * _percentile(wall, 0.99)),
        "never": sorted({t.card for t in tables} - {t.card for t in won}),
    }


def render(console: Console, rows: list[tuple[str, str, dict[str, Any]]], pace: float) -> None:
    """One column per bot and difficulty, one row per figure."""
    table = Table(title=f"Two bot partners, one action per {pace:g} s each (simulated)")
    table.add_column("")
    for bot, difficulty, _ in rows:
        table.add_column(f"{bot}\n{difficulty}", justify="right")

    def line(label: str, cell: Any) -> None:
        table.add_row(label, *(cell(s) for _, _, s in rows))

    def mid(values: list[float], digits: int) -> str:
        if not values:
            return "-"
        return f"{statistics.median(values):.{digits}f} / {statistics.mean(values):.1f}"

    line("tables", lambda s: str(s["tables"]))
    line(
        f"matched within {ROUND_LIMIT:g} s (R14)",
        lambda s: f"{100 * s['share']:.1f}%",
    )
    line("  95% interval", lambda s: "{:.1f}-{:.1f}%".format(*(100 * v for v in s["ci"])))
    for number, limit in enumerate(LEVEL_LIMITS, start=1):
        line(
            f"within {limit:g} s (level {number})",
            lambda s, x=limit: f"{100 * s['within'][x]:.1f}%",
        )
    line("seconds to a match, median / mean", lambda s: mid(s["seconds"], 1))
    line("actions to a match, median / mean", lambda s: mid(s["actions"], 0))
    line("CPU ms per decision, median", lambda s: f"{s['cpu_ms'][0]:.1f}")
    line("  p99 / max", lambda s: "{:.1f} / {:.0f}".format(*s["cpu_ms"][1:]))
    line("wall ms per decision, median / p99", lambda s: "{:.1f} / {:.1f}".format(*s["wall_ms"]))
    console.print(table)
    for bot, difficulty, s in rows:
        endings = ", ".join(f"{count} {why}" for why, count in s["endings"].most_common()) or "none"
        never = ", ".join(map(str, s["never"])) or "none"
        console.print(f"{bot} {difficulty}: unmatched: {endings}; cards never matched: {never}")


def plot(path: str, groups: dict[tuple[str, str], list[Table_]]) -> None:
    """Share of tables matched by each second, one line per bot and difficulty."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(8, 4.5))
    seconds = [s / 2 for s in range(0, 2 * int(ROUND_LIMIT) + 1)]
    for (bot, difficulty), tables in groups.items():
        done = sorted(t.seconds for t in tables if t.matched)
        shares = [sum(d <= s for d in done) / len(tables) for s in seconds]
        axes.plot(seconds, [100 * v for v in shares], label=f"{bot}, {difficulty}")
    for limit in LEVEL_LIMITS:
        axes.axvline(limit, color="grey", linewidth=0.6, linestyle=":")
    axes.set_xlabel("seconds into the round (simulated)")
    axes.set_ylabel("tables with a matching construction (%)")
    axes.set_ylim(0, 100)
    axes.set_xlim(0, ROUND_LIMIT)
    axes.set_title("Two bot partners, each seeing only its side (dotted: R16 level limits)")
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=8, help="tables per card")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pace", type=float, default=2.0, help="seconds per action per bot")
    parser.add_argument("--difficulty", default="easy,hard")
    parser.add_argument("--bots", default="partner", help="seat specs, e.g. partner:shake=0")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--plot", help="PNG path for the share matched by each second")
    args = parser.parse_args()
    console = Console()
    jobs = [
        (bot, card.number or 0, difficulty, trial, args.seed, args.pace)
        for bot in args.bots.split(",")
        for difficulty in args.difficulty.split(",")
        for card in standard_cards(difficulty)
        for trial in range(args.trials)
    ]
    groups: dict[tuple[str, str], list[Table_]] = {}
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("tables", total=len(jobs))
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            for table in pool.map(play_table, *zip(*jobs, strict=True), chunksize=16):
                groups.setdefault((table.bot, table.difficulty), []).append(table)
                progress.advance(task)
    for bot in args.bots.split(","):
        mine = {d: tables for (b, d), tables in groups.items() if b == bot}
        rows = [(bot, difficulty, summarize(tables)) for difficulty, tables in mine.items()]
        if len(mine) > 1:
            rows.append((bot, "all", summarize([t for tables in mine.values() for t in tables])))
        render(console, rows, args.pace)
    if args.plot:
        plot(args.plot, groups)
        console.print(f"plot: {args.plot}")


if __name__ == "__main__":
    main()
