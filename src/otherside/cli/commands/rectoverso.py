"""``otherside rectoverso …``: cards (pictures, JSON), the solver, extra cards and a practice
puzzle in the terminal."""

from __future__ import annotations

import json
import random
import time
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

from otherside.cli.language import current, t, tn
from otherside.cli.rectoverso_render import (
    DIFFICULTY_WORDS,
    WRONG_MARK,
    card_renderable,
    compare_views,
    save_card_png,
    views_table,
)
from otherside.cli.session import QuitGame, read_command
from otherside.core.errors import OthersideError
from otherside.games.rectoverso.cards import (
    Card,
    generate,
    generate_standard_set,
    matches,
    mismatch,
    standard_card,
    standard_cards,
    standard_set_json,
)
from otherside.games.rectoverso.construction import Construction
from otherside.games.rectoverso.flow import points_for
from otherside.games.rectoverso.notation import Place, Remove, parse_action, parse_view
from otherside.games.rectoverso.pieces import pieces_of
from otherside.games.rectoverso.solver import Solver, hint
from otherside.guide import name_rule_ids
from otherside.i18n import N_

app = typer.Typer(
    help=N_("Recto Verso: cards, the solver and a practice puzzle."), no_args_is_help=True
)
console = Console(highlight=False)
clock = time.monotonic  # the puzzle's clock; tests replace it

SIDES = {"both": ("front", "back"), "recto": ("front",), "verso": ("back",)}


def _fail(message: str) -> typer.Exit:
    console.print(Text(message, style="red"))
    return typer.Exit(2)


def _pick_card(number: int | None, seed: int | None, hard: bool) -> Card:
    if number is not None and seed is not None:
        raise _fail(t("give a card number or a seed, not both"))
    if number is not None:
        try:
            return standard_card(number)
        except ValueError as exc:
            raise _fail(str(exc)) from None
    return generate(seed if seed is not None else 0, "hard" if hard else "easy")[0]


@app.command(
    "card", help=N_("Show a card: both views as coloured squares (or JSON, or a PNG picture).")
)
def card_command(
    number: Annotated[
        int | None, typer.Argument(help=N_("standard card: 1–32 easy, 33–64 hard"))
    ] = None,
    seed: Annotated[int | None, typer.Option(help=N_("a generated card from this seed"))] = None,
    hard: Annotated[
        bool, typer.Option("--hard", help=N_("generated card: hard (with red)"))
    ] = False,
    png: Annotated[str | None, typer.Option(help=N_("also draw both views into this PNG"))] = None,
    as_json: Annotated[bool, typer.Option("--json", help=N_("print the card as JSON"))] = False,
) -> None:
    """Show a card: both views as coloured squares (or JSON, or a PNG picture)."""
    if number is None and seed is None:
        raise _fail(t("give a card number (1–64) or --seed"))
    card = _pick_card(number, seed, hard)
    if png:
        save_card_png(card, png)
    if as_json:
        typer.echo(json.dumps(card.to_json()))
        return
    console.print(card_renderable(card))
    if png:
        console.print(t("drawn into {file}", file=png))


@app.command(
    "solve", help=N_("Find a construction that matches a card, or prove that none exists.")
)
def solve_command(
    card_number: Annotated[int | None, typer.Option("--card", help=N_("a standard card"))] = None,
    front: Annotated[str | None, typer.Option(help=N_("front view, levels top first, '/'"))] = None,
    back: Annotated[str | None, typer.Option(help=N_("back view, levels top first, '/'"))] = None,
    difficulty: Annotated[
        str, typer.Option(help=N_("easy or hard (with --front/--back)"))
    ] = "easy",
    count: Annotated[int, typer.Option(help=N_("also count solutions up to this limit"))] = 0,
    as_json: Annotated[bool, typer.Option("--json", help=N_("print the result as JSON"))] = False,
) -> None:
    """Find a construction that matches a card, or prove that none exists."""
    if card_number is not None:
        card = _pick_card(card_number, None, False)
    elif front is not None and back is not None:
        try:
            pieces_of(difficulty)
            card = Card(difficulty, parse_view(front), parse_view(back))
        except ValueError as exc:
            raise _fail(str(exc)) from None
    else:
        raise _fail(t("give --card N, or --front and --back"))
    start = time.perf_counter()
    solver = Solver(card)
    solution = solver.solve()
    seconds = time.perf_counter() - start
    found = solution is not None and matches(solution, card)
    counted = solver.count(count) if count > 0 else None
    if as_json:
        result = {
            "card": card.to_json(),
            "placements": [str(p) for p in solution.placements] if solution else None,
            "seconds": round(seconds, 4),
            "matches": found,
            "nodes": solver.nodes,
            "solutions": counted,
            "reason": None if solution else solver.reason or "no construction matches",
        }
        typer.echo(json.dumps(result))
    else:
        console.print(card_renderable(card))
        if solution is None:
            console.print(f"no solution: {solver.reason or 'no construction matches'}")
        else:
            for placement in solution.placements:
                console.print(f"  {placement}")
        console.print(f"{seconds:.3f} s, {solver.nodes} search nodes, matches: {found}")
        if counted is not None:
            console.print(f"solutions: {counted}{'+' if counted >= count else ''}")
    if solution is None:
        raise typer.Exit(1)


