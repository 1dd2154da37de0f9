"""Processes that end with the process that started them.

A child of the server — a bot worker, a uvicorn worker of ``otherside serve --workers N`` —
must not outlive it, even when the server is killed with ``kill -9`` and can clean nothing up.
Linux re-parents an orphan (to init or a subreaper), so a thread that sees its parent's id
change knows the parent is gone.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable

WATCH_SECONDS = 0.2


def watch_parent(parent: int, gone: Callable[[], None]) -> threading.Thread:
    """Call ``gone`` (in a daemon thread) as soon as this process's parent is no longer
    ``parent``; at once if it already is not."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_SECONDS)
        gone()

    thread = threading.Thread(target=watch, name="otherside-lifeline", daemon=True)
    thread.start()
    return thread
