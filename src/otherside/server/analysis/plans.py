"""What each game's analysis weighs, and how the bots' answers become the analysis.

A plan is built from the finished game replayed from its stored moves: the worker jobs (one
per decision to weigh, each with the view the bots may use: the whole table in VERSUS, a game
of perfect information; the seat's own view in Verso; in Recto Verso one per card not
completed, solved once the game is over) and a function that turns their
answers, in order, into the analysis sent to players.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from otherside.bots.analysis import ANALYSED_GAMES
from otherside.bots.verso.analysis import VersoAssessment
from otherside.bots.versus import analysis as versus_analysis
from otherside.core.game import State
from otherside.games import verso, versus
from otherside.games.rectoverso.flow import RectoVersoState
from otherside.server.store.records import MoveRow

COSTLIEST = 5
"""How many of a Verso game's costliest decisions are listed."""

Views = Callable[[State, int | None], dict[str, Any]]
"""The view of a state for a seat (``None``: anyone's)."""


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
    game: str, states: Sequence[tuple[MoveRow | None, State]], view: Views, budget: Budget
) -> Plan:
    """The plan of ``game``'s analysis from its replayed ``states`` (the first state, then each
    move with the state after it) and the game's ``view`` function.

    Raises:
        ValueError: the bots do not analyse ``game``.
    """
    if game == "versus":
        return _versus(states, view, budget)
    if game == "verso":
        return _verso(states, view, budget)
    if game == "rectoverso":
        return _rectoverso(states)
    raise ValueError(f"the bots do not analyse {game!r} games")


def _moves(states: Sequence[tuple[MoveRow | None, State]]) -> list[tuple[int, MoveRow, State]]:
    """Each move's number (1 for the first), the move, and the state before it."""
    found = []
    for number in range(1, len(states)):
        move = states[number][0]
        assert move is not None  # every state but the first follows a move
        found.append((number, move, states[number - 1][1]))
    return found


def _versus(states: Sequence[tuple[MoveRow | None, State]], view: Views, budget: Budget) -> Plan:
    plies: list[versus_analysis.PlayedPly] = []
    jobs: list[tuple[Any, ...]] = []
    for number, move, before in _moves(states):
        action = versus.parse_action(move.action)
        if not isinstance(action, versus.Ply):
            continue  # a draw offer or its answer, a resignation: not a board decision
        plies.append(versus_analysis.PlayedPly(number, str(action), move.seat))
        jobs.append(
            ("assess", "versus", view(before, None), str(action), budget.think, budget.depth)
        )

    def combine(answers: Sequence[Any]) -> dict[str, Any]:
        return {
            "game": "versus",
            "plies": [versus_analysis.annotate(p, a) for p, a in zip(plies, answers, strict=True)],
            "judgements": {name: drop for drop, name in versus_analysis.JUDGEMENTS},
            "engine": {"bot": "search", "think": budget.think, "depth": budget.depth},
        }

    return Plan("versus", jobs, combine)


def _verso(states: Sequence[tuple[MoveRow | None, State]], view: Views, budget: Budget) -> Plan:
    made: list[tuple[int, int, str]] = []
    jobs: list[tuple[Any, ...]] = []
    for number, move, before in _moves(states):
        if len(before.legal_actions()) < 2:
            continue  # no choice, nothing to weigh
        played = str(verso.parse_action(move.action))
        made.append((number, move.seat, played))
        # The seat's own view: the decision is weighed on what its player could see.
        jobs.append(("assess", "verso", view(before, move.seat), played, budget.think, 0))

    def combine(answers: Sequence[Any]) -> dict[str, Any]:
        decisions: list[dict[str, Any]] = []
        for (number, seat, played), answer in zip(made, answers, strict=True):
            assert isinstance(answer, VersoAssessment)
            best, chosen = round(answer.best_value, 4), round(answer.played_value, 4)
            decisions.append(
                {
                    "ply": number,
                    "seat": seat,
                    "played": played,
                    "best": answer.best,
                    "played_value": chosen,
                    "best_value": best,
                    "cost": round(best - chosen, 4),
                }
            )
        costly = sorted((d for d in decisions if d["cost"] > 0), key=lambda d: -d["cost"])
        measure = answers[0].measure if answers else "win"
        return {
            "game": "verso",
            "measure": measure,
            "decisions": decisions,
            "costliest": [d["ply"] for d in costly[:COSTLIEST]],
            "engine": {"bot": "ismcts determinizations", "think": budget.think},
        }

    return Plan("verso", jobs, combine)


def _rectoverso(states: Sequence[tuple[MoveRow | None, State]]) -> Plan:
    final = states[-1][1]
    assert isinstance(final, RectoVersoState)
    missed = [(index, r) for index, r in enumerate(final.results, start=1) if not r.matched]
    jobs: list[tuple[Any, ...]] = [
        ("assess", "rectoverso", final.card_numbered(r.card).to_json()) for _, r in missed
    ]

    def combine(answers: Sequence[Any]) -> dict[str, Any]:
        cards = [
            {
                "round": index,
                "card": r.card,
                "recto": r.recto,
                "verso": r.verso,
                "reason": r.reason,
                "built": list(r.placements),
                "solution": answer,
            }
            for (index, r), answer in zip(missed, answers, strict=True)
        ]
        return {"game": "rectoverso", "cards": cards, "engine": {"bot": "solver"}}

    return Plan("rectoverso", jobs, combine)
