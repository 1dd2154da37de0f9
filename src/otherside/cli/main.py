"""The ``otherside`` command. Each module of ``otherside.cli.commands`` adds its commands:
one module per game (``verso``, ``versus``, ``rectoverso``) and one for the server."""

from __future__ import annotations

import importlib
import pkgutil

import typer

from otherside.cli import commands

app = typer.Typer(
    name="otherside",
    help="Verso, VERSUS and Recto Verso: exact rules, strong bots, terminal and browser play.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _register() -> None:
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(app)


_register()


def main() -> None:
    """Console-script entry point."""
    app()
