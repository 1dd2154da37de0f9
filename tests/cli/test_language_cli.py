"""The terminal speaks the player's language: ``--lang``, else ``LC_ALL`` / ``LC_MESSAGES`` /
``LANG``; run as a player runs it, in a separate process with the locale in its environment."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import otherside
from otherside.cli import language
from otherside.cli.main import app
from otherside.cli.verso_render import RATINGS, describe_events
from otherside.games.verso import RATING_BANDS
from otherside.guide import rules_text

SOURCE = str(Path(otherside.__file__).resolve().parents[1])


def otherside_command(
    *args: str, env: dict[str, str], stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """``otherside ARGS`` in a new process whose locale is only what ``env`` says."""
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in (*language.ENVIRONMENT, "LANGUAGE")
    }
    environment.update(env, PYTHONPATH=SOURCE, COLUMNS="120", PYTHONIOENCODING="utf-8")
    return subprocess.run(
        [sys.executable, "-c", "from otherside.cli.main import main; main()", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=environment,
        timeout=120,
        check=False,
    )


def test_the_rules_follow_lang_and_the_game_follows_lang_option() -> None:
    rules = otherside_command("rules", "verso", "--no-pager", env={"LANG": "de_DE.UTF-8"})
    assert rules.returncode == 0, rules.stderr
    assert "Straße werten [V10–V11]" in rules.stdout and "Auslage" in rules.stdout
    assert "Banking a series" not in rules.stdout
    # --lang wins over the environment's French.
    game = otherside_command(
        "--lang", "de", "verso", "play", "--seats", "human,random", "--seed", "4",
        "--delay", "0", env={"LANG": "fr_FR.UTF-8"}, stdin="x\nquit\n",
    )  # fmt: skip
    assert game.returncode == 0, game.stderr
    out = game.stdout
    assert "Du bist am Zug" in out and "Erlaubte Züge:" in out
    assert "'x' ist kein Zug" in out and "Partie beendet." in out
    assert "Stapel 30 Karten" in out
    assert "to play" not in out and "Legal moves" not in out
    # --lang may also follow the command, as a player would add it.
    dutch = otherside_command("rules", "verso", "--no-pager", "--lang", "nl", env={})
    assert dutch.returncode == 0 and "Een reeks laten tellen [V10–V11]" in dutch.stdout


def test_lc_all_outranks_lang_and_an_unknown_locale_reads_english() -> None:
    french = otherside_command(
        "versus", "replay", "/nonexistent.json", env={"LANG": "de_DE", "LC_ALL": "fr_BE.UTF-8"}
    )
    assert french.returncode == 2
    assert "erreur" in french.stdout
    japanese = otherside_command("rules", "versus", "--no-pager", env={"LANG": "ja_JP.UTF-8"})
    assert japanese.returncode == 0 and "Attraction [S10–S11]" in japanese.stdout


def test_an_unknown_lang_option_is_refused_with_the_languages() -> None:
    result = CliRunner().invoke(app, ["--lang", "xx", "rules", "verso"])
    assert result.exit_code == 2
    assert all(code in result.output for code in ("en", "de", "fr", "nl"))


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("de", ("Endstand", "Partie vorbei", "Sieg")),
        ("fr", ("Scores finaux", "Partie terminée", "gagnant")),
        ("nl", ("Eindstand", "Spel voorbij", "winnaar")),
    ],
)
def test_a_bots_game_is_told_in_the_chosen_language(lang: str, words: tuple[str, ...]) -> None:
    args = ["--lang", lang, "verso", "play", "--seats", "random,random", "--seed", "2"]
    result = CliRunner().invoke(app, [*args, "--delay", "0"])
    assert result.exit_code == 0, result.output
    assert all(word in result.output for word in words), result.output[-600:]
    assert "Final scores" not in result.output


def test_the_rules_command_prints_the_guide_of_the_chosen_language() -> None:
    for lang in ("de", "fr", "nl"):
        result = CliRunner().invoke(app, ["--lang", lang, "rules", "rectoverso", "--no-pager"])
        assert result.exit_code == 0
        lines = rules_text("rectoverso", lang).splitlines()
        heading = next(line for line in lines if line.startswith("## "))
        assert heading.removeprefix("## ").split(" [")[0] in result.output


def test_every_solo_rating_and_end_reason_of_verso_is_a_message() -> None:
    """The terminal says V18's ratings in the reader's language: the list can't fall behind."""
    assert tuple(label for _, label in RATING_BANDS) == RATINGS
    language.use("de")
    lines = describe_events([{"type": "end", "reason": "pile empty"}], ["Du"])
    assert lines[0].plain == "Partie vorbei: Stapel aufgebraucht."
