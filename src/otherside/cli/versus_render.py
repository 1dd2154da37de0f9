"""Terminal drawing of a VERSUS view with Rich: the hex board, stones, VERSUS, scores.

The board is drawn with Blue's home edge (r = −5) at the bottom. Every cell is five characters
wide: an empty cell shows its coordinates (``q:r``, the notation to type); a stone shows its
owner's mark (``●`` Blue, ``○`` Brown), then ``b·(5−b)``, its value to Blue and to Brown, on its
controller's colour; a target is marked ``◇`` (before an empty target's coordinates, after a
stone locked on it); a VERSUS is its owner's mark then ``VS▲``. So the board reads without
colour too. The last ply's cells and the stones it flipped are underlined (the empty cell it
left in yellow), and :func:`describe_attraction` says in words what an attraction did.

Narrower than :data:`FULL_WIDTH` columns the board turns compact (three characters a cell:
rows labelled by ``r``, empty cells showing their ``q``, stones their ``b``); narrower than
:data:`COMPACT_WIDTH` it says the terminal is too narrow instead of drawing a broken hexagon.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.text import Text

from otherside.cli.language import t
from otherside.games.versus.hex import RADIUS
from otherside.i18n import N_

COLOUR_STYLE = ("bold white on blue", "bold white on dark_orange3")
VERSUS_STYLE = ("bold bright_blue", "bold orange1")
TARGET_STYLE = "grey85 on grey30"
NAMES = (N_("Blue"), N_("Brown"))
"""The sides' names as messages: say them with :func:`~otherside.cli.language.t`."""
OWNER_MARK = ("●", "○")
TARGET_MARK = "◇"
SEGMENTS = 5
CELLS_PER_ROW = 2 * RADIUS + 1
FULL_WIDTH = len("r=-5 ") + 6 * CELLS_PER_ROW
"""Columns the full board needs: a row label, then 11 cells of 5 characters and a space."""
COMPACT_WIDTH = len("-5 ") + 4 * CELLS_PER_ROW
"""Columns the compact board needs: a row label, then 11 cells of 3 characters and a space."""

View = Mapping[str, Any]


def _pieces(view: View, compact: bool) -> dict[str, tuple[str, str]]:
    """Every occupied cell's label and style."""
    pieces: dict[str, tuple[str, str]] = {}
    for player, cell in enumerate(view["versus"]):
        label = f"{OWNER_MARK[player]}VS" if compact else f"{OWNER_MARK[player]}VS▲ "
        pieces[cell] = (label, VERSUS_STYLE[player])
    for stone in view["stones"]:
        b, mark = stone["b"], OWNER_MARK[stone["owner"]]
        lock = TARGET_MARK if stone["locked"] else " "
        label = f"{mark}{b}{lock}" if compact else f"{mark}{b}·{SEGMENTS - b}{lock}"
        pieces[stone["cell"]] = (label, COLOUR_STYLE[stone["owner"]])
    return pieces


def _empty_label(q: int, r: int, target: bool, compact: bool) -> str:
    if compact:
        return f"{q:>2}{TARGET_MARK if target else ' '}"
    coordinates = f"{q}:{r}"
    return f"{TARGET_MARK}{coordinates:>4}" if target else f"{coordinates:>5}"


def board_text(view: View, flipped: set[str] | None = None, compact: bool = False) -> Text:
    """The hex board of ``view`` as styled text (see the module docstring for the symbols).

    Args:
        view: a VERSUS view.
        flipped: cells of stones the last ply flipped, underlined.
        compact: three characters a cell instead of five (for narrow terminals).
    """
    targets = set(view["options"]["targets"])
    pieces = _pieces(view, compact)
    highlight = set(flipped or ())
    if view["last"] and ">" in view["last"]:
        highlight |= set(view["last"].split(">"))
    step = 2 if compact else 3  # half a cell: each row is shifted by half a cell from the next
    board = Text()
    for r in range(RADIUS, -RADIUS - 1, -1):
        q_min, q_max = max(-RADIUS, -RADIUS - r), min(RADIUS, RADIUS - r)
        board.append(f"{r:>2} " if compact else f"r={r:>2} ", style="grey50")
        board.append(" " * step * (2 * q_min + r + 2 * RADIUS))
        for q in range(q_min, q_max + 1):
            cell = f"{q}:{r}"
            if cell in pieces:
                label, style = pieces[cell]
                if cell in highlight:
                    style = f"{style} underline"
            else:
                label = _empty_label(q, r, cell in targets, compact)
                style = TARGET_STYLE if cell in targets else "grey50"
                if cell in highlight:
                    style = "black on yellow"
            board.append(label, style=style)
            board.append(" ")
        board.append("\n")
    return board


