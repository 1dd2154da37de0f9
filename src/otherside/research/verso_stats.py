"""Verso figures gathered by the simulator in each game (observers of
:mod:`otherside.simulate`): squares scored per seat and, for solo games, the clairvoyant
ceiling of the same pile (:class:`VersoStats`); for solo games, where the points came from, in
the bot's game and in the clairvoyant's line on the same pile (:class:`SoloGap`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from otherside.bots.match import MatchResult, Step
from otherside.games.verso.actions import DRAW, Flip
from otherside.games.verso.state import VersoState
from otherside.research.verso_solver import ClairvoyantSolver, clairvoyant_score


class VersoStats:
    """Counts the squares (V12) each seat scores; solves the pile when ``ceiling`` is on."""

    def __init__(self, ceiling: bool = False) -> None:
        self.ceiling = ceiling
        self.squares: list[int] = []

    def on_step(self, step: Step[VersoState]) -> None:
        if not self.squares:
            self.squares = [0] * step.before.players
        for event in step.after.events_raw:
            if event[0] == "square":
                self.squares[event[1]] += 1

    def finish(self, result: MatchResult[VersoState]) -> dict[str, Any]:
        final = result.final
        out: dict[str, Any] = {"squares_per_game": self.squares or [0] * final.players}
        if self.ceiling and final.players == 1:
            out["clairvoyant"] = clairvoyant_score(final.table.pile)
        return out


SOLO_FIGURES = (
    ("score", "final score"),
    ("series", "series banked in play"),
    ("series_points", "points of those series"),
    ("final_series", "points of the final series (V17)"),
    ("squares", "squares (V12), 7 points each"),
    ("taken", "cards taken"),
    ("flips", "of them flipped"),
    ("forced_flips", "flips forced by a duplicate on top (V8)"),
    ("turned", "cards the opponent turned (V16)"),
    ("dup_taken", "taken cards discarded as duplicates"),
    ("dup_turned", "turned cards discarded as duplicates"),
)
"""The figures :func:`solo_figures` counts, each with how tables show it."""


def solo_figures(steps: Iterable[Step[VersoState]]) -> dict[str, int]:
    """The :data:`SOLO_FIGURES` of one solo game, from the engine's events of its steps."""
    figures = dict.fromkeys((key for key, _ in SOLO_FIGURES), 0)
    for step in steps:
        before, after = step.before, step.after
        if isinstance(step.action, Flip) and DRAW not in before.legal_actions():
            figures["forced_flips"] += 1
        last = ""
        for event in after.events:
            if event["type"] == "series":
                if before.phase_name == "final":
                    figures["final_series"] += event["points"]
                else:
                    figures["series"] += 1
                    figures["series_points"] += event["points"]
            elif event["type"] == "square":
                figures["squares"] += 1
            elif event["type"] == "draw":
                figures["taken"] += 1
                figures["flips"] += event["flipped"]
            elif event["type"] == "turn":
                figures["turned"] += 1
            elif event["type"] == "discard" and event["reason"] == "duplicate":
                figures["dup_taken" if last == "draw" else "dup_turned"] += 1
            last = event["type"]
        figures["score"] = after.scores[0]
    return figures


class SoloGap:
    """The :func:`solo_figures` of a solo game and of the clairvoyant's line on its pile (the
    solver's optimum replayed by the engine), as extras ``figures`` and ``clairvoyant_figures``.

    Raises:
        ValueError: at the end of a game of 2+ players (the solver plays solo piles).
    """

    def __init__(self) -> None:
        self.steps: list[Step[VersoState]] = []

    def on_step(self, step: Step[VersoState]) -> None:
        self.steps.append(step)

    def finish(self, result: MatchResult[VersoState]) -> dict[str, Any]:
        final = result.final
        if final.players != 1:
            raise ValueError(f"the clairvoyant line is for solo games, not {final.players} players")
        line: list[Step[VersoState]] = []
        state = VersoState.start(final.table)
        for action in ClairvoyantSolver(final.table.pile).line():
            after = state.apply(action)
            line.append(Step(0, action, state, after))
            state = after
        return {"figures": solo_figures(self.steps), "clairvoyant_figures": solo_figures(line)}
