"""Terminal drawing of a VERSUS view with Rich: the hex board, stones, VERSUS, scores.

The board is drawn with Blue's home edge (r = −5) at the bottom. Every cell is five characters
wide: an empty cell shows its coordinates (``q:r``, the notation to type), a target cell has a
grey background, a stone shows ``b·(5−b)`` — its value to Blue, then to Brown — on its
controller's colour (in brackets when locked on a target), a VERSUS shows ``▲VS▲``. The last
ply's cells are highlighted in yellow, and so are the stones it flipped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group
from rich.text import Text

from otherside.games.versus.hex import RADIUS

COLOUR_STYLE = ("bold white on blue", "bold white on dark_orange3")
VERSUS_STYLE = ("bold bright_blue", "bold orange1")
NAMES = ("Blue", "Brown")
SEGMENTS = 5


def _cell_text(
    cell: str,
    pieces: Mapping[str, tuple[str, str]],
    targets: set[str],
    highlight: set[str],
) -> Text:
    text, style = pieces.get(cell, (f"{cell:>5}", "grey50"))
    if cell in targets and cell not in pieces:
        style = "grey85 on grey30"
    if cell in highlight:
        style = f"{style} underline" if cell in pieces else "black on yellow"
    return Text(text, style=style)


def board_text(
    view: Mapping[str, Any], flipped: set[str] | None = None, show_coordinates: bool = True
) -> Text:
    """The hex board of ``view`` as styled text (see the module docstring for the symbols)."""
    targets = set(view["options"]["targets"])
    pieces: dict[str, tuple[str, str]] = {}
    for player, cell in enumerate(view["versus"]):
        pieces[cell] = ("▲VS▲ ", VERSUS_STYLE[player])
    for stone in view["stones"]:
        b = stone["b"]
        label = f"[{b}·{SEGMENTS - b}]" if stone["locked"] else f" {b}·{SEGMENTS - b} "
        pieces[stone["cell"]] = (label, COLOUR_STYLE[stone["owner"]])
    highlight = set(flipped or ())
    if view["last"] and ">" in view["last"]:
        highlight |= set(view["last"].split(">"))
    board = Text()
    for r in range(RADIUS, -RADIUS - 1, -1):
        q_min, q_max = max(-RADIUS, -RADIUS - r), min(RADIUS, RADIUS - r)
        indent = 3 * (2 * q_min + r + 2 * RADIUS)
        board.append(f"r={r:>2} " if show_coordinates else "", style="grey50")
        board.append(" " * indent)
        for q in range(q_min, q_max + 1):
            cell = f"{q}:{r}"
            if not show_coordinates and cell not in pieces:
                board.append(_cell_text(cell, {cell: ("  ·  ", "grey50")}, targets, highlight))
            else:
                board.append(_cell_text(cell, pieces, targets, highlight))
            board.append(" ")
        board.append("\n")
    return board


def status_text(view: Mapping[str, Any], seat_names: tuple[str, str] | None = None) -> Text:
    """One line: ply, scores, who is to move (or the outcome), pending offer, S13.4 counter."""
    text = Text()
    text.append(f"ply {view['ply']}  ")
    blue, brown = view["scores"]
    text.append(f" Blue {blue} ", style=COLOUR_STYLE[0])
    text.append(" ")
    text.append(f" Brown {brown} ", style=COLOUR_STYLE[1])
    names = seat_names or ("", "")
    outcome = view["outcome"]
    if outcome:
        winners = outcome["winners"]
        result = f"{NAMES[winners[0]]} wins" if len(winners) == 1 else "draw"
        text.append(f"  game over: {result} ({outcome['reason']})", style="bold")
    else:
        mover = view["to_move"]
        who = f"{NAMES[mover]}{f' ({names[mover]})' if names[mover] else ''}"
        text.append(f"  {who} to move", style=VERSUS_STYLE[mover])
        if view["draw_offer"] is not None:
            text.append(f"  — {NAMES[view['draw_offer']]} offers a draw", style="bold")
        quiet, limit = view["quiet"], view["options"]["quiet_limit"]
        text.append(f"  quiet {quiet}/{limit}", style="grey50")
    if view["last"]:
        text.append(f"  last: {view['last']}", style="yellow")
    return text


LEGEND = Text.assemble(
    ("legend: ", "grey50"),
    (" 3·2 ", COLOUR_STYLE[0]),
    (" a stone worth 3 to Blue, 2 to Brown, Blue's  ", "grey50"),
    ("[3·2]", COLOUR_STYLE[1]),
    (" locked (Brown's)  ", "grey50"),
    ("-3:0 ", "grey85 on grey30"),
    (" target  ", "grey50"),
    ("▲VS▲", VERSUS_STYLE[0]),
    (" VERSUS", "grey50"),
)


def render(
    view: Mapping[str, Any],
    flipped: set[str] | None = None,
    seat_names: tuple[str, str] | None = None,
) -> Group:
    """The board, the status line and the legend, ready for ``console.print``."""
    return Group(board_text(view, flipped), status_text(view, seat_names), LEGEND)


def flipped_cells(before: Mapping[str, Any], after: Mapping[str, Any]) -> set[str]:
    """Cells of the stones whose controller changed between two views (the last attraction)."""
    return {
        new["cell"]
        for old, new in zip(before["stones"], after["stones"], strict=True)
        if old["owner"] != new["owner"]
    }
