"""Recto Verso solver speed over the 64 standard cards: median and worst time to one solution,
and to count solutions up to a limit.

Usage: PYTHONPATH=src python benchmarks/rectoverso_solver.py [--count-limit 1000]
Target (issue 5): every standard card solved, median < 1 s, worst < 10 s, on one core.
"""

from __future__ import annotations

import argparse
import statistics
import time

from rich.progress import track

from otherside.games.rectoverso.cards import matches, standard_cards
from otherside.games.rectoverso.solver import Solver


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count-limit", type=int, default=1000, help="solutions to count")
    args = parser.parse_args()
    solve_times: dict[int, float] = {}
    count_times: dict[int, float] = {}
    counts: dict[int, int] = {}
    solved = 0
    for card in track(standard_cards(), description="solving the 64 standard cards"):
        number = card.number or 0
        start = time.perf_counter()
        solution = Solver(card).solve()
        solve_times[number] = time.perf_counter() - start
        solved += solution is not None and matches(solution, card)
        start = time.perf_counter()
        counts[number] = Solver(card).count(args.count_limit)
        count_times[number] = time.perf_counter() - start
    worst = max(solve_times, key=solve_times.__getitem__)
    print(f"solved {solved}/64 standard cards (each checked by R10)")
    print(
        f"one solution: median {statistics.median(solve_times.values()) * 1000:.1f} ms, "
        f"worst {solve_times[worst] * 1000:.1f} ms (card {worst}), "
        f"total {sum(solve_times.values()):.2f} s"
    )
    worst_count = max(count_times, key=count_times.__getitem__)
    unique = sum(1 for n in counts.values() if n == 1)
    median_ms = statistics.median(count_times.values()) * 1000
    worst_ms = count_times[worst_count] * 1000
    many = sum(1 for n in counts.values() if n >= args.count_limit)
    print(
        f"count up to {args.count_limit}: median {median_ms:.1f} ms, "
        f"worst {worst_ms:.1f} ms (card {worst_count}); cards with a unique solution: {unique}, "
        f"with >= {args.count_limit}: {many}, median count {statistics.median(counts.values()):.0f}"
    )


if __name__ == "__main__":
    main()
