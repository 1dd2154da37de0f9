"""``otherside <game> simulate``: each game's own help, errors before any progress, the plot."""

from __future__ import annotations

from itertools import pairwise

import pytest
from typer.testing import CliRunner

from otherside.cli.main import app
from otherside.cli.simulate import score_bins, score_figure

runner = CliRunner()


def help_of(game: str) -> str:
    result = runner.invoke(app, [game, "simulate", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())


def test_versus_help_speaks_of_versus_only() -> None:
    text = help_of("versus")
    assert "search:think=0.1,greedy" in text
    for verso_only in ("ismcts", "Verso", "solo", "--players", "--ceiling"):
        assert verso_only not in text


def test_verso_help_offers_verso_bots_and_its_own_options() -> None:
    text = help_of("verso")
    assert "ismcts:iterations=300,greedy" in text
    assert "--players" in text and "--ceiling" in text
    assert "search" not in text and "VERSUS" not in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["verso", "simulate", "--seats", "foo"], "unknown verso bot 'foo'"),
        (["versus", "simulate", "--seats", "ismcts,greedy"], "unknown versus bot 'ismcts'"),
        (["verso", "simulate", "--seats", "greedy:depth=2"], "has no option depth"),
    ],
)
def test_bad_seats_are_refused_before_any_game_is_played(args: list[str], message: str) -> None:
    result = runner.invoke(app, [*args, "--games", "2", "--workers", "1"])
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())
    assert "games" not in result.output.split("error")[0]  # no progress bar drawn before it
    assert "0/2" not in result.output


@pytest.mark.parametrize(("games", "bins"), [(5, (2, 5)), (40, (5, 12)), (2000, (61, 61))])
def test_histogram_bins_suit_the_number_of_games(games: int, bins: tuple[int, int]) -> None:
    """About √games bins over the spread (here 0-60), never narrower than one score."""
    scores = [(7 * i) % 61 for i in range(games)]
    edges = score_bins([scores, [s // 2 for s in scores]])
    assert bins[0] <= len(edges) - 1 <= bins[1]
    widths = {b - a for a, b in pairwise(edges)}
    assert len(widths) == 1 and widths.pop() >= 1  # equal whole-number widths
    assert edges[0] <= min(scores) and max(scores) < edges[-1]


class Played:
    """What the plot reads of a game result: the scores by seat label."""

    def __init__(self, *scores: int) -> None:
        self.scores = scores


def test_histogram_counts_games_in_whole_numbers() -> None:
    """Three games: matplotlib's default ticks would be 0, 0.25, 0.5 … games."""
    summary = {"game": "verso", "games": 3, "seed": 1, "seats": ["greedy", "random"]}
    summary["mean_scores"] = [40.0, 20.0]
    figure = score_figure(summary, [Played(38, 19), Played(40, 22), Played(42, 19)])
    axes = figure.axes[0]
    ticks = [t for t in axes.get_yticks() if axes.get_ylim()[0] <= t <= axes.get_ylim()[1]]
    assert len(ticks) >= 2 and all(float(t).is_integer() for t in ticks)
    assert axes.get_ylabel() == "games"
