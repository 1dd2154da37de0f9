"""A limiter that holds under concurrency and across processes: a request *reserves* its slot
before the slow work (a password check, a new account, a table) and a request refused changes
nothing; a slot can be given back (a right password gives back the failure it reserved).

Counts are rows of ``rate_limits`` in the server's database, so every process and host on one
database shares them. Each reservation is one atomic statement — ``INSERT … ON CONFLICT DO
UPDATE … WHERE count < limit RETURNING`` — which PostgreSQL runs under the row's lock and SQLite
under its single writer: of any number of simultaneous requests, exactly ``limit`` get a slot.
Several slots taken together (:meth:`Limiter.reserve`) are one transaction: all or none.

Windows are fixed: the first hit of a key opens a window of the quota's seconds, and the key may
be hit ``limit`` times until it ends (a refusal's ``Retry-After`` is the time left). Keys are
stored hashed (no address or name in clear); ended windows are swept once a minute.

A key found full is remembered in the process until its window ends, and refused again from
memory, without the database: a flood of refused requests costs no round trip each. (A slot
given back in another process meanwhile is seen here when the window ends; one given back or
forgotten here, at once.)
"""

from __future__ import annotations

import hashlib
import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, cast

from fastapi import HTTPException
from sqlalchemy import Float, Table, bindparam, case, delete, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from otherside.i18n import N_
from otherside.server.clock import Clock
from otherside.server.store.db import Database
from otherside.server.store.models import RateLimit
from otherside.server.store.outage import log_failure

SWEEP_SECONDS = 60.0  # how often ended windows are deleted (server time)
MOST_REMEMBERED = 10_000  # full keys remembered at once (the oldest go first)
log = logging.getLogger("otherside.server")


TOO_MANY = N_("too many {what}; try again in {wait}")


class TooMany(HTTPException):
    """HTTP 429 saying what was too frequent (``what``: a catalog message) and when to try
    again (``Retry-After``); answered in the reader's language with the code ``too_many``."""

    def __init__(self, what: str, wait: float, key: str = "", until: float = 0.0) -> None:
        self.what = what
        self.wait = max(1, math.ceil(wait))
        self.key = key  # the stored key found full, and when its window ends
        self.until = until
        super().__init__(
            429,
            TOO_MANY.format(what=what, wait=span(self.wait)),
            headers={"Retry-After": str(self.wait)},
        )


def span(seconds: int) -> str:
    """A wait in words.

    >>> span(42), span(600), span(5400)
    ('42 s', '10 min', '90 min')
    """
    return f"{seconds} s" if seconds < 120 else f"{math.ceil(seconds / 60)} min"


@dataclass(frozen=True)
class Quota:
    """At most ``limit`` hits per key in a window of ``seconds``.

    Attributes:
        rule: a short name, part of every stored key (``guests``, ``signin-address``…).
        limit: hits per window (0: none at all).
        seconds: the window's length.
        what: what is limited, in a refusal (``guest accounts from your address``).
    """

    rule: str
    limit: int
    seconds: float
    what: str


@dataclass(frozen=True)
class Slot:
    """A hit taken (the ``hits``-th of its window): given back by :meth:`Limiter.release`
    while its window lasts."""

    key: str
    until: float
    hits: int


