"""The JSON shapes of Verso's views and events (V19), as types.

The view (:func:`otherside.games.verso.view`) and the events of the last action
(:attr:`VersoState.events <otherside.games.verso.state.VersoState.events>`) are plain dicts so
that they go to the browser and into records as they are; these ``TypedDict`` say which keys they
hold, so that a renamed or missing field fails ``mypy`` wherever a view is built or read.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict


class CardView(TypedDict):
    """A card as views show it: its up face, and its down face only once it was shown."""

    up: str
    down: str | None


class TableauView(TypedDict):
    cards: list[CardView]
    score: int
    square: bool


class OptionsView(TypedDict):
    allow_duplicate_keep: bool
    first_player: int


class OutcomeView(TypedDict):
    scores: list[int]
    winners: list[int]
    reason: str


DrawEvent = TypedDict(
    "DrawEvent",
    {
        "type": Literal["draw"],
        "player": int,
        "face": str,
        "flipped": bool,
        "from": NotRequired[str],
    },
)
"""V7: ``face`` is what the player gained; a flip also names the face it showed (``from``)."""


class DiscardEvent(TypedDict):
    type: Literal["discard"]
    player: int | None
    card: CardView
    reason: Literal["duplicate", "series"]


class SeriesEvent(TypedDict):
    type: Literal["series"]
    player: int
    colour: str
    values: list[int]
    star: int | None
    points: int
    text: str


TurnEvent = TypedDict(
    "TurnEvent",
    {"type": Literal["turn"], "player": int, "from": str, "to": str},
)
"""V11.2/V16: a card turned in ``player``'s tableau, from one face to the other."""


class SquareEvent(TypedDict):
    type: Literal["square"]
    player: int
    points: int


class SquareBrokenEvent(TypedDict):
    type: Literal["square_broken"]
    player: int


class OpponentEvent(TypedDict):
    """V16: the solo opponent's card, and whether it made the player turn a card."""

    type: Literal["opponent"]
    card: CardView
    effect: Literal["turn", "none"]


class PassEvent(TypedDict):
    type: Literal["pass"]
    player: int


class FinalEvent(TypedDict):
    type: Literal["final"]


class EndEvent(TypedDict):
    type: Literal["end"]
    reason: str


VersoEvent = (
    DrawEvent
    | DiscardEvent
    | SeriesEvent
    | TurnEvent
    | SquareEvent
    | SquareBrokenEvent
    | OpponentEvent
    | PassEvent
    | FinalEvent
    | EndEvent
)


class VersoView(TypedDict):
    """What a seat (or a spectator, ``player`` None) sees: the same for everyone (V19)."""

    game: Literal["verso"]
    players: int
    player: int | None
    solo: bool
    version: int
    options: OptionsView
    current_player: int | None
    phase: Literal["play", "final", "over"]
    final_order: list[int]
    pile_size: int
    top: str | None
    draw_legal: bool
    tableaux: list[TableauView]
    scores: list[int]
    discards: list[CardView]
    events: list[VersoEvent]
    outcome: OutcomeView | None
    rating: str | None
