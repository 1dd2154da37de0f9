"""Solo Verso: what each hidden face is worth to the best solo bot, on the benchmark's piles.

The clairvoyant ceiling (``benchmarks/verso_bots.py``) knows every face; a player knows only
what V19 shows. This benchmark plays the same seeded piles (the games of ``verso_bots.py`` and of
``otherside verso simulate --seats best`` with the same seed) with the same search, the two-ply
``expectimax`` (``best``), told a little more each time:

- **nothing**: the bot as it plays (the same scores as ``--seats best``);
- **its tableau's backs**: the down face of every card in its tableau (so it knows what each
  card the opponent could turn would become);
- **the top's back**: the down face of the top card, so it never gambles on a flip, with value
  tables learned by TD(0) self-play for a player who sees it (``train(informed=True)``, the same
  recipe and number of games as the shipped tables; cached after the first run);

(the told players are :class:`otherside.research.verso_informed.InformedExpectimax`)
- **both**.

What the informed players do not know is the order of the pile below the top; the clairvoyant
(``--ceiling``, from the cache that ``verso_bots.py`` fills) knows that too. The rows are
measurements, not players: no seat can ask for them. The informed rows use the honest bot's
search with more information, so they are what this search makes of it, not the best such a
player could do.

    PYTHONPATH=src python benchmarks/verso_solo_information.py --games 200 --plot info.png
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from pathlib import Path

from platformdirs import user_cache_dir
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from otherside.bots.match import play_match
from otherside.bots.verso.value import ValueNet, default_net
from otherside.core.rng import derive_seed
from otherside.games import verso
from otherside.research.verso_informed import InformedExpectimax
from otherside.research.verso_training import train
from otherside.simulate import Z95
from verso_bots import DEFAULT_CACHE, ceilings

SETTINGS = (
    ("nothing", False, False),
    ("its tableau's backs", False, True),
    ("the top's back", True, False),
    ("both", True, True),
)
"""(label, sees the top's back, sees its tableau's backs)."""
TABLES_DIR = Path(user_cache_dir("otherside"))


@cache
def _net(path: str | None) -> ValueNet:
    return default_net() if path is None else ValueNet.load(Path(path))


def play(args: tuple[int, int, bool, bool, str | None]) -> tuple[int, float]:
    """Game ``index`` of the seed with one setting: its score and median decision seconds."""
    seed, index, top, tableau, tables = args
    state = verso.new_game(1, seed=derive_seed(seed, "game", index))
    bot = InformedExpectimax(_net(tables), state, top, tableau)
    rng = random.Random(derive_seed(seed, "bots", index))
    result = play_match(verso.GAME, state, [bot], rng, bot.follow, clock=time.perf_counter)
    return result.outcome.scores[0], statistics.median(result.decision_seconds[0])


def informed_tables(console: Console, games: int, path: Path) -> Path:
    """Tables for a player who sees the top's back, trained once and kept at ``path``."""
    if path.exists():
        return path
    net = ValueNet()
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("value tables for a player who sees the top's back", total=games)
        curve = train(
            net,
            games,
            seed=1,
            informed=True,
            progress=lambda done, _t, _s: progress.update(task, completed=done),
        )
    console.print(f"informed tables: the one-ply policy scores {curve[-1][2]:.2f} on test piles")
    path.parent.mkdir(parents=True, exist_ok=True)
    net.save(path)
    return path


def interval(scores: Sequence[int]) -> tuple[float, float]:
    """The mean of ``scores`` and the half-width of its 95% interval."""
    return statistics.fmean(scores), Z95 * statistics.stdev(scores) / len(scores) ** 0.5


def plot(path: Path, rows: list[tuple[str, list[int]]], ceiling: float | None) -> None:
    """Each setting's mean with its 95% interval, against the target and the ceiling."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 3.2))
    labels = [label for label, _ in rows][::-1]
    means, halves = zip(*(interval(s) for _, s in rows[::-1]), strict=True)
    ax.barh(labels, means, xerr=halves, color="#4c72b0", capsize=4)
    ax.axvline(50, color="#c44e52", linestyle="--", label="target (50)")
    if ceiling is not None:
        ax.axvline(ceiling, color="#55a868", linestyle=":", label=f"clairvoyant ({ceiling:.1f})")
    ax.set_xlabel("mean solo score, same piles")
    ax.set_title("Solo Verso: the best bot told hidden faces")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--train-games",
        type=int,
        default=1_200_000,
        help="self-play games for the informed tables (the shipped ones took 1.2 million)",
    )
    parser.add_argument("--ceiling", action="store_true", help="add the clairvoyant's mean")
    parser.add_argument("--ceiling-cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--plot", type=Path, default=None, help="save a bar chart (PNG)")
    args = parser.parse_args()
    if args.games < 2 or args.workers < 1 or args.train_games < 1:
        parser.error("--games must be at least 2, --workers and --train-games at least 1")
    console = Console()
    tables = informed_tables(
        console, args.train_games, TABLES_DIR / f"verso_value_informed_{args.train_games}.bin"
    )
    rows: list[tuple[str, list[int]]] = []
    medians: list[float] = []
    for label, top, tableau in SETTINGS:
        jobs = [
            (args.seed, i, top, tableau, str(tables) if top else None) for i in range(args.games)
        ]
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task(f"told {label}", total=args.games)
            with ProcessPoolExecutor(args.workers) as pool:
                results = []
                for result in pool.map(play, jobs, chunksize=4):
                    results.append(result)
                    progress.advance(task)
        rows.append((label, [score for score, _ in results]))
        medians.append(statistics.median(seconds for _, seconds in results))
    ceiling = None
    if args.ceiling:
        seeds = [derive_seed(args.seed, "game", i) for i in range(args.games)]
        ceiling = statistics.fmean(ceilings(console, seeds, args.workers, args.ceiling_cache)[0])
    honest = rows[0][1]
    table = Table(title=f"Solo Verso, {args.games} seeded games (seed {args.seed}): told ...")
    for title in ("", "mean", "95% interval", "vs nothing (paired)", "50+", "median decision"):
        table.add_column(title, justify="right")
    for (label, scores), median in zip(rows, medians, strict=True):
        mean, half = interval(scores)
        diffs = [a - b for a, b in zip(scores, honest, strict=True)]
        paired = (
            f"{statistics.fmean(diffs):+.2f} ± {statistics.stdev(diffs) / len(diffs) ** 0.5:.2f}"
            if scores is not honest
            else ""
        )
        share = sum(s >= 50 for s in scores) / len(scores)
        table.add_row(
            label,
            f"{mean:.2f}",
            f"{mean - half:.1f}–{mean + half:.1f}",
            paired,
            f"{100 * share:.0f}%",
            f"{1000 * median:.1f} ms",
        )
    if ceiling is not None:
        table.add_row("everything (clairvoyant)", f"{ceiling:.2f}", "", "", "", "")
    console.print(table)
    if args.plot:
        plot(args.plot, rows, ceiling)
        console.print(f"plot saved to {args.plot}")


if __name__ == "__main__":
    main()
