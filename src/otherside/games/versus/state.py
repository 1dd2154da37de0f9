"""The VERSUS game state of the core contract: a :class:`~otherside.games.versus.rules.Position`
plus the history and the platform actions (resign, draw offers), and the :class:`VersusGame`.

Draw offers (S13, last paragraph; **decision** of the engine): the player to move may
``offer-draw`` instead of playing a ply, once per turn. The opponent must then ``accept-draw``
(the game ends, nobody wins) or ``decline-draw`` (play resumes with the offering player to move,
who may no longer offer until they have played a ply). ``resign`` is open to the player to move
whenever no offer is pending. Platform actions do not count as plies for S11 or S13.4.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from otherside.core.errors import BadNotation, BadRecord, IllegalAction
from otherside.core.game import Game, Outcome
from otherside.core.records import check_record_header
from otherside.games.versus.notation import (
    Action,
    PlatformAction,
    Ply,
    format_cell,
    parse_action,
    parse_cell,
    ply_of_code,
)
from otherside.games.versus.rules import Position, edition
from otherside.games.versus.setup import COLOURS, BadOptions, VersusOptions

DRAW_AGREED = "draw agreed"


class VersusState:
    """An immutable VERSUS state: the position, the actions so far and any pending draw offer.

    Attributes:
        position: the board (:class:`~otherside.games.versus.rules.Position`).
        history: every action applied since the start, plies and platform actions.
        offer: the player whose draw offer awaits an answer, else ``None``.
        declined: the player whose offer was declined this turn (may not offer again yet).
        resolution: the outcome fixed by a resignation or an agreed draw, else ``None``.
        pulled: the stones the last ply attracted (S10), as ``(from, to)`` cell indices; empty
            after a stone move or a platform action.
    """

    __slots__ = ("declined", "history", "offer", "position", "pulled", "resolution")
    players = 2

    def __init__(
        self,
        position: Position,
        history: tuple[Action, ...] = (),
        offer: int | None = None,
        declined: int | None = None,
        resolution: Outcome | None = None,
        pulled: tuple[tuple[int, int], ...] = (),
    ) -> None:
        self.position = position
        self.history = history
        self.offer = offer
        self.declined = declined
        self.resolution = resolution
        self.pulled = pulled

    @property
    def options(self) -> VersusOptions:
        """The edition's numbers (:class:`~otherside.games.versus.setup.VersusOptions`)."""
        return self.position.edition.options

    @property
    def is_over(self) -> bool:
        return self.resolution is not None or self.position.end_reason is not None

    @property
    def current_player(self) -> int | None:
        if self.is_over:
            return None
        return self.position.to_move if self.offer is None else 1 - self.offer

    @property
    def scores(self) -> tuple[int, int]:
        """S14 scores of (Blue, Brown) as the board stands."""
        return self.position.scores()

    @property
    def outcome(self) -> Outcome | None:
        if self.resolution is not None:
            return self.resolution
        reason = self.position.end_reason
        return Outcome.by_scores(self.scores, reason) if reason else None

    def legal_plies(self) -> list[Ply]:
        """The legal board plies only (what bots and playouts choose among)."""
        if self.offer is not None or self.resolution is not None:
            return []
        return [ply_of_code(code) for code in self.position.moves()]

    def legal_actions(self) -> list[Action]:
        """Board plies (in cell-index order of origin, then target), then ``offer-draw`` (if
        still open this turn) and ``resign``; only the answers while an offer is pending."""
        if self.is_over:
            return []
        if self.offer is not None:
            return [PlatformAction.ACCEPT_DRAW, PlatformAction.DECLINE_DRAW]
        actions: list[Action] = [ply_of_code(c) for c in sorted(self.position.moves())]
        if self.declined is None:
            actions.append(PlatformAction.OFFER_DRAW)
        actions.append(PlatformAction.RESIGN)
        return actions

    def parse_action(self, text: str) -> Action:
        """Notation to an action (legal or not); ``BadNotation`` naming the legal actions."""
        try:
            return parse_action(text)
        except BadNotation as exc:
            raise BadNotation(text, exc.reason, self.legal_actions()) from None

    def apply(self, action: Action | str) -> VersusState:
        """The state after ``action``; ``IllegalAction`` (state unchanged) if not allowed."""
        if isinstance(action, str):
            action = self.parse_action(action)
        position = self.position
        if isinstance(action, Ply):
            if self.offer is None and self.resolution is None and action.code in position.moves():
                after = position.play(action.code)
                return VersusState(after, (*self.history, action), pulled=_pulled(position, after))
            raise IllegalAction(action, self._why_illegal(action), self.legal_actions())
        if not isinstance(action, PlatformAction):
            raise IllegalAction(action, "not a VERSUS action", self.legal_actions())
        if action not in self.legal_actions():
            raise IllegalAction(action, self._why_illegal(action), self.legal_actions())
        player = self.current_player
        assert player is not None  # legal actions exist, so the game is not over
        history = (*self.history, action)
        if action is PlatformAction.RESIGN:
            resigned = Outcome(self.scores, (1 - player,), f"{COLOURS[player].title()} resigned")
            return VersusState(position, history, resolution=resigned)
        if action is PlatformAction.OFFER_DRAW:
            return VersusState(position, history, offer=player)
        if action is PlatformAction.ACCEPT_DRAW:
            return VersusState(position, history, resolution=Outcome(self.scores, (), DRAW_AGREED))
        return VersusState(position, history, declined=self.offer)

    def _why_illegal(self, action: Action) -> str:
        if self.is_over:
            return "the game is over"
        if self.offer is not None:
            who = COLOURS[self.offer].title()
            return f"{who} offered a draw: answer accept-draw or decline-draw"
        if isinstance(action, Ply):
            reason = self.position.illegal_reason(action.origin, action.target)
            return reason or "not a legal ply"
        if action is PlatformAction.OFFER_DRAW:
            return "your draw offer was declined this turn; play a ply first"
        return "no draw offer is pending"

    def to_record(self) -> dict[str, Any]:
        """``{"game": "versus", "options": {…}, "plies": [...]}`` (platform actions included)."""
        return {
            "game": "versus",
            "options": self.options.to_json(),
            "plies": [str(a) for a in self.history],
        }

    def __repr__(self) -> str:
        return f"<VersusState ply {len(self.history)}, to move: {self.current_player}>"


