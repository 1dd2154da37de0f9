"""One bot worker's pipe: however many ask at once — a decision beside the worker's warm-up,
many jobs on one worker, a job given up on while its answer is on the way — each gets its own
answer, never another's, and no decision falls back to a random move. Real worker processes;
every answer is checked against the same decision made here."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from otherside.core.game import Action
from otherside.games import get_game
from otherside.server.bots.process import decide, encode
from otherside.server.bots.workers import BotRunner, ProcessWorker


def _position() -> tuple[Any, list[Action]]:
    game = get_game("versus")
    state = game.new_state(2, seed=5)
    return game.view(state, state.current_player), list(state.legal_actions())


def _job(bot: str, seed: int) -> tuple[Any, ...]:
    view, legal = _position()
    return ("decide", "versus", bot, view, legal, seed)


async def _spawned(workers: list[Any]) -> None:
    """Wait until each worker's process exists (its imports still under way, not ready)."""
    while any(worker.process is None for worker in workers):
        await asyncio.sleep(0.01)


def _expected(bot: str, seed: int) -> int:
    view, legal = _position()
    return decide("versus", bot, view, legal, seed)


async def test_decisions_asked_while_the_workers_warm_up_get_their_own_answers() -> None:
    runner = BotRunner(workers=1)
    view, legal = _position()
    try:
        runner.warm()  # as at a server's start, when tables taken over ask at once
        await _spawned(runner.workers)
        bots = ["random", "greedy"] * 10
        chosen = await asyncio.gather(
            *(
                runner.choose(f"t{seed}", "versus", bot, view, legal, seed)
                for seed, bot in enumerate(bots)
            )
        )
        assert runner.fallbacks == 0
        assert chosen == [legal[_expected(bot, seed)] for seed, bot in enumerate(bots)]
    finally:
        await runner.close()


async def test_many_jobs_at_once_on_one_worker_each_get_their_own_answer() -> None:
    worker = ProcessWorker(quick_only=True)
    try:
        warming = asyncio.create_task(worker.warm())
        await _spawned([worker])
        seeds = range(12)
        answers = await asyncio.gather(*(worker.run(_job("random", seed), 60) for seed in seeds))
        assert answers == [_expected("random", seed) for seed in seeds]
        await warming
    finally:
        await worker.stop()


async def test_a_job_given_up_on_does_not_hand_its_answer_to_the_next() -> None:
    worker = ProcessWorker(quick_only=False)
    try:
        # Timed out while thinking: the worker is replaced and the next job answered.
        with pytest.raises(TimeoutError):
            await worker.run(_job("search:think=30", 1), 0.5)
        assert await worker.run(_job("random", 2), 60) == _expected("random", 2)
        # Cancelled (its table stopped) while its answer is on the way.
        slow = asyncio.create_task(worker.run(_job("search:think=30", 3), 60))
        await asyncio.sleep(0.3)
        slow.cancel()
        with pytest.raises(asyncio.CancelledError):
            await slow
        assert await worker.run(_job("random", 4), 60) == _expected("random", 4)
    finally:
        await worker.stop()


async def test_an_answer_to_another_job_number_is_dropped() -> None:
    worker = ProcessWorker(quick_only=True)
    try:
        await worker.warm()
        process = worker.process
        assert process is not None and process.stdin is not None
        stale, mine = _expected("random", 7), _expected("random", 8)
        assert stale != mine  # else the check below could not tell them apart
        # A job of a number nobody waits for (one given up on): its answer comes first.
        process.stdin.write(encode((10_000, *_job("random", 7))))
        assert await worker.run(_job("random", 8), 60) == mine
        assert worker.process is process  # the same worker, not one started afresh
    finally:
        await worker.stop()
