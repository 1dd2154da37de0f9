"""``otherside <game> simulate``: the simulator's command, shared by every game.

A game adds it to its typer group with :func:`add_simulate_command`; game-specific figures (Verso
solo ratings, the clairvoyant ceiling…) plug in through a :class:`SimulateExtras` hook.
"""

from __future__ import annotations

import inspect
import json
import math
import os
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from otherside.bots import make_bot
from otherside.i18n import N_
from otherside.simulate import GameResult, SimSpec, parse_seats, simulate, summarize

if TYPE_CHECKING:
    from matplotlib.figure import Figure


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
        seats_example: a ``--seats`` value of this game's bots, for the help.
        players_help: the help of ``--players``; None for a game of one player count, which
            then has no such option.
        ceiling_help: the help of ``--ceiling``; None for a game that defines no ceiling, which
            then has no such option.
    """

    observer: str | None = None
    observer_options: Callable[[int, bool], dict[str, Any]] | None = None
    summarize: Callable[[dict[str, Any], Sequence[GameResult]], None] | None = None
    report: Callable[[Console, dict[str, Any]], None] | None = None
    columns: tuple[tuple[str, str], ...] = ()
    seats_example: str = "greedy,random"
    players_help: str | None = None
    ceiling_help: str | None = None


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


def score_bins(by_seat: Sequence[Sequence[int]]) -> list[float]:
    """Histogram bin edges for the integer scores of each seat label (one list per label).

    One whole-number width for all bins, so that each bin spans as many possible scores and
    each score sits inside a bin, not on an edge: a seat's curve gets about √games bins over
    its own spread (the mean over the seats), down to one score a bin for large runs.

    >>> score_bins([[3, 4, 4, 7]])
    [2.5, 4.5, 6.5, 8.5]
    >>> len(score_bins([list(range(61)) * 40])) - 1  # 2,440 games: one bin a score
    61
    """
    games = max(len(scores) for scores in by_seat)
    spread = statistics.mean(max(s) - min(s) + 1 for s in by_seat if s)
    width = max(1, round(spread / math.sqrt(games)))
    low = min(min(s) for s in by_seat if s)
    high = max(max(s) for s in by_seat if s)
    return [low - 0.5 + i * width for i in range(math.ceil((high - low + 1) / width) + 1)]


def score_figure(summary: dict[str, Any], results: Sequence[Any]) -> Figure:
    """Histogram of the scores of each seat label (``results`` have ``.scores`` by label)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # deferred: import time
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    figure = Figure(figsize=(8, 4.5))
    FigureCanvasAgg(figure)
    ax = figure.add_subplot()
    bins = score_bins([[r.scores[i] for r in results] for i in range(len(summary["seats"]))])
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
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # games are counted in whole numbers
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    ax.set_title(f"{summary['game']}: {summary['games']} games, seed {summary['seed']}")
    ax.legend()
    figure.tight_layout()
    return figure


def plot_scores(path: Path, summary: dict[str, Any], results: Sequence[GameResult]) -> None:
    """Save :func:`score_figure` to ``path`` (PNG, SVG, PDF…)."""
    score_figure(summary, results).savefig(path)


def _option(name: str, kind: Any, default: Any, *decls: str, **info: Any) -> inspect.Parameter:
    return inspect.Parameter(
        name,
        inspect.Parameter.KEYWORD_ONLY,
        default=default,
        annotation=Annotated[kind, typer.Option(*decls, **info)],
    )


def _command_parameters(extras: SimulateExtras, default_seats: str) -> list[inspect.Parameter]:
    """The options of one game's ``simulate``, with that game's examples, and ``--players`` or
    ``--ceiling`` only for a game that has them."""
    fills = " One name with --players fills the table." if extras.players_help else ""
    seats_help = (
        f"Bots by seat, comma-separated; options as name:key=value "
        f"(e.g. {extras.seats_example}).{fills}"
    )
    parameters = [
        _option("seats", str, default_seats, help=seats_help),
        _option("games", int, 200, min=1, help="Number of games."),
        _option("seed", int, 1, help="Run seed: game i uses derive_seed(seed, i)."),
        _option("workers", int, os.cpu_count() or 1, min=1, help="Local processes (one per core)."),
    ]
    if extras.players_help:
        parameters.append(_option("players", int | None, None, help=extras.players_help))
    parameters.append(
        _option("rotate", bool, True, help="Turn the seats round the table from game to game.")
    )
    if extras.ceiling_help:
        parameters.append(_option("ceiling", bool, False, help=extras.ceiling_help))
    parameters += [
        _option("option", list[str] | None, None, help="Game option KEY=VALUE (repeatable)."),
        _option("plot", Path | None, None, help="Save a histogram of the scores (PNG, SVG…)."),
        _option("as_json", bool, False, "--json", help="Print the summary as JSON (for scripts)."),
        _option(
            "ray",
            str | None,
            None,
            help="Run on a Ray cluster (optional extra 'ray'): HOST:PORT or 'auto' after "
            "`ray start --head`, or 'local' for a private instance of --workers CPUs.",
        ),
    ]
    return parameters


def add_simulate_command(
    typer_app: typer.Typer,
    game_name: str,
    extra_stats: SimulateExtras | None = None,
    default_seats: str = "random,random",
) -> None:
    """Register ``simulate`` on ``typer_app`` (the ``otherside <game_name>`` group).

    The command's options and their help come from ``extra_stats``, so that each game's help
    speaks of that game's bots and options only.
    """
    extras = extra_stats or SimulateExtras()

    def simulate_command(
        *,
        seats: str,
        games: int,
        seed: int,
        workers: int,
        players: int | None = None,
        rotate: bool = True,
        ceiling: bool = False,
        option: list[str] | None = None,
        plot: Path | None = None,
        as_json: bool = False,
        ray: str | None = None,
    ) -> None:
        """Play many seeded bot games and summarise them (same seed, same games)."""
        console = Console(stderr=as_json)
        try:
            seat_specs = parse_seats(seats, players)
            for seat in seat_specs:  # an unknown bot or option is refused before any game
                make_bot(game_name, seat.name, **dict(seat.options))
            observer_options = (
                extras.observer_options(len(seat_specs), ceiling) if extras.observer_options else {}
            )
            spec = SimSpec(
                game=game_name,
                seats=tuple(seat_specs),
                seed=seed,
                rotate=rotate,
                game_options=_parse_options(option or []),
                observer=extras.observer,
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
        if extras.summarize:
            extras.summarize(summary, results)
        if plot is not None:
            plot_scores(plot, summary, results)
        if as_json:
            typer.echo(json.dumps(summary))
            return
        render_summary(console, summary, extras)
        if plot is not None:
            console.print(f"plot saved to {plot}")

    # Typer reads the options from the signature: give it this game's.
    simulate_command.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        _command_parameters(extras, default_seats)
    )
    typer_app.command(
        "simulate",
        help=N_("Play many seeded bot games and summarise them (same seed, same games)."),
    )(simulate_command)
