"""The zygote the tests' servers are forked from (:mod:`otherside.testing.zygote`): process ids
come round again, and a server forked with the id of one that ended earlier is not taken for
ended (its status, written by the zygote when the earlier one ended, would say so)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from otherside.server.store.db import sqlite_url
from otherside.testing import servers
from otherside.testing.servers import ServerProcess, status_path

AHEAD = 3000  # the process ids taken next on this machine (a few minutes of a busy one)


def test_a_server_forked_with_the_id_of_an_ended_one_is_not_taken_for_ended(
    tmp_path: Path,
) -> None:
    folder = servers._the_zygote().folder
    # Ids are handed out in turn: the next server gets one of the next few, each of which an
    # earlier server of this zygote may have had (its status says it was killed).
    probe = subprocess.Popen(["true"])
    probe.wait()
    stale = [status_path(folder, probe.pid + n) for n in range(1, AHEAD)]
    for path in stale:
        path.write_text("-9")
    try:
        server = ServerProcess(sqlite_url(tmp_path / "otherside.db"))  # healthy, or it raises
        assert server.running() and 0 < server.pid - probe.pid < AHEAD
        server.kill()
        assert server.process.poll() == -9  # its own end is told as before
    finally:
        for path in stale:
            path.unlink(missing_ok=True)
