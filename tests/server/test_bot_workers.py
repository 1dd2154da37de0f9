"""The bot runner: tables take turns, quick bots never wait behind a search, a decision past its
time cap is stopped (its worker replaced, a random move played) and no worker outlives the
runner. Real worker processes; outcomes are asserted by the order things finish in, not by
figures (those are in ``benchmarks/``)."""

from __future__ import annotations

import asyncio
import os
from typing import Any

import pytest

from otherside.core.game import Action
from otherside.games import get_game
from otherside.server.bots.process import workers_of
from otherside.server.bots.queue import FairQueue
from otherside.server.bots.workers import BotRunner, ProcessWorker


def _position(game: str) -> tuple[Any, list[Action]]:
    state = get_game(game).new_state(2, seed=11)
    return get_game(game).view(state, state.current_player), list(state.legal_actions())


def test_a_busy_table_waits_behind_the_others_not_the_others_behind_it() -> None:
    line: FairQueue[str] = FairQueue()
    for job in range(4):
        line.put("flood", f"flood{job}")
    line.put("quiet", "quiet0")
    assert [line.take(), line.take()] == ["flood0", "quiet0"]
    line.put("late", "late0")
    line.put("quiet", "quiet1")
    # Served in turn: the flood's next, then the table that came last, then the quiet one.
    assert [line.take() for _ in range(6)] == [
        "flood1",
        "late0",
        "quiet1",
        "flood2",
        "flood3",
        None,
    ]
    assert len(line) == 0 and line.tables() == []


async def _finish_order(runner: BotRunner, jobs: list[tuple[str, str, str]]) -> list[str]:
    """Submit ``(label, table, spec)`` decisions of VERSUS one after another; the labels in the
    order their answers came back."""
    view, legal = _position("versus")
    finished: list[str] = []

    async def one(label: str, table: str, bot: str) -> None:
        action = await runner.choose(table, "versus", bot, view, legal, 1)
        assert action in legal
        finished.append(label)

    tasks = []
    for label, table, bot in jobs:
        tasks.append(asyncio.create_task(one(label, table, bot)))
        await asyncio.sleep(0.05)  # submitted in this order
    await asyncio.gather(*tasks)
    return finished


async def test_quick_bots_and_other_tables_do_not_wait_behind_one_tables_searches() -> None:
    runner = BotRunner(workers=1, think_cap=0.6)
    try:
        await _finish_order(runner, [("warm", "w", "greedy"), ("warm2", "w", "search:think=0.1")])
        order = await _finish_order(
            runner,
            [
                ("a1", "a", "search:think=10"),  # capped to 0.6 s
                ("a2", "a", "search:think=10"),
                ("a3", "a", "search:think=10"),
                ("b1", "b", "search:think=10"),
                ("g", "g", "greedy"),
            ],
        )
    finally:
        await runner.close()
    # The greedy bot, submitted last, answers first, beside the search in progress; table b's
    # search goes before table a's third.
    assert order[0] == "g"
    assert order.index("b1") < order.index("a3")
    assert runner.fallbacks == 0


def _searcher(runner: BotRunner) -> ProcessWorker:
    """The runner's one searching worker (the tests' runner has one beside the quick lane)."""
    found = [w for w in runner.workers if isinstance(w, ProcessWorker) and not w.quick_only]
    assert len(found) == 1
    return found[0]


async def test_a_decision_past_its_cap_is_stopped_and_a_random_move_played() -> None:
    runner = BotRunner(workers=1, think_cap=0.2, grace=0.5)
    view, legal = _position("verso")
    try:
        # Warm the worker up, then a bot told to think for a minute (``seconds`` is no
        # option a host may set; here it stands for any bot that overruns).
        await runner.choose("t", "verso", "ismcts:iterations=10", view, legal, 1)
        first = _searcher(runner).process
        assert first is not None
        started = asyncio.get_running_loop().time()
        action = await runner.choose("t", "verso", "ismcts:seconds=60", view, legal, 2)
        took = asyncio.get_running_loop().time() - started
        assert action in legal and runner.fallbacks == 1
        assert took < 30  # stopped long before its minute
        assert first.returncode is not None  # killed and reaped
        # A new worker takes the next decision.
        assert await runner.choose("t", "verso", "ismcts:iterations=10", view, legal, 3) in legal
        again = _searcher(runner).process
        assert again is not None and again.pid != first.pid
    finally:
        await runner.close()


async def test_a_dropped_decision_frees_its_worker_at_once() -> None:
    runner = BotRunner(workers=1, think_cap=30)
    view, legal = _position("versus")
    try:
        await runner.choose("w", "versus", "search:think=0.1", view, legal, 1)
        long = asyncio.create_task(runner.choose("a", "versus", "search:think=30", view, legal, 2))
        await asyncio.sleep(0.5)
        long.cancel()  # its table was stopped
        with pytest.raises(asyncio.CancelledError):
            await long
        # The next table's search does not wait for the dropped one's 30 s.
        await asyncio.wait_for(
            runner.choose("b", "versus", "search:think=0.2", view, legal, 3), timeout=20
        )
    finally:
        await runner.close()


async def test_close_leaves_no_worker_process() -> None:
    runner = BotRunner(workers=2)
    view, legal = _position("versus")
    await asyncio.gather(
        runner.choose("a", "versus", "greedy", view, legal, 1),
        runner.choose("b", "versus", "search:think=0.1", view, legal, 2),
        runner.choose("c", "versus", "search:think=0.1", view, legal, 3),
    )
    assert len(workers_of(os.getpid())) == 3  # the quick lane and two searching
    await runner.close()
    assert workers_of(os.getpid()) == []
