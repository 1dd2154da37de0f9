"""``otherside <game> simulate``: the simulator's command, shared by every game.

A game adds it to its typer group with :func:`add_simulate_command`; game-specific figures (Verso
solo ratings, the clairvoyant ceiling…) plug in through a :class:`SimulateExtras` hook.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from otherside.simulate import GameResult, SimSpec, parse_seats, simulate, summarize


@dataclass(frozen=True)
class SimulateExtras:
    """A game's additions to ``simulate``.

    Attributes:
        observer: ``"module:Class"`` of the per-game observer run in the workers (see
            :mod:`otherside.simulate`), or None.
        observer_options: given the player count and whether ``--ceiling`` is on, the
            observer's keyword options.
        summarize: adds game-specific keys to the summary dict from the results.
        report: prints game-specific lines or tables after the summary table.
        columns: extra per-seat columns of the summary table: (title, summary key).
    """

    observer: str | None = None
    observer_options: Callable[[int, bool], dict[str, Any]] | None = None
    summarize: Callable[[dict[str, Any], Sequence[GameResult]], None] | None = None
    report: Callable[[Console, dict[str, Any]], None] | None = None
    columns: tuple[tuple[str, str], ...] = ()


def _parse_options(pairs: Sequence[str]) -> tuple[tuple[str, Any], ...]:
    out = []
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key:
            raise ValueError(f"--option {pair!r}: write KEY=VALUE")
        lowered = value.lower()
        parsed: Any = lowered == "true" if lowered in ("true", "false") else value
        if isinstance(parsed, str) and value.lstrip("-").isdigit():
            parsed = int(value)
        out.append((key, parsed))
    return tuple(out)


def render_summary(
    console: Console, summary: dict[str, Any], extras: SimulateExtras | None = None
) -> None:
    """Print the summary table of a run (one row per seat label)."""
    table = Table(
        title=f"{summary['game']}: {summary['games']} games, {summary['players']} players, "
        f"seed {summary['seed']}" + (", seats rotated" if summary["rotate"] else "")
    )
    for title in ("seat", "bot", "mean", "sd", "wins", "95% CI"):
        table.add_column(title, justify="left" if title == "bot" else "right")
    columns = extras.columns if extras else ()
    for title, _ in columns:
        table.add_column(title, justify="right")
    table.add_column("decision", justify="right")
    for i, label in enumerate(summary["seats"]):
        low, high = summary["win_ci95"][i]
        decision = summary["median_decision_ms"][i]
        row = [
            str(i),
            label,
            f"{summary['mean_scores'][i]:.2f}",
            f"{summary['sd_scores'][i]:.2f}",
            f"{100 * summary['win_share'][i]:.1f}%",
            f"{100 * low:.0f}–{100 * high:.0f}%",
            *(f"{summary[key][i]:.2f}" if key in summary else "–" for _, key in columns),
            f"{decision:.2f} ms" if decision is not None else "–",
        ]
        table.add_row(*row)
    console.print(table)
    console.print(
        f"game length: {summary['mean_length']:.1f} actions (sd {summary['sd_length']:.1f})"
    )
    if extras and extras.report:
        extras.report(console, summary)


def plot_scores(path: Path, summary: dict[str, Any], results: Sequence[GameResult]) -> None:
    """Histogram of the scores of each seat label, saved to ``path`` (PNG, SVG, PDF…)."""
    import matplotlib  # deferred: only plots pay for matplotlib's import time

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    scores = [s for r in results for s in r.scores]
    bins = range(min(scores), max(scores) + 2)
    for i, label in enumerate(summary["seats"]):
        ax.hist(
            [r.scores[i] for r in results],
            bins=bins,
            histtype="step",
            linewidth=1.5,
            label=f"{i}: {label} (mean {summary['mean_scores'][i]:.1f})",
        )
    if "clairvoyant_mean" in summary:
        ax.axvline(summary["clairvoyant_mean"], linestyle="--", color="grey")
        ax.text(summary["clairvoyant_mean"], ax.get_ylim()[1] * 0.95, " clairvoyant mean")
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    ax.set_title(f"{summary['game']}: {summary['games']} games, seed {summary['seed']}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def add_simulate_command(
    typer_app: typer.Typer,
    game_name: str,
    extra_stats: SimulateExtras | None = None,
    default_seats: str = "random,random",
) -> None:
    """Register ``simulate`` on ``typer_app`` (the ``otherside <game_name>`` group)."""

    @typer_app.command("simulate")
    def simulate_command(
        seats: Annotated[
            str,
            typer.Option(
                help="Bots by seat, comma-separated; options as name:key=value "
                "(e.g. ismcts:iterations=300,greedy). One name with --players fills the table."
            ),
        ] = default_seats,
        games: Annotated[int, typer.Option(min=1, help="Number of games.")] = 200,
        seed: Annotated[int, typer.Option(help="Run seed: game i uses derive_seed(seed, i).")] = 1,
        workers: Annotated[
            int, typer.Option(min=1, help="Local processes (default: one per core).")
        ] = os.cpu_count() or 1,
        players: Annotated[
            int | None, typer.Option(help="Player count when --seats names one bot.")
        ] = None,
        rotate: Annotated[
            bool, typer.Option(help="Turn the seats round the table from game to game.")
        ] = True,
        ceiling: Annotated[
            bool,
            typer.Option(
                help="Also compute the perfect-information ceiling where the game defines one "
                "(Verso solo: exact, seconds to a minute per game)."
            ),
        ] = False,
        option: Annotated[
            list[str] | None, typer.Option(help="Game option KEY=VALUE (repeatable).")
        ] = None,
        plot: Annotated[
            Path | None, typer.Option(help="Save a histogram of the scores (PNG, SVG…).")
        ] = None,
        as_json: Annotated[
            bool, typer.Option("--json", help="Print the summary as JSON (for scripts).")
        ] = False,
        ray: Annotated[
            str | None,
            typer.Option(
                help="Run on a Ray cluster (optional extra 'ray'): HOST:PORT or 'auto' after "
                "`ray start --head`, or 'local' for a private instance of --workers CPUs."
            ),
        ] = None,
    ) -> None:
        """Play many seeded bot games and summarise them (same seed, same games)."""
        console = Console(stderr=as_json)
        try:
            seat_specs = parse_seats(seats, players)
            observer_options = (
                extra_stats.observer_options(len(seat_specs), ceiling)
                if extra_stats and extra_stats.observer_options
                else {}
            )
            spec = SimSpec(
                game=game_name,
                seats=tuple(seat_specs),
                seed=seed,
                rotate=rotate,
                game_options=_parse_options(option or []),
                observer=extra_stats.observer if extra_stats else None,
                observer_options=tuple(sorted(observer_options.items())),
            )
            progress = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=console,
                transient=as_json,
            )
            with progress:
                task = progress.add_task(f"{game_name} games", total=games)
                results = simulate(
                    spec,
                    games,
                    workers=workers,
                    ray_address=ray,
                    on_result=lambda _: progress.advance(task),
                )
        except ValueError as exc:
            console.print(f"[red]error:[/red] {escape(str(exc))}")  # e.g. otherside[ray]
            raise typer.Exit(2) from exc
        summary = summarize(spec, results)
        if extra_stats and extra_stats.summarize:
            extra_stats.summarize(summary, results)
        if plot is not None:
            plot_scores(plot, summary, results)
        if as_json:
            typer.echo(json.dumps(summary))
            return
        render_summary(console, summary, extra_stats)
        if plot is not None:
            console.print(f"plot saved to {plot}")
