"""Small builders for VERSUS scenario tests: an edition from a few pieces."""

from __future__ import annotations

from typing import Any

from otherside.games.versus import StoneSetup, VersusOptions, VersusState, new_game, view

Stone = tuple[str, int, str]


def game(
    blue: str,
    brown: str,
    stones: list[Stone],
    **options: Any,
) -> VersusState:
    """A new game with Blue's VERSUS on ``blue``, Brown's on ``brown`` and ``stones``
    given as ``(cell, b, owner)``; other options as keywords."""
    return new_game(
        VersusOptions(
            versus=(blue, brown),
            stones=tuple(StoneSetup(cell, b, owner) for cell, b, owner in stones),
            **options,
        )
    )


def stone_at(state: VersusState, cell: str) -> dict[str, Any]:
    """The view entry of the stone on ``cell`` (KeyError if none)."""
    for stone in state_view(state)["stones"]:
        if stone["cell"] == cell:
            return stone
    raise KeyError(cell)


def state_view(state: VersusState) -> dict[str, Any]:
    """The spectator's view."""
    return view(state, None)


def play(state: VersusState, *plies: str) -> VersusState:
    """Apply plies in order."""
    for text in plies:
        state = state.apply(text)
    return state
