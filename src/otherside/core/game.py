"""The protocols every game meets, and the outcome of a finished game."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, Self, TypeVar, runtime_checkable

JSON = dict[str, Any]


@runtime_checkable
class Action(Protocol):
    """A small, hashable value object; ``str(action)`` is its notation."""

    def __str__(self) -> str: ...

    def __hash__(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game, as data.

    Attributes:
        scores: final score of each player, in seat order.
        winners: the seats that share the victory (empty for a draw agreed or scored equal
            in a two-player game where nobody wins).
        reason: why the game ended, in words (``"pile empty"``, ``"resigned"`` …).
    """

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str

    @classmethod
    def by_scores(cls, scores: Sequence[int], reason: str) -> Outcome:
        """Highest score wins; tied players share the victory.

        >>> Outcome.by_scores([3, 7, 7], "pile empty").winners
        (1, 2)
        """
        best = max(scores)
        return cls(tuple(scores), tuple(i for i, s in enumerate(scores) if s == best), reason)

    @property
    def is_draw(self) -> bool:
        """True when no single player won (a tie among all players, or nobody)."""
        return len(self.winners) != 1

    def to_json(self) -> JSON:
        """A JSON-serialisable dict."""
        return {"scores": list(self.scores), "winners": list(self.winners), "reason": self.reason}


A = TypeVar("A", bound=Action)
"""A game's action type (``VersoAction``, ``VersusAction`` …)."""


class State(Protocol[A]):
    """An immutable game position whose actions are of type ``A``.

    ``apply`` never mutates: it returns the next state, or raises ``IllegalAction`` /
    ``BadNotation`` (both ``ValueError``) naming the input, the reason and the legal actions.
    """

    @property
    def players(self) -> int: ...

    @property
    def current_player(self) -> int | None:
        """The seat to act, or ``None`` once the game is over."""
        ...

    @property
    def is_over(self) -> bool: ...

    @property
    def outcome(self) -> Outcome | None: ...

    @property
    def scores(self) -> tuple[int, ...]: ...

    def legal_actions(self) -> Sequence[A]:
        """The legal actions of the current player, in a deterministic order."""
        ...

    def parse_action(self, text: str) -> A:
        """Parse notation into an action (legal or not); ``BadNotation`` if malformed."""
        ...

    def apply(self, action: A | str) -> Self:
        """Return the state after ``action`` (an action or its notation)."""
        ...

    def to_record(self) -> JSON:
        """The game record (JSON) that replays to this state."""
        ...


S = TypeVar("S", bound=State[Any])
"""A game's state type (``VersoState`` …), which fixes its action type."""


class Game(Protocol[S]):
    """A game whose states are of type ``S``: static description, factory, replay and views."""

    name: str
    player_counts: tuple[int, ...]

    def new_state(
        self, players: int, *, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> S:
        """A fresh game; every random choice comes from ``seed``."""
        ...

    def replay(self, record: Mapping[str, Any]) -> S:
        """The state reached by a game record; ``BadRecord`` if it is malformed or illegal."""
        ...

    def view(self, state: S, player: int | None) -> JSON:
        """What ``player`` may see (``None``: a spectator), as JSON-serialisable data."""
        ...

    def redeal(self, state: S, player: int, rng: random.Random) -> S:
        """A state that ``player`` cannot tell apart from ``state``.

        Every piece of information hidden from ``player`` is re-drawn at random, consistently
        with what they have seen. Used by the conformance suite to prove that views hide what
        they must (the view must not change), and by bots' tests. Games of perfect information
        return ``state``.
        """
        ...
