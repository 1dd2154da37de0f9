"""An event as plain data: its settings (:class:`Settings`), entrants (:class:`Entrant`) and
games (:class:`EventGame`), read in one transaction (:mod:`.events`); no ORM object leaves the
database thread."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from otherside.server.tournaments.results import Game

PARTNERSHIP_GAMES = ("rectoverso",)  # two partners build together: a pair's result is shared


@dataclass(frozen=True)
class Entrant:
    """An account (``user_id``: a person, or a program's bot account when ``bot_account``)
    or a built-in bot (``bot``, its spec) in an event."""

    number: int
    name: str
    user_id: int | None
    bot: str | None
    seed: int | None
    bot_account: bool = False


@dataclass(frozen=True)
class EventGame:
    """A game of an event: a table (once made) or a bye, with its points once known."""

    round: int
    board: int
    entrants: tuple[int, ...]
    table_id: str | None
    result: dict[str, Any] | None
    points: tuple[float, ...] | None

    @property
    def bye(self) -> bool:
        """A round sat out."""
        return len(self.entrants) == 1


@dataclass(frozen=True)
class Settings:
    """What the host chooses (checked by :mod:`.settings`)."""

    name: str
    game: str
    kind: str
    rounds: int | None
    group_size: int
    max_entrants: int
    options: dict[str, Any]
    pace: dict[str, Any]
    rated: bool
    open_to: str


@dataclass(frozen=True)
class Event:
    """An event with its entrants and games."""

    id: str
    settings: Settings
    host_id: int
    host_name: str
    status: str
    current_round: int
    created_at: datetime
    started_at: datetime | None
    ended_at: datetime | None
    entrants: tuple[Entrant, ...]
    games: tuple[EventGame, ...]

    @property
    def partners(self) -> bool:
        """The event's tables are partnerships (both partners share the pair's result)."""
        return self.settings.game in PARTNERSHIP_GAMES

    def seeds(self) -> list[int]:
        """The entrants' numbers in seed order."""
        return [e.number for e in sorted(self.entrants, key=lambda e: (e.seed or 0, e.number))]

    def played(self) -> list[Game]:
        """The games as the pairing and the standings read them."""
        return [
            Game(g.round, g.entrants, g.points, partners=self.partners and not g.bye)
            for g in self.games
        ]

    def round_games(self, number: int) -> list[EventGame]:
        """The games of round ``number``."""
        return [g for g in self.games if g.round == number]

    def entrant_of(self, user_id: int) -> Entrant | None:
        """The entrant who is ``user_id``, if any."""
        return next((e for e in self.entrants if e.user_id == user_id), None)
