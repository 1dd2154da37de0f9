"""``otherside rectoverso``: card pictures and JSON, the solver, generation, the puzzle."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from otherside.cli.commands import rectoverso as command
from otherside.cli.main import app
from otherside.games.rectoverso.cards import standard_card, standard_construction

from ..games.rectoverso.helpers import FakeClock, build_order

runner = CliRunner()


def test_card_json_and_png(tmp_path: Path) -> None:
    png = tmp_path / "card12.png"
    result = runner.invoke(app, ["rectoverso", "card", "12", "--json", "--png", str(png)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    card = standard_card(12)
    assert data == {"number": 12, "difficulty": "easy", "front": list(card.front),
                    "back": list(card.back)}  # fmt: skip
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_card_in_the_terminal_and_bad_numbers() -> None:
    result = runner.invoke(app, ["rectoverso", "card", "40"])
    assert result.exit_code == 0 and "recto (front)" in result.output and "red" in result.output
    result = runner.invoke(app, ["rectoverso", "card", "65"])
    assert result.exit_code == 2 and "numbered 1 to 64" in result.output


def test_solve_a_standard_card_as_json() -> None:
    result = runner.invoke(app, ["rectoverso", "solve", "--card", "33", "--json", "--count", "5"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["matches"] is True and data["solutions"] == 5
    assert len(data["placements"]) == 11 and data["seconds"] >= 0


def test_solve_views_given_on_the_command_line() -> None:
    card = standard_card(7)
    args = ["rectoverso", "solve", "--front", "/".join(card.front), "--back", "/".join(card.back)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0 and "matches: True" in result.output
    impossible = ["rectoverso", "solve", "--front", "..y./kbyo", "--back", ".y../kbyo"]
    result = runner.invoke(app, impossible)
    assert result.exit_code == 1 and "no solution" in result.output
    result = runner.invoke(app, ["rectoverso", "solve", "--front", "kx", "--back", "kk"])
    assert result.exit_code == 2 and "4 characters" in result.output


def test_generate_cards_from_a_seed() -> None:
    result = runner.invoke(app, ["rectoverso", "generate", "--seed", "5", "--count", "2", "--hard"])
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert [line["seed"] for line in lines] == [5, 6]
    assert all(line["difficulty"] == "hard" for line in lines)


def test_puzzle_build_with_a_hint_and_score(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    monkeypatch.setattr(command, "clock", clock)
    order = build_order(standard_construction(2))
    lines = ["hint", "place red 0,0,0 1,0,0 2,0,0 0,1,0", "remove pink", "place black 0,0,9"]
    lines += [f"place {p}" for p in order]
    result = runner.invoke(app, ["rectoverso", "puzzle", "--card", "2"], input="\n".join(lines))
    assert result.exit_code == 0, result.output
    assert "hint: place" in result.output
    assert "red is not used at easy (R2)" in result.output
    assert "pink is not placed" in result.output
    assert "(R5)" in result.output
    assert "not placed: none" in result.output
    assert "bye" in result.output  # input ends: the puzzle quits


def test_puzzle_done_scores_by_time(monkeypatch: pytest.MonkeyPatch) -> None:
    class Ticking(FakeClock):
        def __call__(self) -> float:
            self.now += 25.0  # 25 s between the start and "done": 5 points
            return self.now

    monkeypatch.setattr(command, "clock", Ticking())
    moves = [f"place {p}" for p in build_order(standard_construction(2))]
    result = runner.invoke(
        app,
        ["rectoverso", "puzzle", "--card", "2", "--side", "verso"],
        input="\n".join([*moves, "done"]),
    )
    assert result.exit_code == 0, result.output
    assert "it matches! 25.0 s: 5 points (R14)" in result.output
    assert "recto (front)" not in result.output
