"""``otherside verso train-value``: learn the solo value tables of the ``expectimax`` bot.

TD(0) self-play on the fast solo model (:func:`otherside.research.verso_training.train`), with a
Rich progress bar, the learning curve as a table and, with ``--plot``, as a picture. The tables
shipped in ``otherside/bots/verso/data/verso_value.bin`` come from this command with its defaults.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from otherside.bots.verso.value import BadValueFile, ValueNet
from otherside.i18n import N_
from otherside.research.verso_training import train

DEFAULT_EPISODES = 1_200_000
DEFAULT_ALPHA = 0.01


def plot_curve(curve: list[tuple[int, float, float]], path: Path) -> None:
    """The learning curve as a PNG: mean score of the training games and of the test piles."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    games = [g for g, _, _ in curve]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(games, [t for _, t, _ in curve], label="training games (while learning)")
    ax.plot(games, [t for _, _, t in curve], label="test piles (one-ply policy)")
    ax.set_xlabel("games played")
    ax.set_ylabel("mean solo score")
    ax.set_title("Verso solo value: TD(0) self-play")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def register_verso_train(app: typer.Typer) -> None:
    """Add ``train-value`` to the ``verso`` command group."""

    @app.command(
        "train-value", help=N_("Learn the solo value tables by TD(0) self-play and save them.")
    )
    def train_value(
        out: Annotated[Path, typer.Option(help="Where to write the value tables.")],
        episodes: Annotated[int, typer.Option(min=1, help="Self-play games.")] = DEFAULT_EPISODES,
        seed: Annotated[int, typer.Option(help="Seed of the training and test piles.")] = 1,
        alpha: Annotated[float, typer.Option(min=0.0, help="Learning rate at the start.")] = (
            DEFAULT_ALPHA
        ),
        start: Annotated[
            Path | None, typer.Option(help="Tables to continue from (default: zeros).")
        ] = None,
        test_games: Annotated[int, typer.Option(min=0, help="Fixed piles per test.")] = 1000,
        every: Annotated[int, typer.Option(min=1, help="Games between tests.")] = 10_000,
        plot: Annotated[Path | None, typer.Option(help="Write the learning curve PNG.")] = None,
    ) -> None:
        """Learn the solo value tables by TD(0) self-play and save them."""
        console = Console()
        if not out.parent.is_dir():
            raise typer.BadParameter(f"no directory {out.parent}", param_hint="--out")
        try:
            net = ValueNet.load(start) if start else ValueNet()
        except (OSError, BadValueFile) as exc:
            raise typer.BadParameter(str(exc), param_hint="--start") from exc
        progress = Progress(
            TextColumn("[bold]training"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("test {task.fields[test]}"),
            TimeRemainingColumn(),
            console=console,
        )
        with progress:
            task = progress.add_task("train", total=episodes, test="–")

            def report(done: int, mean: float, test: float) -> None:
                progress.update(task, completed=done, test=f"{test:.2f}")

            curve = train(net, episodes, seed, alpha, test_games, every, report)
        net.save(out)
        table = Table(title="learning curve")
        for column in ("games", "training mean", "test mean"):
            table.add_column(column, justify="right")
        step = max(1, len(curve) // 10)
        for games, mean, test in [*curve[::step][:-1], curve[-1]]:
            table.add_row(f"{games:,}", f"{mean:.2f}", f"{test:.2f}")
        console.print(table)
        console.print(f"saved {out}")
        if plot:
            plot_curve(curve, plot)
            console.print(f"plot written to {plot}")
