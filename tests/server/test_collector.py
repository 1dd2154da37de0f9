"""A serving process sets its garbage collector once (in a process of its own here, since the
setting is the whole process's)."""

from __future__ import annotations

import json
import subprocess
import sys

from otherside.server import collector


def test_settling_freezes_what_is_alive_and_collects_the_young_less_often() -> None:
    script = (
        "import gc, json; from otherside.server import collector; before = gc.get_threshold();"
        " collector.settle();"
        " print(json.dumps([before, gc.get_threshold(), gc.get_freeze_count()]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    before, after, frozen = json.loads(done.stdout)
    assert after == [collector.YOUNG, before[1], before[2]] and before[0] < collector.YOUNG
    assert frozen > 1000  # the modules imported so far are out of the collector's sight
