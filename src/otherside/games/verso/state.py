"""The Verso state and its rules (V4–V17).

A :class:`VersoState` is immutable by contract: ``apply`` returns a new state and never changes
the one it is called on. States are plain ``__slots__`` objects rather than frozen dataclasses
because random playouts (bots, simulations) build millions of them; nothing outside this module
assigns their attributes.

Per player, a tableau is a tuple of 21 slots (``colour * 7 + value``, value 0 for the star) holding
an oriented card or -1, plus a 7-bit mask per colour (bit 0 star, bit v value v): the masks make
duplicates (V8), series (V10), the highest card (V11.2) and squares (V12) single-integer tests.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from otherside.core.errors import BadNotation, IllegalAction
from otherside.core.game import Outcome
from otherside.games.verso.actions import (
    DRAW,
    FLIP,
    PASS,
    SERIES_BY_MASK,
    Draw,
    Flip,
    Pass,
    Series,
    VersoAction,
    parse_action,
)
from otherside.games.verso.cards import COLOURS, DOWN, UP, card_name, face_name
from otherside.games.verso.schema import CardView, DrawEvent, OptionsView, VersoEvent

PLAY, FINAL, OVER = 0, 1, 2
PhaseName = Literal["play", "final", "over"]
PHASE_NAMES: tuple[PhaseName, ...] = ("play", "final", "over")
SQUARE_POINTS = 7
EMPTY_TABLEAU = (-1,) * 21
UP_SLOT = tuple(f % 21 for f in UP)
UP_VP = tuple(3 if f >= 21 else 1 for f in UP)
HIGHEST = tuple((m >> 1).bit_length() if m >> 1 else 0 for m in range(128))
"""V11.2, per 7-bit colour mask: the value of the card a turn takes (the highest numbered card;
the star, value 0, only when it is alone)."""
SOLO_TURNS = tuple(
    (d % 21) // 7 if u % 7 and d % 7 and d % 7 > u % 7 else -1
    for u, d in zip(UP, DOWN, strict=True)
)
"""V16, per oriented card the solo opponent takes: the colour of its down face when that face's
value is above the up face's (neither a star), which makes you turn your highest card of that
colour; else -1."""


@dataclass(frozen=True)
class Table:
    """What does not change during a game: players, the pile as dealt, options, seating."""

    players: int
    pile: tuple[int, ...]
    allow_duplicate_keep: bool
    first_player: int
    neighbours: tuple[tuple[int, ...], ...]

    @property
    def solo(self) -> bool:
        return self.players == 1

    def options(self) -> OptionsView:
        return {
            "allow_duplicate_keep": self.allow_duplicate_keep,
            "first_player": self.first_player,
        }


def seat_neighbours(players: int) -> tuple[tuple[int, ...], ...]:
    """V11.2: the left and right neighbours; with 2 players the single opponent, once."""
    return tuple(
        tuple(sorted({(p - 1) % players, (p + 1) % players} - {p})) for p in range(players)
    )


class VersoState:
    """A Verso position. Read its public properties; change it only through :meth:`apply`."""

    __slots__ = (
        "_legal",
        "discards",
        "events_raw",
        "final_order",
        "history",
        "masks",
        "phase",
        "pos",
        "score_list",
        "shared_view",
        "shown",
        "squares",
        "table",
        "tableaux",
        "turn",
        "version",
    )

    table: Table
    pos: int
    turn: int
    phase: int
    tableaux: tuple[tuple[int, ...], ...]
    masks: tuple[int, ...]
    score_list: tuple[int, ...]
    squares: int
    shown: int
    discards: tuple[int, Any] | None
    final_order: tuple[int, ...]
    history: tuple[VersoAction, Any] | None
    version: int
    events_raw: tuple[tuple[Any, ...], ...]
    _legal: list[VersoAction] | None
    # What every player's view of this state shares, once made (:func:`.view.view`).
    shared_view: dict[str, Any] | None

    @classmethod
    def start(cls, table: Table) -> VersoState:
        """The position before the first action: empty tableaux, the first player to move."""
        s = object.__new__(cls)
        s.table = table
        s.pos = 0
        s.turn = table.first_player
        s.phase = PLAY
        s.tableaux = (EMPTY_TABLEAU,) * table.players
        s.masks = (0,) * (3 * table.players)
        s.score_list = (0,) * table.players
        s.squares = 0
        s.shown = 0
        s.discards = None
        s.final_order = ()
        s.history = None
        s.version = 0
        s.events_raw = ()
        s._legal = None
        s.shared_view = None
        return s

    def _copy(self) -> VersoState:
        s = object.__new__(VersoState)
        s.table = self.table
        s.pos = self.pos
        s.turn = self.turn
        s.phase = self.phase
        s.tableaux = self.tableaux
        s.masks = self.masks
        s.score_list = self.score_list
        s.squares = self.squares
        s.shown = self.shown
        s.discards = self.discards
        s.final_order = self.final_order
        s.history = self.history
        s.version = self.version + 1
        s._legal = None
        s.shared_view = None
        return s

    # ----------------------------------------------------------------- public properties
    @property
    def players(self) -> int:
        return self.table.players

    @property
    def solo(self) -> bool:
        return self.table.players == 1

    @property
    def current_player(self) -> int | None:
        return None if self.phase == OVER else self.turn

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def scores(self) -> tuple[int, ...]:
        return self.score_list

    @property
    def outcome(self) -> Outcome | None:
        return Outcome.by_scores(self.score_list, "pile empty") if self.phase == OVER else None

    @property
    def phase_name(self) -> PhaseName:
        """``play``, ``final`` (the last series of V14/V17) or ``over``."""
        return PHASE_NAMES[self.phase]

    @property
    def pile_size(self) -> int:
        return len(self.table.pile) - self.pos

    @property
    def top(self) -> int | None:
        """The oriented card on top of the pile (its up face is public), or None."""
        return self.table.pile[self.pos] if self.pos < len(self.table.pile) else None

    def has_square(self, player: int) -> bool:
        """Whether ``player`` has scored a square not broken since (the flag of V12)."""
        return bool(self.squares >> player & 1)

    def tableau(self, player: int) -> list[int]:
        """The oriented cards of a tableau, by colour then value, the star last in its colour."""
        slots = self.tableaux[player]
        return [
            slots[c * 7 + v]
            for c in range(3)
            for v in (1, 2, 3, 4, 5, 6, 0)
            if slots[c * 7 + v] >= 0
        ]

    def discard_pile(self) -> list[int]:
        """Discarded oriented cards, oldest first."""
        return _oldest_first(self.discards)

    def actions_played(self) -> list[VersoAction]:
        """Every action applied since the start, in order."""
        return _oldest_first(self.history)

    def is_shown(self, oc: int) -> bool:
        """Whether both faces of this card have been public (it was turned at some time)."""
        return bool(self.shown >> (oc >> 1) & 1)

    @property
    def events(self) -> list[VersoEvent]:
        """What the last action did, as public event dicts (draws, turns, discards, squares…)."""
        return [_event_dict(e) for e in self.events_raw]

    def __repr__(self) -> str:
        return (
            f"<VersoState {self.players}p {self.phase_name} turn={self.turn} pile={self.pile_size}"
            f" scores={list(self.score_list)}>"
        )

    # ----------------------------------------------------------------- legal actions
    def legal_actions(self) -> list[VersoAction]:
        """Legal actions in a fixed order: draw, flip, series (blue, green, orange), pass."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def _series(self, player: int) -> list[VersoAction]:
        m = self.masks
        b = player * 3
        return [
            *SERIES_BY_MASK[0][m[b]],
            *SERIES_BY_MASK[1][m[b + 1]],
            *SERIES_BY_MASK[2][m[b + 2]],
        ]

    def _compute_legal(self) -> list[VersoAction]:
        if self.phase == OVER:
            return []
        series = self._series(self.turn)
        if self.phase == FINAL:
            return [*series, PASS]
        top = self.table.pile[self.pos]
        slot = UP_SLOT[top]
        duplicate = self.masks[self.turn * 3 + slot // 7] >> (slot % 7) & 1
        if duplicate and not self.table.allow_duplicate_keep:
            return [FLIP, *series]
        return [DRAW, FLIP, *series]

    def parse_action(self, text: str) -> VersoAction:
        """Parse notation (legal or not); ``BadNotation`` lists the legal actions."""
        try:
            return parse_action(text)
        except BadNotation as exc:
            raise BadNotation(text, exc.reason, self.legal_actions()) from None

    def why_illegal(self, action: VersoAction) -> str:
        """The rule that forbids ``action`` here (for error messages)."""
        if self.phase == OVER:
            return "the game is over"
        if isinstance(action, Pass):
            return "pass is only allowed for the final series (V14)"
        if isinstance(action, Draw | Flip):
            if self.phase == FINAL:
                return "the pile is empty: only a final series or pass (V14)"
            top = face_name(UP[self.table.pile[self.pos]])
            return f"the top face {top} duplicates a card of your tableau: flip it (V8)"
        assert isinstance(action, Series)
        mask = self.masks[self.turn * 3 + action.colour]
        colour = COLOURS[action.colour]
        if action.star and not mask & 1:
            return f"you hold no {colour} star (V10)"
        missing = [v for v in action.values if v != action.star and not mask >> v & 1]
        return f"you hold no {colour} {', '.join(map(str, missing))} (V10)"

    # ----------------------------------------------------------------- apply
    def apply(self, action: VersoAction | str) -> VersoState:
        """Return the state after ``action`` (an action or its notation).

        Raises:
            BadNotation: malformed text. IllegalAction: not legal here. The state is unchanged.
        """
        if isinstance(action, str):
            action = self.parse_action(action)
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalAction(action, self.why_illegal(action), legal)
        s = self._copy()
        s.history = (action, self.history)
        events: list[tuple[Any, ...]] = []
        player = self.turn
        if isinstance(action, Series):
            s._bank(player, action, events)
        elif isinstance(action, Pass):
            events.append(("pass", player))
        else:
            s._take_top(player, isinstance(action, Flip), events)
        if s.phase == FINAL:
            s._next_final(events)
        elif s.pos == len(s.table.pile):
            s._start_final(player, events)
        else:
            if s.table.players == 1:
                s._solo_opponent(events)
                if s.pos == len(s.table.pile):
                    s._start_final(player, events)
            if s.phase == PLAY:
                s.turn = (player + 1) % s.table.players
        s.events_raw = tuple(events)
        return s

    # The helpers below mutate ``self``: they only ever run on the fresh copy made by apply().
    def _remove(self, player: int, slot: int) -> int:
        slots = list(self.tableaux[player])
        oc = slots[slot]
        slots[slot] = -1
        self._set_tableau(player, slots)
        i = player * 3 + slot // 7
        masks = list(self.masks)
        masks[i] &= ~(1 << (slot % 7))
        self.masks = tuple(masks)
        return oc

    def _set_tableau(self, player: int, slots: list[int]) -> None:
        tabs = list(self.tableaux)
        tabs[player] = tuple(slots)
        self.tableaux = tuple(tabs)

    def _gain(self, player: int, oc: int, events: list[tuple[Any, ...]]) -> None:
        """Add a card to a tableau, or discard it at once if it duplicates (V8)."""
        slot = UP_SLOT[oc]
        i = player * 3 + slot // 7
        bit = 1 << (slot % 7)
        if self.masks[i] & bit:
            self._discard(oc, "duplicate", player, events)
            return
        slots = list(self.tableaux[player])
        slots[slot] = oc
        self._set_tableau(player, slots)
        masks = list(self.masks)
        masks[i] |= bit
        self.masks = tuple(masks)

    def _discard(
        self, oc: int, reason: str, player: int | None, events: list[tuple[Any, ...]]
    ) -> None:
        self.discards = (oc, self.discards)
        events.append(("discard", player, oc, self.is_shown(oc), reason))

    def _check_square(self, player: int, events: list[tuple[Any, ...]]) -> None:
        """V12: score 7 when all three colours hold 3+ cards; clear the flag once broken."""
        b = player * 3
        m = self.masks
        full = m[b].bit_count() >= 3 and m[b + 1].bit_count() >= 3 and m[b + 2].bit_count() >= 3
        flag = self.squares >> player & 1
        if full and not flag:
            self.squares |= 1 << player
            scores = list(self.score_list)
            scores[player] += SQUARE_POINTS
            self.score_list = tuple(scores)
            events.append(("square", player))
        elif flag and not full:
            self.squares &= ~(1 << player)
            events.append(("square_broken", player))

    def _take_top(self, player: int, flip: bool, events: list[tuple[Any, ...]]) -> None:
        """V7: take the top card, turned over first for ``flip``."""
        oc = self.table.pile[self.pos]
        self.pos += 1
        if flip:
            events.append(("draw", player, oc ^ 1, oc))
            oc ^= 1
            self.shown |= 1 << (oc >> 1)
        else:
            events.append(("draw", player, oc, None))
        self._gain(player, oc, events)
        self._check_square(player, events)

    def _turn_highest(self, player: int, colour: int, events: list[tuple[Any, ...]]) -> None:
        """V11.2: turn the highest card of ``colour``; a star only when it is the only one."""
        mask = self.masks[player * 3 + colour]
        if not mask:
            return
        oc = self._remove(player, colour * 7 + HIGHEST[mask]) ^ 1
        self.shown |= 1 << (oc >> 1)
        events.append(("turn", player, oc))
        self._gain(player, oc, events)
        self._check_square(player, events)

    def _bank(self, player: int, series: Series, events: list[tuple[Any, ...]]) -> None:
        """V11: neighbours turn (not in the final series, not solo), score, discard the top two."""
        if self.phase == PLAY:
            for neighbour in self.table.neighbours[player]:
                self._turn_highest(neighbour, series.colour, events)
        slots = self.tableaux[player]
        points = sum(UP_VP[slots[s]] for s in series.slots)
        scores = list(self.score_list)
        scores[player] += points
        self.score_list = tuple(scores)
        events.insert(0, ("series", player, series, points))
        for slot in series.discard_slots:
            self._discard(self._remove(player, slot), "series", player, events)
        self._check_square(player, events)

    def _solo_opponent(self, events: list[tuple[Any, ...]]) -> None:
        """V16: the simulated opponent takes the top card; it may make you turn a card."""
        oc = self.table.pile[self.pos]
        self.pos += 1
        self.shown |= 1 << (oc >> 1)
        colour = SOLO_TURNS[oc]
        events.append(("opponent", oc, colour >= 0))
        if colour >= 0:
            self._turn_highest(0, colour, events)
        self.discards = (oc, self.discards)

    def _start_final(self, emptied_by: int, events: list[tuple[Any, ...]]) -> None:
        """V13/V14/V17: the pile is empty; everyone from the next player on gets a last series."""
        n = self.table.players
        self.phase = FINAL
        self.final_order = tuple((emptied_by + k) % n for k in range(1, n + 1))
        events.append(("final",))
        self._next_final(events)

    def _next_final(self, events: list[tuple[Any, ...]]) -> None:
        """Move to the next player of the final round who has a series; skip the others (V14)."""
        order = self.final_order
        while order:
            player, order = order[0], order[1:]
            if self._series(player):
                self.turn = player
                self.final_order = order
                return
        self.final_order = ()
        self.phase = OVER
        self.turn = -1
        events.append(("end", "pile empty"))

    def iter_states(self) -> Iterator[VersoState]:
        """Yield every state of this game from the start up to this one (for replays)."""
        state = VersoState.start(self.table)
        yield state
        for action in self.actions_played():
            state = state.apply(action)
            yield state

    def to_record(self) -> dict[str, Any]:
        """The game record of the spec: players, options, the pile (top first), the actions."""
        return {
            "game": "verso",
            "players": self.table.players,
            "options": self.table.options(),
            "pile": [card_name(oc) for oc in self.table.pile],
            "actions": [str(a) for a in self.actions_played()],
        }


def _oldest_first(node: tuple[Any, Any] | None) -> list[Any]:
    """The items of a linked list built by prepending ``(item, rest)``, oldest first.

    Discards and history are such lists so that ``apply`` adds to them in constant time.
    """
    out = []
    while node is not None:
        out.append(node[0])
        node = node[1]
    out.reverse()
    return out


# The names of each oriented card's faces, made once: a view names every card on the table,
# and views are made for every seat after every move of a live game.
_UP_NAMES: tuple[str, ...] = tuple(face_name(face) for face in UP)
_DOWN_NAMES: tuple[str, ...] = tuple(face_name(face) for face in DOWN)


def card_json(oc: int, shown: bool) -> CardView:
    """A card as the views show it: its up face, and its down face only if ever shown."""
    return {"up": _UP_NAMES[oc], "down": _DOWN_NAMES[oc] if shown else None}


def _event_dict(e: tuple[Any, ...]) -> VersoEvent:
    kind = e[0]
    if kind == "draw":
        _, player, oc, before = e
        out: DrawEvent = {
            "type": "draw",
            "player": player,
            "face": face_name(UP[oc]),
            "flipped": before is not None,
        }
        if before is not None:
            out["from"] = face_name(UP[before])
        return out
    if kind == "discard":
        _, player, oc, shown, reason = e
        return {"type": "discard", "player": player, "card": card_json(oc, shown), "reason": reason}
    if kind == "series":
        _, player, series, points = e
        return {
            "type": "series",
            "player": player,
            "colour": COLOURS[series.colour],
            "values": list(series.values),
            "star": series.star or None,
            "points": points,
            "text": str(series),
        }
    if kind == "turn":
        _, player, oc = e
        return {
            "type": "turn",
            "player": player,
            "from": face_name(DOWN[oc]),
            "to": face_name(UP[oc]),
        }
    if kind == "square":
        return {"type": "square", "player": e[1], "points": SQUARE_POINTS}
    if kind == "square_broken":
        return {"type": "square_broken", "player": e[1]}
    if kind == "opponent":
        _, oc, acts = e
        return {
            "type": "opponent",
            "card": card_json(oc, True),
            "effect": "turn" if acts else "none",
        }
    if kind == "pass":
        return {"type": "pass", "player": e[1]}
    if kind == "final":
        return {"type": "final"}
    return {"type": "end", "reason": e[1]}
