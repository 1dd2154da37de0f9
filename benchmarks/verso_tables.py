"""Four-player Verso: one ``ismcts`` against three ``greedy``, seats rotated, seeded games.

PYTHONPATH=src python benchmarks/verso_tables.py --games 200 --workers 2
"""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.progress import Progress

from otherside.cli.simulate import render_summary
from otherside.simulate import SimSpec, parse_seats, simulate, summarize


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seats", default="ismcts,greedy,greedy,greedy")
    args = parser.parse_args()
    console = Console()
    spec = SimSpec("verso", tuple(parse_seats(args.seats)), args.seed, rotate=True)
    with Progress(console=console) as progress:
        task = progress.add_task("4-player games", total=args.games)
        results = simulate(
            spec, args.games, workers=args.workers, on_result=lambda _: progress.advance(task)
        )
    summary = summarize(spec, results)
    render_summary(console, summary)
    low, high = summary["win_ci95"][0]
    console.print(
        f"{summary['seats'][0]} win share {100 * summary['win_share'][0]:.1f}% "
        f"(95% CI {100 * low:.1f}-{100 * high:.1f}%; parity is {100 / spec.players:.0f}%)"
    )


if __name__ == "__main__":
    main()