@app.command(
    "generate",
    help=N_("Generate extra cards as JSON lines (or the standard set's data file, --standard)."),
)
def generate_command(
    seed: Annotated[int, typer.Option(help="first seed")] = 0,
    count: Annotated[int, typer.Option(help="how many cards (seeds seed, seed+1, …)")] = 1,
    hard: Annotated[bool, typer.Option("--hard", help="hard cards (with red)")] = False,
    standard: Annotated[
        bool, typer.Option("--standard", help="print the standard set's data file")
    ] = False,
) -> None:
    """Generate extra cards as JSON lines (or the standard set's data file, --standard)."""
    if standard:
        typer.echo(json.dumps(standard_set_json(generate_standard_set()), indent=1))
        return
    for offset in range(count):
        card, construction = generate(seed + offset, "hard" if hard else "easy")
        item = {**card.to_json(), "seed": seed + offset}
        item["construction"] = [str(p) for p in construction.placements]
        typer.echo(json.dumps(item))


# The commands stay as typed in every language; their meanings are messages.
PUZZLE_COMMANDS = (
    ("place <piece> <x,y,z> …", N_("put a piece on those cells (any order)")),
    ("remove <piece>", N_("take a piece off (nothing may rest on it)")),
    ("hint", N_("a next step towards a solution")),
    ("done", N_("check it, once every piece is placed: scored by time")),
    ("help", N_("these commands")),
    ("quit, q", N_("stop the puzzle")),
)
PUZZLE_WORDS = "place, remove, hint, done, help, quit"
CELLS_HELP = N_("cells x,y,z: x = 0…3 left to right (front), y = 0…3 front to back, z = 0… up")


def _puzzle_help() -> str:
    lines = [f"  {words:<26} {t(meaning)}" for words, meaning in PUZZLE_COMMANDS]
    rules = t("the rules: otherside rules rectoverso")
    return "\n".join([t("commands:"), *lines, t(CELLS_HELP), rules])


def _show(card: Card, construction: Construction, sides: tuple[str, ...]) -> None:
    """The card's sides shown, the construction's views of the same sides with every cell that
    differs from the card marked, the top view and the pieces not placed yet."""
    console.print(card_renderable(card, sides))
    shown = {"front": card.front, "back": card.back}
    built = {"front": construction.front_view(), "back": construction.back_view()}
    views, wrong, missing = {}, {}, 0
    for side in sides:
        views[side], wrong[side], to_build = compare_views(shown[side], built[side])
        missing += to_build
    console.print(views_table(t("your construction"), views, wrong))
    top = " | ".join(construction.top_view())
    console.print(t("top view (back row first): {rows}", rows=top))
    unplaced = [p.name for p in pieces_of(card.difficulty) if p not in construction.pieces]
    console.print(t("not placed: {pieces}", pieces=", ".join(unplaced) or t("none")))
    differ = sum(len(cells) for cells in wrong.values())
    if differ:
        said = tn(
            "{count} cell shows a different colour from the card (marked {mark})",
            "{count} cells show a different colour from the card (marked {mark})",
            differ,
            mark=WRONG_MARK,
        )
        console.print(Text(said, style="red"))
    if construction.pieces and missing:
        console.print(
            tn(
                "{count} of the card's cells still to build",
                "{count} of the card's cells still to build",
                missing,
            )
        )


