"""Solo Verso: every bot on the same seeded piles, against the clairvoyant ceiling.

Prints, per bot: the mean score over the seeded solo games, the shares at 50+, 60+ and 65+ (the
designers' record is 64), the median decision time; and the exact clairvoyant ceiling (every face
known) on the same piles (all of them unless ``--ceiling-games`` says fewer; a few seconds per pile
on one core), with each bot's gap to it.

    PYTHONPATH=src python benchmarks/verso_bots.py --bots random,greedy,planner
"""

from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from otherside.bots.simulate import SimSpec, parse_seats, simulate, summarize
from otherside.bots.verso_solver import clairvoyant_score
from otherside.core.rng import derive_seed
from otherside.games import verso

MARKS = (50, 60, 65)


def _ceiling(seed: int) -> tuple[int, float]:
    start = time.perf_counter()
    score = clairvoyant_score(verso.new_game(1, seed=seed).table.pile)
    return score, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--bots", default="random,greedy,planner,ismcts")
    parser.add_argument(
        "--ceiling-games",
        type=int,
        default=None,
        help="piles solved exactly, the first ones (default: all; about 5-20 s each)",
    )
    args = parser.parse_args()
    console = Console()
    rows = []
    per_bot: dict[str, list[int]] = {}
    for seat in parse_seats(args.bots):
        spec = SimSpec("verso", (seat,), args.seed)
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task(f"{seat.label}: solo games", total=args.games)
            results = simulate(
                spec,
                args.games,
                workers=args.workers,
                on_result=lambda _, task=task: progress.advance(task),  # type: ignore[misc]
            )
        summary = summarize(spec, results)
        scores = [r.scores[0] for r in results]
        per_bot[seat.label] = scores
        shares = [sum(s >= m for s in scores) / len(scores) for m in MARKS]
        rows.append(
            (
                seat.label,
                summary["mean_scores"][0],
                summary["sd_scores"][0],
                shares,
                summary["median_decision_ms"][0],
            )
        )
        console.print(f"{seat.label}: mean {summary['mean_scores'][0]:.2f}")
    table = Table(title=f"solo Verso, {args.games} seeded games (seed {args.seed})")
    for title in ("bot", "mean", "sd", *(f"{m}+" for m in MARKS), "median decision"):
        table.add_column(title, justify="right")
    for label, mean, sd, shares, ms in rows:
        table.add_row(
            label, f"{mean:.2f}", f"{sd:.2f}", *(f"{100 * s:.1f}%" for s in shares), f"{ms:.2f} ms"
        )
    console.print(table)
    k = args.games if args.ceiling_games is None else min(args.ceiling_games, args.games)
    if k <= 0:
        return
    seeds = [derive_seed(args.seed, "game", i) for i in range(k)]
    ceilings: list[int] = []
    times: list[float] = []
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("clairvoyant solver", total=k)
        with ProcessPoolExecutor(args.workers) as pool:
            for score, seconds in pool.map(_ceiling, seeds):
                ceilings.append(score)
                times.append(seconds)
                progress.advance(task)
    console.print(
        f"clairvoyant ceiling (exact) on the first {k} piles: "
        f"mean {statistics.fmean(ceilings):.2f} (min {min(ceilings)}, max {max(ceilings)}; "
        f"solve median {statistics.median(times):.1f} s, max {max(times):.1f} s)"
    )
    for label, scores in per_bot.items():
        mean = statistics.fmean(scores[:k])
        console.print(
            f"  {label}: mean {mean:.2f} on those piles, {statistics.fmean(ceilings) - mean:.2f}"
            " below the ceiling"
        )


if __name__ == "__main__":
    main()
