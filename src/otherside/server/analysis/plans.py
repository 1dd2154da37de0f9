"""What each game's analysis weighs, and how the bots' answers become the analysis.

A plan is built from the finished game replayed from its stored moves: the worker jobs (one
per decision to weigh, each with the public view of the position before it) and a function
that turns their answers, in order, into the analysis sent to players. The position's view is
the whole table only in a game of perfect information (VERSUS); a game with hidden facts would
weigh each decision from its player's view.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from otherside.bots.analysis import ANALYSED_GAMES
from otherside.bots.versus import analysis as versus_analysis
from otherside.core.game import State
from otherside.games.versus import Ply, parse_action
from otherside.server.store.records import MoveRow


@dataclass(frozen=True)
class Budget:
    """What the bots may spend on each decision of an analysis: ``think`` seconds and at most
    ``depth`` plies of search. Small and fixed, so that a game is analysed in seconds."""

    think: float = 1.0
    depth: int = 3


@dataclass(frozen=True)
class Plan:
    """One analysis to compute: the worker jobs and how their answers combine."""

    game: str
    jobs: list[tuple[Any, ...]]
    combine: Callable[[Sequence[Any]], dict[str, Any]]


def analysed(game: str) -> bool:
    """Whether the bots analyse finished games of ``game``."""
    return game in ANALYSED_GAMES


def plan(
    game: str,
    states: Sequence[tuple[MoveRow | None, State]],
    view: Callable[[State], dict[str, Any]],
    budget: Budget,
) -> Plan:
    """The plan of ``game``'s analysis from its replayed ``states`` (the first state, then each
    move with the state after it) and the public ``view`` of a state.

    Raises:
        ValueError: the bots do not analyse ``game``.
    """
    if game != "versus":
        raise ValueError(f"the bots do not analyse {game!r} games")
    plies: list[versus_analysis.PlayedPly] = []
    jobs: list[tuple[Any, ...]] = []
    for number in range(1, len(states)):
        move = states[number][0]
        assert move is not None  # every state but the first follows a move
        action = parse_action(move.action)
        if not isinstance(action, Ply):
            continue  # a draw offer or its answer, a resignation: not a board decision
        plies.append(versus_analysis.PlayedPly(number, str(action), move.seat))
        before = view(states[number - 1][1])
        jobs.append(("assess", game, before, str(action), budget.think, budget.depth))

    def combine(answers: Sequence[Any]) -> dict[str, Any]:
        return {
            "game": game,
            "plies": [versus_analysis.annotate(p, a) for p, a in zip(plies, answers, strict=True)],
            "judgements": {name: drop for drop, name in versus_analysis.JUDGEMENTS},
            "engine": {"bot": "search", "think": budget.think, "depth": budget.depth},
        }

    return Plan(game, jobs, combine)
