"""``otherside versus …``: play in the terminal, replay a record, simulate many bot games."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from otherside.bots import Bot, Step, bot_names, make_bot
from otherside.cli.language import current, t, tn
from otherside.cli.records import read_record_file
from otherside.cli.session import (
    QUIT_HELP,
    check_record_path,
    play_until_stopped,
    read_command,
    record_names,
    save_record,
)
from otherside.cli.simulate import SimulateExtras, add_simulate_command
from otherside.cli.versus_render import NAMES, describe_attraction, flipped_cells, render
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
from otherside.guide import name_rule_ids
from otherside.i18n import N_

app = typer.Typer(
    help=N_("VERSUS: the hex board of magnets (the rules: otherside rules versus)."),
    no_args_is_help=True,
)
HUMAN = "human"
THINKING_BOTS = ("search", "alphabeta", "best")
HELP = N_(
    "Type a ply as <from>><to> (e.g. 0:-4>0:-3 or 2:-5>2:-1), 'moves <cell>' for the plies of "
    "the piece on that cell, 'legal' for every legal action, 'board' to draw it again, "
    "resign, offer-draw, accept-draw, decline-draw, or quit to {quit}. "
    "The rules: otherside rules versus."
)


class HumanSeat:
    """A seat typed at the terminal; meets the bot protocol so the one match loop runs it.

    Attributes:
        flipped: cells of the stones the last ply flipped, kept by the match's ``on_step`` so
            that the board shown at this seat's turn highlights the opponent's attraction.
    """

    name = "human"

    def __init__(self, console: Console, seat_names: tuple[str, str]) -> None:
        self.console = console
        self.seat_names = seat_names
        self.flipped: set[str] = set()

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """Show the board and ask until a legal action is typed.

        Raises:
            QuitGame: the player typed ``quit``, closed the input or pressed Ctrl-C.
        """
        player = int(view["player"])
        self.console.print(render(view, self.flipped, self.seat_names))
        by_text = {str(a): a for a in legal}
        while True:
            line = read_command(self.console, f"[bold]{t(NAMES[player])}> [/]")
            words = line.split()
            if not words:
                continue
            if words[0] in ("help", "?"):
                self.console.print(t(HELP, quit=t(QUIT_HELP)))
            elif words[0] == "legal":
                self.console.print(", ".join(by_text))
            elif words[0] == "board":
                self.console.print(render(view, self.flipped, self.seat_names))
            elif words[0] == "moves":
                moves = moves_of(view, legal, " ".join(words[1:]))
                self.console.print(name_rule_ids(moves, current()))
            else:
                try:
                    return _resolve(view, legal, line)
                except (BadNotation, IllegalAction) as exc:
                    self.console.print(Text(name_rule_ids(refusal(exc), current()), style="red"))


def refusal(exc: BadNotation | IllegalAction) -> str:
    """A refused ply in the terminal's language (the engine's reason as it gives it)."""
    if isinstance(exc, BadNotation):
        said = t("{text!r}: {reason}", text=exc.text, reason=exc.reason)
    else:
        said = t("{action!r} is illegal: {reason}", action=exc.action, reason=exc.reason)
    if exc.legal == []:
        said += " " + t("(no legal action)")
    elif exc.legal:
        shown = ", ".join(exc.legal[:40])
        more = len(exc.legal) - 40
        if more > 0:
            shown += ", … " + tn("({count} more)", "({count} more)", more)
        said += "; " + t("legal: {moves}", moves=shown)
    return said


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
        raise IllegalAction(action, reason or t("not legal now"), legal)
    raise IllegalAction(action, t("not open now"), legal)


def moves_of(view: Mapping[str, Any], legal: Sequence[Action], cell_text: str) -> str:
    """The legal plies of the piece on ``cell_text`` (a line for the terminal)."""
    try:
        cell = parse_cell(cell_text)
    except BadNotation as exc:
        return f"moves <cell>: {refusal(exc)}"
    plies = [str(a) for a in legal if isinstance(a, Ply) and a.origin == cell]
    name = format_cell(cell)
    if plies:
        return f"{name}: {', '.join(plies)}"
    stone = next((s for s in view["stones"] if s["cell"] == name), None)
    if stone is None and name not in view["versus"]:
        return t("{cell}: no piece there", cell=name)
    if stone is not None and stone["locked"]:
        return t("{cell}: no legal ply (the stone is locked on a target, S9)", cell=name)
    owner = stone["owner"] if stone is not None else view["versus"].index(name)
    if owner != view["to_move"]:
        return t("{cell}: no legal ply (the piece is {side}'s)", cell=name, side=t(NAMES[owner]))
    return t("{cell}: no legal ply (boxed in)", cell=name)


def _seats(spec: str, think: float, console: Console) -> tuple[list[Bot], tuple[str, str]]:
    """The two seats of ``--seats`` and their display names (``You`` for a lone human)."""
    kinds = [s.strip().lower() for s in spec.split(",")]
    if len(kinds) != 2:
        raise typer.BadParameter(
            t("VERSUS needs 2 seats (Blue,Brown), got {spec!r}", spec=spec), param_hint="--seats"
        )
    blue, brown = (t("You") if k == HUMAN and kinds.count(HUMAN) == 1 else k for k in kinds)
    seat_names = (blue, brown)
    known = bot_names("versus")
    seats: list[Bot] = []
    for kind in kinds:
        if kind == HUMAN:
            seats.append(HumanSeat(console, seat_names))
        elif kind in known:
            seats.append(
                make_bot("versus", kind, **({"think": think} if kind in THINKING_BOTS else {}))
            )
        else:
            raise typer.BadParameter(
                t(
                    "unknown seat {kind!r}; choose human or a bot: {bots}",
                    kind=kind,
                    bots=", ".join(known),
                ),
                param_hint="--seats",
            )
    return seats, seat_names


@app.command(help=N_("Play VERSUS in the terminal: humans type plies, bots answer."))
def play(
    seats: Annotated[
        str, typer.Option(help=N_("Blue,Brown: 'human' or a bot name."))
    ] = "human,search",
    think: Annotated[
        float, typer.Option(min=0.01, help=N_("Seconds per ply for the search bot."))
    ] = 1.0,
    seed: Annotated[int | None, typer.Option(help=N_("Seed for the bots' tie-breaks."))] = None,
    record: Annotated[
        Path | None,
        typer.Option(help=N_("Write the game record (JSON) to this file, even if you quit.")),
    ] = None,
) -> None:
    """Play VERSUS in the terminal: humans type plies, bots answer."""
    check_record_path(record)
    console = Console(highlight=False)
    players, names = _seats(seats, think, console)
    humans = [p for p in players if isinstance(p, HumanSeat)]

    def on_step(step: Step[VersusState]) -> None:
        before = view(step.before, None)
        after = view(step.after, None)
        flipped = flipped_cells(before, after)
        console.print(f"{t(NAMES[step.player])} ({names[step.player]}): [bold]{step.action}[/]")
        for line in describe_attraction(before, after):
            console.print(f"  {line}")
        for human in humans:
            human.flipped = flipped
        if not humans or step.after.is_over:
            console.print(render(after, flipped, names))

    final, _ = play_until_stopped(console, GAME, new_game(), players, random.Random(seed), on_step)
    save_record(console, final, record, names)


@app.command(
    name="replay",
    help=N_("Check a record, list its actions and draw the board at the end (or after --ply N)."),
)
def replay_command(
    file: Annotated[Path, typer.Argument(help=N_("A VERSUS game record (JSON)."))],
    ply: Annotated[
        int | None, typer.Option(min=0, help=N_("Board after this many actions."))
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option("--json", help=N_("Print the final state as JSON (view, record, names).")),
    ] = False,
) -> None:
    """Check a record, list its actions and draw the board at the end (or after --ply N)."""
    console = Console(highlight=False)
    try:
        record = read_record_file(file, "versus")
        final = replay(record)
    except BadRecord as exc:
        console.print(Text(t("error: {reason}", reason=exc), style="red"))
        raise typer.Exit(2) from None
    names = record_names(record, ["", ""])
    if as_json:
        result = {"view": view(final, None), "record": final.to_record(), "names": names}
        typer.echo(json.dumps(result, indent=1))
        return
    actions = final.to_record()["plies"]
    if ply is not None and ply > len(actions):
        raise typer.BadParameter(
            tn(
                "{ply} is past the end of the record ({count} action): choose 0 to {count}",
                "{ply} is past the end of the record ({count} actions): choose 0 to {count}",
                len(actions),
                ply=ply,
            ),
            param_hint="--ply",
        )
    stop = len(actions) if ply is None else ply
    state = new_game(record.get("options"))
    before = view(state, None)
    for index, text in enumerate(actions[:stop]):
        mover = state.current_player if state.current_player is not None else 0
        before = view(state, None)
        state = state.apply(text)
        side = t(NAMES[mover])
        who = f"{side} ({names[mover]})" if names[mover] else side
        console.print(f"{index + 1:>3}. {who:<18} {text}")
        for line in describe_attraction(before, view(state, None)):
            console.print(f"       {line}")
    after = view(state, None)
    console.print(render(after, flipped_cells(before, after), (names[0], names[1])))
    if stop < len(actions):
        console.print(
            tn(
                "(after {stop} of {count} action; the record goes on)",
                "(after {stop} of {count} actions; the record goes on)",
                len(actions),
                stop=stop,
            )
        )
    elif final.outcome is None:
        console.print(t("(the record stops before the end of the game)"))


add_simulate_command(
    app,
    "versus",
    SimulateExtras(seats_example="search:think=0.1,greedy"),
    default_seats="search,greedy",
)


def register(root: typer.Typer) -> None:
    """Add ``otherside versus …`` (play, replay, simulate)."""
    root.add_typer(app, name="versus")
