"""The one match loop: bots (and human seats, which implement the same protocol) take turns."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from otherside.bots.base import Bot
from otherside.core.errors import IllegalAction
from otherside.core.game import Game, Outcome, State

S = TypeVar("S", bound=State[Any])


@dataclass(frozen=True)
class Step(Generic[S]):
    """One applied action: who played it, what it was, and the states around it."""

    player: int
    action: Any
    before: S
    after: S


@dataclass
class MatchResult(Generic[S]):
    """A finished match: the final state, its outcome and every action in order."""

    final: S
    outcome: Outcome
    actions: list[str] = field(default_factory=list)
    decision_seconds: list[list[float]] = field(default_factory=list)


def play_match(
    game: Game[S],
    state: S,
    seats: Sequence[Bot[Any, Any]],
    rng: random.Random,
    on_step: Callable[[Step[S]], None] | None = None,
    clock: Callable[[], float] | None = None,
) -> MatchResult[S]:
    """Play ``state`` to the end with ``seats[p]`` choosing for player ``p``.

    Each seat gets ``game.view(state, p)``, the legal actions and ``rng``. A seat that returns an
    action outside the legal list is a bug in that seat: ``IllegalAction`` is raised.
    ``clock`` (for instance ``time.perf_counter``) records how long each decision took.
    """
    if len(seats) != state.players:
        raise ValueError(f"{state.players} players but {len(seats)} seats")
    times: list[list[float]] = [[] for _ in seats]
    actions: list[str] = []
    while not state.is_over:
        player = state.current_player
        assert player is not None  # not over, so someone is to move
        legal = state.legal_actions()
        start = clock() if clock else 0.0
        action = seats[player].choose(game.view(state, player), legal, rng)
        if clock:
            times[player].append(clock() - start)
        if action not in legal:
            raise IllegalAction(
                action, f"bot {seats[player].name!r} chose outside the legal list", legal
            )
        after = state.apply(action)
        actions.append(str(action))
        if on_step:
            on_step(Step(player, action, state, after))
        state = after
    assert state.outcome is not None
    return MatchResult(state, state.outcome, actions, times)
