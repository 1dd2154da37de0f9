"""Post-game analysis of a Verso decision, from the seat's own view only.

A decision is weighed the way the ``ismcts`` bot sees a position: concrete positions are drawn
from the player's view (:func:`~otherside.games.verso.determinize`: hidden faces and the pile
at random, nothing the view does not show), each legal action is played in the same drawn
positions (so that the actions are compared on the same luck) and the game is finished by the
bot's rollout player (:func:`~otherside.bots.verso.ismcts.public_greedy`). An action's value is
the seat's mean result: its final points in a solo game (**expected points**), its share of the
win with more players (**win chance**, a tie shared).

Pure: the server runs :func:`assess` in its bot workers.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from otherside.bots.verso.ismcts import public_greedy
from otherside.games.verso import determinize
from otherside.games.verso.state import VersoState

MAX_DRAWS = 400
"""Drawn positions per decision at most (the time budget usually ends it sooner)."""

MIN_DRAWS = 4
"""Drawn positions per decision at least, whatever the time budget."""


@dataclass(frozen=True)
class VersoAssessment:
    """One decision weighed: the best action and the values of it and of the action played,
    in ``measure`` (``"points"`` solo, ``"win"`` with more players), from ``draws`` drawn
    positions."""

    best: str
    best_value: float
    played_value: float
    measure: str
    draws: int


def result(state: VersoState, seat: int) -> float:
    """The seat's result of a finished game: its points solo, its share of the win else."""
    outcome = state.outcome
    assert outcome is not None  # called on finished games only
    if len(outcome.scores) == 1:
        return float(outcome.scores[0])
    winners = outcome.winners
    return 1.0 / len(winners) if seat in winners else 0.0


def assess(view: Mapping[str, Any], played: str, think: float, seed: int = 0) -> VersoAssessment:
    """Weigh ``played`` against every legal action of the seat whose ``view`` it is (the view
    before the action), for about ``think`` seconds.

    Raises:
        ValueError: the view's seat is not the one to act, or ``played`` is not legal there.
    """
    seat = view["player"]
    if seat is None or view["current_player"] != seat:
        raise ValueError("a decision is weighed from the view of the seat that made it")
    rng = random.Random(seed)
    legal = [str(a) for a in determinize(view, rng).legal_actions()]  # type: ignore[arg-type]
    if played not in legal:
        raise ValueError(f"{played!r} is not legal here; legal: {', '.join(legal)}")
    totals = dict.fromkeys(legal, 0.0)
    deadline = time.perf_counter() + think
    draws = 0
    while draws < MAX_DRAWS and (draws < MIN_DRAWS or time.perf_counter() < deadline):
        drawn = determinize(view, rng)  # type: ignore[arg-type]
        for action in legal:
            state = drawn.apply(action)
            # Each action meets the same luck after it too: one rollout seed per draw.
            rollout = random.Random(draws)
            while not state.is_over:
                state = state.apply(public_greedy(state, rollout))
            totals[action] += result(state, seat)
        draws += 1
    values = {action: total / draws for action, total in totals.items()}
    best = max(legal, key=lambda a: (values[a], a == played))
    measure = "points" if view["solo"] else "win"
    return VersoAssessment(best, values[best], values[played], measure, draws)
