"""A real ``otherside serve`` whose game randomness comes from one seeded Mersenne Twister, as
the old server's did before issue 31: the control of the generator-recovery attack.

The process is the ordinary command (``otherside serve`` with the same arguments as
:class:`tests.server.processes.Server`), started by a few lines that first put a
``random.Random`` with a known seed where :mod:`otherside.server.tables.entropy` reads
:mod:`secrets`. Nothing in the server knows of it; only the test's own launcher does.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path

from otherside.testing.servers import ServerProcess

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


@contextlib.contextmanager
def twister_server(
    database: str, seed: int, *extra: str, bot_delay: float, log: Path
) -> Iterator[ServerProcess]:
    """``otherside serve`` on ``database`` drawing from ``random.Random(seed)``, with ``extra``
    arguments, bots waiting ``bot_delay`` seconds and its output in ``log``: the tests' own
    :class:`~otherside.testing.servers.ServerProcess` with this module's launcher; killed
    (``kill -9``, with everything it started) after the block."""
    server = ServerProcess(
        database,
        None,
        *extra,
        bot_delay=bot_delay,
        log_level="warning",
        log=log,
        launcher=(sys.executable, "-c", LAUNCHER, str(seed)),
    )
    try:
        yield server
    finally:
        server.kill()
