"""``otherside --help`` and the players' commands' help follow ``LANG`` and ``--lang``: the real
command, run in its own process with the locale in its environment."""

from __future__ import annotations

import re

import pytest

from otherside.cli import help_words, language
from otherside.cli.main import app
from tests.cli.test_language_cli import otherside_command

# Words of the English help that a German help never shows (Typer's own words among them).
ENGLISH = re.compile(
    r"\b(Usage|Options|Commands|Arguments|Show this message|the|a|of|and|or|to|from|game|"
    r"games|play|players|record|seat|rules|cards?|board|default|required)\b"
)
# The parts of a help that stay as they are in every language: the program's name and its
# options and values (--seats, 'human'), the metavariables, the commands' names.
NOT_WORDS = re.compile(
    r"python -m otherside|otherside|--[\w-]+|'[^']*'|<[^>]*>|\[[A-Z]+\]|[A-Z_]{2,}|"
    r"\b(verso|versus|rectoverso|rules|serve|bot|play|solo|replay|simulate|train-value|card|"
    r"solve|generate|puzzle|both|recto|easy|hard|random|human|JSON|PNG)\b"
)

PLAYER_HELP = [
    (["--help"], ["Aufruf:", "genaue Regeln", "Befehle", "Optionen", "Die Sprache der Spiele"]),
    (["verso", "play", "--help"], ["Anzahl der Spieler, 1 bis 6", "[Standard: 0]"]),
    (["verso", "solo", "--help"], ["Wer spielt:", "Diese Hilfe zeigen und beenden."]),
    (["versus", "play", "--help"], ["Sekunden pro Zug für den Such-Bot."]),
    (["versus", "replay", "--help"], ["Das Spielbrett nach so vielen Zügen.", "Argumente"]),
    (["rules", "--help"], ["Den Text seitenweise zeigen", "Eines von:"]),
    (["rectoverso", "puzzle", "--help"], ["Allein üben", "die Seiten, die du siehst"]),
]


@pytest.mark.parametrize(("args", "german"), PLAYER_HELP, ids=[" ".join(a) for a, _ in PLAYER_HELP])
def test_a_players_help_is_german_under_a_german_locale(args: list[str], german: list[str]) -> None:
    result = otherside_command(*args, env={"LANG": "de_DE.UTF-8"})
    assert result.returncode == 0, result.stderr
    out = " ".join(result.stdout.split())  # the help's lines joined, as Rich wrapped them
    for words in german:
        assert words in out, (words, result.stdout)
    left = ENGLISH.findall(NOT_WORDS.sub(" ", out))
    assert not left, (left, result.stdout)


def test_lang_outranks_the_locale_and_english_stays_english() -> None:
    french = otherside_command("--lang", "fr", "--help", env={"LANG": "de_DE.UTF-8"})
    assert french.returncode == 0, french.stderr
    assert "Utilisation :" in french.stdout and "Commandes" in french.stdout
    assert "Afficher cette aide et quitter." in french.stdout
    dutch = otherside_command("versus", "--help", "--lang", "nl", env={})
    assert "Het speelbord" not in dutch.stdout  # the group's help lists its commands
    assert "Gebruik:" in dutch.stdout and "Opdrachten" in dutch.stdout
    assert "VERSUS spelen in de terminal" in " ".join(dutch.stdout.split())
    english = otherside_command("--help", env={"LANG": "C"})
    assert "Usage:" in english.stdout and "Show this message and exit." in english.stdout
    assert "Aufruf" not in english.stdout


def test_a_developers_tool_keeps_its_options_english_but_its_line_in_the_menu_is_german() -> None:
    menu = otherside_command("verso", "--help", env={"LANG": "de_DE.UTF-8"})
    assert "Viele Bot-Partien mit Startwert spielen" in " ".join(menu.stdout.split())
    tool = otherside_command("verso", "simulate", "--help", env={"LANG": "de_DE.UTF-8"})
    assert tool.returncode == 0, tool.stderr
    assert "Optionen" in tool.stdout and "Number of games." in tool.stdout


# A mistyped command line, and the German error it gets: Typer's own words said again.
MISTYPED = [
    (["verso", "play", "--players", "two"], "Ungültiger Wert für '--players': eine ganze Zahl"),
    (["rules", "--game", "verso"], "Die Option --game gibt es nicht (mögliche Optionen: --pager)"),
    (["versus", "plya"], "Den Befehl 'plya' gibt es nicht. Meintest du 'play', 'replay'?"),
    (["verso", "replay"], "Das Argument 'file' fehlt."),
    (["versus", "play", "now", "please"], "Unerwartete zusätzliche Argumente (now please)"),
]


def _mistyped(
    args: list[str], lang: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> str:
    """The error ``otherside ARGS`` prints under ``LANG=lang``, run as ``main`` runs it (in
    this process: a parse error is printed before any command runs)."""
    for name in (*language.ENVIRONMENT, "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", lang)
    monkeypatch.setenv("COLUMNS", "120")
    with pytest.raises(SystemExit) as ended:
        help_words.run(app, args)
    assert ended.value.code == 2, args
    return " ".join(capsys.readouterr().err.split())


def test_a_mistyped_command_line_is_told_in_the_terminals_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        for args, german in MISTYPED:
            out = _mistyped(args, "de_DE.UTF-8", monkeypatch, capsys)
            assert german in out and "Fehler" in out and "Hilfe gibt" in out, (args, out)
            assert not ENGLISH.findall(NOT_WORDS.sub(" ", out)), (args, out)
    finally:
        # The last run puts Typer's words (kept in its module) back into English.
        english = _mistyped(["verso", "play", "--players", "two"], "C", monkeypatch, capsys)
    assert "Invalid value for '--players': a whole number is needed" in english
    assert "Error" in english and "for help" in english
