"""``otherside versus play`` and ``replay`` through typer's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from otherside.cli.main import app
from otherside.cli.versus_render import board_text
from otherside.games.versus import new_game, view

runner = CliRunner()


def test_board_draws_91_cells_with_pieces_and_targets() -> None:
    text = board_text(view(new_game().apply("0:-4>0:-3"), None)).plain
    assert text.count("▲VS▲") == 2
    assert text.count("·") == 10  # ten stones, b·(5-b)
    assert " 1·4 " in text and " 4·1 " in text
    cells = text.count(":")  # every empty cell shows its q:r
    assert cells + 10 + 2 == 91


def test_human_against_greedy_with_moves_listing_and_errors(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    typed = "moves 0:-4\nmoves 0:4\n0:-4>0:-2\nnonsense\n0:-4>0:-3\nresign\n"
    result = runner.invoke(
        app,
        ["versus", "play", "--seats", "human,greedy", "--seed", "1", "--record", str(record)],
        input=typed,
    )
    assert result.exit_code == 0, result.output
    assert "0:-4: 0:-4>0:-5, 0:-4>1:-5, 0:-4>-1:-4, 0:-4>-1:-3, 0:-4>0:-3" in result.output
    assert "0:4: no legal ply (the piece is Brown's)" in result.output
    assert "a stone moves exactly one cell (S7)" in result.output
    assert "a ply is written <from>><to>" in result.output
    assert "Brown wins (Blue resigned)" in result.output
    data = json.loads(record.read_text())
    assert data["game"] == "versus" and data["plies"][0] == "0:-4>0:-3"
    assert data["plies"][-1] == "resign" and len(data["plies"]) == 3

    replayed = runner.invoke(app, ["versus", "replay", str(record)])
    assert replayed.exit_code == 0, replayed.output
    assert "3. Blue  resign" in replayed.output and "Blue resigned" in replayed.output
    partial = runner.invoke(app, ["versus", "replay", str(record), "--ply", "1"])
    assert "after 1 of 3 actions" in partial.output
    as_json = runner.invoke(app, ["versus", "replay", str(record), "--json"])
    final = json.loads(as_json.output)
    assert final["record"] == data
    assert final["view"]["outcome"]["winners"] == [1]


def test_bots_play_each_other_to_the_end() -> None:
    result = runner.invoke(app, ["versus", "play", "--seats", "greedy,random", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "game over" in result.output


def test_draw_offer_from_a_human_is_answered_by_the_bot() -> None:
    result = runner.invoke(
        app,
        ["versus", "play", "--seats", "human,search", "--think", "0.05"],
        input="offer-draw\nresign\n",
    )
    assert result.exit_code == 0, result.output
    assert "Brown (search): decline-draw" in result.output or "draw agreed" in result.output


def test_bad_seats_and_bad_records_are_reported(tmp_path: Path) -> None:
    result = runner.invoke(app, ["versus", "play", "--seats", "human,wizard"])
    assert result.exit_code == 2 and "unknown seat 'wizard'" in result.output
    result = runner.invoke(app, ["versus", "play", "--seats", "human"])
    assert result.exit_code == 2 and "needs 2 seats" in result.output
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"game": "versus", "options": {}, "plies": ["0:4>0:3"]}))
    result = runner.invoke(app, ["versus", "replay", str(bad)])
    assert result.exit_code == 2 and "action 0: '0:4>0:3' is illegal" in result.output


def test_closed_input_abandons_the_game() -> None:
    result = runner.invoke(app, ["versus", "play", "--seats", "human,greedy"], input="")
    assert result.exit_code == 1 and "abandoned" in result.output


def test_simulate_reuses_the_shared_simulator_and_its_json_keys() -> None:
    result = runner.invoke(
        app,
        [
            "versus",
            "simulate",
            "--seats",
            "greedy,random",
            "--games",
            "2",
            "--seed",
            "1",
            "--workers",
            "1",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["game"] == "versus" and summary["games"] == 2 and summary["rotate"] is True
    for key in ("seats", "mean_scores", "win_share", "win_ci95", "median_decision_ms"):
        assert key in summary
