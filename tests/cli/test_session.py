"""Quitting works the same in every terminal game (the puzzle: test_rectoverso_cli), and what
was played is saved and replays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from otherside.cli.main import app

runner = CliRunner()

PLAY = {
    "verso": ["verso", "play", "--seats", "human,greedy", "--seed", "5", "--delay", "0"],
    "versus": ["versus", "play", "--seats", "human,greedy", "--seed", "5"],
}
FIRST_MOVE = {"verso": "draw\n", "versus": "0:-4>0:-3\n"}
ACTIONS = {"verso": "actions", "versus": "plies"}


@pytest.mark.parametrize("game", sorted(PLAY))
@pytest.mark.parametrize("stop", ["quit\n", "exit\n", "q\n", ""], ids=["quit", "exit", "q", "eof"])
def test_quit_or_end_of_input_stops_and_saves_the_game_so_far(
    tmp_path: Path, game: str, stop: str
) -> None:
    record = tmp_path / "stopped.json"
    result = runner.invoke(
        app, [*PLAY[game], "--record", str(record)], input=FIRST_MOVE[game] + stop
    )
    assert result.exit_code == 0, result.output
    assert "Game stopped." in result.output
    assert "".join(f"Record written to {record}".split()) in "".join(result.output.split())
    data = json.loads(record.read_text(encoding="utf-8"))
    assert len(data[ACTIONS[game]]) == 2  # the human's move and the bot's answer
    assert data["names"] == (["You", "greedy 1"] if game == "verso" else ["You", "greedy"])

    replayed = runner.invoke(app, [game, "replay", str(record)])
    assert replayed.exit_code == 0, replayed.output
    assert "before the end of the game" in replayed.output


@pytest.mark.parametrize("game", sorted(PLAY))
def test_ctrl_c_at_the_prompt_stops_like_quit(
    tmp_path: Path, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: object, **kwargs: object) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("rich.console.Console.input", interrupted)
    record = tmp_path / "interrupted.json"
    result = runner.invoke(app, [*PLAY[game], "--record", str(record)])
    assert result.exit_code == 0, result.output
    assert "Game stopped." in result.output
    assert json.loads(record.read_text(encoding="utf-8"))[ACTIONS[game]] == []
