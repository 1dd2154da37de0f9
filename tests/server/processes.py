"""Real server processes for the tests: ``Server(database, port, *extra, bot_delay=0.0,
wait=True)`` is :class:`otherside.testing.servers.ServerProcess` (on a free loopback port, the
per-address limits lifted, its log in a file that a failing start prints, stopped — or killed
with ``kill -9``, with every process it started — by the test), shared with the benchmarks."""

from __future__ import annotations

from otherside.testing.servers import KEEP_IDLE_SECONDS, REQUEST_SECONDS, free_port
from otherside.testing.servers import SOURCE as SRC
from otherside.testing.servers import ServerProcess as Server

__all__ = ["KEEP_IDLE_SECONDS", "REQUEST_SECONDS", "SRC", "Server", "free_port"]