def stored_key(rule: str, who: str) -> str:
    """The row key of ``who`` under ``rule``: hashed, so that any text fits and none is kept.

    >>> stored_key("guests", "10.0.0.1") == stored_key("guests", "10.0.0.1")
    True
    >>> len(stored_key("guests", "x" * 500))
    39
    """
    digest = hashlib.blake2b(who.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
    return f"{rule}:{digest}"


def _insert(session: Session) -> Any:
    dialect = session.get_bind().dialect.name
    return (postgresql.insert if dialect == "postgresql" else sqlite.insert)(RateLimit)


@cache
def _take_statement(dialect: str, limited: bool) -> Any:
    """The statement of :func:`take` for a database kind, built once: every hit of every
    quota runs it with its own parameters (``key``, ``now``, ``until``, and ``limit``)."""
    table = cast(Table, RateLimit.__table__)
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    now, until = bindparam("now", type_=Float), bindparam("until", type_=Float)
    ended = table.c.until <= now
    return (
        insert(table)
        .values(key=bindparam("key"), hits=1, until=until)
        .on_conflict_do_update(
            index_elements=[table.c.key],
            set_={
                "hits": case((ended, 1), else_=table.c.hits + 1),
                "until": case((ended, until), else_=table.c.until),
            },
            where=or_(ended, table.c.hits < bindparam("limit")) if limited else None,
        )
        .returning(table.c.hits, table.c.until)
    )


def take(session: Session, key: str, limit: int | None, seconds: float, now: float) -> Slot | None:
    """Count one hit of ``key`` if it has fewer than ``limit`` in its window (any number if
    ``None``); the slot, or ``None`` when full. One atomic statement."""
    connection = session.connection()
    statement = _take_statement(connection.dialect.name, limit is not None)
    params: dict[str, Any] = {"key": key, "now": now, "until": now + seconds}
    if limit is not None:
        params["limit"] = limit
    row = connection.execute(statement, params).first()
    return None if row is None else Slot(key, float(row.until), int(row.hits))


def open_gate(session: Session, key: str, delay: float, now: float) -> bool:
    """Pass ``key``'s gate if it is open, closing it for ``delay`` seconds; ``False`` if shut.
    Of simultaneous callers exactly one passes."""
    statement = (
        _insert(session)
        .values(key=key, hits=1, until=now + delay)
        .on_conflict_do_update(
            index_elements=[RateLimit.key],
            set_={"hits": RateLimit.hits + 1, "until": now + delay},
            where=RateLimit.until <= now,
        )
        .returning(RateLimit.until)
    )
    return session.execute(statement).first() is not None


def window_end(session: Session, key: str) -> float:
    """When ``key``'s window (or gate) ends; 0 if it has none."""
    return float(session.scalar(select(RateLimit.until).where(RateLimit.key == key)) or 0.0)


def give_back(session: Session, slots: Sequence[Slot]) -> None:
    """Uncount ``slots`` whose window still runs (a later window is not touched)."""
    for slot in slots:
        session.execute(
            update(RateLimit)
            .where(RateLimit.key == slot.key, RateLimit.until == slot.until, RateLimit.hits > 0)
            .values(hits=RateLimit.hits - 1)
        )


def claim(session: Session, quota: Quota, who: str, now: float) -> Slot:
    """Take a slot of ``who`` under ``quota`` in ``session``'s transaction, or raise
    :class:`TooMany` (the caller's transaction then rolls back whatever it took before)."""
    key = stored_key(quota.rule, who)
    slot = take(session, key, quota.limit, quota.seconds, now) if quota.limit > 0 else None
    if slot is None:
        until = window_end(session, key) if quota.limit > 0 else now + quota.seconds
        raise TooMany(quota.what, until - now, key, until)
    return slot


class Limiter:
    """Reserves and gives back slots of :class:`Quota` s in the database."""

    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock
        self._swept = 0.0
        self._full: dict[str, tuple[float, str]] = {}  # key -> (window end, what), see above

    def now(self) -> float:
        """The server's time in seconds since the epoch."""
        return self.clock.now().timestamp()

    async def reserve(self, quota: Quota, who: str) -> Slot:
        """A slot of ``who`` (an address, an account…) under ``quota``, or :class:`TooMany`."""
        slots = await self.reserve_all([(quota, who)])
        return slots[0]

    async def reserve_all(self, claims: Sequence[tuple[Quota, str]]) -> list[Slot]:
        """A slot under each quota, taken together (all or none), or the first
        :class:`TooMany`. Callers keep one order of quotas, so that two transactions never
        wait on each other's rows in opposite orders."""
        now = self.now()
        self.refuse_known_full(claims, now)
        await self.sweep(now)
        try:
            return await self.db.run(lambda s: [claim(s, quota, who, now) for quota, who in claims])
        except TooMany as refused:
            self.remember(refused)
            raise

    def refuse_known_full(self, claims: Sequence[tuple[Quota, str]], now: float) -> None:
        """:class:`TooMany` at once, without the database, if one of ``claims`` was found
        full here and its window still runs (for callers that claim in their own
        transaction, as :meth:`reserve_all` does)."""
        for quota, who in claims:
            self._refuse_if_full(stored_key(quota.rule, who), now)

    def remember(self, refused: TooMany) -> None:
        """Remember the key ``refused`` found full until its window ends."""
        if refused.key:
            self._remember_full(refused.key, refused.until, refused.what)

    def _refuse_if_full(self, key: str, now: float) -> None:
        full = self._full.get(key)
        if full is None:
            return
        until, what = full
        if until > now:
            raise TooMany(what, until - now, key, until)
        del self._full[key]

    def _remember_full(self, key: str, until: float, what: str) -> None:
        self._full.pop(key, None)
        if len(self._full) >= MOST_REMEMBERED:
            self._full.pop(next(iter(self._full)))
        self._full[key] = (until, what)

    async def release(self, *slots: Slot) -> None:
        """Give ``slots`` back (the work they were taken for did not count)."""
        for slot in slots:
            self._full.pop(slot.key, None)
        await self.db.run(lambda s: give_back(s, slots))

    async def forget(self, quota: Quota, who: str) -> None:
        """Drop ``who``'s count under ``quota`` (a right password forgives earlier typos)."""
        key = stored_key(quota.rule, who)
        self._full.pop(key, None)
        await self.db.run(lambda s: s.execute(delete(RateLimit).where(RateLimit.key == key)))

    async def sweep(self, now: float) -> None:
        """Delete windows that ended, at most once a minute (in its own transaction, so that
        it never holds rows a reservation waits for)."""
        if now - self._swept < SWEEP_SECONDS:
            return
        self._swept = now
        # Rows another transaction holds are left for the next sweep: no waiting, no deadlock.
        ended = select(RateLimit.key).where(RateLimit.until < now).with_for_update(skip_locked=True)
        try:
            await self.db.run(
                lambda s: s.execute(delete(RateLimit).where(RateLimit.key.in_(ended)))
            )
        except SQLAlchemyError:
            log_failure(log, "could not sweep ended limit windows")
