"""A table held in memory while it is watched or played (:class:`LiveTable`), and how its game
is rebuilt from what is stored: the first record, then each move applied at the time it was
played (:func:`replayed`, :func:`applied`, :func:`rebuild`).

A live table is changed only by the commands its actor runs (:mod:`.actor`), one at a time;
everyone else reads it.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

from otherside.core.game import Game, State
from otherside.core.simultaneous import actors, apply_as, legal_actions_of
from otherside.i18n import N_
from otherside.server.accounts.sessions import UserInfo
from otherside.server.clock import Clock, seconds
from otherside.server.cluster.presence import Elsewhere, combined
from otherside.server.live.protocol import ChatLineOut
from otherside.server.ratings.elo import START
from otherside.server.store.records import MoveRow, TableInfo, TakebackRequest
from otherside.server.tables.adapters import GameAdapter
from otherside.server.tables.errors import Refused


class Connection(Protocol):
    """Someone watching a table: a websocket, or a recorder in tests."""

    user: UserInfo | None
    # The reader's language, for the words the table's messages carry (a pace, a bot).
    language: str

    def deliver(self, text: str) -> None:
        """Queue ``text`` for sending; never blocks."""
        ...


class GameClock:
    """What a game with a timer of its own reads: the server's clock in epoch seconds, or,
    while a game is rebuilt from its moves, the time each move was played (``pinned``)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.pinned: float | None = None

    def __call__(self) -> float:
        return self.pinned if self.pinned is not None else seconds(self.clock)


_TICKETS = itertools.count(1)


def ticket() -> int:
    """A number greater than every one given before in this process: the order of events such
    as a connection opened and a table read from the database (a clock could stand still)."""
    return next(_TICKETS)


@dataclass(eq=False)
class LiveTable:
    """A table held in memory while it is watched or played."""

    info: TableInfo
    adapter: GameAdapter
    game: Game
    game_clock: GameClock
    state: State | None = None
    watchers: set[Connection] = field(default_factory=set)
    # The task playing the table's bot seats while one of them may act (:mod:`.bot_turns`).
    bot_task: asyncio.Task[None] | None = None
    ratings: dict[int, float] = field(default_factory=dict)
    # What the game did to its players' ratings, by user id (a rated game once it is over).
    rating_changes: dict[int, float] = field(default_factory=dict)
    # Since when each seated person has had no connection here (by user id; a person not
    # in it is here, or was never seen since the table was loaded at ``loaded_at``).
    gone: dict[int, datetime] = field(default_factory=dict)
    loaded_at: datetime | None = None
    # The :func:`ticket` taken as the table was last read from the database (0: never): a
    # ``sync`` asked before that read began is answered by it, unless a change was heard from
    # another process since, at ``heard_ticket``, that is not applied here
    # (:class:`~otherside.server.cluster.catch_up.Refresh`).
    read_ticket: int = 0
    heard_ticket: int = 0
    # Its people as the other server processes see them, as last read while it is watched
    # here (:mod:`otherside.server.cluster.away_marks`; empty in a process alone).
    elsewhere: Elsewhere = field(default_factory=Elsewhere)
    # The recent chat lines, oldest first, while this process alone writes the table's chat
    # (``None``: not known here, read from the database); ``chat_said`` counts the lines said
    # since the table was loaded, so that a read overtaken by a line is not kept.
    chat: list[ChatLineOut] | None = None
    chat_said: int = 0
    # Seconds a bot about to start a round waits for a person's ``ready`` (the adapter's
    # ``ready_pause``; 0 when the server does not pace bots); the version a person last said
    # ``ready`` at, here or through another process, and the bot waiting for it (:mod:`.ready`).
    ready_pause: float = 0.0
    ready_version: int | None = None
    ready_wake: asyncio.Event | None = None
    # When the game reached its position: the time its last move was played, as stored with
    # the move (so the same in every process, and moved by no other change at the table: a
    # seat handed to a bot, a reminder), or its start before any move (:func:`reached_at`);
    # ``None`` before the game starts.
    moved_at: datetime | None = None

    @property
    def id(self) -> str:
        """The table id."""
        return self.info.id

    def rated(self, after: dict[int, float]) -> None:
        """The players' new ratings ``after`` the game (by user id; empty when unrated): kept,
        with the change each made, for the result to show."""
        for user, rating in after.items():
            self.rating_changes[user] = rating - self.ratings.get(user, START)
        self.ratings.update(after)

    def view(self, seat: int | None) -> Any:
        """The game's view for ``seat`` (the state must be there). A game that is over is seen
        as it stood when it ended: a Recto Verso round cut short (a resignation) has its time
        stop there, not run on with the server's clock."""
        game, state = self.adapter.game, self.state
        if state is None:
            raise ValueError(f"table {self.id} has no game yet")
        ended = self.info.updated_at if self.info.status == "over" else None
        if ended is None or self.game_clock.pinned is not None:
            return game.view(state, seat)
        self.game_clock.pinned = ended.timestamp()
        try:
            return game.view(state, seat)
        finally:
            self.game_clock.pinned = None

    def bot_waits(self) -> bool:
        """Whether the bots to act now wait for a person's ``ready`` first: each seat that may
        act is a bot's whose only actions start a round (the adapter's ``ready_before``), and a
        person (not a program's account) plays at the table."""
        state, seats = self.state, self.info.seats
        if self.ready_pause <= 0 or self.info.status != "playing" or state is None:
            return False
        acting = actors(state)
        if not acting or any(seats[s].bot is None for s in acting):
            return False
        if not any(seat.human and not seat.bot_account for seat in seats):
            return False
        starts = self.adapter.ready_before
        return all(str(a) in starts for s in acting for a in legal_actions_of(state, s))

    def ready_deadline(self) -> datetime | None:
        """When the bot waiting for a person's ``ready`` goes on by itself, on the server's
        clock: ``ready_pause`` seconds after the game reached its position (``moved_at``: the
        move that ended the last round, the same in every process, whoever sat or left since);
        ``None`` when no bot waits, or the moment is not known (then none waits either)."""
        since = self.moved_at
        if since is None or not self.bot_waits():
            return None
        return since + timedelta(seconds=self.ready_pause)

    def pending_takeback(self) -> TakebackRequest | None:
        """The takeback request still open: asked at the current version of a game in play."""
        request = self.info.takeback
        if request is None or request.version != self.info.version:
            return None
        return request if self.info.status == "playing" else None

    def away_since(self, user_id: int) -> datetime | None:
        """Since when ``user_id`` has had no connection to this table here (``None``: here)."""
        if any(c.user is not None and c.user.id == user_id for c in self.watchers):
            return None
        return self.gone.get(user_id, self.loaded_at)

    def shown_away(self) -> dict[int, datetime]:
        """The people seated at the game in play who have no connection to the table through
        any process, as far as this one knows (its own, and the others' as last read, with no
        database read), with since when: what its ``table`` message says."""
        away: dict[int, datetime] = {}
        if self.info.status != "playing":
            return away
        for seat in self.info.seats:
            if seat.human and seat.user_id is not None:
                since = combined(
                    self.away_since(seat.user_id), self.elsewhere.seen.get(seat.user_id)
                )
                if since is not None:
                    away[seat.user_id] = since
        return away

    def tells_presence(self) -> bool:
        """Whether its watchers are told at once when a player comes or goes: a game in play
        without player clocks (a partner gone long may be played on for,
        :mod:`.absence`); elsewhere the ``table`` message says it when it is sent anyway."""
        return self.info.status == "playing" and self.info.pace.kind == "rounds"

    def seat_of(self, conn: Connection) -> int | None:
        """The seat the connection's user plays, or ``None`` for a spectator (also for a
        player who forfeited: a bot plays their seat now)."""
        return self.info.playing_seat_of(conn.user.id if conn.user else None)

    def playing_seat(self, user: UserInfo | None) -> int:
        """The seat ``user`` plays; :class:`Refused` if they play none (any more)."""
        seat = self.info.playing_seat_of(user.id if user else None)
        if seat is None:
            if self.info.seat_of(user.id if user else None) is not None:
                raise Refused("not_seated", N_("you gave up this seat; a bot plays it now"))
            raise Refused("not_seated", N_("you have no seat at this table; join it first"))
        return seat

    def playing_state(self) -> State:
        """The game's state while it is played; :class:`Refused` before or after."""
        state = self.state
        if self.info.status == "waiting" or state is None:
            raise Refused("not_started", N_("the game has not started yet"))
        if self.info.status == "over" or state.is_over:
            raise Refused("game_over", N_("the game is over; no more actions"))
        return state


