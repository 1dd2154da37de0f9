"""The tables as plain data: what is stored of a table (:class:`TableInfo`, its seats
:class:`SeatInfo`, a takeback asked for :class:`TakebackRequest`), of its moves
(:class:`MoveRow`) and chat (:class:`ChatRow`), the clocks and deadlines a change writes
(:class:`Timing`), how a game starts (:class:`Opening`), an event's board a table is made for
(:class:`EventBoard`), and :class:`StaleWrite`, a write refused because the table changed since it
was read. No ORM object ever crosses from the database thread to the event loop: these do."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from otherside.server.tables.pace import Pace


class StaleWrite(RuntimeError):
    """The table's version in the database is not the one the server applied an action to."""


class LimitReached(RuntimeError):
    """A write refused by a count made in its own transaction: ``most`` reached (a start whose
    host already runs that many games with bots only; a new table of a host who already has
    that many open)."""

    def __init__(self, most: int) -> None:
        self.most = most
        super().__init__(f"the host already has {most}")


@dataclass(frozen=True)
class SeatInfo:
    """One seat: empty, a user (id and name) or a bot (registry name).

    A player who forfeits during the game (resigned, out of time, left) stays named here with
    ``forfeit`` saying why, and a bot plays the seat on (``bot``).
    """

    seat: int
    user_id: int | None = None
    user_name: str | None = None
    bot: str | None = None
    guest: bool = False
    time_left_ms: int | None = None
    forfeit: str | None = None
    # The user is a bot account (a program plays it: shown as a bot).
    bot_account: bool = False

    @property
    def empty(self) -> bool:
        """Nobody and no bot sits here."""
        return self.user_id is None and self.bot is None

    @property
    def human(self) -> bool:
        """A person plays this seat (not a bot, not a bot replacing them)."""
        return self.user_id is not None and self.bot is None


@dataclass(frozen=True)
class TakebackRequest:
    """``seat`` asked, at table ``version``, to take back the last ``plies`` moves (their own
    last move and whatever followed it); it lapses as soon as the version moves on. Stored
    with the table, so that every server process sees it and it outlives a restart."""

    seat: int
    version: int
    plies: int

    def to_json(self) -> dict[str, int]:
        """The request as a ``view`` message carries it."""
        return {"seat": self.seat, "version": self.version, "plies": self.plies}


@dataclass(frozen=True)
class TableInfo:
    """A table as stored, without its game state."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    status: str
    owner_id: int
    owner_name: str
    seats: tuple[SeatInfo, ...]
    version: int
    outcome: dict[str, Any] | None
    created_at: datetime
    record: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    pace: Pace = field(default_factory=Pace)
    to_move: tuple[int, ...] = ()
    turn_started_at: datetime | None = None
    deadline_at: datetime | None = None
    reminded_at: datetime | None = None
    rated: bool = False
    updated_at: datetime | None = None
    rematch_id: str | None = None
    # The takeback asked for last (open while ``version`` is still its version).
    takeback: TakebackRequest | None = None
    # The takebacks accepted so far (it never goes down, where ``version`` does).
    takebacks: int = 0
    # The event whose board this is (its director's table, which no lobby request changes).
    event_id: str | None = None

    def seat_of(self, user_id: int | None) -> int | None:
        """The seat of ``user_id`` at this table, if seated (also after forfeiting it)."""
        if user_id is None:
            return None
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def playing_seat_of(self, user_id: int | None) -> int | None:
        """The seat ``user_id`` plays: seated and not replaced by a bot."""
        seat = self.seat_of(user_id)
        return seat if seat is not None and self.seats[seat].human else None

    def waiting_on(self) -> int | None:
        """The one human seat the game is waiting for, whose clock runs; ``None`` when the
        table waits on a bot, on several players at once, or on nobody."""
        if self.status != "playing" or len(self.to_move) != 1:
            return None
        seat = self.to_move[0]
        return seat if self.seats[seat].human else None

    def with_seat(self, seat: SeatInfo) -> TableInfo:
        """This table with one seat replaced."""
        seats = tuple(seat if s.seat == seat.seat else s for s in self.seats)
        return replace(self, seats=seats)


@dataclass(frozen=True)
class Timing:
    """What the scheduler and the clocks need of a table after a change (see ``TableInfo``)."""

    to_move: tuple[int, ...]
    turn_started_at: datetime | None
    deadline_at: datetime | None
    reminded_at: datetime | None
    clocks: dict[int, int | None]  # seat -> time left (ms), for seats whose clock changed
    bots_to_act: bool = False

    def values(self) -> dict[str, Any]:
        """The table columns to write."""
        return {
            "to_move": list(self.to_move),
            "turn_started_at": self.turn_started_at,
            "deadline_at": self.deadline_at,
            "reminded_at": self.reminded_at,
            "bots_to_act": self.bots_to_act,
        }


@dataclass(frozen=True)
class MoveRow:
    """One stored move: who, what, and when (the server's clock)."""

    seat: int
    action: str
    played_at: datetime


@dataclass(frozen=True)
class Held:
    """What a process reads of a stored table to hold it
    (:meth:`~otherside.server.store.contract.TableStore.held`): the table, its first record and
    moves up to its version (``None`` and none before it starts), its seated players' ratings,
    and what the game did to them (a rated game over)."""

    info: TableInfo
    initial: dict[str, Any] | None
    moves: list[MoveRow]
    ratings: dict[int, float]
    changes: dict[int, float]


@dataclass(frozen=True)
class ChatRow:
    """One stored chat line: who (their name, and seat if they played), what and when."""

    name: str
    seat: int | None
    text: str
    at: datetime


@dataclass(frozen=True)
class EventBoard:
    """A game of an event (a tournament): board ``board`` of round ``round`` of event
    ``event_id``, whose table the event's director makes."""

    event_id: str
    round: int
    board: int


@dataclass(frozen=True)
class Opening:
    """How a game starts, as written: its options, first record, whether it is rated, its
    turn and clocks (``plan``), at ``now``."""

    options: dict[str, Any]
    record: dict[str, Any]
    rated: bool
    plan: Timing
    now: datetime
