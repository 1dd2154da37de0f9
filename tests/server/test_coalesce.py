"""Answers computed once for the callers who ask at once (``http/coalesce.py``): a flood of
one request costs one computation after another, not one per request, and no caller gets an
answer computed before it asked."""

from __future__ import annotations

import asyncio

import pytest

from otherside.server.http.coalesce import Coalesced


async def settle() -> None:
    """Let every task ready to run take its steps."""
    for _ in range(10):
        await asyncio.sleep(0)


class Counting:
    """A computation that counts its runs, each holding until released."""

    def __init__(self) -> None:
        self.runs = 0
        self.release = asyncio.Event()

    async def __call__(self) -> int:
        self.runs += 1
        run = self.runs
        await self.release.wait()
        return run


async def test_callers_who_ask_at_once_share_one_computation() -> None:
    shared, compute = Coalesced(), Counting()
    callers = [asyncio.ensure_future(shared.answer("lobby", compute)) for _ in range(50)]
    await settle()
    compute.release.set()
    assert await asyncio.gather(*callers) == [1] * 50
    assert compute.runs == 1


async def test_a_caller_who_comes_during_a_computation_gets_the_next_one() -> None:
    shared, compute = Coalesced(), Counting()
    first = asyncio.ensure_future(shared.answer("lobby", compute))
    await settle()
    assert compute.runs == 1  # running, and held
    # These came after the first computation began: it may miss what they did just before.
    later = [asyncio.ensure_future(shared.answer("lobby", compute)) for _ in range(20)]
    await settle()
    assert compute.runs == 1  # they wait for it to end, not beside it
    compute.release.set()
    assert await first == 1
    assert await asyncio.gather(*later) == [2] * 20
    assert compute.runs == 2


async def test_keys_do_not_wait_for_each_other_and_a_failure_is_not_kept() -> None:
    shared = Coalesced()
    held = Counting()
    lobby = asyncio.ensure_future(shared.answer("lobby", held))

    async def broken() -> int:
        raise RuntimeError("database away")

    async def fine() -> int:
        return 7

    # Another key is answered while the first is held.
    assert await asyncio.wait_for(shared.answer(("player", "ada"), fine), 1) == 7
    with pytest.raises(RuntimeError, match="database away"):
        await shared.answer("broken", broken)
    assert await shared.answer("broken", fine) == 7  # computed afresh, not the failure kept
    held.release.set()
    assert await lobby == 1


async def test_a_caller_who_stops_waiting_leaves_the_others_their_answer() -> None:
    shared, compute = Coalesced(), Counting()
    quitter = asyncio.ensure_future(shared.answer("lobby", compute))
    stayer = asyncio.ensure_future(shared.answer("lobby", compute))
    await settle()
    quitter.cancel()
    compute.release.set()
    assert await stayer == 1
    with pytest.raises(asyncio.CancelledError):
        await quitter