def _pulled(before: Position, after: Position) -> tuple[tuple[int, int], ...]:
    """The stones that changed hands between two positions one ply apart: the ply's
    attraction (S10), as ``(from, to)`` cells."""
    return tuple(
        (before.cells[k], after.cells[k])
        for k, owner in enumerate(before.owners)
        if after.owners[k] != owner
    )


def new_game(options: VersusOptions | Mapping[str, Any] | None = None) -> VersusState:
    """A new game of the edition ``options`` (default: the project's decisions)."""
    if not isinstance(options, VersusOptions):
        options = VersusOptions.from_json(options)
    return VersusState(Position.start(options))


def replay(record: Mapping[str, Any]) -> VersusState:
    """The state reached by a game record; ``BadRecord`` names the first bad action."""
    data = check_record_header(record, "versus")
    try:
        state = new_game(data.get("options"))
    except BadOptions as exc:
        raise BadRecord(str(exc)) from exc
    plies = data.get("plies", [])
    if not isinstance(plies, list) or not all(isinstance(p, str) for p in plies):
        raise BadRecord("'plies' must be a list of strings")
    for index, text in enumerate(plies):
        try:
            state = state.apply(text)
        except (BadNotation, IllegalAction) as exc:
            raise BadRecord(str(exc), index) from exc
    return state


def view(state: VersusState, player: int | None) -> dict[str, Any]:
    """Everything on the table (VERSUS is a game of perfect information), as JSON.

    Keys: ``options``, ``player`` (the viewer), ``to_move`` (seat or ``None``), ``versus``
    (cells of Blue's and Brown's VERSUS), ``stones`` (``cell``, ``b``, ``owner`` seat,
    ``locked``, ``streak`` for S11), ``scores``, ``quiet`` (S13.4 counter), ``ply`` (actions so
    far), ``last`` (the last action), ``pulled`` (the stones the last ply attracted and flipped,
    ``{"from", "to"}`` cells), ``draw_offer`` (seat or ``None``), ``draw_offer_open``
    (may the player to move still offer), ``outcome``.
    """
    position = state.position
    ed = position.edition
    outcome = state.outcome
    return {
        "game": "versus",
        "options": state.options.to_json(),
        "player": player,
        "to_move": state.current_player,
        "versus": [format_cell(c) for c in position.versus],
        "stones": [
            {
                "cell": format_cell(cell),
                "b": ed.values[k][0],
                "owner": position.owners[k],
                "locked": ed.is_target[cell],
                "streak": position.streaks[k],
            }
            for k, cell in enumerate(position.cells)
        ],
        "scores": list(state.scores),
        "quiet": position.quiet,
        "ply": len(state.history),
        "last": str(state.history[-1]) if state.history else None,
        "pulled": [{"from": format_cell(a), "to": format_cell(b)} for a, b in state.pulled],
        "draw_offer": state.offer,
        "draw_offer_open": state.declined is None,
        "outcome": outcome.to_json() if outcome else None,
    }


def position_from_view(data: Mapping[str, Any]) -> Position:
    """Rebuild the board position of a view (what bots search from)."""
    ed = edition(VersusOptions.from_json(data["options"]))
    stones = data["stones"]
    cells = tuple(parse_cell(s["cell"]) for s in stones)
    owners = tuple(int(s["owner"]) for s in stones)
    streaks = tuple(int(s["streak"]) for s in stones)
    versus = (parse_cell(data["versus"][0]), parse_cell(data["versus"][1]))
    to_move = data["to_move"]
    if to_move is None:
        to_move = 0
    if data.get("draw_offer") is not None:
        to_move = int(data["draw_offer"])
    return Position.setup(ed, cells, owners, streaks, versus, int(to_move), int(data["quiet"]))


class VersusGame:
    """VERSUS for the core contract: two players, Blue (seat 0) and Brown (seat 1)."""

    name = "versus"
    player_counts: tuple[int, ...] = (2,)

    def new_state(
        self, players: int, *, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> VersusState:
        """A new game; VERSUS has no chance, so ``seed`` changes nothing."""
        if players != 2:
            raise ValueError(f"VERSUS is played by 2 players, not {players}")
        return new_game(options)

    def replay(self, record: Mapping[str, Any]) -> VersusState:
        return replay(record)

    def view(self, state: VersusState, player: int | None) -> dict[str, Any]:
        return view(state, player)

    def redeal(self, state: VersusState, player: int, rng: random.Random) -> VersusState:
        """Perfect information: nothing to re-draw."""
        return state


GAME: Game[VersusState] = VersusGame()
