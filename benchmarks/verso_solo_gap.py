"""Solo Verso: where a bot's points go missing, against the clairvoyant's line on the same piles.

The simulator plays the seeded solo games (the same games as ``benchmarks/verso_bots.py`` and
``otherside verso simulate`` with the same seed) with the observer
:class:`otherside.research.verso_stats.SoloGap`: it replays the clairvoyant solver's optimal line
(every face known) on each pile and counts both games the same way, from the engine's events:
series banked in play and their points, the final series (V17), squares (V12), cards taken and
flipped, flips forced by a duplicate on top (V8), cards the solo opponent turned (V16) and cards
discarded as duplicates right after a draw or after a turn.

Prints the per-game means side by side with the difference, and with ``--plot`` saves them as a
bar chart. Solving a whole pile takes seconds to a minute, so this is a tool for a few dozen piles.

    PYTHONPATH=src python benchmarks/verso_solo_gap.py --bot best --games 40 --plot gap.png
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Mapping, Sequence
from pathlib import Path

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from otherside.research.verso_stats import SOLO_FIGURES
from otherside.simulate import SimSpec, parse_seats, simulate


def _means(games: Sequence[Mapping[str, int]]) -> dict[str, float]:
    return {key: statistics.fmean(g[key] for g in games) for key, _ in SOLO_FIGURES}


def plot(path: Path, label: str, bot: dict[str, float], ceiling: dict[str, float]) -> None:
    """Two panels: where the points come from, and what happened to the cards."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    points = {
        "series in play": "series_points",
        "final series": "final_series",
        "squares": "squares",
    }
    counts = [
        key for key, _ in SOLO_FIGURES if key not in ("score", "series_points", "final_series")
    ]
    fig, (left, right) = plt.subplots(
        1, 2, figsize=(12, 4.5), gridspec_kw={"width_ratios": [1, 2.6]}
    )
    for ax, names, values in (
        (
            left,
            list(points),
            [
                [d[k] * (7 if k == "squares" else 1) for k in points.values()]
                for d in (bot, ceiling)
            ],
        ),
        (
            right,
            [k.replace("_", "\n") for k in counts],
            [[d[k] for k in counts] for d in (bot, ceiling)],
        ),
    ):
        xs = range(len(names))
        ax.bar([x - 0.2 for x in xs], values[0], 0.4, label=label)
        ax.bar([x + 0.2 for x in xs], values[1], 0.4, label="clairvoyant line")
        ax.set_xticks(list(xs), names, fontsize=8)
    left.set_ylabel("points per game")
    right.set_ylabel("per game")
    right.legend()
    fig.suptitle(
        f"Solo Verso: {label} {bot['score']:.1f} points against the clairvoyant's "
        f"{ceiling['score']:.1f}, same piles"
    )
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bot", default="best", help="a solo seat, e.g. best or expert:worlds=500")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--plot", type=Path, default=None, help="save a bar chart (PNG)")
    args = parser.parse_args()
    if args.games < 1 or args.workers < 1:
        parser.error("--games and --workers must be at least 1")
    console = Console()
    try:  # a bad seat fails before any game is played
        spec = SimSpec(
            "verso",
            tuple(parse_seats(args.bot, players=1)),
            args.seed,
            observer="otherside.research.verso_stats:SoloGap",
        )
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task(f"{args.bot} and the clairvoyant line", total=args.games)
            results = simulate(
                spec, args.games, workers=args.workers, on_result=lambda _: progress.advance(task)
            )
    except ValueError as exc:
        parser.error(f"--bot {args.bot!r}: {exc}")
    bot = _means([r.extras["figures"] for r in results])
    ceiling = _means([r.extras["clairvoyant_figures"] for r in results])
    table = Table(title=f"Solo Verso, {args.games} games, seed {args.seed}: per-game means")
    table.add_column("")
    table.add_column(args.bot, justify="right")
    table.add_column("clairvoyant", justify="right")
    table.add_column("difference", justify="right")
    for key, text in SOLO_FIGURES:
        mine, best = bot[key], ceiling[key]
        table.add_row(text, f"{mine:.2f}", f"{best:.2f}", f"{mine - best:+.2f}")
    console.print(table)
    if args.plot:
        plot(args.plot, args.bot, bot, ceiling)
        console.print(f"plot saved to {args.plot}")


if __name__ == "__main__":
    main()
