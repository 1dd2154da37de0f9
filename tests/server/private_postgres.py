"""A PostgreSQL cluster of a test's own, that the test may stop and start again (a database
outage): ``initdb`` in a temporary folder, ``pg_ctl`` on a free loopback port, run as the
``postgres`` user when the tests run as root (as ``scripts/test`` does)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

from tests.server.processes import free_port

POSTGRES_ENV = "OTHERSIDE_TEST_POSTGRES_URL"


def _bin() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
    return found[-1].parent if found else None


class PrivatePostgres:
    """One throwaway cluster: :meth:`stop` (fast shutdown: every connection cut) and
    :meth:`start` again on the same port and data."""

    def __init__(self, bindir: Path, folder: Path, port: int) -> None:
        self.bindir, self.folder, self.port = bindir, folder, port
        self.url = f"postgresql+psycopg://otherside@127.0.0.1:{port}/postgres"

    def _run(self, *args: str) -> None:
        command = [str(self.bindir / args[0]), *args[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=60)

    def init(self) -> None:
        """Make the cluster (user ``otherside``, trust on loopback)."""
        self._run("initdb", "-D", str(self.folder / "data"), "-U", "otherside", "--auth=trust")

    def start(self) -> None:
        """Start it and wait until it takes connections."""
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = str(self.folder / "log")
        self._run(
            "pg_ctl", "-D", str(self.folder / "data"), "-l", log, "-w", "-o", options, "start"
        )

    def stop(self) -> None:
        """Stop it (``-m fast``: sessions are cut, as in a restart of the database)."""
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "fast", "-w", "stop")


@contextmanager
def private_postgres() -> Iterator[PrivatePostgres]:
    """A running private cluster, removed afterwards (a skip without PostgreSQL tests)."""
    bindir = _bin()
    if not os.environ.get(POSTGRES_ENV) or bindir is None:
        pytest.skip(f"{POSTGRES_ENV} is not set or PostgreSQL is not installed")
    folder = Path(tempfile.mkdtemp(prefix="otherside-outage-"))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    cluster = PrivatePostgres(bindir, folder, free_port())
    try:
        cluster.init()
        cluster.start()
        yield cluster
    finally:
        with suppress(subprocess.CalledProcessError):
            cluster._run("pg_ctl", "-D", str(folder / "data"), "-m", "immediate", "stop")
        shutil.rmtree(folder, ignore_errors=True)
