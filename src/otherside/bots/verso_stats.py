"""Verso figures gathered by the simulator in each game (an observer of
:mod:`otherside.bots.simulate`): squares scored per seat and, for solo games, the clairvoyant
ceiling of the same pile."""

from __future__ import annotations

from typing import Any

from otherside.bots.match import MatchResult, Step


class VersoStats:
    """Counts the squares (V12) each seat scores; solves the pile when ``ceiling`` is on."""

    def __init__(self, ceiling: bool = False) -> None:
        self.ceiling = ceiling
        self.squares: list[int] = []

    def on_step(self, step: Step) -> None:
        if not self.squares:
            self.squares = [0] * step.before.players
        for event in step.after.events_raw:  # type: ignore[attr-defined]
            if event[0] == "square":
                self.squares[event[1]] += 1

    def finish(self, result: MatchResult) -> dict[str, Any]:
        final = result.final
        out: dict[str, Any] = {"squares_per_game": self.squares or [0] * final.players}
        if self.ceiling and final.players == 1:
            from otherside.bots.verso_solver import clairvoyant_score

            out["clairvoyant"] = clairvoyant_score(final.table.pile)  # type: ignore[attr-defined]
        return out
