"""``otherside rules GAME``: the rules of a game in the project's own words and the terminal's
language (``--lang``, ``LANG``; English for a language without a guide), paged."""

from __future__ import annotations

import os
from typing import Annotated

import typer
from rich.console import Console
from rich.markdown import Markdown

from otherside.cli.language import current, t
from otherside.guide import GAMES, rules_text
from otherside.i18n import N_


def _pager_shows_colour() -> bool:
    """Whether the pager will show Rich's styles: ``less`` does once ``LESS`` holds ``R``.

    Like git, an unset ``LESS`` is set to ``FRX`` (quit if the text fits one screen, keep
    colours, leave the text on screen); another pager gets plain text.
    """
    pager = os.environ.get("PAGER", "less")
    if os.path.basename(pager.split()[0] if pager.split() else "") != "less":
        return False
    os.environ.setdefault("LESS", "FRX")
    return "R" in os.environ["LESS"]


def rules_command(
    game: Annotated[
        str,
        typer.Argument(
            metavar="GAME", help=N_("One of: verso, versus, rectoverso."), show_default=False
        ),
    ],
    pager: Annotated[
        bool, typer.Option(help=N_("Page the text (when the output is a terminal)."))
    ] = True,
) -> None:
    """Print the rules of GAME (verso, versus or rectoverso), paged in a terminal."""
    name = game.strip().lower()
    if name not in GAMES:
        raise typer.BadParameter(
            t("{game!r} is not a game; choose {games}", game=game, games=", ".join(GAMES))
        )
    console = Console(highlight=False)
    text = Markdown(rules_text(name, current()))
    if pager and console.is_terminal:
        with console.pager(styles=_pager_shows_colour()):
            console.print(text)
    else:
        console.print(text)


def register(app: typer.Typer) -> None:
    """Add ``otherside rules``."""
    app.command(
        "rules",
        help=N_("Print the rules of GAME (verso, versus or rectoverso), paged in a terminal."),
    )(rules_command)
