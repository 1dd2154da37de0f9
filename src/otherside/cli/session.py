"""What every terminal game does the same way: reading commands, quitting, and game records.

A player stops a game with ``quit`` (or ``exit``, ``q``), the end of input (Ctrl-D) or Ctrl-C,
in every game alike: the game stops, says so, and a game started with ``--record FILE`` is saved
as far as it went, so that ``replay`` shows it. Records written here carry, besides the game's
own fields, ``"names"``: the seats' display names, so that a replay names the players as the
game did (the engines ignore unknown fields of a record).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import typer
from rich.console import Console
from rich.text import Text

from otherside.bots import Bot, Step, play_match
from otherside.cli.language import t
from otherside.cli.records import write_record_file
from otherside.core.game import Game, State
from otherside.i18n import N_

QUIT_WORDS = ("quit", "exit", "q")
QUIT_HELP = N_("stop the game (with --record, the game so far is saved)")
"""What ``quit`` does (a message: say it with :func:`~otherside.cli.language.t`)."""


class QuitGame(Exception):
    """The player asked to stop the game (``quit``, end of input or Ctrl-C)."""


def read_command(console: Console, prompt: str) -> str:
    """One line typed at the prompt, stripped.

    Raises:
        QuitGame: the player typed a quit word, closed the input or pressed Ctrl-C.
    """
    try:
        line = console.input(prompt).strip()
    except (EOFError, KeyboardInterrupt):
        raise QuitGame from None
    if line.lower() in QUIT_WORDS:
        raise QuitGame
    return line


S = TypeVar("S", bound=State[Any])


def play_until_stopped(
    console: Console,
    game: Game[S],
    state: S,
    seats: Sequence[Bot[Any, Any]],
    rng: random.Random,
    on_step: Callable[[Step[S]], None],
) -> tuple[S, bool]:
    """Play ``state`` through the match loop until it ends or a player stops it.

    Returns:
        The last state reached, and whether the game was played to its end.
    """
    last = state

    def follow(step: Step[S]) -> None:
        nonlocal last
        last = step.after
        on_step(step)

    try:
        result = play_match(game, state, seats, rng, on_step=follow)
    except (QuitGame, KeyboardInterrupt):
        console.print(Text("\n" + t("Game stopped."), style="bold"))
        return last, False
    return result.final, True


def check_record_path(record: Path | None) -> None:
    """Refuse a record file that could not be written, before the game rather than after it."""
    if record is not None and not record.parent.is_dir():
        raise typer.BadParameter(
            t("{record}: the folder {folder} does not exist", record=record, folder=record.parent),
            param_hint="--record",
        )


def save_record(console: Console, state: State, record: Path | None, names: Sequence[str]) -> None:
    """Write ``state``'s record, with the seats' ``names``, to ``record`` (if one was asked)."""
    if record is None:
        return
    try:
        write_record_file(record, {**state.to_record(), "names": list(names)})
    except OSError as exc:
        message = t("error: cannot write {record}: {reason}", record=record, reason=exc.strerror)
        console.print(Text(message, style="bold red"))
        raise typer.Exit(1) from None
    console.print(Text(t("Record written to {record}", record=record), style="dim"))


def record_names(record: Mapping[str, Any], default: Sequence[str]) -> list[str]:
    """The seats' display names a record carries, or ``default`` when it has none (or bad ones).

    >>> record_names({"names": ["You", "greedy 1"]}, ["seat 0", "seat 1"])
    ['You', 'greedy 1']
    >>> record_names({"names": ["You"]}, ["seat 0", "seat 1"])
    ['seat 0', 'seat 1']
    """
    names = record.get("names")
    if (
        isinstance(names, list)
        and len(names) == len(default)
        and all(isinstance(n, str) and n.strip() for n in names)
    ):
        return [n.strip() for n in names]
    return list(default)
