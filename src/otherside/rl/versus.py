"""VERSUS as arrays: the fixed action space and the observation of a seat.

**Actions.** Every board ply the rules could ever allow is one integer: for each origin cell in
cell-index order (row ``r = -5`` first, ``q`` increasing: the engine's), each of the six
directions of S1 in the engine's order ``(+1,0), (-1,0), (0,+1), (0,-1), (+1,-1), (-1,+1)``, each
distance along that line up to the edge: ``PLY_COUNT = 2070`` plies (a stone's step is distance
1; the VERSUS may go further, S7–S8). Then the four platform actions, ``offer-draw``,
``accept-draw``, ``decline-draw``, ``resign``: indices 2070–2073, part of an environment's action
space only when it exposes them (``versus_env(platform=True)``).

>>> decode_action(0), decode_action(PLY_COUNT), encode_action("2:-5>2:-1")
('0:-5>1:-5', 'offer-draw', 48)

**Observation** of a seat: a ``float32`` array of shape ``(11, 11, 19)``: the axial grid, row
``r + 5`` and column ``q + 5`` for cell ``q:r`` (a hex's six neighbours are six of the eight
around it in the grid), one channel per feature. "Mine" is the observer's; everything is public
(VERSUS is a game of perfect information), read from ``view(state, seat)``:

==  ========================================================================================
 0  the cell is on the board (S1)
 1  the cell is a target (S2)
 2  my VERSUS; 3 the opponent's VERSUS
 4  a stone I control; 5 a stone the opponent controls
 6  the stone is locked on a target (S9)
 7  the stone's value to me, segments of my colour / 5 (S4, S14); 8 its value to the opponent
 9  its S11 count / the tug limit (at most 1; 0 when S11 is off)
10  S11 forbids me to attract it; 11 S11 forbids the opponent
12  (whole plane) I am to move
13  (whole plane) I am Blue (seat 0)
14  (whole plane) my score / the most a side can score (5 per target); 15 the opponent's
16  (whole plane) plies without a lock / the quiet limit (S13.4)
17  (whole plane) a draw offer awaits an answer; 18 the player to move may still offer one
    (both 0 unless the environment exposes the platform actions)
==  ========================================================================================

:class:`VersusEncoder` holds an edition's numbers; ``encode_view`` is the definition and
``encode_state`` the fast path the environment uses, tested to give the same array.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from otherside.games.versus import (
    PlatformAction,
    Ply,
    VersusOptions,
    VersusState,
    parse_action,
)
from otherside.games.versus.hex import CELLS, RADIUS, RAYS

SEGMENTS = 5
GRID = 2 * RADIUS + 1
CHANNELS = 19
PLATFORM_ACTIONS = (
    PlatformAction.OFFER_DRAW,
    PlatformAction.ACCEPT_DRAW,
    PlatformAction.DECLINE_DRAW,
    PlatformAction.RESIGN,
)
(
    CELL,
    TARGET,
    MY_VERSUS,
    THEIR_VERSUS,
    MY_STONE,
    THEIR_STONE,
    LOCKED,
    VALUE_TO_ME,
    VALUE_TO_THEM,
    STREAK,
    I_CANNOT_ATTRACT,
    THEY_CANNOT_ATTRACT,
    TO_MOVE,
    BLUE,
    MY_SCORE,
    THEIR_SCORE,
    QUIET,
    DRAW_OFFER,
    DRAW_OFFER_OPEN,
) = range(CHANNELS)


def _cell_name(index: int) -> str:
    q, r = CELLS[index]
    return f"{q}:{r}"


PLIES: tuple[tuple[int, int], ...] = tuple(
    (origin, target) for origin, rays in enumerate(RAYS) for ray in rays for target in ray
)
"""``(origin, target)`` cell indices of every ply index."""
PLY_COUNT = len(PLIES)
ACTION_COUNT = PLY_COUNT + len(PLATFORM_ACTIONS)
ACTION_NAMES: tuple[str, ...] = (
    *(f"{_cell_name(a)}>{_cell_name(b)}" for a, b in PLIES),
    *(str(action) for action in PLATFORM_ACTIONS),
)
"""The notation of every action index."""
ACTIONS: tuple[Ply | PlatformAction, ...] = tuple(parse_action(name) for name in ACTION_NAMES)
"""The engine's action of every index."""
PLY_INDEX: dict[int, int] = {origin << 7 | target: i for i, (origin, target) in enumerate(PLIES)}
"""Ply index of a ply's code (:attr:`~otherside.games.versus.Ply.code`)."""
PLATFORM_INDEX = {action: PLY_COUNT + i for i, action in enumerate(PLATFORM_ACTIONS)}
_CELL_OF_NAME = {_cell_name(i): i for i in range(len(CELLS))}
# The flat offset of each cell's channel 0 in an (11, 11, CHANNELS) array.
_OFFSET = tuple(((r + RADIUS) * GRID + q + RADIUS) * CHANNELS for q, r in CELLS)


def decode_action(index: int) -> str:
    """The notation of an action index (``IndexError`` outside ``0..ACTION_COUNT - 1``)."""
    if not 0 <= index < ACTION_COUNT:
        raise IndexError(f"a VERSUS action index is 0 to {ACTION_COUNT - 1}, not {index}")
    return ACTION_NAMES[index]


