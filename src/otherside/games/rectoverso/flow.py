"""The game flow: partner tokens (R12), rounds (R13), score by time (R14), the end (R15), the
cooperative levels for 2 players (R16) and what each player may see (R17).

Time. A round's clock starts when its card is revealed. Each applied action is stamped with the
seconds elapsed in its round, and the stamps are part of the record, so a replay is exact. The
stamps come from the game's clock: an injected callable returning seconds (``time.monotonic``
for a real table, a fake in tests), or, when no clock is given, a *simulated* clock on which
every action takes ``seconds_per_action`` seconds (bots, simulations, the conformance suite).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from otherside.core.errors import IllegalAction
from otherside.core.game import Outcome
from otherside.games.rectoverso.cards import (
    GENERATED_BASE,
    Card,
    generated_cards,
    matches,
    standard_card,
)
from otherside.games.rectoverso.construction import Construction
from otherside.games.rectoverso.notation import (
    DONE,
    REVEAL,
    TIMEOUT,
    TURN,
    Action,
    Place,
    Remove,
    parse_action,
)
from otherside.games.rectoverso.pieces import pieces_of

Clock = Callable[[], float]

# Decisions, as data in one place.
SCORE_TABLE: tuple[tuple[float, int], ...] = (
    (20, 6),
    (40, 5),
    (60, 4),
    (80, 3),
    (100, 2),
    (120, 1),
)  # R14: (at most that many seconds, points)
ROUND_LIMIT = 120.0  # R14: after that the round ends with no score
LEVEL_LIMITS: tuple[float, ...] = (90, 75, 60, 45, 30, 20, 15)  # R16, seconds per level
SECONDS_PER_ACTION = 5.0  # the simulated clock, when no clock is injected
NAME = "rectoverso"


def points_for(seconds: float) -> int:
    """R14: the points of a matching construction finished after ``seconds``.

    >>> points_for(20), points_for(20.5), points_for(120), points_for(121)
    (6, 5, 1, 0)
    """
    for limit, points in SCORE_TABLE:
        if seconds <= limit:
            return points
    return 0


@dataclass(frozen=True)
class RoundResult:
    """A finished round: its card, builders, time, whether it matched and the points."""

    card: int
    recto: int
    verso: int
    seconds: float
    matched: bool
    points: int
    reason: str
    placements: tuple[str, ...] = ()  # the construction as it stood at the end (notation)

    def to_json(self) -> dict[str, Any]:
        """JSON-serialisable dict."""
        return {
            "card": self.card,
            "recto": self.recto,
            "verso": self.verso,
            "seconds": self.seconds,
            "matched": self.matched,
            "points": self.points,
            "reason": self.reason,
            "placements": list(self.placements),
        }


@dataclass(frozen=True)
class RectoVersoState:
    """An immutable Recto Verso position (see the package docstring for the serialisation)."""

    players: int
    difficulty: str
    seed: int
    fixed_deck: tuple[int, ...] | None  # the 'deck' option, when the deck was given
    generated: bool  # the 'cards' option: cards generated from the seed, not the standard set
    deck: tuple[int, ...]  # card numbers still to draw, in order (hidden from everyone)
    tokens: tuple[tuple[int, ...], ...]  # R12: each player's face-down tokens, turning order
    turned: tuple[tuple[int, ...], ...]  # each player's turned tokens (public)
    active: int = 0
    phase: str = "start"  # "start": a card is to be revealed; "build"; "over"
    card: int | None = None
    recto: int | None = None
    verso: int | None = None
    construction: Construction = field(default_factory=Construction)
    done: frozenset[int] = frozenset()
    round_actions: int = 0
    last_stamp: float = 0.0
    level: int = 0  # R16: levels cleared (2 players)
    totals: tuple[int, ...] = ()
    results: tuple[RoundResult, ...] = ()
    end_reason: str = ""
    history: tuple[tuple[str, int, float], ...] = ()  # (action, by, seconds into the round)
    clock: Clock | None = field(default=None, compare=False, repr=False)
    started: float = field(default=0.0, compare=False)  # clock reading at the round's start
    seconds_per_action: float = SECONDS_PER_ACTION

    # -- the contract ---------------------------------------------------------------------

    @property
    def cooperative(self) -> bool:
        """True for the 2-player cooperative levels (R16)."""
        return self.players == 2

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def current_player(self) -> int | None:
        """Whose action the turn-based serialisation expects (see the package docstring)."""
        if self.phase == "over":
            return None
        if self.phase == "start":
            return self.active
        assert self.recto is not None and self.verso is not None
        return self.verso if self.recto in self.done else self.recto

    @property
    def actors(self) -> tuple[int, ...]:
        """Who may act now: the active player between rounds, the builders not yet done
        during a round (both at once, R13), nobody once the game is over."""
        if self.phase == "start":
            return (self.active,)
        return tuple(p for p in self.builders if p not in self.done)

    def deadline(self) -> float | None:
        """The clock reading at which the round's time is up (R14, R16); ``None`` between
        rounds or on the simulated clock, where time only moves with actions."""
        if self.phase != "build" or self.clock is None:
            return None
        return self.started + self.limit

    @property
    def builders(self) -> tuple[int, ...]:
        """The two partners of the round being built (recto, verso), else ``()``."""
        if self.phase != "build" or self.recto is None or self.verso is None:
            return ()
        return (self.recto, self.verso)

    @property
    def scores(self) -> tuple[int, ...]:
        return self.totals

    @property
    def outcome(self) -> Outcome | None:
        return Outcome.by_scores(self.totals, self.end_reason) if self.is_over else None

    @property
    def limit(self) -> float:
        """The current round's time limit in seconds (R14, or R16 by level)."""
        if self.cooperative:
            return float(LEVEL_LIMITS[min(self.level, len(LEVEL_LIMITS) - 1)])
        return ROUND_LIMIT

    def stamp(self) -> float:
        """Seconds into the round at which an action applied now happens."""
        if self.clock is None:
            return float((self.round_actions + 1) * self.seconds_per_action)
        return max(0.0, float(self.clock() - self.started))

    def elapsed(self) -> float:
        """Seconds since the round's card was revealed (0 between rounds)."""
        if self.phase != "build":
            return 0.0
        if self.clock is None:
            return float(self.round_actions * self.seconds_per_action)
        return max(0.0, float(self.clock() - self.started))

    def time_is_up(self, at: float | None = None) -> bool:
        """True during a round whose time limit has passed (``at`` seconds in, default now)."""
        return self.phase == "build" and (self.stamp() if at is None else at) > self.limit

    def card_numbered(self, number: int) -> Card:
        """One of this game's cards: a standard card, or one generated from the seed."""
        if number > GENERATED_BASE:
            if not self.generated:
                raise ValueError(
                    f"card {number} is a generated card; this game uses the standard set"
                )
            return generated_cards(self.seed, self.difficulty)[number - GENERATED_BASE - 1]
        return standard_card(number)

    @property
    def current_card(self) -> Card | None:
        """The card being built, if any."""
        return self.card_numbered(self.card) if self.card is not None else None

    def legal_actions(self) -> list[Action]:
        """The current player's actions that :meth:`apply` accepts: :meth:`legal_actions_of`
        without the removes that something rests on (R5). For the engine's own loops; a
        builder is sent :meth:`legal_actions_of`, which hides where the pieces are."""
        return [
            a
            for a in self.legal_actions_of(self.current_player)
            if not (isinstance(a, Remove) and self.construction.check_remove(a.piece))
        ]

    def legal_actions_of(self, player: int | None, at: float | None = None) -> list[Action]:
        """What ``player`` may try now, as far as they can know (builders may both act at any
        time in a round), a function of their view alone (R17): every placement on free,
        supported cells (which cells are taken is public, see :attr:`Construction.tops`), the
        removal of every piece on top of a column (:meth:`Construction.on_top`) and ``done``.
        A listed removal is refused, as a hand would feel, when something rests on the piece.

        Args:
            player: a seat.
            at: seconds into the round (default: now, by the clock); only ``timeout`` is legal
                once the round's time limit has passed.
        """
        if player is None or self.phase == "over":
            return []
        if self.phase == "start":
            return [TURN if not self.cooperative else REVEAL] if player == self.active else []
        if player not in self.builders or player in self.done:
            return []
        if self.time_is_up(at):
            return [TIMEOUT]
        return [*self._building_actions, DONE]

    @cached_property
    def _building_actions(self) -> list[Action]:
        actions: list[Action] = []
        placed = self.construction.pieces
        for piece in pieces_of(self.difficulty):
            if piece not in placed:
                actions.extend(Place(p) for p in self.construction.legal_placements(piece))
        actions.extend(Remove(piece) for piece in self.construction.on_top())
        return actions

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def apply(self, action: Action | str) -> RectoVersoState:
        """The state after the current player's ``action`` (see :meth:`apply_as`)."""
        player = self.current_player
        if player is None:
            raise IllegalAction(action, "the game is over", [])
        return self.apply_as(player, action)

    def apply_as(
        self, player: int, action: Action | str, at: float | None = None
    ) -> RectoVersoState:
        """The state after ``player``'s ``action``: either builder may act at any time (R13).

        Args:
            player: the seat acting.
            action: an action or its notation.
            at: seconds into the round when it happens (replays); default: read the clock.

        Raises:
            BadNotation: for malformed text.
            IllegalAction: when the action breaks a rule; the message says which.
        """
        if isinstance(action, str):
            action = parse_action(action)
        if self.phase == "start":
            at = 0.0
        elif at is None:
            at = self.stamp()
        legal = self.legal_actions_of(player, at)
        if action not in legal:
            raise IllegalAction(action, self._why_illegal(player, action, at), legal)
        if isinstance(action, Remove):
            held = self.construction.check_remove(action.piece)
            if held is not None:
                raise IllegalAction(action, held, legal)
        return self._apply(action, player, at)

    def _why_illegal(self, player: int, action: Action, at: float) -> str:
        if self.phase == "over":
            return "the game is over"
        if self.phase == "start":
            word = "reveal (R16)" if self.cooperative else "turn (R13)"
            return f"player {self.active} is to {word} first"
        if player not in self.builders:
            return f"player {player} is not building this round"
        if player in self.done:
            return f"player {player} has said done this round"
        if self.time_is_up(at):
            return f"the time is up ({self.limit:g} s): the round ends (R14)"
        if isinstance(action, Place):
            reason = self.construction.check_place(action.placement)
            if reason is None and action.placement.piece not in pieces_of(self.difficulty):
                reason = f"{action.placement.piece.name} is not used at {self.difficulty} (R2)"
            return reason or "not a legal placement"
        if isinstance(action, Remove):
            return self.construction.check_remove(action.piece) or "cannot remove it"
        return f"{action} is not an action of this phase"

    def _apply(self, action: Action, player: int, stamp: float) -> RectoVersoState:
        history = (*self.history, (str(action), player, stamp))
        state = replace(self, history=history, last_stamp=stamp)
        if action in (TURN, REVEAL):
            return state._start_round()
        state = replace(state, round_actions=self.round_actions + 1)
        if isinstance(action, Place):
            return replace(state, construction=self.construction.place(action.placement))
        if isinstance(action, Remove):
            return replace(state, construction=self.construction.remove(action.piece))
        if action == TIMEOUT:
            return state._end_round(stamp, matched=False, reason="time is up")
        done = self.done | {player}
        if len(done) < 2:
            return replace(state, done=done)
        card = self.current_card
        assert card is not None
        return state._end_round(stamp, matches(self.construction, card), "both done")

    def _start_round(self) -> RectoVersoState:
        card, deck = self.deck[0], self.deck[1:]
        if self.cooperative:
            recto, verso, tokens, turned = self.active, 1 - self.active, self.tokens, self.turned
        else:
            recto, verso = self.active, self.tokens[self.active][0]
            tokens = _with(self.tokens, recto, self.tokens[recto][1:])
            turned = _with(self.turned, recto, (*self.turned[recto], verso))
        return replace(
            self,
            phase="build",
            card=card,
            deck=deck,
            recto=recto,
            verso=verso,
            tokens=tokens,
            turned=turned,
            construction=Construction(),
            done=frozenset(),
            round_actions=0,
            started=self.clock() if self.clock is not None else 0.0,
        )

    def _end_round(self, seconds: float, matched: bool, reason: str) -> RectoVersoState:
        assert self.card is not None and self.recto is not None and self.verso is not None
        totals = list(self.totals)
        level = self.level
        if self.cooperative:
            cleared = matched and seconds <= self.limit
            points = 1 if cleared else 0
            level += points
        else:
            points = points_for(seconds) if matched else 0
        for seat in {self.recto, self.verso}:
            totals[seat] += points
        built = tuple(str(p) for p in self.construction.placements)
        result = RoundResult(
            self.card, self.recto, self.verso, seconds, matched, points, reason, built
        )
        state = replace(
            self,
            phase="start",
            card=None,
            recto=None,
            verso=None,
            done=frozenset(),
            construction=Construction(),
            totals=tuple(totals),
            level=level,
            results=(*self.results, result),
        )
        if self.cooperative:
            if level >= len(LEVEL_LIMITS):
                return replace(state, phase="over", end_reason="level 7 cleared: builder king")
            state = replace(state, active=1 - self.active)
        else:
            state = replace(state, active=(self.active + 1) % self.players)
            if not any(self.tokens):
                return replace(state, phase="over", end_reason="every token is turned (R15)")
        if not state.deck:
            levels = f"{level} level{'' if level == 1 else 's'} cleared"
            return replace(state, phase="over", end_reason=f"no card left ({levels})")
        return state

    def to_record(self) -> dict[str, Any]:
        """``{"game", "players", "seed", "options", "actions", "by", "at"}`` (see the doc)."""
        return {
            "game": NAME,
            "players": self.players,
            "seed": self.seed,
            "options": {
                "difficulty": self.difficulty,
                **({"cards": "generated"} if self.generated else {}),
                **({"deck": list(self.fixed_deck)} if self.fixed_deck is not None else {}),
            },
            "actions": [a for a, _, _ in self.history],
            "by": [p for _, p, _ in self.history],
            "at": [t for _, _, t in self.history],
        }


def _with(rows: tuple[tuple[int, ...], ...], index: int, row: tuple[int, ...]) -> tuple:
    return (*rows[:index], row, *rows[index + 1 :])


def token_sets(players: int) -> list[list[int]]:
    """R12: each player's tokens, one per other player (two each with 3 players), unshuffled.

    >>> token_sets(3)
    [[1, 1, 2, 2], [0, 0, 2, 2], [0, 0, 1, 1]]
    """
    copies = 2 if players == 3 else 1
    return [[o for o in range(players) if o != p for _ in range(copies)] for p in range(players)]
