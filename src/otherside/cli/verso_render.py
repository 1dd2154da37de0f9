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

from otherside.cli.language import current, fill, t, tn
from otherside.games.verso import DESIGNERS_BEST
from otherside.games.verso.cards import COLOURS
from otherside.guide import name_rule_ids
from otherside.i18n import N_

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
COLOUR_WORDS = {"blue": N_("blue"), "green": N_("green"), "orange": N_("orange")}
"""The colours' names as messages (the notation keeps them in English)."""
END_REASONS = {"pile empty": N_("pile empty")}
"""Why a game ended, as the engine's events say it, as messages."""
RATINGS = (
    N_("60+ Deck legend"),
    N_("55-59 A true pro"),
    N_("50-54 A model player"),
    N_("45-49 What talent"),
    N_("40-44 Nice move"),
    N_("35-39 The average Verso score"),
    N_("below 35"),
)
"""The solo ratings of V18 (:data:`~otherside.games.verso.RATING_BANDS`) as messages."""

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
    """Display names: ``You`` (in the terminal's language) for a lone human seat, otherwise the
    seat kind and its number.

    >>> seat_names(["human", "random", "random"])
    ['You', 'random 1', 'random 2']
    >>> seat_names(["human", "human"])
    ['human 0', 'human 1']
    """
    humans = sum(1 for s in seats if s == "human")
    return [
        t("You") if seat == "human" and humans == 1 else f"{seat} {i}"
        for i, seat in enumerate(seats)
    ]


def _seat_lines(view: View, names: Sequence[str], me: int | None, seat: int) -> list[Text]:
    """A seat's name (marked when it is to play), score and square: the first column's lines."""
    current = view["current_player"]
    tableau = view["tableaux"][seat]
    name = Text.assemble(
        (f"{TURN_MARK} " if seat == current else "  ", "bold yellow"),
        (names[seat], "bold yellow" if seat == current else "bold" if seat == me else ""),
    )
    score = Text("  " + t("{points} VP", points=tableau["score"]), style="bold")
    square = (
        Text(f"  {SQUARE_MARK} " + t("square"), style="magenta") if tableau["square"] else Text()
    )
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
    table.add_column(t("player"), min_width=13, no_wrap=True)
    table.add_column("", min_width=7, no_wrap=True)
    for value in VALUE_COLUMNS:
        # A cell holds " B3 " and, once shown, "↓g4" for its down face: 7 characters.
        table.add_column(f" {face_label(value)}", min_width=7, no_wrap=True)
    for seat, tableau in enumerate(view["tableaux"]):
        rows = _rows(tableau)
        for colour, first in zip(COLOURS, _seat_lines(view, names, me, seat), strict=True):
            cells = [rows[colour].get(v, Text(" ·", style="dim")) for v in VALUE_COLUMNS]
            label = Text(t(COLOUR_WORDS[colour]), style=STYLES[colour][2])
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
            word = t(COLOUR_WORDS[colour])
            colours.add_row(Text(f"    {word:<6}", style=STYLES[colour][2]), held)
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
    line = Text(tn("Pile {count} card", "Pile {count} cards", size) if size else t("Pile empty"))
    line.stylize("bold")
    if view["top"] is not None:
        line.append("   " + t("top") + " ")
        line.append_text(face_text(view["top"]))
        line.append("  " + t("(its other side is hidden)"), style="dim")
    line.append("   " + t("discards {count}", count=len(view["discards"])), style="dim")
    return line


