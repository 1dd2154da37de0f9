"""Waiting until every other server process has acted on an announcement.

Some announcements must have been acted on everywhere before the request that made them
answers: once a sign-out has answered, no socket of that session may still play a move in
another process. Such an announcement carries an ``ask`` id; each process that hears it acts
on it and then sends a ``receipt`` with that id. The asking process counts the receipts
against the number of processes alive (their liveness locks, :mod:`.liveness`) and waits for
all of them, at most a couple of seconds: a process whose notification connection is down
reads every session from the database again when it comes back (``resync``).
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

RECEIPT = "receipt"
WAIT_SECONDS = 2.0
KEPT = 1000  # asks kept at most (one whose announcement failed is never waited for)


class Receipts:
    """The receipts this process waits for, by ``ask`` id."""

    def __init__(self) -> None:
        self._heard: dict[str, set[str]] = {}
        self._changed = asyncio.Event()

    def ask(self) -> str:
        """A new ``ask`` id whose receipts are kept from now on."""
        ask = secrets.token_hex(8)
        if len(self._heard) >= KEPT:
            self._heard.pop(next(iter(self._heard)))
        self._heard[ask] = set()
        return ask

    def hear(self, message: dict[str, Any]) -> None:
        """Count a receipt (one per process; receipts for nothing asked are ignored).

        >>> receipts = Receipts()
        >>> ask = receipts.ask()
        >>> receipts.hear({"kind": "receipt", "ask": ask, "node": "b"})
        >>> receipts.hear({"kind": "receipt", "ask": ask, "node": "b"})
        >>> receipts.hear({"kind": "receipt", "ask": "other", "node": "c"})
        >>> receipts.count(ask)
        1
        """
        nodes = self._heard.get(str(message.get("ask")))
        if nodes is not None:
            nodes.add(str(message.get("node")))
            self._changed.set()

    def count(self, ask: str) -> int:
        """How many processes have sent a receipt for ``ask``."""
        return len(self._heard.get(ask, ()))

    async def wait(self, ask: str, others: int, seconds: float = WAIT_SECONDS) -> bool:
        """Wait until ``others`` processes have sent a receipt for ``ask`` (``True``), or
        ``seconds`` have passed (``False``); the receipts for ``ask`` are forgotten after."""
        loop = asyncio.get_running_loop()
        until = loop.time() + seconds
        try:
            while self.count(ask) < others:
                left = until - loop.time()
                if left <= 0:
                    return False
                self._changed.clear()
                try:
                    async with asyncio.timeout(left):
                        await self._changed.wait()
                except TimeoutError:
                    return self.count(ask) >= others
            return True
        finally:
            self._heard.pop(ask, None)
