"""Time in the server comes from one injected clock, so that tests never sleep.

Clocks of play (a player's time bank, the 7-day rule of VERSUS, a Recto Verso round's 120 s)
and the scheduler acting on them read :meth:`Clock.now` and wait with :meth:`Clock.sleep`.
The server runs on :class:`SystemClock`; tests give it a :class:`ManualClock` and move time
forward themselves (``clock.advance(days=4)``), then let the scheduler act.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    """Where the server's time comes from."""

    def now(self) -> datetime:
        """The current time, timezone-aware UTC."""
        ...

    def sleep(self, seconds: float) -> Awaitable[None]:
        """Wait ``seconds`` of this clock's time (may return early; callers check the time)."""
        ...


def as_utc(moment: datetime) -> datetime:
    """``moment`` as the database stored it, timezone-aware: SQLite hands back naive datetimes
    for timezone-aware columns, and every time the server stores is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def seconds(clock: Clock) -> float:
    """The clock's time as seconds since the epoch (what game engines' clocks read)."""
    return clock.now().timestamp()


class SystemClock:
    """The real time."""

    def now(self) -> datetime:
        """The current time, timezone-aware UTC."""
        return datetime.now(UTC)

    async def sleep(self, seconds: float) -> None:
        """``asyncio.sleep``."""
        await asyncio.sleep(max(0.0, seconds))


class ManualClock:
    """A clock that only moves when told to (tests, demonstrations).

    >>> clock = ManualClock(datetime(2026, 1, 1, tzinfo=UTC))
    >>> clock.advance(days=4).isoformat()
    '2026-01-05T00:00:00+00:00'
    """

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 1, 12, tzinfo=UTC)
        self._sleepers: list[tuple[datetime, asyncio.Future[None]]] = []

    def now(self) -> datetime:
        """The time it was set to."""
        return self._now

    def advance(self, delta: timedelta | None = None, **kwargs: float) -> datetime:
        """Move time forward by ``delta`` or by ``timedelta(**kwargs)``; the new time. Every
        :meth:`sleep` whose end has come returns."""
        step = delta if delta is not None else timedelta(**kwargs)
        if step < timedelta(0):
            raise ValueError("a clock does not go backwards")
        self._now += step
        waiting = []
        for end, future in self._sleepers:
            if end <= self._now:
                if not future.done():
                    future.set_result(None)
            else:
                waiting.append((end, future))
        self._sleepers = waiting
        return self._now

    def sleep(self, seconds: float) -> Awaitable[None]:
        """Wait until the clock has been moved ``seconds`` on: no real time passes.

        The sleep is counted from the call, not from the first await: a task that sets up its
        sleep and runs only after the clock was moved (``ensure_future(clock.sleep(s))``)
        still wakes ``seconds`` after the moment it asked, as a real clock's sleep would."""
        end = self._now + timedelta(seconds=max(0.0, seconds))
        if end <= self._now:
            return asyncio.sleep(0)
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleepers.append((end, future))
        return future
