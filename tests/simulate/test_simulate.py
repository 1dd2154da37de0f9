"""The simulator: same seed same games whatever the workers, seat rotation, the JSON summary."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from otherside.bots import make_bot, play_match
from otherside.bots.match import Step
from otherside.cli.main import app
from otherside.cli.verso_simulate import summarize_verso
from otherside.games import verso
from otherside.research.verso_solver import clairvoyant_score
from otherside.research.verso_stats import SOLO_FIGURES, SoloGap, VersoStats
from otherside.simulate.runner import (
    GameResult,
    SimSpec,
    parse_seats,
    play_one,
    simulate,
    summarize,
    wilson,
)


def _deterministic(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k != "median_decision_ms"}


def test_same_seed_same_summary_whatever_the_workers() -> None:
    spec = SimSpec("verso", tuple(parse_seats("greedy,random,greedy")), seed=4)
    one = summarize(spec, simulate(spec, 8, workers=1))
    two = summarize(spec, simulate(spec, 8, workers=2))
    assert _deterministic(one) == _deterministic(two)
    other = summarize(SimSpec("verso", spec.seats, seed=5), simulate(spec, 8, workers=1))
    assert one["mean_scores"] == other["mean_scores"]  # summarize only reads the results
    assert _deterministic(summarize(spec, simulate(SimSpec("verso", spec.seats, 6), 8))) != (
        _deterministic(one)
    )


def test_rotation_keeps_figures_per_seat_label() -> None:
    spec = SimSpec("verso", tuple(parse_seats("greedy,random")), seed=2, rotate=True)
    assert spec.seating(0) == [0, 1] and spec.seating(1) == [1, 0]
    result = play_one(spec, 1)  # greedy sits in seat 1 in game 1, but is label 0
    assert result.scores[0] > result.scores[1]


def test_wilson_interval_matches_the_textbook_and_never_collapses() -> None:
    # Published Wilson 95% intervals: 10/20 -> 0.299-0.701; 0/20 -> 0-0.161; 20/20 -> 0.839-1.
    assert wilson(0.5, 20) == pytest.approx((0.2993, 0.7007), abs=1e-4)
    assert wilson(0.0, 20) == pytest.approx((0.0, 0.1611), abs=1e-4)
    assert wilson(1.0, 20) == pytest.approx((0.8389, 1.0), abs=1e-4)
    low, high = wilson(0.3, 1000)
    assert low < 0.3 < high and high - low < 0.06  # narrows with more games
    with pytest.raises(ValueError, match="at least one game"):
        wilson(0.5, 0)


def test_summary_interval_is_wilson_and_solo_wins_are_certain() -> None:
    def result(i: int, scores: tuple[int, ...], wins: tuple[float, ...]) -> GameResult:
        return GameResult(i, i, scores, wins, 10, tuple(() for _ in scores))

    duel = SimSpec("verso", tuple(parse_seats("greedy,random")), seed=1)
    swept = summarize(duel, [result(i, (40, 20), (1.0, 0.0)) for i in range(20)])
    assert swept["win_share"] == [1.0, 0.0]
    assert swept["win_ci95"] == [[0.8389, 1.0], [0.0, 0.1611]]  # not 100-100% and 0-0%
    solo = SimSpec("verso", tuple(parse_seats("greedy")), seed=1)
    assert summarize(solo, [result(i, (40,), (1.0,)) for i in range(5)])["win_ci95"] == [[1.0, 1.0]]


def test_seat_parsing_errors() -> None:
    with pytest.raises(ValueError, match="3 seats given for 2 players"):
        parse_seats("a,b,c", players=2)
    with pytest.raises(ValueError, match="key=value"):
        parse_seats("ismcts:200")
    with pytest.raises(ValueError, match="unknown verso bot"):
        simulate(SimSpec("verso", tuple(parse_seats("oracle")), 1), 2)


def test_cli_json_summary_keys() -> None:
    args = ["verso", "simulate", "--seats", "greedy,random", "--games", "6", "--workers", "1"]
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    for key in (
        "games",
        "seats",
        "mean_scores",
        "win_share",
        "win_ci95",
        "sd_scores",
        "mean_length",
        "squares_per_game",
    ):
        assert key in summary
    assert summary["games"] == 6 and summary["seats"] == ["greedy", "random"]
    assert len(summary["mean_scores"]) == len(summary["win_share"]) == 2


def test_cli_solo_ratings_and_plot(tmp_path) -> None:
    plot = tmp_path / "scores.png"
    args = ["verso", "simulate", "--seats", "greedy", "--games", "3", "--workers", "1"]
    result = CliRunner().invoke(app, [*args, "--json", "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert sum(summary["ratings"].values()) == 3
    assert set(summary["score_shares"]) == {"50+", "60+", "65+"}
    assert plot.stat().st_size > 0
    table = CliRunner().invoke(app, args)
    assert "V18 ratings" in table.stdout


def test_verso_stats_ceiling_and_gap() -> None:
    """The observer solves the pile of a solo game; the summary reports the gap to it."""
    pile = [verso.card_name(oc) for oc in verso.new_game(1, seed=3).table.pile[:14]]
    stats = VersoStats(ceiling=True)
    state = verso.new_game(1, pile=pile)
    result = play_match(
        verso.GAME, state, [make_bot("verso", "greedy")], random.Random(1), on_step=stats.on_step
    )
    extras = stats.finish(result)
    assert extras["clairvoyant"] >= result.outcome.scores[0]
    spec = SimSpec("verso", tuple(parse_seats("greedy")), 1)
    game = GameResult(0, 0, result.outcome.scores, (1.0,), len(result.actions), ((0.001,),), extras)
    summary = summarize(spec, [game])
    summarize_verso(summary, [game])
    assert summary["clairvoyant_mean"] == extras["clairvoyant"]
    assert summary["clairvoyant_gap"] == extras["clairvoyant"] - result.outcome.scores[0]


def test_cli_reports_bad_seats() -> None:
    result = CliRunner().invoke(app, ["verso", "simulate", "--seats", "oracle", "--games", "2"])
    assert result.exit_code == 2
    assert "unknown verso bot" in result.output
    args = ["verso", "simulate", "--seats", "greedy:depth=2", "--games", "2"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert "verso bot 'greedy' has no option depth" in result.output


def test_solo_gap_counts_the_bot_and_the_clairvoyant_line() -> None:
    """V8, V12, V16, V17 as the engine reports them: the bot's figures add up to its game, the
    line's to the clairvoyant optimum of the same pile."""
    pile = [verso.card_name(oc) for oc in verso.new_game(1, seed=3).table.pile[:16]]
    gap, stats = SoloGap(), VersoStats()

    def both(step: Step) -> None:
        gap.on_step(step)
        stats.on_step(step)

    state = verso.new_game(1, pile=pile)
    result = play_match(
        verso.GAME, state, [make_bot("verso", "greedy")], random.Random(2), on_step=both
    )
    extras = gap.finish(result)
    mine, best = extras["figures"], extras["clairvoyant_figures"]
    assert set(mine) == set(best) == {key for key, _ in SOLO_FIGURES}
    assert mine["score"] == result.outcome.scores[0]
    assert mine["squares"] == stats.finish(result)["squares_per_game"][0]
    assert mine["taken"] + mine["series"] + (mine["final_series"] > 0) == len(result.actions)
    assert mine["flips"] == sum(a == "flip" for a in result.actions)
    assert best["score"] == clairvoyant_score(pile) >= mine["score"]
    assert best["score"] == best["series_points"] + best["final_series"] + 7 * best["squares"]


def test_solo_gap_is_for_solo_games() -> None:
    gap = SoloGap()
    state = verso.new_game(2, seed=1)
    bots = [make_bot("verso", "greedy"), make_bot("verso", "greedy")]
    result = play_match(verso.GAME, state, bots, random.Random(1), on_step=gap.on_step)
    with pytest.raises(ValueError, match="solo games, not 2 players"):
        gap.finish(result)
