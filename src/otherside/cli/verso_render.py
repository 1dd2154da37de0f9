"""Rich rendering of Verso views and events for the terminal.

Everything here reads a view (``otherside.games.verso.view``) or its events and turns them into
Rich renderables; nothing decides a rule. Faces keep their notation (``B3`` is a 3-VP face,
``g4`` a 1-VP face) so that what a player sees is what they type; a star shows as ``★``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from otherside.games.verso import DESIGNERS_BEST
from otherside.games.verso.cards import COLOURS
from otherside.guide import name_rule_ids

LETTER_COLOUR = {colour[0]: colour for colour in COLOURS}
# (3-VP face, 1-VP face, label) styles per colour; chosen to read on dark and light terminals.
STYLES = {
    "blue": ("bold bright_white on dodger_blue3", "bold dodger_blue1", "dodger_blue1"),
    "green": ("bold bright_white on green4", "bold green3", "green3"),
    "orange": ("bold bright_white on dark_orange3", "bold dark_orange", "dark_orange"),
}
VALUE_COLUMNS = ("1", "2", "3", "4", "5", "6", "*")
SQUARE_MARK = "■"
TURN_MARK = "▶"
DOWN_MARK = "↓"

View = Mapping[str, Any]


def face_colour(face: str) -> str:
    """The colour name of a face in notation.

    >>> face_colour("g4"), face_colour("O*")
    ('green', 'orange')
    """
    return LETTER_COLOUR[face[0].lower()]


def face_label(face: str) -> str:
    """A face as shown on screen: its notation with the star drawn as ``★``.

    >>> face_label("o*"), face_label("B3")
    ('o★', 'B3')
    """
    return face.replace("*", "★")


def face_text(face: str, *, dim: bool = False) -> Text:
    """A face as a coloured badge: 3-VP faces filled and bold, 1-VP faces in colour.

    ``dim`` is for a card's known down face, shown small beside its up face.
    """
    big, small, label = STYLES[face_colour(face)]
    # Styles go on spans, not on the Text itself, so that table padding stays unpainted.
    if dim:
        return Text.assemble((face_label(face), f"dim {label}"))
    return Text.assemble((f" {face_label(face)} ", big if face[0].isupper() else small))


def card_text(card: Mapping[str, Any]) -> Text:
    """A card of a view: its up face, and its down face, once shown, after a ``↓`` and dimmed
    (the arrow says it is the card's other side where dimming does not show)."""
    text = face_text(card["up"])
    if card.get("down"):
        text.append(DOWN_MARK, style="dim")
        text.append_text(face_text(card["down"], dim=True))
    return text


def seat_names(seats: Sequence[str]) -> list[str]:
    """Display names: ``You`` for a lone human seat, otherwise the seat kind and its number.

    >>> seat_names(["human", "random", "random"])
    ['You', 'random 1', 'random 2']
    >>> seat_names(["human", "human"])
    ['human 0', 'human 1']
    """
    humans = sum(1 for s in seats if s == "human")
    return [
        "You" if seat == "human" and humans == 1 else f"{seat} {i}" for i, seat in enumerate(seats)
    ]


def possessive(name: str) -> str:
    """``Your`` for ``You``, otherwise ``name's``.

    >>> possessive("You"), possessive("random 1")
    ('Your', "random 1's")
    """
    return "Your" if name == "You" else f"{name}'s"


def _seat_lines(view: View, names: Sequence[str], me: int | None, seat: int) -> list[Text]:
    """A seat's name (marked when it is to play), score and square: the first column's lines."""
    current = view["current_player"]
    tableau = view["tableaux"][seat]
    name = Text.assemble(
        (f"{TURN_MARK} " if seat == current else "  ", "bold yellow"),
        (names[seat], "bold yellow" if seat == current else "bold" if seat == me else ""),
    )
    score = Text(f"  {tableau['score']} VP", style="bold")
    square = Text(f"  {SQUARE_MARK} square", style="magenta") if tableau["square"] else Text()
    return [name, score, square]


def _rows(tableau: Mapping[str, Any]) -> dict[str, dict[str, Text]]:
    """A tableau's cards by colour, then by value column (``1``…``6``, ``*``)."""
    rows: dict[str, dict[str, Text]] = {c: {} for c in COLOURS}
    for card in tableau["cards"]:
        rows[face_colour(card["up"])][card["up"][1]] = card_text(card)
    return rows


def _grid(view: View, names: Sequence[str], me: int | None) -> Table:
    """Every tableau as a grid: one row per colour, one column per value."""
    table = Table(box=box.SIMPLE_HEAD, header_style="dim", padding=0, pad_edge=False)
    table.add_column("player", min_width=13, no_wrap=True)
    table.add_column("", min_width=7, no_wrap=True)
    for value in VALUE_COLUMNS:
        # A cell holds " B3 " and, once shown, "↓g4" for its down face: 7 characters.
        table.add_column(f" {face_label(value)}", min_width=7, no_wrap=True)
    for seat, tableau in enumerate(view["tableaux"]):
        rows = _rows(tableau)
        for colour, first in zip(COLOURS, _seat_lines(view, names, me, seat), strict=True):
            cells = [rows[colour].get(v, Text(" ·", style="dim")) for v in VALUE_COLUMNS]
            label = Text(colour, style=STYLES[colour][2])
            table.add_row(first, label, *cells, end_section=colour == COLOURS[-1])
    return table


def _lists(view: View, names: Sequence[str], me: int | None) -> Group:
    """Every tableau as lists, for a terminal too narrow for :func:`_grid`: a seat's line, then
    one line per colour holding its cards in value order (wrapping if need be)."""
    parts: list[RenderableType] = []
    for seat, tableau in enumerate(view["tableaux"]):
        parts.append(Text(" ").join(_seat_lines(view, names, me, seat)))
        rows = _rows(tableau)
        colours = Table.grid(padding=(0, 1))
        colours.add_column(no_wrap=True)
        colours.add_column(overflow="fold")
        for colour in COLOURS:
            cards = [rows[colour][v] for v in VALUE_COLUMNS if v in rows[colour]]
            held = Text(" ").join(cards) if cards else Text(" ·", style="dim")
            colours.add_row(Text(f"    {colour:<6}", style=STYLES[colour][2]), held)
        parts.append(colours)
    return Group(*parts)


class Tableaux:
    """Every tableau as a grid when the terminal is wide enough for all seven value columns,
    else as lists: a narrow terminal never loses a column."""

    def __init__(self, view: View, names: Sequence[str], me: int | None) -> None:
        self.view, self.names, self.me = view, names, me

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        grid = _grid(self.view, self.names, self.me)
        # Measured unbounded: Measurement.get clamps to the width it is given.
        needed = Measurement.get(console, options.update_width(10_000), grid).minimum
        if needed <= options.max_width:
            yield grid
        else:
            yield _lists(self.view, self.names, self.me)


def _pile_line(view: View) -> Text:
    size = view["pile_size"]
    line = Text(f"Pile {size} card{'' if size == 1 else 's'}" if size else "Pile empty")
    line.stylize("bold")
    if view["top"] is not None:
        line.append("   top ")
        line.append_text(face_text(view["top"]))
        line.append("  (its other side is hidden)", style="dim")
    line.append(f"   discards {len(view['discards'])}", style="dim")
    return line


def _turn_line(view: View, names: Sequence[str], me: int | None) -> Text | None:
    current = view["current_player"]
    if current is None:
        return None
    who = names[current]
    text = Text(f"{TURN_MARK} ", style="bold yellow")
    if view["phase"] == "final":
        text.append(f"Final series: {who} may bank one last series, or pass.", style="bold")
        return text
    text.append(f"{who} to play", style="bold")
    if current == me and view["top"] is not None:
        if view["draw_legal"]:
            text.append(" — draw keeps ")
            text.append_text(face_text(view["top"]))
            text.append(", flip takes its other side")
        else:
            text.append(" — ")
            text.append_text(face_text(view["top"]))
            text.append(" would duplicate a card of yours: flip it, or bank a series")
    return text


def render_board(view: View, names: Sequence[str], me: int | None = None) -> RenderableType:
    """The whole table: pile, every tableau in one row per colour, scores, whose turn.

    Args:
        view: a Verso view (any seat's or a spectator's).
        names: the display name of each seat.
        me: the seat looking at the board, highlighted (None for a spectator).
    """
    parts: list[RenderableType] = [_pile_line(view), Tableaux(view, names, me)]
    turn = _turn_line(view, names, me)
    if turn is not None:
        parts.append(turn)
    return Group(*parts)


def _series_discards(events: Sequence[Mapping[str, Any]], start: int) -> tuple[list[Text], int]:
    """The cards discarded from a series, gathered from consecutive events after ``start``."""
    cards = []
    i = start
    while i < len(events) and events[i]["type"] == "discard" and events[i]["reason"] == "series":
        cards.append(card_text(events[i]["card"]))
        i += 1
    return cards, i


def describe_events(
    events: Sequence[Mapping[str, Any]], names: Sequence[str], solo: bool = False
) -> list[Text]:
    """The events of one action, in words, one line each.

    >>> lines = describe_events(
    ...     [{"type": "draw", "player": 1, "face": "B3", "flipped": True, "from": "g4"}],
    ...     ["You", "random 1"])
    >>> lines[0].plain
    'random 1 flipped  g4  →  B3 '
    """
    lines: list[Text] = []
    i = 0
    while i < len(events):
        event = events[i]
        kind = event["type"]
        i += 1
        who = names[event["player"]] if event.get("player") is not None else ""
        line = Text()
        if kind == "draw":
            if event["flipped"]:
                line.append(f"{who} flipped ")
                line.append_text(face_text(event["from"]))
                line.append(" → ")
            else:
                line.append(f"{who} drew ")
            line.append_text(face_text(event["face"]))
        elif kind == "discard" and event["reason"] == "series":
            cards, i = _series_discards(events, i - 1)
            line.append(f"{who} discarded ", style="dim")
            line.append_text(Text(" ").join(cards))
            line.append(" (the two highest of the series)", style="dim")
        elif kind == "discard":
            owner = possessive(who)
            owner = owner.lower() if owner == "Your" else owner
            line.append_text(card_text(event["card"]))
            line.append(
                name_rule_ids(f" duplicates a card in {owner} tableau: discarded (V8)"), style="dim"
            )
        elif kind == "series":
            line.append(f"{who} banked ", style="bold")
            line.append(event["text"].removeprefix("series "), style=STYLES[event["colour"]][2])
            line.append(f"  +{event['points']} VP", style="bold")
        elif kind == "turn":
            line.append(f"{possessive(who)} ")
            line.append_text(face_text(event["from"]))
            line.append(" turned over → ")
            line.append_text(face_text(event["to"]))
        elif kind == "square":
            line.append(f"{SQUARE_MARK} Square! ", style="bold magenta")
            holds = "hold" if who == "You" else "holds"
            line.append(
                f"{who} {holds} 3 cards of every colour: +{event['points']} VP", style="bold"
            )
        elif kind == "square_broken":
            line.append(f"{possessive(who)} square is broken: the next one scores", style="dim")
        elif kind == "opponent":
            line.append("The opponent took ")
            line.append_text(card_text(event["card"]))
            if event["effect"] == "turn":
                colour = face_colour(event["card"]["down"])
                turned = i < len(events) and events[i]["type"] == "turn"
                if turned:
                    line.append(name_rule_ids(f": you turn your highest {colour} card (V16)"))
                else:
                    line.append(
                        name_rule_ids(f": you hold no {colour} card to turn (V16)"), style="dim"
                    )
            else:
                line.append(": no effect", style="dim")
        elif kind == "pass":
            line.append(f"{who} passed", style="dim")
        elif kind == "final":
            who_may = (
                "you may bank one last series (V17)"
                if solo
                else ("each player may bank one last series (V14)")
            )
            line.append(name_rule_ids(f"The pile is empty: {who_may}."), style="bold")
        elif kind == "end":
            line.append(f"Game over: {event['reason']}.", style="bold")
        else:
            line.append(str(dict(event)), style="dim")
        lines.append(line)
    return lines


def narration(number: int | None, lines: Sequence[Text], indent: int = 0) -> Table:
    """Lines under an action number in a margin (``  12 │ …``); long lines wrap inside."""
    grid = Table.grid(padding=(0, 1, 0, 0))
    grid.add_column(justify="right", width=4, style="dim")
    grid.add_column(style="dim", width=1)
    grid.add_column(overflow="fold")
    for i, line in enumerate(lines):
        label = str(number) if i == 0 and number is not None else ""
        grid.add_row(label, "│", Text(" " * indent) + line)
    return grid


def _winners_line(winners: Sequence[int], names: Sequence[str]) -> Text:
    """Who won, in words (V15: tied players share the victory).

    >>> _winners_line([0], ["You", "random 1"]).plain
    'You win!'
    >>> _winners_line([1, 2], ["You", "random 1", "random 2"]).plain
    'random 1 and random 2 share the victory.'
    """
    who = [names[w] for w in winners]
    if len(who) == 1:
        text = "You win!" if who[0] == "You" else f"{who[0]} wins."
    else:
        text = f"{', '.join(who[:-1])} and {who[-1]} share the victory."
    return Text(text, style="bold green")


def render_results(view: View, names: Sequence[str]) -> RenderableType:
    """The scores, best first: final ones with the winners marked and a solo game's V18 rating,
    or, for a game that stopped before its end, the scores when it stopped."""
    outcome = view["outcome"]
    title = "Final scores" if outcome else "Scores so far"
    scores = outcome["scores"] if outcome else view["scores"]
    winners = outcome["winners"] if outcome and not view["solo"] else []
    table = Table(title=title, box=box.SIMPLE_HEAVY, title_style="bold")
    table.add_column("#", justify="right")
    table.add_column("player")
    table.add_column("VP", justify="right", style="bold")
    table.add_column("")
    order = sorted(range(len(names)), key=lambda p: -scores[p])
    for rank, seat in enumerate(order, 1):
        mark = Text("winner", style="bold green") if seat in winners else ""
        table.add_row(str(rank), names[seat], str(scores[seat]), mark)
    if winners:
        return Group(table, _winners_line(winners, names))
    if view.get("rating") is None:
        return table
    rating = Text("Solo rating: ", style="bold")
    rating.append(view["rating"], style="bold magenta")
    rating.append(f"   the designers' best is {DESIGNERS_BEST} (rule V18)", style="dim")
    return Group(table, rating)
