"""``otherside versus play`` and ``replay`` through typer's CliRunner."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner, Result

from otherside.cli.main import app
from otherside.cli.versus_render import (
    board_text,
    describe_attraction,
    flipped_cells,
    render,
    status_text,
)
from otherside.games.versus import new_game, view

runner = CliRunner()


def test_board_draws_91_cells_with_pieces_and_targets() -> None:
    text = board_text(view(new_game().apply("0:-4>0:-3"), None)).plain
    assert text.count("VS▲") == 2
    assert text.count("·") == 10  # ten stones, b·(5-b)
    assert "●1·4 " in text and "○4·1 " in text
    cells = text.count(":")  # every empty cell shows its q:r
    assert cells + 10 + 2 == 91


def play_against_greedy(record: Path, typed: str) -> Result:
    """Blue typed at the keyboard against greedy (seed 1), recorded."""
    result = runner.invoke(
        app,
        ["versus", "play", "--seats", "human,greedy", "--seed", "1", "--record", str(record)],
        input=typed,
    )
    assert result.exit_code == 0, result.output
    return result


def test_human_against_greedy_with_moves_listing_and_errors(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    typed = "moves 0:-4\nmoves 0:4\n0:-4>0:-2\nnonsense\n0:-4>0:-3\nresign\n"
    result = play_against_greedy(record, typed)
    assert "0:-4: 0:-4>0:-5, 0:-4>1:-5, 0:-4>-1:-4, 0:-4>-1:-3, 0:-4>0:-3" in result.output
    assert "0:4: no legal ply (the piece is Brown's)" in result.output
    assert "a stone moves exactly one cell (rule S7: moving a stone)" in " ".join(
        result.output.split()
    )
    assert "a ply is written <from>><to>" in result.output
    assert "Brown wins (Blue resigned)" in result.output
    data = json.loads(record.read_text())
    assert data["game"] == "versus" and data["plies"][0] == "0:-4>0:-3"
    assert data["plies"][-1] == "resign" and len(data["plies"]) == 3

    replayed = runner.invoke(app, ["versus", "replay", str(record)])
    assert replayed.exit_code == 0, replayed.output
    assert (
        "3. Blue (You)" in replayed.output
        and "resign" in replayed.output
        and "Blue resigned" in replayed.output
    )
    partial = runner.invoke(app, ["versus", "replay", str(record), "--ply", "1"])
    assert "after 1 of 3 actions" in partial.output
    as_json = runner.invoke(app, ["versus", "replay", str(record), "--json"])
    final = json.loads(as_json.output)
    assert final["record"] == {k: v for k, v in data.items() if k != "names"}
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


def plain(renderable: object, width: int = 100) -> str:
    """What a monochrome terminal of ``width`` columns shows."""
    console = Console(width=width, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


ATTRACTION = ("1:-4>1:-3", "-2:4>-2:3", "4:-4>5:-4", "-2:3>-2:2", "2:-5>3:-5", "-2:5>-2:3")
"""Greedy's answers to three plies (seed 1): its VERSUS pulls Blue's stone 5:-4 to -1:2 (S10)."""


def test_the_bots_attraction_is_told_in_words_and_its_stones_highlighted() -> None:
    typed = "".join(f"{ply}\n" for ply in ATTRACTION[::2]) + "quit\n"
    result = runner.invoke(
        app, ["versus", "play", "--seats", "human,greedy", "--seed", "1"], input=typed
    )
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    told = "Brown's VERSUS pulled ●3·2 from 5:-4 to -1:2 and flipped it: now Brown's"
    assert f"Brown (greedy): -2:5>-2:3 {told}" in out
    # At the human's next turn the board shows the stone, now Brown's, underlined.
    board = out.rsplit("Blue (You) to move", 1)[0]
    assert "○3·2" in board.rsplit("r= 2", 1)[1].split("r= 1")[0]

    state = new_game()
    for ply in ATTRACTION[:-1]:
        state = state.apply(ply)
    before, after = view(state, None), view(state.apply(ATTRACTION[-1]), None)
    assert describe_attraction(before, after) == [told]
    text = board_text(after, flipped_cells(before, after))
    underlined = [text.plain[s.start : s.end] for s in text.spans if "underline" in str(s.style)]
    assert "○3·2 " in underlined


def test_owners_targets_and_locks_read_without_colour() -> None:
    """S4/S9: each stone and VERSUS carries its owner's mark; targets and locks a ◇."""
    state = new_game()
    for ply in ("0:-4>0:-3", "0:4>0:3", "0:-3>0:-2", "0:3>0:2", "0:-2>-1:-1", "0:2>1:1"):
        state = state.apply(ply)
    state = state.apply("-1:-1>-1:0")  # Blue's stone onto the target -1:0: locked (S9)
    shown = plain(render(view(state, None)))
    rows = {m[1]: m[0] for m in re.finditer(r"^r=\s?(-?\d).*$", shown, re.M)}
    assert "●1·4◇" in rows["0"]  # Blue's, locked on a target
    assert "◇-3:0" in rows["0"] and "◇ 1:0" in rows["0"] and " 0:0 " in rows["0"]
    assert "○4·1 " in rows["1"]  # Brown's stone, unlocked
    assert "●VS▲" in rows["-5"] and "○VS▲" in rows["5"]
    assert "● Blue's" in shown and "○ Brown's" in shown and "◇ target" in shown


@pytest.mark.parametrize("width", [80, 72, 60, 48])
def test_the_board_keeps_its_shape_in_any_width_it_fits(width: int) -> None:
    shown = plain(render(view(new_game(), None)), width)
    lines = shown.splitlines()
    assert max(len(line.rstrip()) for line in lines) <= width
    rows = [line for line in lines if re.match(r"^(r=)?\s?-?\d ", line)]
    assert len(rows) == 11  # one line per row of the hexagon: nothing wrapped
    assert sum(row.count("●") + row.count("○") for row in rows) == 12  # 10 stones, 2 VERSUS
    if width < 72:
        assert "narrow terminal" in shown


def test_a_terminal_too_narrow_for_the_board_is_told_so() -> None:
    shown = plain(render(view(new_game(), None)), 40)
    assert "The terminal is 40 columns wide; the board needs" in " ".join(shown.split())


def test_status_line_explains_the_quiet_counter() -> None:
    shown = " ".join(plain(status_text(view(new_game().apply("0:-4>0:-3"), None))).split())
    assert "1/100 plies without a lock" in shown


def test_replay_names_the_players_and_refuses_a_ply_past_the_end(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    play_against_greedy(record, "0:-4>0:-3\nresign\n")
    replayed = runner.invoke(app, ["versus", "replay", str(record)])
    assert "1. Blue (You)" in replayed.output and "2. Brown (greedy)" in replayed.output
    past = runner.invoke(app, ["versus", "replay", str(record), "--ply", "99"])
    assert past.exit_code == 2
    error = " ".join(re.sub("[│╭╮╰╯─]", " ", past.output).split())
    assert "--ply: 99 is past the end of the record (3 actions): choose 0 to 3" in error
