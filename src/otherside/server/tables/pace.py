"""The pace of a table: how much time its players have, chosen by the host.

- **live**: each player has ``minutes`` for the whole game and gains ``increment`` seconds with
  every action (a Fischer clock, as on chess servers);
- **turn-based**: each player has ``days`` per move; a reminder goes out after ``remind_days``
  without a move (the VERSUS site's defaults: a reminder on day 4, the game over after 7 days);
- **rounds**: no player has a clock; the game's own round timer is the only time (Recto Verso,
  R13/R16: a cooperative build is timed as a round, and between rounds the table waits for the
  people — a chess clock would throw partners out of their own game). It is the only pace of
  such a game: the host cannot give it a per-player clock.

A clock runs only for a human seat that the table is waiting on alone; bots have no clock, and
while several players act at once (a Recto Verso build) the game's own timer rules. A player
whose time runs out forfeits (see :mod:`otherside.server.tables.forfeits`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

PaceKind = Literal["live", "turn", "rounds"]
# Bounds a host may choose within (minutes, seconds, days).
MINUTES = (0.25, 180.0)  # from a 15-second bullet game to three hours
INCREMENT = (0.0, 300.0)
DAYS = (1.0, 30.0)


@dataclass(frozen=True)
class Pace:
    """A table's pace (see the module docstring); build it with :meth:`parse`."""

    kind: PaceKind = "live"
    minutes: float = 10.0
    increment: float = 5.0
    days: float = 7.0
    remind_days: float = 4.0

    @classmethod
    def parse(cls, raw: Mapping[str, Any] | None, default: Pace | None = None) -> Pace:
        """A validated pace from JSON; missing fields take ``default``'s values.

        >>> Pace.parse({"kind": "turn"}).to_json()
        {'kind': 'turn', 'days': 7.0, 'remind_days': 4.0}
        >>> Pace.parse({"kind": "live", "minutes": 0})
        Traceback (most recent call last):
        ...
        ValueError: pace: minutes must be a number from 0.25 to 180, not 0
        """
        base = default or cls()
        if raw is None:
            return base
        if not isinstance(raw, Mapping):
            raise ValueError('pace must be an object such as {"kind": "live", "minutes": 10}')
        kind = raw.get("kind", base.kind)
        if base.kind == "rounds" or kind == "rounds":
            # Without a game's default (a stored pace) any kind stands; with one, a game timed
            # by its rounds keeps them and no other game takes them.
            if default is not None and kind != base.kind:
                raise ValueError(
                    "pace: this game is timed by its rounds, players have no clock"
                    if base.kind == "rounds"
                    else "pace: only a game timed by its rounds has the pace 'rounds'"
                )
            if set(raw) - {"kind"}:
                raise ValueError("pace: rounds take no other setting")
            return cls(kind="rounds")
        if kind not in ("live", "turn"):
            raise ValueError(f"pace: kind must be 'live' or 'turn', not {kind!r}")
        allowed = (
            {"kind", "minutes", "increment"} if kind == "live" else {"kind", "days", "remind_days"}
        )
        unknown = sorted(set(raw) - allowed)
        if unknown:
            raise ValueError(
                f"pace: {kind} has no {unknown[0]!r}; it takes {', '.join(sorted(allowed))}"
            )
        if kind != base.kind:
            base = cls(kind=kind)
        pace = cls(
            kind=kind,
            minutes=_number(raw, "minutes", base.minutes, MINUTES),
            increment=_number(raw, "increment", base.increment, INCREMENT),
            days=_number(raw, "days", base.days, DAYS),
            remind_days=_number(raw, "remind_days", base.remind_days, (0.0, DAYS[1])),
        )
        if pace.kind == "turn" and not 0 < pace.remind_days < pace.days:
            raise ValueError(
                f"pace: the reminder ({pace.remind_days:g} days) must come before the end "
                f"({pace.days:g} days)"
            )
        return pace

    def to_json(self) -> dict[str, Any]:
        """The JSON form (only the fields of its kind)."""
        if self.kind == "live":
            return {"kind": "live", "minutes": self.minutes, "increment": self.increment}
        if self.kind == "rounds":
            return {"kind": "rounds"}
        return {"kind": "turn", "days": self.days, "remind_days": self.remind_days}

    @property
    def bank_ms(self) -> int | None:
        """A live player's time for the game, in milliseconds (``None`` turn-based)."""
        return round(self.minutes * 60_000) if self.kind == "live" else None

    def deadline(self, turn_started: datetime, time_left_ms: int | None) -> datetime | None:
        """When the player to move runs out of time, their turn having begun at
        ``turn_started`` (live: with ``time_left_ms`` left on their clock); ``None`` when
        players have no clock (rounds)."""
        if self.kind == "live":
            return turn_started + timedelta(milliseconds=time_left_ms or 0)
        if self.kind == "rounds":
            return None
        return turn_started + timedelta(days=self.days)

    def reminder(self, turn_started: datetime) -> datetime | None:
        """When to remind the player to move (turn-based only)."""
        return turn_started + timedelta(days=self.remind_days) if self.kind == "turn" else None

    def after_move(self, time_left_ms: int, spent: timedelta) -> int:
        """A live clock after a move that took ``spent``: less the time, plus the increment."""
        return max(0, time_left_ms - _ms(spent)) + round(self.increment * 1000)


def _ms(delta: timedelta) -> int:
    return round(delta.total_seconds() * 1000)


def _number(
    raw: Mapping[str, Any], name: str, default: float, bounds: tuple[float, float]
) -> float:
    value = raw.get(name, default)
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise ValueError(f"pace: {name} must be a number from {low:g} to {high:g}, not {value!r}")
    return float(value)
