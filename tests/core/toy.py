"""A tiny hidden-information game (secret-number Nim) used to test the core contract itself.

Two players take 1 or 2 tokens from a heap; whoever takes the last token scores 1. Each player
also holds a secret number that only they may see: views leak it if a test subclass says so.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from otherside.core import BadNotation, BadRecord, IllegalAction, Outcome


@dataclass(frozen=True)
class Take:
    count: int

    def __str__(self) -> str:
        return f"take {self.count}"


@dataclass(frozen=True)
class NimState:
    heap: int
    secrets: tuple[int, ...]
    turn: int
    history: tuple[str, ...] = ()
    seed: int = 0
    mutable_box: list[int] | None = None

    players = 2

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.turn

    @property
    def is_over(self) -> bool:
        return self.heap == 0

    @property
    def scores(self) -> tuple[int, ...]:
        if not self.is_over:
            return (0, 0)
        winner = 1 - self.turn
        return tuple(1 if p == winner else 0 for p in range(2))

    @property
    def outcome(self) -> Outcome | None:
        return Outcome.by_scores(self.scores, "heap empty") if self.is_over else None

    def legal_actions(self) -> list[Take]:
        return [] if self.is_over else [Take(n) for n in (1, 2) if n <= self.heap]

    def parse_action(self, text: str) -> Take:
        parts = text.split()
        if len(parts) != 2 or parts[0] != "take" or not parts[1].isdigit():
            raise BadNotation(text, "expected 'take N'", self.legal_actions())
        return Take(int(parts[1]))

    def apply(self, action: Take | str) -> NimState:
        if isinstance(action, str):
            action = self.parse_action(action)
        if action not in self.legal_actions():
            raise IllegalAction(action, "not that many tokens", self.legal_actions())
        return replace(
            self,
            heap=self.heap - action.count,
            turn=1 - self.turn,
            history=(*self.history, str(action)),
        )

    def to_record(self) -> dict[str, Any]:
        return {"game": "nim", "seed": self.seed, "actions": list(self.history)}


class Nim:
    name = "nim"
    player_counts = (2,)
    leak = False

    def new_state(
        self, players: int, *, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> NimState:
        rng = random.Random(seed)
        return NimState(
            heap=rng.randint(5, 9),
            secrets=(rng.randint(0, 99), rng.randint(0, 99)),
            turn=0,
            seed=seed or 0,
        )

    def replay(self, record: Mapping[str, Any]) -> NimState:
        state = self.new_state(2, seed=record["seed"])
        for index, text in enumerate(record["actions"]):
            try:
                state = state.apply(text)
            except ValueError as exc:
                raise BadRecord(str(exc), index) from exc
        return state

    def view(self, state: NimState, player: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {"heap": state.heap, "turn": state.turn}
        if player is not None:
            view["secret"] = state.secrets[player]
        if self.leak and player is not None:
            view["other"] = state.secrets[1 - player]
        return view

    def redeal(self, state: NimState, player: int, rng: random.Random) -> NimState:
        secrets = list(state.secrets)
        secrets[1 - player] = rng.randint(0, 99)
        return replace(state, secrets=tuple(secrets))
