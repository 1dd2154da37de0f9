"""Bot seats: choosing a bot's action off the event loop.

A bot is made by name through the registry (``make_bot(game, name)``), gets only the view of its
seat and the legal actions (exactly what :func:`otherside.bots.play_match` gives it) and thinks
in a worker *process*, so a long search never holds up the websockets of the other tables (a
thread would share their interpreter lock). ``workers=0`` thinks in threads instead (tests).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from otherside.bots import bot_names, make_bot
from otherside.bots.base import RandomBot
from otherside.core.game import Action
from otherside.server.tables.adapters import FALLBACK_BOT, parse_bot


def choose_action(
    game: str, bot: str, view: Mapping[str, Any], legal: Sequence[Action], seed: int
) -> Action:
    """Make bot ``bot`` of ``game`` (``name`` or ``name:key=value``, e.g. ``search:think=2``)
    and let it choose among ``legal`` (blocking).

    A game without a bots module still gets the game-agnostic ``random`` bot.
    """
    name, options = parse_bot(bot)
    try:
        player = make_bot(game, name, **options)
    except ValueError:
        if name != FALLBACK_BOT or FALLBACK_BOT in _registered(game):
            raise
        player = RandomBot()
    return player.choose(view, legal, random.Random(seed))


def _registered(game: str) -> list[str]:
    try:
        return bot_names(game)
    except ValueError:
        return []


class BotRunner:
    """Runs bot decisions in a pool of worker processes (started on the first decision).

    Args:
        workers: processes thinking at once (more tables than workers simply queue); 0 for
            two threads of this process instead.
        delay: seconds a bot waits before acting, so that people can follow the game.
    """

    def __init__(self, workers: int = 2, delay: float = 0.0) -> None:
        self.delay = delay
        self._executor: Executor
        if workers > 0:
            # Spawned, not forked: this process runs threads and an event loop.
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(max_workers=workers, mp_context=context)
            # Start a worker now, not at a bot's first move: its imports take a second or more,
            # which would hold up a table taken over from a process that died.
            self._executor.submit(_ready)
        else:
            self._executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="otherside-bot")

    async def choose(
        self, game: str, bot: str, view: Mapping[str, Any], legal: Sequence[Action], seed: int
    ) -> Action:
        """The action bot ``bot`` chooses, computed in a worker process."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._executor, choose_action, game, bot, view, legal, seed
        )

    def close(self) -> None:
        """Stop the workers (a decision in progress is let finish)."""
        self._executor.shutdown(wait=False, cancel_futures=True)


def _ready() -> None:
    """Nothing: run once in a new worker so that it has imported this module (and the games
    and bots with it) before the first bot thinks there."""
