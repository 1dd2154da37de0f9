"""The database tables (SQLAlchemy 2 declarative models).

The schema itself is created and upgraded by the Alembic migrations in
``otherside/server/store/migrations``; these classes must stay in step with them (a test
compares the migrated schema with this metadata).

A table's game is ``initial_record`` (the record before any action, written at the start) plus
one :class:`Move` row per action; each action writes its row and the table's ``version`` (the
number of actions applied) in one transaction, and a restart replays the first record and applies
the moves, whatever key a game uses for its action list. ``record`` holds the whole game record
once the game is over (for downloads).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """Declarative base of every otherside table."""


class User(Base):
    """An account: a name with an argon2 password hash, or a guest (no password)."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    # Lower-cased name: "Ada" and "ada" are the same account on SQLite and PostgreSQL alike.
    name_key: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    is_guest: Mapped[bool] = mapped_column(default=False)
    # Where reminders go (turn-based games); never shown to other players.
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    # When the address was confirmed by its link (accounts.email_links); none: no mail goes there.
    email_confirmed_at: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )
    # The language chosen on the switcher (otherside.i18n); none: the browser's.
    language: Mapped[str | None] = mapped_column(String(8), nullable=True)
    # Confirm each move before it is sent (the table page's switch); none: the pages' default.
    confirm_moves: Mapped[bool | None] = mapped_column(nullable=True)
    # A program plays this account (declared by the account, never undone): shown as a bot.
    is_bot: Mapped[bool] = mapped_column(default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class GameTable(Base):
    """A table: one game of one kind, from the waiting room to the final scores."""

    __tablename__ = "game_tables"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # "waiting" (seats being filled), "playing", "over".
    status: Mapped[str] = mapped_column(String(16), index=True, default="waiting")
    owner_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    initial_record: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The pace chosen by the host (otherside.server.tables.pace.Pace as JSON).
    pace: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # The seats that may act now (one in a turn-based game), for "your turn" lists.
    to_move: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    # When the seat to move began its turn; its clock runs from here.
    turn_started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # The next moment the scheduler must act on this table (a reminder, a clock running out,
    # the game's own timer); NULL when nothing is pending.
    deadline_at: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True, index=True
    )
    # When the player to move was reminded this turn (NULL: not yet).
    reminded_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # Decided at the start: every seat a registered player, so the result moves ratings.
    rated: Mapped[bool] = mapped_column(default=False)
    # The table of the rematch, once someone asked for one.
    rematch_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # A bot may act now: the table needs a server process to own it (run its bots).
    bots_to_act: Mapped[bool] = mapped_column(default=False)
    # The server process that runs this table's bots, clocks and timers, and until when
    # (renewed while it lives; another process takes a lapsed lease over).
    lease_owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # The takeback asked for last: by which seat, at which version (open while the table is
    # still at it), taking back how many plies; NULL when none was asked or it was answered.
    takeback_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    takeback_version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    takeback_plies: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # The takebacks accepted so far: it only grows, so that with ``version`` (which a takeback
    # lowers) it names one position in the table's history — an action a client chose before
    # a takeback is told from one chosen after it at the same version.
    takebacks: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # The event whose board this table is (made by its director, born started); NULL for a
    # table of the lobby. The lobby's requests change no event's table.
    event_id: Mapped[str | None] = mapped_column(String(16), nullable=True)

    seats: Mapped[list[Seat]] = relationship(
        back_populates="table", order_by="Seat.seat", cascade="all, delete-orphan"
    )


class Seat(Base):
    """A seat at a table: empty, a user, or a bot (by registry name)."""

    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # A live clock's time left, in milliseconds (NULL: no clock for this seat).
    time_left_ms: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # Why the player gave up this seat during the game ("resigned", "timeout", "left"); a bot
    # then plays it, and the result counts as a loss for the player still named here.
    forfeit: Mapped[str | None] = mapped_column(String(16), nullable=True)

    table: Mapped[GameTable] = relationship(back_populates="seats")
    user: Mapped[User | None] = relationship()


class Move(Base):
    """One applied action, in order: the table's move log."""

    __tablename__ = "moves"
    __table_args__ = (UniqueConstraint("table_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id"), index=True)
    # 1 for the first action: the table's version after this move.
    number: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    played_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Rating(Base):
    """A player's current rating in one game."""

    __tablename__ = "ratings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)


