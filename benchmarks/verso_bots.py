"""Solo Verso: every bot on the same seeded piles, against the clairvoyant ceiling.

Prints, per bot: the mean score over the seeded solo games, the shares at 50+, 60+ and 65+ (the
designers' record is 64), the median decision time; and the exact clairvoyant ceiling (every face
known) on the same piles (all of them unless ``--ceiling-games`` says fewer), with each bot's mean
on those piles and its gap to the ceiling.

A ceiling depends only on its pile, so solved piles are kept in a JSON cache (``--ceiling-cache``,
keyed by the pile's notation) and a second run, or an interrupted one, only solves the rest.

    PYTHONPATH=src python benchmarks/verso_bots.py --bots random,greedy,expert
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from platformdirs import user_cache_dir
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from otherside.core.rng import derive_seed
from otherside.games import verso
from otherside.research.verso_solver import clairvoyant_score
from otherside.simulate import SimSpec, parse_seats, simulate, summarize

MARKS = (50, 60, 65)
DEFAULT_CACHE = Path(user_cache_dir("otherside")) / "verso_ceilings.json"


def _pile_text(seed: int) -> str:
    return " ".join(verso.card_name(oc) for oc in verso.new_game(1, seed=seed).table.pile)


def _ceiling(pile_text: str) -> tuple[str, int, float]:
    start = time.perf_counter()
    score = clairvoyant_score(pile_text.split())
    return pile_text, score, time.perf_counter() - start


def _load_cache(path: Path | None) -> dict[str, int]:
    if path is None or not path.exists():
        return {}
    return {str(k): int(v) for k, v in json.loads(path.read_text("utf-8")).items()}


def _save_cache(path: Path | None, cache: dict[str, int]) -> None:
    if path is None:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(cache, indent=0, sort_keys=True), "utf-8")
    tmp.replace(path)


def ceilings(
    console: Console, seeds: list[int], workers: int, cache_path: Path | None
) -> tuple[list[int], list[float]]:
    """The exact ceiling of each seeded pile, solving in ``workers`` processes what the cache
    lacks; returns the ceilings in seed order and the seconds of each pile solved now."""
    cache = _load_cache(cache_path)
    piles = [_pile_text(seed) for seed in seeds]
    missing = list(dict.fromkeys(p for p in piles if p not in cache))  # in seed order
    times: list[float] = []
    if missing:
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task(
                f"clairvoyant solver ({len(piles) - len(missing)} piles cached)",
                total=len(missing),
            )
            with ProcessPoolExecutor(workers) as pool:
                for future in as_completed([pool.submit(_ceiling, p) for p in missing]):
                    pile, score, seconds = future.result()
                    cache[pile] = score
                    times.append(seconds)
                    _save_cache(cache_path, cache)  # an interrupted run keeps what it solved
                    progress.advance(task)
    return [cache[p] for p in piles], times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--bots", default="random,greedy,expert,expectimax,ismcts")
    parser.add_argument(
        "--ceiling-games",
        type=int,
        default=None,
        help="piles solved exactly, the first ones (default: all; seconds to a minute each)",
    )
    parser.add_argument("--ceiling-cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--no-cache", action="store_true", help="solve every pile again")
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
    k = args.games if args.ceiling_games is None else min(args.ceiling_games, args.games)
    ceiling: list[int] = []
    if k > 0:
        seeds = [derive_seed(args.seed, "game", i) for i in range(k)]
        cache_path = None if args.no_cache else args.ceiling_cache
        ceiling, times = ceilings(console, seeds, args.workers, cache_path)
        solved = (
            f"{len(times)} solved now: median {statistics.median(times):.1f} s, "
            f"max {max(times):.1f} s per pile"
            if times
            else "all from the cache"
        )
        console.print(
            f"clairvoyant ceiling (exact) on the first {k} piles: "
            f"mean {statistics.fmean(ceiling):.2f} (min {min(ceiling)}, max {max(ceiling)}; "
            f"{solved})"
        )
    table = Table(title=f"solo Verso, {args.games} seeded games (seed {args.seed})")
    columns = ["bot", "mean", "sd", *(f"{m}+" for m in MARKS), "median decision"]
    if ceiling:
        columns += [f"mean, first {k}", "gap to ceiling"]
    for title in columns:
        table.add_column(title, justify="right")
    for label, mean, sd, shares, ms in rows:
        cells = [label, f"{mean:.2f}", f"{sd:.2f}", *(f"{100 * s:.1f}%" for s in shares)]
        cells.append(f"{ms:.2f} ms")
        if ceiling:
            on_those = statistics.fmean(per_bot[label][:k])
            cells += [f"{on_those:.2f}", f"{statistics.fmean(ceiling) - on_those:.2f}"]
        table.add_row(*cells)
    if ceiling:
        top = statistics.fmean(ceiling)
        sd = statistics.stdev(ceiling) if len(ceiling) > 1 else 0.0
        shares = [sum(s >= m for s in ceiling) / len(ceiling) for m in MARKS]
        table.add_row(
            "clairvoyant",
            f"{top:.2f}" if k == args.games else "",
            f"{sd:.2f}",
            *(f"{100 * s:.1f}%" for s in shares),
            "",
            f"{top:.2f}",
            "",
        )
    console.print(table)


if __name__ == "__main__":
    main()
