"""The ``otherside`` command. Each module of ``otherside.cli.commands`` adds its commands:
one module per game (``verso``, ``versus``, ``rectoverso``) and one for the server."""

from __future__ import annotations

import importlib
import os
import pkgutil
from typing import Annotated

import typer

from otherside.cli import commands, language

app = typer.Typer(
    name="otherside",
    help="Verso, VERSUS and Recto Verso: exact rules, strong bots, terminal and browser play.",
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
            help="The language of the games' words: en, de, fr or nl "
            "(default: the terminal's, from LC_ALL, LC_MESSAGES or LANG).",
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


def main() -> None:
    """Console-script entry point."""
    app()
