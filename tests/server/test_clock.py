"""The injected clock that lets tests move time: a sleep counts from when it was asked for."""

from __future__ import annotations

import asyncio

from otherside.server.clock import ManualClock


async def test_a_sleep_set_up_before_the_clock_moves_ends_when_its_time_has_come() -> None:
    # The scheduler sets its sleep up as a task and waits; the test moving the clock may run
    # before that task's first step. The sleep must still end on time, or the deadline it
    # waits for is missed until something else wakes the scheduler.
    clock = ManualClock()
    sleeper = asyncio.ensure_future(clock.sleep(15))
    clock.advance(seconds=14)
    await asyncio.sleep(0)
    assert not sleeper.done()
    clock.advance(seconds=1)
    await asyncio.wait_for(sleeper, timeout=1)


async def test_a_sleep_of_no_time_still_lets_others_run() -> None:
    clock, ran = ManualClock(), []

    async def other() -> None:
        ran.append(True)

    task = asyncio.ensure_future(other())
    await clock.sleep(0)
    assert ran == [True] and task.done()
