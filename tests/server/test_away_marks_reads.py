"""Reads of the other processes' presence for newcomers to a table
(:meth:`otherside.server.cluster.away_marks.AwayMarks.arriving`): when a process dies, its
players all come to another at once, and the two of a table share one read under way; a
newcomer after it reads again. The hub around the marks is a stand-in whose presence read waits
until the test lets it answer (the real read across processes: ``test_cluster_away_marks``)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from otherside.server.cluster.away_marks import AwayMarks


class _Presence:
    """Presence reads that wait for :attr:`answer`, counted."""

    def __init__(self) -> None:
        self.reads = 0
        self.answer = asyncio.Event()

    async def elsewhere(self, table_id: str) -> dict[int, Any]:
        self.reads += 1
        await self.answer.wait()
        return {}


def _marks() -> tuple[AwayMarks, _Presence]:
    presence = _Presence()
    hub = SimpleNamespace(
        cluster=SimpleNamespace(presence=presence),
        background=asyncio.create_task,
    )
    return AwayMarks(hub), presence  # type: ignore[arg-type]


async def test_newcomers_to_a_table_share_the_read_under_way() -> None:
    marks, presence = _marks()
    ada = asyncio.create_task(marks.arriving("t1"))
    bob = asyncio.create_task(marks.arriving("t1"))
    other_table = asyncio.create_task(marks.arriving("t2"))
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert presence.reads == 2  # one for t1's two newcomers, one for t2
    presence.answer.set()
    first, second, _ = await asyncio.gather(ada, bob, other_table)
    assert first == second and first.seen == {}
    # Once it is done, a newcomer reads again: what it found may be old by now.
    later = await marks.arriving("t1")
    assert presence.reads == 3 and later.asked > first.asked


async def test_a_newcomer_that_leaves_does_not_stop_the_read_of_the_others() -> None:
    marks, presence = _marks()
    ada = asyncio.create_task(marks.arriving("t1"))
    bob = asyncio.create_task(marks.arriving("t1"))
    await asyncio.sleep(0)
    ada.cancel()  # her socket closed while she waited
    await asyncio.sleep(0)
    presence.answer.set()
    assert (await bob).seen == {} and presence.reads == 1
