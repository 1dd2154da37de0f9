"""Rates of the costly reads — the lobby's lists of tables, a player's page, a lesson move — one
person and one address may ask for, counted in this process's memory on the server's clock.

Each of them is asked for by a page in its normal use (the lobby page reads its three lists
every 5 s) and each costs real work (fifty tables' summaries, six queries for a player's page,
a move judged); without a rate, eight connections of one address asking for one over and over
took the event loop from the players (``benchmarks/abuse.py``: another table's moves 3.4 to 8
times slower). A rate is a token bucket: ``per_minute`` a minute on average, five seconds'
worth of it at once (a lobby page's turn, or three, fits; a flood of many accounts' buckets
stays small); beyond it, 429 with ``Retry-After`` (when the next one is allowed) and nothing done.

Who counts, for a club or a school where many people share one address (a NAT):

- a signed-in request counts against its account (one person's rate) and against its address
  (``people_per_address`` persons' rates): a whole club, signed in, is never refused for its
  number, and one member's script cannot spend the others' share;
- a request of nobody signed in counts against its address's anonymous share, one person's
  rate: the pages that poll are signed in, and an anonymous flood gets one person's pace
  whatever it sends (signing in, even as a guest, is what gives people their own rates).

In memory rather than in the database (as the quotas of :mod:`.limits`): these reads are the
pages' polling, and a database write per poll would cost more than the read it guards (on
SQLite, a turn of the single writer the moves wait for); what a rate protects is this
process's time, which is not shared — as the brake's (:mod:`otherside.server.http.brake`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request

from otherside.i18n import N_
from otherside.server.accounts.addresses import client_key
from otherside.server.accounts.limiter import TooMany
from otherside.server.accounts.limits import Limits
from otherside.server.accounts.sessions import UserInfo, current_user
from otherside.server.clock import Clock, seconds

MOST_KEYS = 100_000  # buckets kept at once (the least recently used go first)


@dataclass(frozen=True)
class Rate:
    """A costly read: ``per_minute`` for one person, ``people`` times that for an address.

    Attributes:
        rule: a short name, part of every bucket's key (``lobby-lists``…).
        per_minute: what one person may ask for a minute on average (0: nothing).
        people: how many signed-in people one address may stand for.
        person_what: what is limited, in an account's refusal (``lists of tables``).
        address_what: the same, in an address's refusal.
    """

    rule: str
    per_minute: int
    people: int
    person_what: str
    address_what: str

    def buckets(self, address: str, account: int | None) -> list[tuple[str, float, str]]:
        """The buckets a request takes from: ``(key, per minute, what)`` each."""
        if account is None:
            return [(f"{self.rule}:anonymous:{address}", self.per_minute, self.address_what)]
        return [
            (f"{self.rule}:account:{account}", self.per_minute, self.person_what),
            (f"{self.rule}:address:{address}", self.per_minute * self.people, self.address_what),
        ]


class ReadRates:
    """The rates of the costly reads of a server process, and their buckets.

    Args:
        limits: the server's limits (``lobby_lists_per_minute``, ``player_pages_per_minute``,
            ``lesson_moves_per_minute``, ``people_per_address``).
        clock: the server's clock (a ``ManualClock`` in tests).
    """

    def __init__(self, limits: Limits, clock: Clock) -> None:
        people = limits.people_per_address
        self.clock = clock
        self.lobby_lists = Rate(
            "lobby-lists",
            limits.lobby_lists_per_minute,
            people,
            N_("lists of tables"),
            N_("lists of tables from your address"),
        )
        self.player_pages = Rate(
            "player-pages",
            limits.player_pages_per_minute,
            people,
            N_("player pages"),
            N_("player pages from your address"),
        )
        self.lesson_moves = Rate(
            "lesson-moves",
            limits.lesson_moves_per_minute,
            people,
            N_("lesson moves"),
            N_("lesson moves from your address"),
        )
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, at)

    def take(self, rate: Rate, address: str, account: int | None) -> None:
        """Count one read of ``rate`` by ``account`` (``None``: nobody signed in) from
        ``address``, in each of its buckets or in none: :class:`TooMany` if one is empty."""
        now = seconds(self.clock)
        buckets = rate.buckets(address, account)
        levels = [self._level(key, per_minute, now) for key, per_minute, _what in buckets]
        for (_key, per_minute, what), level in zip(buckets, levels, strict=True):
            if level < 1:
                wait = 60.0 if per_minute <= 0 else (1 - level) * 60 / per_minute
                raise TooMany(what, wait)
        for (key, _per_minute, _what), level in zip(buckets, levels, strict=True):
            self._keep(key, level - 1, now)

    def _level(self, key: str, per_minute: float, now: float) -> float:
        """The tokens in ``key``'s bucket now (a new bucket is full)."""
        most = _bucket_size(per_minute)
        tokens, at = self._buckets.get(key, (most, now))
        return min(most, tokens + max(0.0, now - at) * per_minute / 60)

    def _keep(self, key: str, tokens: float, now: float) -> None:
        self._buckets.pop(key, None)
        if len(self._buckets) >= MOST_KEYS:
            self._buckets.pop(next(iter(self._buckets)))
        self._buckets[key] = (tokens, now)  # re-inserted: the dict keeps the newest last


def _bucket_size(per_minute: float) -> float:
    """How many reads may come at once: five seconds' worth (at least one, if any).

    >>> _bucket_size(120), _bucket_size(2), _bucket_size(0)
    (10.0, 1.0, 0.0)
    """
    return 0.0 if per_minute <= 0 else max(1.0, float(per_minute // 12))


def counted(pick: Callable[[ReadRates], Rate]) -> Callable[..., Awaitable[None]]:
    """A route's dependency that counts its request against the rate ``pick`` chooses of the
    server's :class:`ReadRates` (HTTP 429 with ``Retry-After`` beyond it, before any work)."""

    async def count(
        request: Request, user: Annotated[UserInfo | None, Depends(current_user)]
    ) -> None:
        rates: ReadRates = request.app.state.rates
        rates.take(pick(rates), client_key(request), user.id if user else None)

    return count
