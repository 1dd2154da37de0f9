"""``otherside verso simulate``: the shared simulator with Verso's figures.

Squares per game for every table; for solo runs the V18 rating distribution, the shares of games
at 50+, 60+ and 65+ and the clairvoyant ceiling (the best score reachable knowing every face of
the same pile) with the gap to it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from otherside.cli.simulate import SimulateExtras, add_simulate_command
from otherside.games.verso import DESIGNERS_BEST, RATING_BANDS, rating
from otherside.simulate import GameResult

SCORE_MARKS = (50, 60, 65)
"""Solo thresholds reported as shares of games (65: above the designers' record of 64)."""


def _observer_options(players: int, ceiling: bool) -> dict[str, Any]:
    return {"ceiling": ceiling and players == 1}


def summarize_verso(summary: dict[str, Any], results: Sequence[GameResult]) -> None:
    """Add the solo figures: ``ratings`` (count per V18 band), ``score_shares``, ceiling."""
    if summary["players"] != 1:
        return
    scores = [r.scores[0] for r in results]
    counts = {label: 0 for _, label in RATING_BANDS}
    for score in scores:
        counts[rating(score)] += 1
    summary["ratings"] = counts
    summary["score_shares"] = {
        f"{mark}+": round(sum(s >= mark for s in scores) / len(scores), 4) for mark in SCORE_MARKS
    }
    summary["best_score"] = max(scores)
    if "clairvoyant" in summary:
        summary["clairvoyant_mean"] = summary.pop("clairvoyant")
        summary["clairvoyant_gap"] = round(
            summary["clairvoyant_mean"] - summary["mean_scores"][0], 3
        )


def report_verso(console: Console, summary: dict[str, Any]) -> None:
    """Print the solo rating distribution and the gap to the clairvoyant ceiling."""
    if "ratings" not in summary:
        return
    table = Table(title="V18 ratings")
    table.add_column("band")
    table.add_column("games", justify="right")
    table.add_column("share", justify="right")
    for label, count in summary["ratings"].items():
        table.add_row(label, str(count), f"{100 * count / summary['games']:.1f}%")
    console.print(table)
    shares = ", ".join(f"{k} {100 * v:.1f}%" for k, v in summary["score_shares"].items())
    console.print(
        f"best score {summary['best_score']} (designers' record {DESIGNERS_BEST}); {shares}"
    )
    if "clairvoyant_mean" in summary:
        console.print(
            f"clairvoyant ceiling: mean {summary['clairvoyant_mean']:.2f} on the same piles, "
            f"gap {summary['clairvoyant_gap']:.2f} points"
        )


VERSO_EXTRAS = SimulateExtras(
    observer="otherside.research.verso_stats:VersoStats",
    observer_options=_observer_options,
    summarize=summarize_verso,
    report=report_verso,
    columns=(("squares", "squares_per_game"),),
    seats_example="ismcts:iterations=300,greedy",
    players_help="Player count when --seats names one bot (1 for solo).",
    ceiling_help="Solo: also compute the clairvoyant ceiling, the best score knowing every face "
    "of the same pile (exact, seconds to a minute per game).",
)


def register_verso_simulate(verso_app: typer.Typer) -> None:
    """Add ``simulate`` to the ``otherside verso`` group."""
    add_simulate_command(verso_app, "verso", VERSO_EXTRAS, default_seats="greedy,random")
