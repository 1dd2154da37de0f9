"""``otherside rectoverso …``: cards (pictures, JSON), the solver, extra cards and a practice
puzzle in the terminal."""

from __future__ import annotations

import json
import time
from typing import Annotated

import typer
from rich.console import Console

from otherside.cli.rectoverso_render import card_renderable, save_card_png, views_table
from otherside.core.errors import OthersideError
from otherside.games.rectoverso.cards import (
    Card,
    generate,
    generate_standard_set,
    matches,
    mismatch,
    standard_card,
    standard_set_json,
)
from otherside.games.rectoverso.construction import Construction
from otherside.games.rectoverso.flow import points_for
from otherside.games.rectoverso.notation import Place, Remove, parse_action, parse_view
from otherside.games.rectoverso.pieces import pieces_of
from otherside.games.rectoverso.solver import Solver, hint

app = typer.Typer(
    help="Recto Verso: cards, the solver and a practice puzzle.", no_args_is_help=True
)
console = Console(highlight=False)
clock = time.monotonic  # the puzzle's clock; tests replace it

SIDES = {"both": ("front", "back"), "recto": ("front",), "verso": ("back",)}


def _fail(message: str) -> typer.Exit:
    console.print(f"[red]{message}[/red]")
    return typer.Exit(2)


def _pick_card(number: int | None, seed: int | None, hard: bool) -> Card:
    if number is not None and seed is not None:
        raise _fail("give a card number or a seed, not both")
    if number is not None:
        try:
            return standard_card(number)
        except ValueError as exc:
            raise _fail(str(exc)) from None
    return generate(seed if seed is not None else 0, "hard" if hard else "easy")[0]


@app.command("card")
def card_command(
    number: Annotated[
        int | None, typer.Argument(help="standard card: 1–32 easy, 33–64 hard")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="a generated card from this seed")] = None,
    hard: Annotated[bool, typer.Option("--hard", help="generated card: hard (with red)")] = False,
    png: Annotated[str | None, typer.Option(help="also draw both views into this PNG")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the card as JSON")] = False,
) -> None:
    """Show a card: both views as coloured squares (or JSON, or a PNG picture)."""
    if number is None and seed is None:
        raise _fail("give a card number (1–64) or --seed")
    card = _pick_card(number, seed, hard)
    if png:
        save_card_png(card, png)
    if as_json:
        typer.echo(json.dumps(card.to_json()))
        return
    console.print(card_renderable(card))
    if png:
        console.print(f"drawn into {png}")


@app.command("solve")
def solve_command(
    card_number: Annotated[int | None, typer.Option("--card", help="a standard card")] = None,
    front: Annotated[str | None, typer.Option(help="front view, levels top first, '/'")] = None,
    back: Annotated[str | None, typer.Option(help="back view, levels top first, '/'")] = None,
    difficulty: Annotated[str, typer.Option(help="easy or hard (with --front/--back)")] = "easy",
    count: Annotated[int, typer.Option(help="also count solutions up to this limit")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="print the result as JSON")] = False,
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
        raise _fail("give --card N, or --front and --back")
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


@app.command("generate")
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


PUZZLE_HELP = (
    "commands: place <piece> <x,y,z> … | remove <piece> | hint | done | help | quit\n"
    "cells x,y,z: x = 0…3 left to right (front), y = 0…3 front to back, z = 0… up"
)


def _show(card: Card, construction: Construction, sides: tuple[str, ...]) -> None:
    console.print(card_renderable(card, sides))
    built = {"front": construction.front_view(), "back": construction.back_view()}
    console.print(views_table("your construction", {s: built[s] for s in sides}))
    console.print("top view (back row first): " + " | ".join(construction.top_view()))
    unplaced = [p.name for p in pieces_of(card.difficulty) if p not in construction.pieces]
    console.print("not placed: " + (", ".join(unplaced) or "none"))


@app.command("puzzle")
def puzzle_command(
    card_number: Annotated[int | None, typer.Option("--card", help="a standard card")] = None,
    seed: Annotated[int | None, typer.Option(help="a generated card from this seed")] = None,
    hard: Annotated[bool, typer.Option("--hard", help="a hard generated card")] = False,
    side: Annotated[str, typer.Option(help="both, recto or verso: the sides you see")] = "both",
) -> None:
    """Practice alone: build a card by notation, timed and scored by R14 when done."""
    if side not in SIDES:
        raise _fail("--side must be both, recto or verso")
    if card_number is None and seed is None:
        seed = int(time.time())
    card = _pick_card(card_number, seed, hard)
    sides = SIDES[side]
    construction = Construction()
    console.print(PUZZLE_HELP)
    start = clock()
    _show(card, construction, sides)
    while True:
        try:
            line = input("> ").strip()
        except EOFError:
            line = "quit"
        if not line:
            continue
        if line in ("quit", "exit"):
            console.print("bye")
            return
        if line == "help":
            console.print(PUZZLE_HELP)
            continue
        if line == "hint":
            step = hint(card, construction)
            console.print(f"hint: {step}" if step else "hint: nothing to do, say done")
            continue
        try:
            action = parse_action(line)
            if isinstance(action, Place):
                if action.placement.piece not in pieces_of(card.difficulty):
                    name = action.placement.piece.name
                    console.print(f"[red]{name} is not used at {card.difficulty} (R2)[/red]")
                    continue
                construction = construction.place(action.placement)
            elif isinstance(action, Remove):
                construction = construction.remove(action.piece)
            elif str(action) == "done":
                _finish(card, construction, clock() - start)
                return
            else:
                console.print(f"[red]{action} is for the table game, not the puzzle[/red]")
                continue
        except OthersideError as exc:
            console.print(f"[red]{exc}[/red]")
            continue
        _show(card, construction, sides)


def _finish(card: Card, construction: Construction, seconds: float) -> None:
    reason = mismatch(construction, card)
    if reason is None:
        points = points_for(seconds)
        console.print(f"it matches! {seconds:.1f} s: {points} points (R14)")
    else:
        console.print(f"it does not match: {reason}. {seconds:.1f} s: 0 points (R14)")


def register(root: typer.Typer) -> None:
    """Add ``rectoverso`` to the ``otherside`` command."""
    root.add_typer(app, name="rectoverso")