def _puzzle_card(number: int | None, seed: int | None, hard: bool) -> Card:
    """The puzzle's card, and a line saying which one it is and how to play it again."""
    difficulty = "hard" if hard else "easy"
    words = t(DIFFICULTY_WORDS[difficulty])
    if number is None and seed is None:
        numbers = [c.number for c in standard_cards(difficulty) if c.number is not None]
        number = random.SystemRandom().choice(numbers)
        console.print(
            t(
                "card {number} ({difficulty}), picked at random: --card {number} plays it again",
                number=number,
                difficulty=words,
            )
        )
    elif number is None:
        console.print(
            t(
                "a generated card (seed {seed}, {difficulty}): --seed {seed} plays it again",
                seed=seed,
                difficulty=words,
            )
        )
    return _pick_card(number, seed, hard)


@app.command(
    "puzzle",
    help=N_("Practice alone: build a card by notation, timed and scored by R14 when done."),
)
def puzzle_command(
    card_number: Annotated[int | None, typer.Option("--card", help=N_("a standard card"))] = None,
    seed: Annotated[int | None, typer.Option(help=N_("a generated card from this seed"))] = None,
    hard: Annotated[
        bool, typer.Option("--hard", help=N_("a hard card (picked at random, or generated)"))
    ] = False,
    side: Annotated[str, typer.Option(help=N_("both, recto or verso: the sides you see"))] = "both",
) -> None:
    """Practice alone: build a card by notation, timed and scored by R14 when done."""
    if side not in SIDES:
        raise _fail(t("--side must be both, recto or verso"))
    card = _puzzle_card(card_number, seed, hard)
    sides = SIDES[side]
    construction = Construction()
    console.print(_puzzle_help())
    start = clock()
    _show(card, construction, sides)
    while True:
        try:
            line = read_command(console, "> ")
        except QuitGame:
            console.print("\n" + t("Game stopped."))
            return
        word = line.split()[0].lower() if line else ""
        if not word:
            continue
        if word == "help":
            console.print(_puzzle_help())
            continue
        if word == "hint":
            step = hint(card, construction)
            console.print(
                t("hint: {step}", step=step) if step else t("hint: nothing to do, say done")
            )
            continue
        if word not in ("place", "remove", "done"):
            said = t("{line!r} is not a puzzle command: use {words}", line=line, words=PUZZLE_WORDS)
            console.print(Text(said, style="red"))
            continue
        try:
            action = parse_action(line)
            if isinstance(action, Place):
                if action.placement.piece not in pieces_of(card.difficulty):
                    name = action.placement.piece.name
                    difficulty = t(DIFFICULTY_WORDS[card.difficulty])
                    _refuse(
                        t(
                            "{piece} is not used at {difficulty} (R2)",
                            piece=name,
                            difficulty=difficulty,
                        )
                    )
                    continue
                construction = construction.place(action.placement)
            elif isinstance(action, Remove):
                construction = construction.remove(action.piece)
            else:
                unplaced = [
                    p.name for p in pieces_of(card.difficulty) if p not in construction.pieces
                ]
                if unplaced:
                    _refuse(
                        t(
                            "not finished: {pieces} are not placed yet (R6)",
                            pieces=", ".join(unplaced),
                        )
                    )
                    continue
                _finish(card, construction, clock() - start)
                return
        except OthersideError as exc:
            _refuse(str(exc))
            continue
        _show(card, construction, sides)


def _refuse(message: str) -> None:
    console.print(Text(name_rule_ids(message, current()), style="red"))


def _finish(card: Card, construction: Construction, seconds: float) -> None:
    reason = mismatch(construction, card)
    if reason is None:
        points = points_for(seconds)
        said = tn(
            "it matches! {seconds} s: {count} point (R14)",
            "it matches! {seconds} s: {count} points (R14)",
            points,
            seconds=f"{seconds:.1f}",
        )
    else:
        said = t(
            "it does not match: {reason}. {seconds} s: 0 points (R14)",
            reason=reason,
            seconds=f"{seconds:.1f}",
        )
    console.print(Text(name_rule_ids(said, current())))


def register(root: typer.Typer) -> None:
    """Add ``rectoverso`` to the ``otherside`` command."""
    root.add_typer(app, name="rectoverso")
