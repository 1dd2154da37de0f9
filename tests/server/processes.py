"""Real server processes for the tests: ``otherside serve`` started on a free loopback port, its
log kept in a file (printed by a failing test), stopped — or killed with ``kill -9``, with every
process it started (bot workers, uvicorn workers) — by the test."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

SRC = Path(__file__).resolve().parents[2] / "src"
STARTUP_SECONDS = 90  # a loaded CI machine starts slowly
# The tests make many guests and tables from one address.
GENEROUS = ("guests_per_address=100000", "tables_per_address=100000", "tables_per_user=100000")


def free_port() -> int:
    """A TCP port free on loopback now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """``otherside serve`` on ``port`` with ``database``, in a session of its own."""

    def __init__(
        self, database: str, port: int, *extra: str, bot_delay: float = 0.0, wait: bool = True
    ) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        limits = [arg for limit in GENEROUS for arg in ("--limit", limit)]
        args = [
            sys.executable,
            "-m",
            "otherside",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--database",
            database,
            "--bot-delay",
            str(bot_delay),
            *limits,
            "--log-level",
            "info",
            *extra,
        ]
        descriptor, self.log_path = tempfile.mkstemp(prefix="otherside-serve-", suffix=".log")
        with os.fdopen(descriptor, "wb") as log:
            self.process = subprocess.Popen(
                args,
                env={**os.environ, "PYTHONPATH": str(SRC)},
                stdout=log,
                stderr=log,
                start_new_session=True,
            )
        if wait:
            self.wait_up()

    @property
    def pid(self) -> int:
        """The server's process id."""
        return self.process.pid

    def log(self) -> str:
        """The end of what the server printed."""
        return Path(self.log_path).read_text(errors="replace")[-6000:]

    def wait_up(self) -> None:
        """Wait until the server answers its health check."""
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited:\n{self.log()}")
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        self.kill()
        raise RuntimeError(f"the server did not start:\n{self.log()}")

    def kill(self) -> None:
        """``kill -9`` the server and every process it started."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        Path(self.log_path).unlink(missing_ok=True)
