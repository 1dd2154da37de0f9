"""``otherside versus …``: play in the terminal, replay a record, simulate many bot games."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from otherside.bots import Bot, Step, bot_names, make_bot, play_match
from otherside.cli.records import read_record_file, write_record_file
from otherside.cli.simulate import add_simulate_command
from otherside.cli.versus_render import NAMES, flipped_cells, render
from otherside.core import BadNotation, BadRecord, IllegalAction
from otherside.core.game import Action
from otherside.games.versus import (
    GAME,
    Ply,
    VersusState,
    new_game,
    parse_action,
    parse_cell,
    position_from_view,
    replay,
    view,
)
from otherside.games.versus.notation import format_cell

app = typer.Typer(
    help="VERSUS: the hex board of magnets (rules: rules/versus.md).", no_args_is_help=True
)
THINKING_BOTS = ("search", "alphabeta", "best")
HELP = (
    "Type a ply as <from>><to> (e.g. 0:-4>0:-3 or 2:-5>2:-1), 'moves <cell>' for the plies of "
    "the piece on that cell, 'legal' for every legal action, 'board' to draw it again, or "
    "resign, offer-draw, accept-draw, decline-draw."
)


class QuitGame(Exception):
    """The human closed the input (end of file)."""


class HumanSeat:
    """A seat typed at the terminal; meets the bot protocol so the one match loop runs it."""

    name = "human"

    def __init__(self, console: Console, seat_names: tuple[str, str]) -> None:
        self.console = console
        self.seat_names = seat_names

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        player = int(view["player"])
        self.console.print(render(view, seat_names=self.seat_names))
        by_text = {str(a): a for a in legal}
        while True:
            try:
                line = self.console.input(f"[bold]{NAMES[player]}> [/]").strip()
            except EOFError:
                raise QuitGame from None
            words = line.split()
            if not words:
                continue
            if words[0] in ("help", "?"):
                self.console.print(HELP)
            elif words[0] == "legal":
                self.console.print(", ".join(by_text))
            elif words[0] == "board":
                self.console.print(render(view, seat_names=self.seat_names))
            elif words[0] == "moves":
                self.console.print(moves_of(view, legal, " ".join(words[1:])))
            else:
                try:
                    action = _resolve(view, legal, line)
                except (BadNotation, IllegalAction) as exc:
                    self.console.print(f"[red]{exc}[/]")
                    continue
                return action


def _resolve(view: Mapping[str, Any], legal: Sequence[Action], text: str) -> Action:
    state_legal = {str(a): a for a in legal}
    try:
        action = parse_action(text)
    except BadNotation as exc:
        raise BadNotation(text, exc.reason, legal) from None
    if str(action) in state_legal:
        return state_legal[str(action)]
    if isinstance(action, Ply):
        reason = position_from_view(view).illegal_reason(action.origin, action.target)
        raise IllegalAction(action, reason or "not legal now", legal)
    raise IllegalAction(action, "not open now", legal)


def moves_of(view: Mapping[str, Any], legal: Sequence[Action], cell_text: str) -> str:
    """The legal plies of the piece on ``cell_text`` (a line for the terminal)."""
    try:
        cell = parse_cell(cell_text)
    except BadNotation as exc:
        return f"moves <cell>: {exc}"
    plies = [str(a) for a in legal if isinstance(a, Ply) and a.origin == cell]
    name = format_cell(cell)
    if plies:
        return f"{name}: {', '.join(plies)}"
    stone = next((s for s in view["stones"] if s["cell"] == name), None)
    if stone is None and name not in view["versus"]:
        return f"{name}: no piece there"
    if stone is not None and stone["locked"]:
        return f"{name}: no legal ply (the stone is locked on a target, S9)"
    owner = stone["owner"] if stone is not None else view["versus"].index(name)
    if owner != view["to_move"]:
        return f"{name}: no legal ply (the piece is {NAMES[owner]}'s)"
    return f"{name}: no legal ply (boxed in)"


def _seats(spec: str, think: float, console: Console) -> tuple[list[Bot], tuple[str, str]]:
    names = [s.strip() for s in spec.split(",")]
    if len(names) != 2:
        raise typer.BadParameter(
            f"VERSUS needs 2 seats (Blue,Brown), got {spec!r}", param_hint="--seats"
        )
    known = bot_names("versus")
    seats: list[Bot] = []
    for name in names:
        if name == "human":
            seats.append(HumanSeat(console, (names[0], names[1])))
        elif name in known:
            seats.append(
                make_bot("versus", name, **({"think": think} if name in THINKING_BOTS else {}))
            )
        else:
            raise typer.BadParameter(
                f"unknown seat {name!r}; choose human or a bot: {', '.join(known)}",
                param_hint="--seats",
            )
    return seats, (names[0], names[1])


@app.command()
def play(
    seats: Annotated[str, typer.Option(help="Blue,Brown: 'human' or a bot name.")] = "human,search",
    think: Annotated[
        float, typer.Option(min=0.01, help="Seconds per ply for the search bot.")
    ] = 1.0,
    seed: Annotated[int | None, typer.Option(help="Seed for the bots' tie-breaks.")] = None,
    record: Annotated[
        Path | None, typer.Option(help="Write the game record (JSON) to this file.")
    ] = None,
) -> None:
    """Play VERSUS in the terminal: humans type plies, bots answer."""
    console = Console(highlight=False)
    players, names = _seats(seats, think, console)
    shown = not any(isinstance(p, HumanSeat) for p in players)

    def on_step(step: Step[VersusState]) -> None:
        mover = f"{NAMES[step.player]} ({names[step.player]})"
        console.print(f"{mover}: [bold]{step.action}[/]")
        if shown or step.after.is_over:
            after = view(step.after, None)
            before = view(step.before, None)
            console.print(render(after, flipped_cells(before, after), names))

    state = new_game()
    try:
        result = play_match(GAME, state, players, random.Random(seed), on_step=on_step)
    except QuitGame:
        console.print("input closed: game abandoned")
        raise typer.Exit(1) from None
    if record:
        write_record_file(record, result.final.to_record())
        console.print(f"record written to {record}")


@app.command(name="replay")
def replay_command(
    file: Annotated[Path, typer.Argument(help="A VERSUS game record (JSON).")],
    ply: Annotated[int | None, typer.Option(min=0, help="Board after this many actions.")] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the final state as JSON (view and record).")
    ] = False,
) -> None:
    """Check a record, list its actions and draw the board at the end (or after --ply N)."""
    console = Console(highlight=False)
    try:
        record = read_record_file(file, "versus")
        final = replay(record)
    except BadRecord as exc:
        console.print(f"[red]{exc}[/]")
        raise typer.Exit(2) from None
    if as_json:
        typer.echo(json.dumps({"view": view(final, None), "record": final.to_record()}, indent=1))
        return
    actions = record.get("plies", [])
    stop = len(actions) if ply is None else min(ply, len(actions))
    state = new_game(record.get("options"))
    before = view(state, None)
    for index, text in enumerate(actions[:stop]):
        mover = state.current_player
        before = view(state, None)
        state = state.apply(text)
        console.print(f"{index + 1:>3}. {NAMES[mover if mover is not None else 0]:<5} {text}")
    console.print(render(view(state, None), flipped_cells(before, view(state, None))))
    if stop < len(actions):
        console.print(f"(after {stop} of {len(actions)} actions; the record goes on)")
    elif final.outcome is None:
        console.print("(the record stops before the end of the game)")


add_simulate_command(app, "versus", default_seats="search,greedy")


def register(root: typer.Typer) -> None:
    """Add ``otherside versus …`` (play, replay, simulate)."""
    root.add_typer(app, name="versus")