def encode_action(action: Ply | PlatformAction | str) -> int:
    """The index of an action, or of its notation (``BadNotation`` if malformed)."""
    if isinstance(action, str):
        action = parse_action(action)
    if isinstance(action, Ply):
        return PLY_INDEX[action.code]
    return PLATFORM_INDEX[action]


def action_indices(legal: Sequence[Ply | PlatformAction]) -> list[int]:
    """The indices of engine actions (plies and platform actions)."""
    return [
        PLY_INDEX[action.code] if isinstance(action, Ply) else PLATFORM_INDEX[action]
        for action in legal
    ]


class VersusEncoder:
    """Observations for one edition (:class:`~otherside.games.versus.VersusOptions`)."""

    shape = (GRID, GRID, CHANNELS)

    def __init__(self, options: VersusOptions | None = None, platform: bool = False) -> None:
        self.options = options or VersusOptions()
        self.platform = platform
        self.blue_segments = tuple(stone.b for stone in self.options.stones)
        self.max_score = float(SEGMENTS * len(self.options.targets))
        self.tug_limit = self.options.tug_limit
        targets = {_CELL_OF_NAME[name] for name in self.options.targets}
        self.is_target = tuple(i in targets for i in range(len(CELLS)))
        # Stone k's value to seat p, to its opponent, and whose majority colour it has (S4).
        self.values = tuple(
            tuple(
                (
                    (b if p == 0 else SEGMENTS - b) / SEGMENTS,
                    (SEGMENTS - b if p == 0 else b) / SEGMENTS,
                )
                for b in self.blue_segments
            )
            for p in (0, 1)
        )
        self.majority = tuple(0 if 2 * b > SEGMENTS else 1 for b in self.blue_segments)
        # The constant part of an observation, by seat and whether that seat is to move.
        self.templates = tuple(
            tuple(self._template(p, to_move) for to_move in (0, 1)) for p in (0, 1)
        )

    def _template(self, player: int, to_move: int) -> np.ndarray:
        board = np.zeros(self.shape, np.float32)
        for index, offset in enumerate(_OFFSET):
            board.flat[offset + CELL] = 1.0
            board.flat[offset + TARGET] = self.is_target[index]
        board[:, :, TO_MOVE] = to_move
        board[:, :, BLUE] = player == 0
        return board

    def _encode(
        self,
        player: int,
        stones: Sequence[tuple[int, int, int]],
        versus: Sequence[int],
        table: tuple[int | None, Sequence[int], int, int | None, bool],
    ) -> np.ndarray:
        """``stones``: (cell, owner, S11 count) of stone 0, 1, …; ``table``: to move, scores,
        quiet, the seat whose draw offer is pending, whether no offer was declined this turn."""
        to_move, scores, quiet, offer, not_declined = table
        obs = self.templates[player][to_move == player].copy()
        flat = obs.reshape(-1)
        index = [_OFFSET[versus[player]] + MY_VERSUS, _OFFSET[versus[1 - player]] + THEIR_VERSUS]
        values = [1.0, 1.0]
        tug = self.tug_limit
        is_target, majority = self.is_target, self.majority
        for (cell, owner, streak), (mine, theirs), major in zip(
            stones, self.values[player], majority, strict=True
        ):
            at = _OFFSET[cell]
            index += (at + (MY_STONE if owner == player else THEIR_STONE), at + VALUE_TO_ME)
            index.append(at + VALUE_TO_THEM)
            values += (1.0, mine, theirs)
            if is_target[cell]:
                index.append(at + LOCKED)
                values.append(1.0)
            if tug is not None and streak:
                index.append(at + STREAK)
                values.append(min(streak, tug) / tug)
                if streak >= tug:
                    index.append(
                        at + (I_CANNOT_ATTRACT if major != player else THEY_CANNOT_ATTRACT)
                    )
                    values.append(1.0)
        flat[index] = values
        obs[:, :, MY_SCORE : QUIET + 1] = (
            scores[player] / self.max_score,
            scores[1 - player] / self.max_score,
            quiet / self.options.quiet_limit,
        )
        if self.platform:
            obs[:, :, DRAW_OFFER] = offer is not None
            obs[:, :, DRAW_OFFER_OPEN] = not_declined and offer is None and to_move is not None
        return obs

    def encode_state(self, state: VersusState, player: int) -> np.ndarray:
        """The observation of seat ``player`` (0 Blue, 1 Brown), read from the state."""
        position = state.position
        stones = list(zip(position.cells, position.owners, position.streaks, strict=True))
        table = (
            state.current_player,
            state.scores,
            position.quiet,
            state.offer,
            state.declined is None,
        )
        return self._encode(player, stones, position.versus, table)

    def encode_view(self, view: Mapping[str, Any]) -> np.ndarray:
        """The observation of the seat a view was made for (``view["player"]``)."""
        player = view["player"]
        if player is None:
            raise ValueError("a spectator's view has no seat: observations are relative to one")
        stones = [(_CELL_OF_NAME[s["cell"]], s["owner"], s["streak"]) for s in view["stones"]]
        versus = [_CELL_OF_NAME[cell] for cell in view["versus"]]
        table = (
            view["to_move"],
            view["scores"],
            view["quiet"],
            view["draw_offer"],
            view["draw_offer_open"],
        )
        return self._encode(player, stones, versus, table)