class RatingChange(Base):
    """One rated game's effect on one player: the rating's history."""

    __tablename__ = "rating_changes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    game: Mapped[str] = mapped_column(String(32))
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id"), index=True)
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)
    # 0 for first; equal places tie.
    place: Mapped[int] = mapped_column(Integer)
    players: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatLine(Base):
    """One line of a table's chat (players and spectators)."""

    __tablename__ = "chat_lines"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    name: Mapped[str] = mapped_column(String(40))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Analysis(Base):
    """A finished game's analysis by the bots (:mod:`otherside.server.analysis`): asked for
    once, computed once by one server process (``owner``, which renews ``updated_at`` as it
    goes), read by all."""

    __tablename__ = "analyses"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    # "running", "done" or "failed" (a worker failed: asking again starts afresh).
    status: Mapped[str] = mapped_column(String(16))
    # Decisions weighed so far, and in all.
    done: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class AuthSession(Base):
    """A signed-in session: the hash of the token its cookie holds. Deleting it signs out."""

    __tablename__ = "auth_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ApiToken(Base):
    """A personal API token (:mod:`otherside.server.accounts.tokens`): only its SHA-256 is
    kept; deleting the row revokes it."""

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    label: Mapped[str] = mapped_column(String(60))
    # The scopes it was given, space-separated ("play read").
    scopes: Mapped[str] = mapped_column(String(60))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class EmailLink(Base):
    """The pending confirmation link of an account's address
    (:mod:`otherside.server.accounts.email_links`): one per account, replaced by each new one;
    only its SHA-256 is kept."""

    __tablename__ = "email_links"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    # The address it confirms: a link made for one address never confirms another.
    email: Mapped[str] = mapped_column(String(254))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ServerSecret(Base):
    """Named secrets kept with the data (the session-signing key), made on first start."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))


class RateLimit(Base):
    """One limited key's count (:mod:`otherside.server.accounts.limiter`): ``hits`` in the window
    ending at ``until`` (seconds since the epoch, so that every database compares it alike)."""

    __tablename__ = "rate_limits"

    key: Mapped[str] = mapped_column(String(80), primary_key=True)
    hits: Mapped[int] = mapped_column(Integer)
    until: Mapped[float] = mapped_column(Float, index=True)


class TablePresence(Base):
    """Who is connected to a table through which server process
    (:mod:`otherside.server.cluster.presence`): ``here`` while ``node`` has a connection of
    ``user_id`` to ``table_id``, else since when it has had none (``seen_at``); ``node_key`` is
    the key of that process's liveness lock, so that a process gone counts nobody as here."""

    __tablename__ = "table_presence"

    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    user_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    node: Mapped[str] = mapped_column(String(64), primary_key=True)
    node_key: Mapped[int] = mapped_column(Integer)
    here: Mapped[bool] = mapped_column()
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LessonStep(Base):
    """A lesson step a player has done (:mod:`otherside.lessons`): their progress."""

    __tablename__ = "lesson_steps"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    step: Mapped[str] = mapped_column(String(40), primary_key=True)
    done_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Tournament(Base):
    """An event (Swiss or round-robin): its settings, its host and how far it has come."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(32))
    # "swiss" or "round-robin".
    kind: Mapped[str] = mapped_column(String(16))
    # Swiss: chosen by the host; round-robin: set at the start from the entrants.
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # Players at each table: 2 (a duel, a partnership), 3 to 6 for Verso's groups.
    group_size: Mapped[int] = mapped_column(Integer)
    max_entrants: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    pace: Mapped[dict[str, Any]] = mapped_column(JSON)
    rated: Mapped[bool] = mapped_column(default=False)
    # Who may enter: "people", "bots" (added by the host) or "both".
    open_to: Mapped[str] = mapped_column(String(8))
    host_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    # "open" (taking entrants), "playing", "over".
    status: Mapped[str] = mapped_column(String(8), index=True, default="open")
    # The round being played (0 before the start); moved on by compare-and-set, so that two
    # server processes never pair the same round twice.
    current_round: Mapped[int] = mapped_column(Integer, default=0)
    # The server process that runs the event under way, and until when (another process takes
    # a lapsed lease over): one director makes each round's tables.
    lease_owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class TournamentEntrant(Base):
    """An entrant of an event: a person or a built-in bot, numbered in the order they came."""

    __tablename__ = "tournament_entrants"
    __table_args__ = (UniqueConstraint("tournament_id", "user_id"),)

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    # The place in the seeding (0 first: by rating at the start, then who came first).
    seed: Mapped[int | None] = mapped_column(Integer, nullable=True)
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TournamentGame(Base):
    """One game of an event (a table) or one bye, with its result once known."""

    __tablename__ = "tournament_games"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    board: Mapped[int] = mapped_column(Integer, primary_key=True)
    # The entrants' numbers by seat (one: a bye).
    entrants: Mapped[list[int]] = mapped_column(JSON)
    # NULL for a bye, and until the table is made.
    table_id: Mapped[str | None] = mapped_column(
        ForeignKey("game_tables.id"), nullable=True, index=True
    )
    # The finished table's result as the event reads it ({"strengths": [...], "won": bool}).
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # Each entrant's points (0 to 1), by seat; NULL while played.
    points: Mapped[list[float] | None] = mapped_column(JSON, nullable=True)
