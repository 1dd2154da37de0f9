"""``otherside rules GAME``: the rules in the project's words, in the terminal."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from otherside.cli.main import app
from otherside.guide import GAMES

runner = CliRunner()


@pytest.mark.parametrize(
    ("game", "words"),
    [
        ("verso", ("Banking a series [V10–V11]", "Deck legend", "series blue 3 *4 5")),
        ("versus", ("Attraction [S10–S11]", "●3·2", "2:-5>2:-1")),
        ("rectoverso", ("Building [R3–R6]", "up to 20 s", "×")),
    ],
)
def test_rules_prints_the_text_of_each_game(game: str, words: tuple[str, ...]) -> None:
    result = runner.invoke(app, ["rules", game])
    assert result.exit_code == 0, result.output
    for word in words:
        assert word in result.output
    assert "Rule references" in result.output


def test_rules_of_an_unknown_game_lists_the_games() -> None:
    result = runner.invoke(app, ["rules", "chess"])
    assert result.exit_code == 2
    assert all(game in result.output for game in GAMES)
