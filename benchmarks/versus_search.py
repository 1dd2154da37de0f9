"""Strength of the VERSUS search bot: win rate against an opponent and time per ply.

    python benchmarks/versus_search.py [--games 200] [--think 1.0] [--workers 2] [--seed 1]
                                       [--opponent greedy]

Plays ``--games`` seeded games through the shared simulator (``otherside.simulate``):
colours alternate from game to game, game ``i`` is the same in every run with the same seed
(the search bot's choices depend on the machine's speed, so only nearly). Prints the search
bot's wins, draws and losses with a 95% interval, its median and 90th-percentile time per ply,
and the mean game length. The target: at least 80% wins against ``greedy`` at 1 s per ply.
"""

from __future__ import annotations

import argparse
import statistics
import time

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from otherside.simulate import SeatSpec, SimSpec, simulate, summarize


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--think", type=float, default=1.0, help="search seconds per ply")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponent", default="greedy")
    args = parser.parse_args()
    console = Console()
    spec = SimSpec(
        game="versus",
        seats=(SeatSpec("search", (("think", args.think),)), SeatSpec.parse(args.opponent)),
        seed=args.seed,
        rotate=True,
    )
    start = time.perf_counter()
    with Progress(
        TextColumn("[bold]versus games"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
    ) as progress:
        task = progress.add_task("games", total=args.games)
        results = simulate(
            spec, args.games, workers=args.workers, on_result=lambda _: progress.advance(task)
        )
    elapsed = time.perf_counter() - start
    summary = summarize(spec, results)
    wins = sum(1 for r in results if r.wins[0] == 1.0)
    draws = sum(1 for r in results if r.wins[0] == 0.5)
    losses = len(results) - wins - draws
    low, high = summary["win_ci95"][0]
    times = sorted(t for r in results for t in r.decisions[0])
    p90 = times[int(0.9 * (len(times) - 1))]
    console.print(
        f"search (think {args.think} s) vs {args.opponent}: {len(results)} games, seed "
        f"{args.seed}, colours alternated, {args.workers} worker(s), {elapsed / 60:.1f} min"
    )
    console.print(
        f"  wins {wins} ({100 * wins / len(results):.1f}%), draws {draws}, losses {losses}; "
        f"win share (draws count half) {100 * summary['win_share'][0]:.1f}% "
        f"[95% CI {100 * low:.0f}–{100 * high:.0f}%]"
    )
    console.print(
        f"  search time per ply: median {1000 * statistics.median(times):.0f} ms, "
        f"90th percentile {1000 * p90:.0f} ms; mean game length {summary['mean_length']:.1f} "
        f"plies; mean score {summary['mean_scores'][0]:.2f} vs {summary['mean_scores'][1]:.2f}"
    )


if __name__ == "__main__":
    main()
