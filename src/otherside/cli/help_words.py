"""``otherside --help`` in the terminal's language.

The help of the commands (``typer.Typer(help=…)``, ``command(help=…)``, ``Option(help=…)``) is
written once in English and marked with ``N_`` where it is written, so that it is a message of
the catalogs. Typer builds the help from those texts when it parses ``--help``, before the
``--lang`` callback runs: so :func:`early_language` picks the language from the command line and
the environment first, and :func:`say_help` puts the help in that language into the command
tree (with Typer's own words: the panels' titles, the help option, the usage line) before the
command line is parsed.

Which help is translated: every command's one-line help (menus show them all), and the options
of the commands players run (``rules``; ``verso play|solo|replay``; ``versus play|replay``;
``rectoverso card|solve|puzzle``). The options of the tools for hosts and developers
(``serve``, ``bot run``, ``simulate``, ``train-value``, ``rectoverso generate``) stay English,
like the server's and the programs' documentation they refer to.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import typer
import typer.main
import typer.rich_utils

from otherside.cli import error_words, language
from otherside.i18n import N_, say

# Typer's words around the help (typer.rich_utils reads these when it draws the help).
PANELS = {
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "DEFAULT_STRING": N_("[default: {}]"),
    "REQUIRED_LONG_STRING": N_("[required]"),
    "ERRORS_PANEL_TITLE": N_("Error"),
    "RICH_HELP": N_("Try [blue]'{command_path} {help_option}'[/] for help."),
    "ABORTED_TEXT": N_("Aborted."),
}
HELP_OPTION = N_("Show this message and exit.")
USAGE = N_("Usage:")
_ENGLISH_PANELS = {name: getattr(typer.rich_utils, name) for name in PANELS}


def early_language(args: Sequence[str], environ: Mapping[str, str]) -> str:
    """The language of this run as the command line (``--lang``, where :func:`lang_first`
    put it) and the environment name it, before Typer parses anything; an unknown ``--lang``
    reads the environment's (the callback refuses it afterwards).

    >>> early_language(["--lang", "fr", "rules"], {"LANG": "de_DE"})
    'fr'
    >>> early_language(["--lang=xx", "--help"], {"LANG": "nl_NL.UTF-8"})
    'nl'
    """
    given = None
    for index, word in enumerate(args):
        if word == "--":
            break
        if word == "--lang" and index + 1 < len(args):
            given = args[index + 1]
        elif word.startswith("--lang="):
            given = word.partition("=")[2]
    try:
        return language.choose(given, environ)
    except ValueError:
        return language.language_from(environ)


# Typer's help formatter (its own copy of Click's), reached through the context that uses it.
_HelpFormatter: Any = typer.Context.formatter_class


class _Formatter(_HelpFormatter):
    """Typer's help formatter with the usage line's prefix in the run's language."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        """The usage line (``Usage: otherside …``), its prefix said in the run's language."""
        said = f"{say(language.current(), USAGE)} " if prefix is None else prefix
        super().write_usage(prog, args, said)


class _Context(typer.Context):
    """A command's context whose help is formatted by :class:`_Formatter`."""

    formatter_class = _Formatter


def say_help(command: Any, chosen: str) -> None:
    """Put the help of ``command`` (a Click command built by Typer) and of every command under
    it into ``chosen``: texts that are catalog messages are said in it, others stay."""
    for name, english in _ENGLISH_PANELS.items():
        setattr(typer.rich_utils, name, say(chosen, english))
    _say_command(command, chosen, command.name or "otherside")


def _say_command(command: Any, chosen: str, name: str) -> None:
    if command.help:
        command.help = say(chosen, command.help)
    if command.short_help:
        command.short_help = say(chosen, command.short_help)
    for param in command.params:
        if getattr(param, "help", None):
            param.help = say(chosen, param.help)
    command.context_class = _Context
    # The help option is made on first use and kept: make it now, with its words said.
    helper = command.get_help_option(_Context(command, info_name=name))
    if helper is not None:
        helper.help = say(chosen, HELP_OPTION)
    for sub_name, sub in getattr(command, "commands", {}).items():
        _say_command(sub, chosen, sub_name)


def run(app: typer.Typer, args: list[str]) -> Any:
    """Run ``app`` on ``args`` with its help in the run's language."""
    chosen = early_language(args, os.environ)
    language.use(chosen)
    command = typer.main.get_command(app)
    say_help(command, chosen)
    error_words.use()
    return command(args=args)