def replayed(
    game: Game, clock: GameClock, initial: dict[str, Any] | None, moves: list[MoveRow]
) -> Iterator[tuple[MoveRow | None, State]]:
    """The states of a stored game: the first, then after each move (with that move).

    The game's clock is pinned to each move's time while it is applied, so a game with a timer
    of its own (a Recto Verso round) replays, and resumes, exactly as it was played.
    """
    if initial is None:
        raise ValueError("a started table has no first record")
    clock.pinned = moves[0].played_at.timestamp() if moves else None
    try:
        state = game.replay(initial)
        yield None, state  # seen at the time of the first move, as before it was played
    finally:
        clock.pinned = None
    yield from applied(state, clock, moves)


def applied(
    state: State, clock: GameClock, moves: list[MoveRow]
) -> Iterator[tuple[MoveRow, State]]:
    """The states after each of ``moves`` from ``state``, each applied at its stored time."""
    try:
        for move in moves:
            clock.pinned = move.played_at.timestamp()
            state = apply_as(state, move.seat, move.action)
            yield move, state
    finally:
        clock.pinned = None


def rebuild(
    game: Game, clock: GameClock, initial: dict[str, Any] | None, moves: list[MoveRow]
) -> State:
    """The state of a game from its first record and its moves, as stored (after a restart)."""
    *_, (_move, state) = replayed(game, clock, initial, moves)
    return state


def reached_at(info: TableInfo, moves: list[MoveRow]) -> datetime | None:
    """When the stored game ``info``, with ``moves`` (all of them, up to its version), reached
    its position: the time its last move was played; before any move, when its first turn
    began (``turn_started_at``, set as the game started, which no seat change moves)."""
    return moves[-1].played_at if moves else info.turn_started_at
