"""The limiter itself, on SQLite and PostgreSQL: a slot is taken or refused in one statement,
given back while its window lasts, several slots are all or none, windows end on the server's
clock and ended ones are swept."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import event, func, select

from otherside.server.accounts.limiter import SWEEP_SECONDS, Limiter, Quota, TooMany
from otherside.server.clock import ManualClock
from otherside.server.store.db import Database
from otherside.server.store.models import RateLimit

THREE = Quota("test", 3, 60.0, "tests")
ONE = Quota("other", 1, 60.0, "others")


@pytest.fixture
async def limiter(database_url: str) -> AsyncIterator[tuple[Limiter, ManualClock]]:
    db = Database(database_url)
    await asyncio.to_thread(db.migrate)
    clock = ManualClock()
    try:
        yield Limiter(db, clock), clock
    finally:
        db.close()


async def _rows(limiter: Limiter) -> int:
    return await limiter.db.run(lambda s: s.scalar(select(func.count()).select_from(RateLimit)))


async def test_slots_are_taken_refused_given_back_and_renewed(
    limiter: tuple[Limiter, ManualClock],
) -> None:
    limits, clock = limiter
    slots = [await limits.reserve(THREE, "a") for _ in range(3)]
    assert [slot.hits for slot in slots] == [1, 2, 3]
    clock.advance(seconds=20)
    with pytest.raises(TooMany) as refused:
        await limits.reserve(THREE, "a")
    assert refused.value.status_code == 429 and refused.value.headers == {"Retry-After": "40"}
    assert (await limits.reserve(THREE, "b")).hits == 1  # another key is counted apart
    await limits.release(slots[0])
    assert (await limits.reserve(THREE, "a")).hits == 3
    clock.advance(seconds=40)
    renewed = await limits.reserve(THREE, "a")
    assert renewed.hits == 1
    await limits.release(slots[1])  # of the ended window: the new one is not touched
    assert (await limits.reserve(THREE, "a")).hits == 2


async def test_a_full_key_is_refused_from_memory_until_its_window_ends(
    limiter: tuple[Limiter, ManualClock],
) -> None:
    limits, clock = limiter
    slots = [await limits.reserve(THREE, "a") for _ in range(3)]
    with pytest.raises(TooMany):
        await limits.reserve(THREE, "a")
    statements: list[str] = []
    event.listen(limits.db.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    clock.advance(seconds=30)
    for _ in range(20):  # a flood of refusals: no round trip to the database each
        with pytest.raises(TooMany) as refused:
            await limits.reserve(THREE, "a")
        assert refused.value.headers == {"Retry-After": "30"}
    assert statements == []
    assert (await limits.reserve(THREE, "b")).hits == 1 and statements  # others still counted
    await limits.release(slots[0])  # given back here: free at once
    assert (await limits.reserve(THREE, "a")).hits == 3
    with pytest.raises(TooMany):
        await limits.reserve(THREE, "a")
    clock.advance(seconds=30)  # the window ended: counted anew
    assert (await limits.reserve(THREE, "a")).hits == 1


async def test_many_at_once_get_exactly_the_limit(limiter: tuple[Limiter, ManualClock]) -> None:
    limits, _clock = limiter
    answers = await asyncio.gather(
        *(limits.reserve(THREE, "a") for _ in range(20)), return_exceptions=True
    )
    assert sum(isinstance(a, TooMany) for a in answers) == 17
    assert sorted(a.hits for a in answers if not isinstance(a, BaseException)) == [1, 2, 3]


async def test_several_slots_are_all_or_none(limiter: tuple[Limiter, ManualClock]) -> None:
    limits, _clock = limiter
    await limits.reserve(ONE, "a")
    with pytest.raises(TooMany, match="others"):
        await limits.reserve_all([(THREE, "a"), (ONE, "a")])
    # The first quota's slot was rolled back with the refusal.
    assert [(await limits.reserve(THREE, "a")).hits for _ in range(3)] == [1, 2, 3]


async def test_a_zero_limit_refuses_and_ended_windows_are_swept(
    limiter: tuple[Limiter, ManualClock],
) -> None:
    limits, clock = limiter
    with pytest.raises(TooMany):
        await limits.reserve(Quota("none", 0, 30.0, "nothing"), "a")
    await limits.reserve(THREE, "a")
    await limits.reserve(ONE, "b")
    assert await _rows(limits) == 2
    clock.advance(seconds=SWEEP_SECONDS + 1)
    await limits.reserve(THREE, "c")  # sweeps the two ended windows first
    assert await _rows(limits) == 1
