"""``otherside rectoverso``: card pictures and JSON, the solver, generation, the puzzle."""

from __future__ import annotations

import json
import re
import shlex
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
    assert "red is not used at easy (rule R2: difficulty)" in result.output
    assert "pink is not placed" in result.output
    assert "(rule R5: support)" in " ".join(result.output.split())
    assert "not placed: none" in result.output
    assert "Game stopped." in result.output  # input ends: the puzzle stops


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
    assert "it matches! 25.0 s: 5 points (rule R14: score by time)" in result.output
    assert "recto (front)" not in result.output


def puzzle(*args: str, input: str) -> str:
    result = runner.invoke(app, ["rectoverso", "puzzle", *args], input=input)
    assert result.exit_code == 0, result.output
    return result.output


def test_puzzle_done_with_pieces_unplaced_says_so_and_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """R6: a construction is finished only with every piece; 'done' before that is refused."""
    monkeypatch.setattr(command, "clock", FakeClock())
    moves = [f"place {p}" for p in build_order(standard_construction(5))]
    out = puzzle("--card", "5", input="\n".join(["done", *moves, "done"]))
    flat = " ".join(out.split())
    assert "not finished: black, white, grey" in flat and "are not placed yet (rule R6" in flat
    assert "0 points" not in flat
    assert "it matches! 0.0 s: 6 points (rule R14: score by time)" in flat


def test_puzzle_typo_lists_the_puzzle_commands_only() -> None:
    out = " ".join(puzzle("--card", "5", input="plcae black 0,0,0\n").split())
    line = out.split("'plcae black 0,0,0'", 1)[1].split(">")[0]
    for word in ("place", "remove", "hint", "done", "help", "quit"):
        assert word in line
    for word in ("turn", "reveal", "timeout"):
        assert word not in line


def test_puzzle_marks_the_cells_that_differ_from_the_card() -> None:
    """Card 5 shows orange (front) and pink (back) where white is put: both marked ×."""
    out = puzzle("--card", "5", input="place white 0,0,0\n")
    before, after = out.split("\n> ", 1)
    assert "×" not in before
    built = after.split("your construction", 1)[1]
    assert built.count(" w×") == 2
    assert "2 cells show a different colour from the card (marked ×)" in " ".join(after.split())


def test_puzzle_does_not_compare_the_side_it_does_not_show() -> None:
    """R17: with --side recto the back view is not compared (nor shown)."""
    out = puzzle("--card", "5", "--side", "recto", input="place white 0,0,0\n")
    after = out.split("\n> ", 1)[1]
    assert after.count("×") == 2  # the front view's cell, and the count's "(marked ×)"
    assert "1 cell shows a different colour from the card" in " ".join(after.split())


def test_puzzle_without_a_card_says_which_card_it_picked() -> None:
    out = puzzle(input="")
    number = int(re.search(r"card (\d+) \(easy\), picked at random: --card \1", out)[1])
    assert 1 <= number <= 32
    out = puzzle("--hard", input="")
    assert 33 <= int(re.search(r"card (\d+) \(hard\), picked at random", out)[1]) <= 64
    out = puzzle("--seed", "7", input="")
    assert "a generated card (seed 7, easy): --seed 7 plays it again" in " ".join(out.split())


def test_the_puzzle_stops_the_same_way() -> None:
    for stop in ("quit\n", "q\n", ""):
        result = runner.invoke(app, ["rectoverso", "puzzle", "--card", "5"], input=stop)
        assert result.exit_code == 0, result.output
        assert "Game stopped." in result.output


def test_the_readme_solve_example_solves() -> None:
    """The README's 'rectoverso solve --front … --back …' example answers with a construction."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    (example,) = re.findall(r"^otherside (rectoverso solve --front .*?)\s*(?:#.*)?$", readme, re.M)
    result = runner.invoke(app, shlex.split(example))
    assert result.exit_code == 0, result.output
    assert "matches: True" in result.output
    shown = readme.split(example, 1)[1].split("```")[2]  # the output block after the command
    placements = [line.strip() for line in result.output.splitlines() if line.startswith("  ")]
    assert all(p in shown for p in placements if re.match(r"^[a-z]+ \d", p))
