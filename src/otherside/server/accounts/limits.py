"""Limits that keep a public server usable: how fast one account or address may sign in wrongly,
make guests, accounts and tables, or chat — each a setting with a default a small public server
can live with, enforced with sliding windows on the server's clock.

A refused request gets HTTP 429 with ``Retry-After`` (whole seconds) and changes nothing.
Counts are kept in the memory of one server process (a restart forgets them).
"""

from __future__ import annotations

import dataclasses
import math
from collections import deque
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from fastapi import HTTPException

from otherside.server.clock import Clock

MAX_KEYS = 100_000  # keys remembered per window before the oldest idle ones are dropped


@dataclass(frozen=True)
class Limits:
    """The server's limits (every count is per window of the given seconds).

    Attributes:
        signin_failures_per_name: wrong passwords for one account before sign-in pauses.
        signin_failures_per_address: wrong passwords from one address before it pauses.
        signin_window: seconds over which sign-in failures count (and the pause lasts).
        signups_per_address: accounts one address may create per ``creation_window``.
        guests_per_address: guest accounts one address may create per ``creation_window``.
        creation_window: seconds, for sign-ups and guests.
        tables_per_user: tables one account may create per ``tables_window``.
        tables_per_address: tables one address may create per ``tables_window``.
        tables_window: seconds, for table creation.
        waiting_tables_per_user: open (waiting) tables one account may host at once.
        chat_lines_per_minute: chat lines one person may send to a table per minute.
        bot_think_cap: seconds one bot decision may think; a host's ``think`` above it is
            refused, a worker past it (and a grace) is stopped and the bot plays a random move.
        all_bot_tables_per_user: games with no person seated one account may run at once.
        all_bot_moves: moves after which a game with no person seated ends, aborted.
    """

    signin_failures_per_name: int = 5
    signin_failures_per_address: int = 20
    signin_window: float = 900.0
    signups_per_address: int = 10
    guests_per_address: int = 10
    creation_window: float = 3600.0
    tables_per_user: int = 10
    tables_per_address: int = 30
    tables_window: float = 600.0
    waiting_tables_per_user: int = 5
    chat_lines_per_minute: int = 12
    bot_think_cap: float = 10.0
    all_bot_tables_per_user: int = 2
    all_bot_moves: int = 400


def parse_limits(items: list[str]) -> Limits:
    """Limits from ``NAME=VALUE`` settings (``otherside serve --limit guests_per_address=50``).

    >>> parse_limits(["guests_per_address=50"]).guests_per_address
    50
    >>> parse_limits(["guests=5"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown limit 'guests'; limits: signin_failures_per_name, ...
    """
    fields = {f.name: f.type for f in dataclasses.fields(Limits)}
    values: dict[str, Any] = {}
    for item in items:
        name, sep, text = item.partition("=")
        name = name.strip()
        if not sep:
            raise ValueError(f"a limit is NAME=VALUE, not {item!r}")
        if name not in fields:
            raise ValueError(f"unknown limit {name!r}; limits: {', '.join(fields)}")
        try:
            value = int(text) if fields[name] in (int, "int") else float(text)
        except ValueError as exc:
            raise ValueError(f"limit {name}: {text!r} is not a number") from exc
        if value < 0:
            raise ValueError(f"limit {name}: {value} is negative")
        values[name] = value
    return dataclasses.replace(Limits(), **values)


class Window:
    """Counts events per key over the last ``seconds`` (a sliding window)."""

    def __init__(self, limit: int, seconds: float, clock: Clock) -> None:
        self.limit = limit
        self.span = timedelta(seconds=seconds)
        self.clock = clock
        self._events: dict[str, deque[datetime]] = {}

    def _recent(self, key: str) -> deque[datetime]:
        events = self._events.get(key)
        if events is None:
            return deque()
        cutoff = self.clock.now() - self.span
        while events and events[0] <= cutoff:
            events.popleft()
        if not events:
            del self._events[key]
        return events

    def retry_after(self, key: str) -> int | None:
        """Seconds until ``key`` may act again, or ``None`` if it may now."""
        events = self._recent(key)
        if len(events) < self.limit:
            return None
        wait = (events[0] + self.span - self.clock.now()).total_seconds()
        return max(1, math.ceil(wait))

    def hit(self, key: str) -> None:
        """Count one event of ``key`` now."""
        if key not in self._events and len(self._events) >= MAX_KEYS:
            self._events.pop(next(iter(self._events)))
        self._events.setdefault(key, deque()).append(self.clock.now())

    def clear(self, key: str) -> None:
        """Forget ``key``'s events (a successful sign-in clears the failures)."""
        self._events.pop(key, None)

    def check(self, key: str, what: str) -> None:
        """Raise HTTP 429 with ``Retry-After`` when ``key`` is over the limit."""
        wait = self.retry_after(key)
        if wait is not None:
            raise too_many(what, wait)


def too_many(what: str, wait: int) -> HTTPException:
    """HTTP 429 saying what was too frequent and when to try again."""
    return HTTPException(
        429, f"too many {what}; try again in {_span(wait)}", headers={"Retry-After": str(wait)}
    )


def _span(seconds: int) -> str:
    """
    >>> _span(42), _span(600), _span(5400)
    ('42 s', '10 min', '90 min')
    """
    return f"{seconds} s" if seconds < 120 else f"{math.ceil(seconds / 60)} min"


class Throttles:
    """Every window of a server, built from its :class:`Limits`."""

    def __init__(self, limits: Limits, clock: Clock) -> None:
        self.limits = limits
        self.signin_name = Window(limits.signin_failures_per_name, limits.signin_window, clock)
        self.signin_address = Window(
            limits.signin_failures_per_address, limits.signin_window, clock
        )
        self.signups = Window(limits.signups_per_address, limits.creation_window, clock)
        self.guests = Window(limits.guests_per_address, limits.creation_window, clock)
        self.tables_user = Window(limits.tables_per_user, limits.tables_window, clock)
        self.tables_address = Window(limits.tables_per_address, limits.tables_window, clock)
