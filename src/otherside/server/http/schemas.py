"""The HTTP API's answers, as Pydantic schemas: what ``/api/docs`` documents and what each route
sends (the ``table`` summary is the websocket's own,
:class:`~otherside.server.live.protocol.TableOut`).

A route returns an instance of its schema (FastAPI then checks it by type and writes it as JSON
in Pydantic's core, cheaper than encoding a dict), or, where the data is built as plain JSON
elsewhere (the games on offer, a player's page), the dict, which FastAPI validates. What a game
decides for itself (a view, an outcome, options) is free-form JSON (``dict[str, Any]``) inside
a fixed outer shape.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from otherside.server.live.protocol import TableOut


class UserOut(BaseModel):
    """A signed-in account, as sign-up, sign-in and guests answer."""

    id: int
    name: str
    guest: bool


class MeUser(UserOut):
    """The signed-in account with its own e-mail address (``null``: none given) and whether
    that address is confirmed (no mail goes to it before)."""

    email: str | None
    email_confirmed: bool = False


class MeOut(BaseModel):
    """``GET /api/me``: who is signed in (``user`` is ``null`` for nobody)."""

    user: MeUser | None


class EmailOut(BaseModel):
    """The account's address (``null``: none), whether it is confirmed, and whether a
    confirmation link was just mailed to it."""

    email: str | None
    confirmed: bool = False
    sent: bool = False


class Done(BaseModel):
    """A request done, with nothing else to say."""

    ok: Literal[True] = True


class Health(BaseModel):
    """``GET /api/health``: up, which server process answered, and how it followed the others'
    moves (``followed``: applied from their notification; ``reads``: caught up from the
    database)."""

    ok: Literal[True] = True
    node: str
    catch_up: dict[str, int]


class MyTableOut(TableOut):
    """A table of mine: my seat (``you``) and whether the game waits for me (``your_turn``)."""

    you: int | None
    your_turn: bool


class OptionOut(BaseModel):
    """A table option, as the lobby's form shows it (``kind``: ``bool``, ``first_player`` or
    ``choice``; ``default`` is of the option's kind)."""

    name: str
    label: str
    kind: str
    default: Any
    help: str
    choices: list[str]


class BotChoiceOut(BaseModel):
    """A bot a seat may take: its spec (``name:key=value``), name, options and label for
    people, the player counts it is offered at, and what it is."""

    spec: str
    name: str
    options: dict[str, Any]
    label: str
    players: list[int]
    description: str


class BotInfoOut(BaseModel):
    """A bot's one-line description and measured strength."""

    description: str
    strength: str


class BoardOut(BaseModel):
    """What the pages do differently for a game: the board module and whether it has styles,
    who shows Resign (``board`` or ``table``), how a replay is paced (``timed`` or ``steps``),
    what its analysis gives (``moves`` or ``cards``) and at which player counts the players
    are one team (``together``). Every trait of ``GameAdapter.board_traits`` is here: a field
    left out is dropped from the answer, and the pages fall back to the generic board's."""

    module: str
    styles: bool
    resign: Literal["board", "table"]
    replay: Literal["timed", "steps"]
    analysis: Literal["moves", "cards"]
    together: list[int]


class GameOut(BaseModel):
    """A game this server offers: player counts, options, bots (those the server's cap on
    thinking allows), its page, its usual pace and the player counts that are rated."""

    name: str
    title: str
    players: list[int]
    options: list[OptionOut]
    bots: list[str]
    bot_choices: list[BotChoiceOut]
    bot_info: dict[str, BotInfoOut]
    page: str
    board: BoardOut
    pace: dict[str, Any]
    rated_counts: list[int]


class HistoryOut(BaseModel):
    """The game so far as the caller saw it: the view after each action, oldest first (the
    game's own view, free-form)."""

    views: list[dict[str, Any]]


class ReplayStep(BaseModel):
    """One step of a replay: who played what and when (all ``null`` for the first position),
    and the public view after it (the game's own, free-form)."""

    seat: int | None
    action: str | None
    at: str | None
    view: dict[str, Any]


class ReplayOut(BaseModel):
    """A finished game: the table and every step from the first position."""

    table: TableOut
    steps: list[ReplayStep]


class LeaderOut(BaseModel):
    """A rated player of a game's leaderboard."""

    name: str
    rating: int
    games: int


class RatingChangeOut(BaseModel):
    """What one rated game did to a rating: when, the rating after it and the change, the
    table, the player's place (0 for first; equal places tie) among ``players``."""

    at: str
    rating: float
    change: float
    table: str
    place: int
    players: int


class PlayerRatingOut(BaseModel):
    """A player's rating in one game, with its history."""

    game: str
    title: str
    rating: int
    games: int
    history: list[RatingChangeOut]


class BestOut(BaseModel):
    """A player's bests in a game played alone or with a partner (``unit``: ``VP`` or
    ``levels``): games, best, average and the last scores."""

    game: str
    title: str
    unit: str
    games: int
    best: int
    average: float
    scores: list[int]


class RecentGameOut(BaseModel):
    """One of a player's recent games: the players, their seat, the result in words, the
    scores, why it ended, and what a rated game did to the rating."""

    id: str
    game: str
    title: str
    # Each seat's name as the table names it (None: an open seat), in the reader's language.
    players: list[str | None]
    # Each seat's bot spec (None for a person), for programs.
    bots: list[str | None] = []
    seat: int
    status: str
    result: str
    scores: list[int | float] | None
    reason: str | None
    # The reason as a catalog message and its fields, for the reader's language.
    words: dict[str, Any] | None = None
    rated: bool
    change: float | None
    at: str


class PlayerOut(BaseModel):
    """``GET /api/players/{name}``: ratings with their history, personal bests, recent games."""

    name: str
    guest: bool
    # A program plays this account (it declared itself a bot).
    bot: bool = False
    joined: str
    ratings: list[PlayerRatingOut]
    bests: list[BestOut]
    recent: list[RecentGameOut]
