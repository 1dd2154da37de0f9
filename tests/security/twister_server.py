"""A real ``otherside serve`` whose game randomness comes from one seeded Mersenne Twister, as
the old server's did before issue 31: the control of the generator-recovery attack.

The process is the ordinary command (``otherside serve`` with the same arguments as
:class:`tests.server.processes.Server`), started by a few lines that first put a
``random.Random`` with a known seed where :mod:`otherside.server.tables.entropy` reads
:mod:`secrets`. Nothing in the server knows of it; only the test's own launcher does.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from otherside.testing.servers import HOST, LIFTED_LIMITS, free_port, kill_group, wait_healthy
from tests.server.processes import SRC

LAUNCHER = """
import random
import sys

from otherside.server.tables import entropy


class OldSource:
    # What the old server drew from: one generator for every seed, seat and bot decision.
    def __init__(self, seed):
        self.rng = random.Random(seed)

    def randbits(self, bits):
        return self.rng.getrandbits(bits)

    def randbelow(self, n):
        return self.rng.randrange(n)


entropy.secrets = OldSource(int(sys.argv[1]))
sys.argv = ["otherside", *sys.argv[2:]]
from otherside.cli.main import main

main()
"""


class TwisterServer:
    """Where a started twister server answers (``url``, ``port``), as a ``Server`` says it."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.url = f"http://{HOST}:{port}"


@contextlib.contextmanager
def twister_server(
    database: str, seed: int, *extra: str, bot_delay: float, log: Path
) -> Iterator[TwisterServer]:
    """``otherside serve`` on ``database`` drawing from ``random.Random(seed)``, with ``extra``
    arguments, bots waiting ``bot_delay`` seconds and its output in ``log``; killed (``kill
    -9``, with everything it started) after the block."""
    port = free_port()
    args = [
        *("serve", "--host", HOST, "--port", str(port), "--database", database),
        *("--bot-delay", str(bot_delay), "--log-level", "warning"),
        *(arg for limit in LIFTED_LIMITS for arg in ("--limit", limit)),
        *extra,
    ]
    with log.open("ab") as out:
        process = subprocess.Popen(
            [sys.executable, "-c", LAUNCHER, str(seed), *args],
            env={**os.environ, "PYTHONPATH": str(SRC)},
            stdout=out,
            stderr=out,
            start_new_session=True,
        )
    try:
        try:
            wait_healthy(f"http://{HOST}:{port}", [process])
        except RuntimeError as exc:
            raise RuntimeError(f"{exc}; its log:\n{log.read_text()[-4000:]}") from None
        yield TwisterServer(port)
    finally:
        kill_group(process)
