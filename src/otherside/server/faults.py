"""Named moments at which a test may stop a real server process: killed there with SIGKILL
(``kill -9``, as a crash would), or held there until the test lets it go on.

A test sets, in the environment of the process it starts,
``OTHERSIDE_TEST_CRASH_AT=<moment>`` or ``OTHERSIDE_TEST_HOLD_AT=<moment>=<path>`` (the process
waits at the moment until the file ``path`` exists). Without them a moment costs one lookup in
the environment: the server's own behaviour never depends on this module. The moments are few
and named where they are passed: a crash or a race between two writes can only be tested
against a real process by stopping it exactly there.
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

CRASH_AT = "OTHERSIDE_TEST_CRASH_AT"
HOLD_AT = "OTHERSIDE_TEST_HOLD_AT"
HOLD_POLL = 0.02  # seconds between two looks for the file that lets a held process go on


async def moment(name: str) -> None:
    """The process passes the moment ``name``: killed here, or held here, if a test asked."""
    if os.environ.get(CRASH_AT) == name:
        os.kill(os.getpid(), signal.SIGKILL)
    held, _, path = os.environ.get(HOLD_AT, "").partition("=")
    if held == name and path:
        # Real time, not the server's clock: the test, outside, creates the file.
        while not Path(path).exists():
            await asyncio.sleep(HOLD_POLL)
