"""The ``otherside`` command. Each module of ``otherside.cli.commands`` adds its commands:
one module per game (``verso``, ``versus``, ``rectoverso``) and one for the server."""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys
from typing import Annotated

import typer

from otherside.cli import commands, help_words, language
from otherside.i18n import N_

app = typer.Typer(
    name="otherside",
    help=N_("Verso, VERSUS and Recto Verso: exact rules, strong bots, terminal and browser play."),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def choose_language(
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            metavar="LANGUAGE",
            help=N_(
                "The language of the games' words: en, de, fr or nl "
                "(default: the terminal's, from LC_ALL, LC_MESSAGES or LANG)."
            ),
        ),
    ] = None,
) -> None:
    """Verso, VERSUS and Recto Verso: exact rules, strong bots, terminal and browser play."""
    try:
        language.use(language.choose(lang, os.environ))
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--lang") from None


def _register() -> None:
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(app)


_register()


def lang_first(args: list[str]) -> list[str]:
    """``args`` with ``--lang`` moved before the command, so that a player may add it anywhere
    (``otherside verso solo --lang de``); what follows ``--`` is left alone.

    >>> lang_first(["verso", "solo", "--lang", "de", "--seed", "3"])
    ['--lang', 'de', 'verso', 'solo', '--seed', '3']
    >>> lang_first(["rules", "--lang=fr", "versus", "--", "--lang", "x"])
    ['--lang=fr', 'rules', 'versus', '--', '--lang', 'x']
    """
    moved: list[str] = []
    rest: list[str] = []
    index = 0
    while index < len(args):
        word = args[index]
        if word == "--":
            rest += args[index:]
            break
        if word == "--lang" and index + 1 < len(args):
            moved += args[index : index + 2]
            index += 2
            continue
        (moved if word.startswith("--lang=") else rest).append(word)
        index += 1
    return moved + rest


def main() -> None:
    """Console-script entry point: the help, too, in the terminal's language."""
    help_words.run(app, lang_first(sys.argv[1:]))