def _turn_line(view: View, names: Sequence[str], me: int | None) -> Text | None:
    current = view["current_player"]
    if current is None:
        return None
    who = names[current]
    mine = who == t("You")
    text = Text(f"{TURN_MARK} ", style="bold yellow")
    if view["phase"] == "final":
        said = (
            t("Final series: you may bank one last series, or pass.")
            if mine
            else t("Final series: {who} may bank one last series, or pass.", who=who)
        )
        text.append(said, style="bold")
        return text
    text.append(t("You to play") if mine else t("{who} to play", who=who), style="bold")
    if current == me and view["top"] is not None:
        said = (
            t(" — draw keeps {face}, flip takes its other side")
            if view["draw_legal"]
            else t(" — {face} would duplicate a card of yours: flip it, or bank a series")
        )
        text.append_text(fill(said, "", face=face_text(view["top"])))
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
    you = t("You")
    i = 0
    while i < len(events):
        event = events[i]
        kind = event["type"]
        i += 1
        who = names[event["player"]] if event.get("player") is not None else ""
        mine = who == you
        if kind == "draw":
            face = face_text(event["face"])
            if event["flipped"]:
                said = (
                    t("You flipped {before} → {face}")
                    if mine
                    else t("{who} flipped {before} → {face}")
                )
                line = fill(said, "", who=who, before=face_text(event["from"]), face=face)
            else:
                line = fill(
                    t("You drew {face}") if mine else t("{who} drew {face}"), "", who=who, face=face
                )
        elif kind == "discard" and event["reason"] == "series":
            cards, i = _series_discards(events, i - 1)
            said = (
                t("You discarded {cards} (the two highest of the series)")
                if mine
                else t("{who} discarded {cards} (the two highest of the series)")
            )
            line = fill(said, "dim", who=who, cards=Text(" ").join(cards))
        elif kind == "discard":
            said = (
                t("{card} duplicates a card in your tableau: discarded (V8)")
                if mine
                else t("{card} duplicates a card in {who}'s tableau: discarded (V8)")
            )
            line = fill(
                name_rule_ids(said, current()), "dim", who=who, card=card_text(event["card"])
            )
        elif kind == "series":
            banked = Text(event["text"].removeprefix("series "), style=STYLES[event["colour"]][2])
            said = (
                t("You banked {series}  +{points} VP")
                if mine
                else t("{who} banked {series}  +{points} VP")
            )
            line = fill(said, "bold", who=who, series=banked, points=str(event["points"]))
        elif kind == "turn":
            said = (
                t("Your {before} turned over → {after}")
                if mine
                else t("{who}'s {before} turned over → {after}")
            )
            line = fill(
                said, "", who=who, before=face_text(event["from"]), after=face_text(event["to"])
            )
        elif kind == "square":
            line = Text(f"{SQUARE_MARK} " + t("Square!") + " ", style="bold magenta")
            said = (
                t("You hold 3 cards of every colour: +{points} VP", points=event["points"])
                if mine
                else t(
                    "{who} holds 3 cards of every colour: +{points} VP",
                    who=who,
                    points=event["points"],
                )
            )
            line.append(said, style="bold")
        elif kind == "square_broken":
            said = (
                t("Your square is broken: the next one scores")
                if mine
                else t("{who}'s square is broken: the next one scores", who=who)
            )
            line = Text(said, style="dim")
        elif kind == "opponent":
            line = fill(t("The opponent took {card}"), "", card=card_text(event["card"]))
            if event["effect"] == "turn":
                down = face_colour(event["card"]["down"])
                colour = t(COLOUR_WORDS[down])
                if i < len(events) and events[i]["type"] == "turn":
                    said = t(": you turn your highest {colour} card (V16)", colour=colour)
                    line.append(name_rule_ids(said, current()))
                else:
                    said = t(": you hold no {colour} card to turn (V16)", colour=colour)
                    line.append(name_rule_ids(said, current()), style="dim")
            else:
                line.append(t(": no effect"), style="dim")
        elif kind == "pass":
            line = Text(t("You passed") if mine else t("{who} passed", who=who), style="dim")
        elif kind == "final":
            said = (
                t("The pile is empty: you may bank one last series (V17).")
                if solo
                else t("The pile is empty: each player may bank one last series (V14).")
            )
            line = Text(name_rule_ids(said, current()), style="bold")
        elif kind == "end":
            engine = event["reason"]
            reason = t(END_REASONS[engine]) if engine in END_REASONS else engine
            line = Text(t("Game over: {reason}.", reason=reason), style="bold")
        else:
            line = Text(str(dict(event)), style="dim")
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
        text = t("You win!") if who[0] == t("You") else t("{who} wins.", who=who[0])
    else:
        text = t("{who} and {last} share the victory.", who=", ".join(who[:-1]), last=who[-1])
    return Text(text, style="bold green")


def render_results(view: View, names: Sequence[str]) -> RenderableType:
    """The scores, best first: final ones with the winners marked and a solo game's V18 rating,
    or, for a game that stopped before its end, the scores when it stopped."""
    outcome = view["outcome"]
    title = t("Final scores") if outcome else t("Scores so far")
    scores = outcome["scores"] if outcome else view["scores"]
    winners = outcome["winners"] if outcome and not view["solo"] else []
    table = Table(title=title, box=box.SIMPLE_HEAVY, title_style="bold")
    table.add_column("#", justify="right")
    table.add_column(t("player"))
    table.add_column(t("VP"), justify="right", style="bold")
    table.add_column("")
    order = sorted(range(len(names)), key=lambda p: -scores[p])
    for rank, seat in enumerate(order, 1):
        mark = Text(t("winner"), style="bold green") if seat in winners else ""
        table.add_row(str(rank), names[seat], str(scores[seat]), mark)
    if winners:
        return Group(table, _winners_line(winners, names))
    if view.get("rating") is None:
        return table
    rating = Text(t("Solo rating:") + " ", style="bold")
    band = view["rating"]
    rating.append(t(band) if band in RATINGS else band, style="bold magenta")
    rating.append(
        "   " + t("the designers' best is {best} (rule V18)", best=DESIGNERS_BEST), style="dim"
    )
    return Group(table, rating)
