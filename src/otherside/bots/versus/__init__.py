"""VERSUS bots: ``random``, ``greedy`` and ``search`` (alpha-beta; aliases ``alphabeta``,
``best``).

Every bot plays board plies only: platform actions are a human's business, except answering a
draw offer, which the bots do from their evaluation (accept when they stand worse).
Options are keyword arguments of the factories: ``make_bot("versus", "search", think=0.5)``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from otherside.bots.base import BotOption, register_bot
from otherside.bots.versus.eval import evaluate
from otherside.bots.versus.search import CONTEMPT, QUIESCENCE_PLIES, AlphaBeta
from otherside.core.game import Action
from otherside.games.versus import PlatformAction, Ply, position_from_view
from otherside.games.versus.notation import ply_of_code
from otherside.games.versus.rules import Position


def _plies(legal: Sequence[Action]) -> list[Ply]:
    return [a for a in legal if isinstance(a, Ply)]


def _answer_draw(position: Position, player: int, legal: Sequence[Action]) -> Action:
    """Accept a draw offer when standing worse, else decline."""
    accept = evaluate(position, player) < 0
    wanted = PlatformAction.ACCEPT_DRAW if accept else PlatformAction.DECLINE_DRAW
    return wanted if wanted in legal else legal[0]


class VersusRandomBot:
    """Uniform among the board plies (never resigns or offers a draw)."""

    name = "random"

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        plies = _plies(legal)
        return rng.choice(plies) if plies else rng.choice(list(legal))


class GreedyBot:
    """One ply deep: the ply whose resulting position evaluates best (ties at random)."""

    name = "greedy"

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        position = position_from_view(view)
        player = int(view["player"])
        plies = _plies(legal)
        if not plies:
            return _answer_draw(position, player, legal)
        scored = [(evaluate(position.play(a.code), player), a) for a in plies]
        best = max(value for value, _ in scored)
        return rng.choice([a for value, a in scored if value >= best - 1e-9])


class SearchBot:
    """Alpha-beta with iterative deepening under a time budget (``think`` seconds per ply).

    Args:
        think: seconds per decision (the last fully searched depth decides).
        depth: optional depth cap (for tests and reproducible analysis).
        contempt: points a drawn end costs the bot (plays on for a win against weaker bots).
        quiescence: plies of attractions and locks followed past the horizon.
    """

    name = "search"

    def __init__(
        self,
        think: float = 1.0,
        depth: int | None = None,
        contempt: float = CONTEMPT,
        quiescence: int = QUIESCENCE_PLIES,
    ) -> None:
        if think <= 0:
            raise ValueError(f"think must be positive seconds, not {think}")
        self.think = think
        self.depth = depth
        self.searcher = AlphaBeta(contempt=contempt, quiescence=quiescence)

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        position = position_from_view(view)
        plies = _plies(legal)
        if not plies:
            return _answer_draw(position, int(view["player"]), legal)
        if self.depth is not None:
            code = self.searcher.best_move(position, self.think, self.depth)
        else:
            code = self.searcher.best_move(position, self.think)
        return ply_of_code(code)


@register_bot("versus", "random", strength="the baseline", quick=True)
def random_bot() -> VersusRandomBot:
    """The uniform baseline."""
    return VersusRandomBot()


@register_bot("versus", "greedy", strength="loses 200 of 200 to search (1 s/ply)", quick=True)
def greedy_bot() -> GreedyBot:
    """One-ply material and position evaluation."""
    return GreedyBot()


@register_bot(
    "versus",
    "search",
    "alphabeta",
    "best",
    description="Alpha-beta search with quiescence, thinking the time it is given per move.",
    strength="wins 200 of 200 against greedy",
    options=(BotOption("think", 0.1, 10.0, (0.5, 1.0, 2.0, 5.0), default=1.0),),
)
def search_bot(
    think: float = 1.0,
    depth: int | None = None,
    contempt: float = CONTEMPT,
    quiescence: int = QUIESCENCE_PLIES,
) -> SearchBot:
    """Alpha-beta search; ``think`` seconds per ply, optional ``depth`` cap, the ``contempt``
    for draws and the ``quiescence`` plies at the horizon."""
    return SearchBot(think=think, depth=depth, contempt=contempt, quiescence=quiescence)
