"""Pictures of Recto Verso cards and constructions: coloured squares in the terminal (Rich) and
in PNG files (matplotlib)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from pathlib import Path

from rich.console import Group
from rich.table import Table
from rich.text import Text

from otherside.cli.language import t, tn
from otherside.games.rectoverso.cards import Card
from otherside.games.rectoverso.pieces import BY_LETTER
from otherside.i18n import N_

# One display colour per piece letter (the wooden pieces' colours).
COLOURS: dict[str, str] = {
    "k": "#202020",
    "w": "#f4f4f4",
    "a": "#9e9e9e",
    "n": "#8b5a2b",
    "g": "#2e8b57",
    "p": "#ff8fb8",
    "v": "#7e57c2",
    "o": "#ff8c00",
    "y": "#ffd700",
    "b": "#1e63d6",
    "r": "#d32f2f",
}
EMPTY_COLOUR = "#ffffff"
SIDE_TITLES = {"front": N_("recto (front)"), "back": N_("verso (back)")}
DIFFICULTY_WORDS = {"easy": N_("easy"), "hard": N_("hard")}
"""The sides' and difficulties' names as messages (the notation keeps them in English)."""


WRONG_MARK = "×"


def view_text(view: Sequence[str], wrong: Set[tuple[int, int]] = frozenset()) -> Text:
    """A view as rows of coloured squares, each labelled with its letter, top level first.

    Cells in ``wrong`` (row from the top, column) are marked ``×``: there the construction shows
    another colour than the card.
    """
    text = Text()
    for row, level in enumerate(view):
        z = len(view) - 1 - row
        text.append(f"z{z} ", style="dim")
        for column, char in enumerate(level):
            mark = WRONG_MARK if (row, column) in wrong else " "
            if char == ".":
                text.append(f" ·{mark}", style="bold red" if mark != " " else "dim")
            else:
                dark = char in "kbvnr"
                style = f"{'white' if dark else 'black'} on {COLOURS[char]}"
                text.append(f" {char}", style=style)
                text.append(mark, style=f"bold red on {COLOURS[char]}" if mark != " " else style)
        text.append("\n")
    return text


def views_table(
    title: str,
    views: Mapping[str, Sequence[str]],
    wrong: Mapping[str, Set[tuple[int, int]]] | None = None,
) -> Table:
    """Views side by side (``{"front": …, "back": …}``, any subset), under ``title``; ``wrong``
    gives, per side, the cells to mark (see :func:`view_text`)."""
    table = Table(title=title, show_edge=False, box=None, padding=(0, 2))
    for side in views:
        table.add_column(t(SIDE_TITLES[side]) if side in SIDE_TITLES else side)
    marks = wrong or {}
    table.add_row(*(view_text(v, marks.get(side, frozenset())) for side, v in views.items()))
    return table


def compare_views(
    card: Sequence[str], built: Sequence[str]
) -> tuple[tuple[str, ...], set[tuple[int, int]], int]:
    """Line up a construction's view with the card's, bottom levels together.

    Returns:
        The construction's view with empty levels added on top to the height of the taller
        of the two; the cells (row from the top, column) where it shows a colour the card does
        not (another colour, or a cube where the card shows none); and how many of the card's
        cubes it does not show yet.

    >>> compare_views(("y.", "kb"), ("wb",))
    (('..', 'wb'), {(1, 0)}, 1)
    """
    height = max(len(card), len(built))
    width = len((card or built or ("",))[0])

    def padded(view: Sequence[str]) -> tuple[str, ...]:
        return ("." * width,) * (height - len(view)) + tuple(view)

    shown, mine = padded(card), padded(built)
    wrong, missing = set(), 0
    for row, (want, have) in enumerate(zip(shown, mine, strict=True)):
        for column, (a, b) in enumerate(zip(want, have, strict=True)):
            if b != "." and a != b:
                wrong.add((row, column))
            elif b == "." and a != ".":
                missing += 1
    return mine, wrong, missing


def card_renderable(card: Card, sides: Sequence[str] = ("front", "back")) -> Group:
    """A card for the terminal: the chosen sides, and a legend of the colours shown."""
    name = t("card {number}", number=card.number) if card.number is not None else t("card")
    views = {side: card.front if side == "front" else card.back for side in sides}
    letters = sorted({c for v in views.values() for c in "".join(v)} - {"."})
    difficulty = t(DIFFICULTY_WORDS[card.difficulty])
    pieces = "  ".join(f"{c} {BY_LETTER[c].name}" for c in letters)
    about = tn(
        "{difficulty}, {count} level: {pieces}",
        "{difficulty}, {count} levels: {pieces}",
        card.height,
        difficulty=difficulty,
        pieces=pieces,
    )
    legend = Text(about, style="dim")
    return Group(views_table(name, views), legend)


def save_card_png(card: Card, path: str | Path) -> None:
    """Draw both views of ``card`` side by side as coloured squares into a PNG file."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    height = card.height
    figure = Figure(figsize=(8, 1.2 + height))
    FigureCanvasAgg(figure)
    for index, (side, view) in enumerate((("front", card.front), ("back", card.back))):
        axes = figure.add_subplot(1, 2, index + 1)
        for row, level in enumerate(view):
            z = height - 1 - row
            for x, char in enumerate(level):
                colour = COLOURS.get(char, EMPTY_COLOUR)
                edge = "#333333" if char != "." else "#dddddd"
                axes.add_patch(Rectangle((x, z), 1, 1, facecolor=colour, edgecolor=edge, lw=1.5))
        axes.set_xlim(-0.1, 4.1)
        axes.set_ylim(-0.1, height + 0.1)
        axes.set_aspect("equal")
        axes.axis("off")
        axes.set_title(SIDE_TITLES[side])
    name = f"card {card.number}" if card.number is not None else "card"
    figure.suptitle(f"Recto Verso {name} ({card.difficulty})")
    figure.savefig(str(path), dpi=100)
