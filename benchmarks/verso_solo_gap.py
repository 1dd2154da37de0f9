"""Solo Verso: where a bot's points go missing, against the clairvoyant's line on the same piles.

For each seeded solo game (the piles of ``benchmarks/verso_bots.py`` and ``otherside verso
simulate`` with the same seed) the bot plays, and the clairvoyant solver's optimal line (every face
known) is replayed by the engine on the same pile. Both games are counted the same way, from the
engine's events: series banked in play and their points, the final series (V17), squares (V12),
cards taken and flipped, flips forced by a duplicate on top (V8), cards the solo opponent turned
(V16) and cards discarded as duplicates right after a draw or after a turn.

Prints the per-game means side by side with the difference, and with ``--plot`` saves them as a
bar chart. Solving a whole pile takes seconds to a minute, so this is a tool for a few dozen piles.

    PYTHONPATH=src python benchmarks/verso_solo_gap.py --bot best --games 40 --plot gap.png
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from otherside.bots import make_bot, play_match
from otherside.bots.match import Step
from otherside.bots.simulate import SeatSpec
from otherside.bots.verso_solver import ClairvoyantSolver
from otherside.core.rng import derive_seed
from otherside.games import verso
from otherside.games.verso.actions import Draw, Flip
from otherside.games.verso.state import VersoState

STATS = (
    ("score", "final score"),
    ("series", "series banked in play"),
    ("series_points", "points of those series"),
    ("final_series", "points of the final series (V17)"),
    ("squares", "squares (V12), 7 points each"),
    ("taken", "cards taken"),
    ("flips", "of them flipped"),
    ("forced_flips", "flips forced by a duplicate on top (V8)"),
    ("turned", "cards the opponent turned (V16)"),
    ("dup_taken", "taken cards discarded as duplicates"),
    ("dup_turned", "turned cards discarded as duplicates"),
)


def count(steps: Iterable[tuple[VersoState, object, VersoState]]) -> Counter[str]:
    """The statistics of one game from its steps ``(before, action, after)``."""
    stats: Counter[str] = Counter()
    for before, action, after in steps:
        if isinstance(action, Flip) and Draw() not in before.legal_actions():
            stats["forced_flips"] += 1
        last = ""
        for event in after.events:
            kind = event["type"]
            if kind == "series":
                if before.phase_name == "final":
                    stats["final_series"] += event["points"]
                else:
                    stats["series"] += 1
                    stats["series_points"] += event["points"]
            elif kind == "square":
                stats["squares"] += 1
            elif kind == "draw":
                stats["taken"] += 1
                stats["flips"] += event["flipped"]
            elif kind == "turn":
                stats["turned"] += 1
            elif kind == "discard" and event["reason"] == "duplicate":
                stats["dup_taken" if last == "draw" else "dup_turned"] += 1
            last = kind
        stats["score"] = after.scores[0]
    return stats


def one_game(seat: str, seed: int, index: int) -> tuple[Counter[str], Counter[str]]:
    """Game ``index``: the bot's statistics and the clairvoyant line's on the same pile."""
    spec = SeatSpec.parse(seat)
    state = verso.new_game(1, seed=derive_seed(seed, "game", index))
    bot = make_bot("verso", spec.name, **dict(spec.options))
    rng = random.Random(derive_seed(seed, "bots", index))
    steps: list[tuple[VersoState, object, VersoState]] = []

    def record(step: Step) -> None:
        steps.append((step.before, step.action, step.after))  # type: ignore[arg-type]

    play_match(verso.GAME, state, [bot], rng, on_step=record)
    line: list[tuple[VersoState, object, VersoState]] = []
    current = state
    for action in ClairvoyantSolver(state.table.pile).line():
        after = current.apply(action)
        line.append((current, action, after))
        current = after
    return count(steps), count(line)


def _means(games: Sequence[Counter[str]]) -> dict[str, float]:
    return {key: statistics.fmean(g[key] for g in games) for key, _ in STATS}


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
    counts = [key for key, _ in STATS if key not in ("score", "series_points", "final_series")]
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
    try:  # a bad seat fails here, before any game is played
        seat = SeatSpec.parse(args.bot)
        make_bot("verso", seat.name, **dict(seat.options))
    except (ValueError, TypeError) as exc:
        parser.error(f"--bot {args.bot!r}: {exc}")
    console = Console()
    results: list[tuple[Counter[str], Counter[str]]] = []
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"{args.bot} and the clairvoyant line", total=args.games)
        with ProcessPoolExecutor(args.workers) as pool:
            jobs = [
                pool.submit(one_game, args.bot, args.seed, index) for index in range(args.games)
            ]
            for job in jobs:
                results.append(job.result())
                progress.advance(task)
    bot = _means([r[0] for r in results])
    ceiling = _means([r[1] for r in results])
    table = Table(title=f"Solo Verso, {args.games} games, seed {args.seed}: per-game means")
    table.add_column("")
    table.add_column(args.bot, justify="right")
    table.add_column("clairvoyant", justify="right")
    table.add_column("difference", justify="right")
    for key, text in STATS:
        mine, best = bot[key], ceiling[key]
        table.add_row(text, f"{mine:.2f}", f"{best:.2f}", f"{mine - best:+.2f}")
    console.print(table)
    if args.plot:
        plot(args.plot, args.bot, bot, ceiling)
        console.print(f"plot saved to {args.plot}")


if __name__ == "__main__":
    main()
