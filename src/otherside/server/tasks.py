"""Waiting for a background task that was told to stop.

A loop's ``stop()`` cancels its task and waits for it to end. The task ends with its own
``CancelledError``, which the stopper expects and swallows. But the stopper may be cancelled
itself while it waits (a shutdown that times out, a request that goes away). Then the same
exception is the stopper's own, and swallowing it makes the stopper go on as if nothing had
happened. That loses a cancellation, as ``asyncio.wait_for`` did on Python 3.11.

:func:`reap` tells the two apart by ``Task.cancelling()``: the stopper's own cancellation
goes on, and only the stopped task's is swallowed. :func:`unawaited` sees the failure of a
future whose waiters may all have gone.
"""

from __future__ import annotations

import asyncio
from typing import Any


async def reap(task: asyncio.Future[Any] | None, *errors: type[Exception]) -> None:
    """Wait for ``task`` (cancelled, or about to end) to end.

    Its ``CancelledError`` is swallowed, and so are its ``errors``. A cancellation of the task
    that waits is raised again.

    >>> async def main() -> str:
    ...     sleeper = asyncio.ensure_future(asyncio.sleep(60))
    ...     sleeper.cancel()
    ...     await reap(sleeper)
    ...     return "ended"
    >>> asyncio.run(main())
    'ended'
    """
    if task is None:
        return
    try:
        await task
    except asyncio.CancelledError:
        me = asyncio.current_task()
        if me is not None and me.cancelling():
            raise
    except errors:
        pass


async def cancel(task: asyncio.Future[Any] | None, *errors: type[Exception]) -> None:
    """Cancel ``task`` and :func:`reap` it."""
    if task is not None:
        task.cancel()
        await reap(task, *errors)


def unawaited(future: asyncio.Future[Any]) -> None:
    """A done callback for a future nobody may wait for any more (its waiters gone): its
    failure is seen here, so that asyncio does not log "exception was never retrieved"."""
    if not future.cancelled():
        future.exception()
