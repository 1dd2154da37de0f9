"""``otherside verso …``: play Verso in the terminal against bots or friends, solo, or replay.

Every seat — human or bot — goes through the one match loop, :func:`otherside.bots.play_match`;
a human seat is :class:`otherside.cli.human.HumanSeat`, a bot is ``make_bot("verso", name)``.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

from otherside.bots import Step, bot_names, make_bot
from otherside.bots.base import Bot
from otherside.cli.human import HumanSeat, Referee
from otherside.cli.language import t, tn
from otherside.cli.records import read_record_file
from otherside.cli.session import (
    check_record_path,
    play_until_stopped,
    record_names,
    save_record,
)
from otherside.cli.verso_render import (
    describe_events,
    narration,
    render_board,
    render_results,
    seat_names,
)
from otherside.cli.verso_simulate import register_verso_simulate
from otherside.cli.verso_train import register_verso_train
from otherside.core import BadRecord, State, derive_seed, make_rng
from otherside.games import get_game
from otherside.i18n import N_

HUMAN = "human"
DEFAULT_PLAYERS = 3
DEFAULT_DELAY = 0.6
GAME = get_game("verso")
MAX_PLAYERS = max(GAME.player_counts)

verso_app = typer.Typer(
    help=N_("Verso: collect runs of double-sided cards (1-6 players, or solo)."),
    no_args_is_help=True,
)


def register(app: typer.Typer) -> None:
    """Add ``otherside verso`` (play, solo, replay, the simulator's ``simulate`` and
    ``train-value``)."""
    register_verso_simulate(verso_app)
    register_verso_train(verso_app)
    app.add_typer(verso_app, name="verso")


def default_bot() -> str:
    """The bot that fills the seats nobody asked for: the strongest simple one available."""
    return "greedy" if "greedy" in bot_names("verso") else "random"


def resolve_seats(players: int | None, seats: str | None) -> list[str]:
    """The seat kinds (``human`` or a bot name) from ``--players`` and ``--seats``.

    Raises:
        typer.BadParameter: an unknown name, a count outside 1-6, or counts that disagree.
    """
    known = bot_names("verso")
    if seats is not None:
        kinds = [name.strip().lower() for name in seats.split(",")]
        for name in kinds:
            if name != HUMAN and name not in known:
                raise typer.BadParameter(
                    t(
                        "unknown seat {name!r}: use {human!r} or a bot ({bots})",
                        name=name,
                        human=HUMAN,
                        bots=", ".join(known),
                    ),
                    param_hint="--seats",
                )
        if players is not None and players != len(kinds):
            raise typer.BadParameter(
                t(
                    "--players {players} but {count} seats in {seats!r}: give one seat per "
                    "player, or leave out --players",
                    players=players,
                    count=len(kinds),
                    seats=seats,
                ),
                param_hint="--seats",
            )
    else:
        count = DEFAULT_PLAYERS if players is None else players
        kinds = [HUMAN] + [default_bot()] * (count - 1)
    if not 1 <= len(kinds) <= MAX_PLAYERS:
        raise typer.BadParameter(
            t(
                "Verso is for 1 to {most} players (V4), not {count}",
                most=MAX_PLAYERS,
                count=len(kinds),
            ),
            param_hint="--players",
        )
    return kinds


def _run(
    console: Console,
    state: State,
    kinds: list[str],
    seed: int,
    delay: float,
    record: Path | None,
) -> None:
    """Play ``state`` to the end (or until a human quits), narrating every action."""
    names = seat_names(kinds)
    referee = Referee(GAME, state)
    seats: list[Bot] = [
        HumanSeat(console, names, referee) if kind == HUMAN else make_bot("verso", kind)
        for kind in kinds
    ]

    def on_step(step: Step) -> None:
        referee.follow(step)
        after = GAME.view(step.after, None)
        events = describe_events(after["events"], names, after["solo"])
        console.print(narration(after["version"], events))
        if kinds[step.player] != HUMAN and delay > 0:
            time.sleep(delay)

    rng = make_rng(derive_seed(seed, "verso", "seats"))
    final, finished = play_until_stopped(console, GAME, state, seats, rng, on_step)
    if finished:
        view = GAME.view(final, None)
        console.print()
        console.print(render_board(view, names))
        console.print(render_results(view, names))
    save_record(console, final, record, names)


def _new_state(players: int, seed: int, first_player: int, allow_duplicate_keep: bool) -> State:
    if not 0 <= first_player < players:
        raise typer.BadParameter(
            t(
                "the first player is a seat from 0 to {last}, not {given}",
                last=players - 1,
                given=first_player,
            ),
            param_hint="--first-player",
        )
    options = {"first_player": first_player, "allow_duplicate_keep": allow_duplicate_keep}
    return GAME.new_state(players, seed=seed, options=options)


def _intro(console: Console, kinds: list[str], seed: int, solo: bool) -> None:
    names = seat_names(kinds)
    title = Text("Verso", style="bold")
    seats = ", ".join(names)
    title.append(
        " · "
        + (t("solo") if solo else t("{count} players: {names}", count=len(kinds), names=seats))
    )
    title.append(" · " + t("seed {seed}", seed=seed), style="dim")
    console.print(title)
    if HUMAN in kinds:
        console.print(
            Text(
                t(
                    "Type a move (draw, flip, series …), ? for the legal moves, help, or quit. "
                    "Rule ids such as (V10) point into the rules: otherside rules verso."
                ),
                style="dim",
            )
        )


SeedOption = Annotated[
    int | None, typer.Option(help=N_("Seed of the deal (and of the bots); random when omitted."))
]
RecordOption = Annotated[
    Path | None, typer.Option(help=N_("Write the game record (JSON) to this file at the end."))
]
DelayOption = Annotated[
    float, typer.Option(min=0, help=N_("Seconds to pause after each bot move, to follow the game."))
]
DuplicateOption = Annotated[
    bool,
    typer.Option(
        "--allow-duplicate-keep",
        help=N_("Variant of V8: 'draw' stays legal on a duplicate (the card is discarded)."),
    ),
]


@verso_app.command(
    help=N_("Play a game of Verso at the terminal, against bots or friends sharing the keyboard.")
)
def play(
    players: Annotated[
        int | None,
        typer.Option(help=N_("Number of players, 1 to 6 (default 3).")),  # DEFAULT_PLAYERS
    ] = None,
    seats: Annotated[
        str | None,
        typer.Option(
            help=N_(
                "Comma-separated seats in order: 'human' or a bot name such as 'random' "
                "(default: you, then bots)."
            ),
        ),
    ] = None,
    seed: SeedOption = None,
    first_player: Annotated[int, typer.Option(help=N_("The seat that plays first (0-based)."))] = 0,
    allow_duplicate_keep: DuplicateOption = False,
    record: RecordOption = None,
    delay: DelayOption = DEFAULT_DELAY,
) -> None:
    """Play a game of Verso at the terminal, against bots or friends sharing the keyboard."""
    kinds = resolve_seats(players, seats)
    check_record_path(record)
    seed = random.SystemRandom().randrange(1_000_000) if seed is None else seed
    state = _new_state(len(kinds), seed, first_player, allow_duplicate_keep)
    console = Console(highlight=False)
    _intro(console, kinds, seed, solo=len(kinds) == 1)
    _run(console, state, kinds, seed, delay, record)


@verso_app.command(
    help=N_("Play Verso solo (V16-V18): 35 cards against a simulated opponent, then your rating.")
)
def solo(
    seed: SeedOption = None,
    seats: Annotated[
        str, typer.Option(help=N_("Who plays: 'human', or a bot name to watch it play solo."))
    ] = HUMAN,
    allow_duplicate_keep: DuplicateOption = False,
    record: RecordOption = None,
    delay: DelayOption = DEFAULT_DELAY,
) -> None:
    """Play Verso solo (V16-V18): 35 cards against a simulated opponent, then your rating."""
    kinds = resolve_seats(None, seats)
    if len(kinds) != 1:
        raise typer.BadParameter(
            t(
                "solo is played by one seat ('human' or a bot name), not {count}: {seats!r}",
                count=len(kinds),
                seats=seats,
            ),
            param_hint="--seats",
        )
    check_record_path(record)
    seed = random.SystemRandom().randrange(1_000_000) if seed is None else seed
    state = _new_state(1, seed, 0, allow_duplicate_keep)
    console = Console(highlight=False)
    _intro(console, kinds, seed, solo=True)
    _run(console, state, kinds, seed, delay, record)


@verso_app.command(
    help=N_("Step through a game record: every action with its effects, then the final scores.")
)
def replay(
    file: Annotated[Path, typer.Argument(help=N_("A Verso game record (JSON)."))],
    as_json: Annotated[
        bool,
        typer.Option("--json", help=N_("Print the final state as JSON (view, record, names).")),
    ] = False,
) -> None:
    """Step through a game record: every action with its effects, then the final scores."""
    try:
        record = read_record_file(file, "verso")
        final = GAME.replay(record)
    except BadRecord as exc:
        message = t("error: {reason}", reason=exc)
        Console(stderr=True, highlight=False).print(Text(message, style="bold red"))
        raise typer.Exit(2) from None
    view = GAME.view(final, None)
    default = (
        [t("You")]
        if final.players == 1
        else [t("seat {seat}", seat=p) for p in range(final.players)]
    )
    names = record_names(record, default)
    if as_json:
        result = {"view": view, "record": final.to_record(), "names": names}
        typer.echo(json.dumps(result, indent=1))
        return
    console = Console(highlight=False)
    actions = final.to_record()["actions"]
    title = Text(t("Verso record {file}", file=file), style="bold")
    cards = tn("{count} card", "{count} cards", len(record["pile"]))
    moves = tn("{count} action", "{count} actions", len(actions))
    title.append(f" · {', '.join(names)} · {cards} · {moves}", style="dim")
    console.print(title)
    # The record replayed again one action at a time, from its start (it is valid: see above).
    state = GAME.replay({**record, "actions": []})
    for number, action in enumerate(actions, 1):
        player = state.current_player
        assert player is not None  # the record replayed, so every action had a player to move
        head = Text(f"{names[player]}: {action}", style="bold")
        state = state.apply(action)
        after = GAME.view(state, None)
        events = describe_events(after["events"], names, after["solo"])
        console.print(narration(number, [head]), narration(None, events, indent=2))
    console.print()
    console.print(render_board(view, names))
    if not final.is_over:
        left = view["pile_size"]
        stop = tn(
            "The record stops after {count} action, before the end of the game",
            "The record stops after {count} actions, before the end of the game",
            len(actions),
        )
        still = tn("{count} card left in the pile", "{count} cards left in the pile", left)
        console.print(Text(f"{stop} ({still}).", style="bold"))
    console.print(render_results(view, names))