class Board:
    """The board as a Rich renderable that fits the width it is given (see the module doc)."""

    def __init__(self, view: View, flipped: set[str] | None = None) -> None:
        self.view = view
        self.flipped = flipped

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        if width >= FULL_WIDTH:
            yield board_text(self.view, self.flipped)
        elif width >= COMPACT_WIDTH:
            yield Text(
                t(
                    "(narrow terminal: each row starts with its r, an empty cell shows its q, "
                    "a stone its value to Blue; type cells as q:r)"
                ),
                style="grey50",
            )
            yield board_text(self.view, self.flipped, compact=True)
        else:
            yield Text(
                t(
                    "The terminal is {width} columns wide; the board needs {compact} "
                    "({full} with coordinates). Widen it to see the board.",
                    width=width,
                    compact=COMPACT_WIDTH,
                    full=FULL_WIDTH,
                ),
                style="bold red",
            )


def status_text(view: View, seat_names: tuple[str, str] | None = None) -> Text:
    """One line: ply, scores, who is to move (or the outcome), pending offer, S13.4 counter."""
    text = Text()
    text.append(t("ply {ply}", ply=view["ply"]) + "  ")
    for side, score in enumerate(view["scores"]):
        text.append(f" {OWNER_MARK[side]} {t(NAMES[side])} {score} ", style=COLOUR_STYLE[side])
        text.append(" " if side == 0 else "")
    names = seat_names or ("", "")
    outcome = view["outcome"]
    if outcome:
        winners = outcome["winners"]
        result = t("{side} wins", side=t(NAMES[winners[0]])) if len(winners) == 1 else t("draw")
        said = t("game over: {result} ({reason})", result=result, reason=outcome["reason"])
        text.append(f"  {said}", style="bold")
    else:
        mover = view["to_move"]
        who = f"{t(NAMES[mover])}{f' ({names[mover]})' if names[mover] else ''}"
        text.append("  " + t("{who} to move", who=who), style=VERSUS_STYLE[mover])
        if view["draw_offer"] is not None:
            offering = NAMES[view["draw_offer"]]
            offer = t("{side} offers a draw", side=t(offering))
            text.append(f"  — {offer}", style="bold")
        quiet, limit = view["quiet"], view["options"]["quiet_limit"]
        ends = t(
            "{quiet}/{limit} plies without a lock (the game ends at {limit})",
            quiet=quiet,
            limit=limit,
        )
        text.append(f"  {ends}", style="grey50")
    if view["last"]:
        text.append("  " + t("last: {ply}", ply=view["last"]), style="yellow")
    return text


def legend() -> Text:
    """What the board's marks mean, in the terminal's language."""
    return Text.assemble(
        (t("legend:") + " ", "grey50"),
        (f"{OWNER_MARK[0]} " + t("Blue's"), COLOUR_STYLE[0]),
        ("  ", "grey50"),
        (f"{OWNER_MARK[1]} " + t("Brown's"), COLOUR_STYLE[1]),
        ("  " + t("3·2 a stone worth 3 to Blue, 2 to Brown") + "  ", "grey50"),
        (f"{TARGET_MARK} " + t("target"), TARGET_STYLE),
        (" " + t("(a stone on one is locked)") + "  ", "grey50"),
        (f"{OWNER_MARK[0]}VS▲", VERSUS_STYLE[0]),
        (" " + t("a VERSUS") + "  ", "grey50"),
        (t("underlined"), "underline"),
        (" " + t("the last ply"), "grey50"),
    )


def render(
    view: View,
    flipped: set[str] | None = None,
    seat_names: tuple[str, str] | None = None,
) -> Group:
    """The board, the status line and the legend, ready for ``console.print``."""
    return Group(Board(view, flipped), status_text(view, seat_names), legend())


def _changed_stones(before: View, after: View) -> Iterator[tuple[Mapping[str, Any], ...]]:
    # The view lists the stones in the same order from ply to ply: pair them up.
    yield from zip(before["stones"], after["stones"], strict=True)


def flipped_cells(before: View, after: View) -> set[str]:
    """Cells of the stones whose controller changed between two views (the last attraction)."""
    return {
        new["cell"] for old, new in _changed_stones(before, after) if old["owner"] != new["owner"]
    }


def describe_attraction(before: View, after: View) -> list[str]:
    """What one ply did to the stones it did not move itself, in words (S10, S9).

    Each stone pulled and flipped is named by its owner's mark and values before the ply, with
    where it came from and where it went; a stone the ply locked on a target is said so.
    """
    lines = []
    for old, new in _changed_stones(before, after):
        b = old["b"]
        stone = f"{OWNER_MARK[old['owner']]}{b}·{SEGMENTS - b}"
        if old["owner"] != new["owner"]:
            said = (
                t(
                    "{side}'s VERSUS pulled {stone} from {start} to {end} and flipped it: now "
                    "{side}'s, locked on that target"
                )
                if new["locked"]
                else t(
                    "{side}'s VERSUS pulled {stone} from {start} to {end} and flipped it: now "
                    "{side}'s"
                )
            )
            winner = NAMES[new["owner"]]
            side = t(winner)
            lines.append(said.format(side=side, stone=stone, start=old["cell"], end=new["cell"]))
        elif new["locked"] and not old["locked"]:
            lines.append(
                t(
                    "{stone} is locked on the target {cell} for the rest of the game",
                    stone=stone,
                    cell=new["cell"],
                )
            )
    return lines
