"""A human seat at a Verso table: it implements the bot protocol by asking at the terminal.

The seat sees what a bot sees (the view and the legal actions). To explain why a well-formed move
is illegal it asks a :class:`Referee`, which holds the real state of the match and lets the
engine answer (``state.apply`` raises with the rule's reason), so no rule is re-implemented here.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from otherside.bots.match import Step
from otherside.cli.language import current, t
from otherside.cli.session import QUIT_HELP, read_command
from otherside.cli.verso_render import STYLES, render_board
from otherside.core.errors import BadNotation, IllegalAction
from otherside.core.game import Action, Game, State
from otherside.games.verso import parse_action
from otherside.guide import name_rule_ids
from otherside.i18n import N_

SHORT_WORDS = {
    "d": "draw",
    "f": "flip",
    "p": "pass",
    "s": "series",
    "b": "blue",
    "g": "green",
    "o": "orange",
}

# What the prompt accepts: the commands stay as typed in every language, their meanings are
# messages.
HELP_MOVES = (
    ("draw, d", N_("take the top card of the pile as it shows")),
    ("flip, f", N_("turn the top card over, then take it (it stays turned)")),
    ("series COLOUR VALUES", N_("bank a run of 2-6 cards of one colour, values increasing:")),
    ("", N_("series blue 3 4 5, or s b 3 4 5; a star is *N, the value it stands for")),
    ("pass, p", N_("only in the final round: bank nothing")),
    (N_("a number"), N_("the move of that number in the list of legal moves")),
    ("moves, ?", N_("list the legal moves")),
    ("board", N_("show the table again")),
    ("quit, q", QUIT_HELP),
)
HELP_RULES = N_(
    "Banking a series: your neighbours turn over their highest card of that colour, you score "
    "the VP printed on the series (upper-case faces 3, lower-case 1, a star 1) and discard its "
    "two highest cards. A tableau never holds two equal cards: the new one is discarded. "
    "3+ cards of every colour make a square: +7 VP, again only once it was broken. "
    "The game ends when the pile is empty; then everyone may bank one last series. "
    "Rule ids such as (V10) point into the rules: otherside rules verso."
)


def help_text() -> RenderableType:
    """What the prompt accepts, and the rules in a nutshell."""
    table = Table.grid(padding=(0, 2))
    for words, meaning in HELP_MOVES:
        table.add_row(Text(t(words) if words else "", style="bold"), t(meaning))
    return Group(table, Text(t(HELP_RULES), style="dim"))


def expand_shorthand(text: str) -> str:
    """Expand the one-letter words the prompt accepts into notation.

    >>> expand_shorthand("s b 3 *4 5")
    'series blue 3 *4 5'
    >>> expand_shorthand(" F ")
    'flip'
    >>> expand_shorthand("series orange 5 ★6")
    'series orange 5 *6'
    """
    words = text.lower().replace("★", "*").split()
    return " ".join(SHORT_WORDS.get(w, w) if i < 2 else w for i, w in enumerate(words))


class Referee:
    """The real state of a match, kept up to date by the match loop's ``on_step``.

    It answers only what the rules engine says about a move the player may already see:
    why it is illegal, or how many points a series would bank.
    """

    def __init__(self, game: Game, state: State) -> None:
        self.game = game
        self.state = state

    def follow(self, step: Step) -> None:
        """``on_step`` hook: the state after the last action."""
        self.state = step.after

    def reason(self, action: Action | str) -> str:
        """The engine's reason why ``action`` cannot be played now."""
        try:
            self.state.apply(str(action))
        except (BadNotation, IllegalAction) as exc:
            return exc.reason
        return t("it is not among the legal moves")

    def points(self, action: Action) -> int:
        """The points a series would bank (V11.3), read from the engine's ``series`` event.

        Only that event is read: the score after the action could also hold what the action
        reveals (a square made by the solo opponent's card, V16), which the player may not know.
        """
        events = self.game.view(self.state.apply(str(action)), None)["events"]
        return sum(e["points"] for e in events if e["type"] == "series")


def moves_text(legal: Sequence[Action], referee: Referee) -> RenderableType:
    """The legal moves, numbered (a number is accepted as the move), with each series' points."""
    items = []
    for number, action in enumerate(legal, 1):
        item = Text(f"{number:>2} ", style="bold yellow")
        notation = str(action)
        colour = notation.split()[1] if notation.startswith("series") else None
        item.append(notation, style=STYLES[colour][2] if colour else "bold")
        if colour:
            item.append(" " + t("+{points} VP", points=referee.points(action)), style="dim")
        items.append(item)
    return Group(Text(t("Legal moves:"), style="bold"), Columns(items, padding=(0, 3)))


class HumanSeat:
    """A seat played at the keyboard, through the same protocol as the bots.

    Args:
        console: where the board and the messages go, and whose ``input`` reads the moves.
        names: display names of every seat.
        referee: the match's real state, for the engine's reasons and a series' points.
    """

    name = "human"

    def __init__(self, console: Console, names: Sequence[str], referee: Referee) -> None:
        self.console = console
        self.names = list(names)
        self.referee = referee

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """Show the board and ask until a legal move is typed.

        Raises:
            QuitGame: the player typed ``quit``, or the input ended.
        """
        me = view["player"]
        self.console.print()
        self.console.print(render_board(view, self.names, me))
        prompt = f"[bold yellow]{self.names[me]}[/] [dim](help, ?)[/] › "
        while True:
            action = self._answer(read_command(self.console, prompt), view, legal)
            if action is not None:
                return action

    def _answer(self, line: str, view: Mapping[str, Any], legal: Sequence[Action]) -> Action | None:
        """The move ``line`` names, or None after printing help, the moves or an error."""
        word = line.lower()
        if not word:
            return None
        if word in ("help", "h"):
            self.console.print(help_text())
            self.console.print(moves_text(legal, self.referee))
            return None
        if word in ("moves", "?", "m"):
            self.console.print(moves_text(legal, self.referee))
            return None
        if word == "board":
            self.console.print(render_board(view, self.names, view["player"]))
            return None
        if word.isdigit():
            if 1 <= int(word) <= len(legal):
                return legal[int(word) - 1]
            self._refuse(
                t("there is no move {number}: choose 1 to {last}", number=word, last=len(legal)),
                legal,
            )
            return None
        try:
            action = parse_action(expand_shorthand(line))
        except BadNotation as exc:
            self._refuse(t("{line!r} is not a move: {reason}", line=line, reason=exc.reason), legal)
            return None
        if action in legal:
            return action
        reason = self.referee.reason(action)
        self._refuse(t("illegal: {action} — {reason}", action=action, reason=reason), legal)
        return None

    def _refuse(self, message: str, legal: Sequence[Action]) -> None:
        self.console.print(Text(name_rule_ids(message, current()), style="bold red"))
        self.console.print(moves_text(legal, self.referee))
