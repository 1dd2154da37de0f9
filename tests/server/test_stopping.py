"""A server process's loops stop when asked, even at the instant they wake.

On Python 3.11, ``asyncio.wait_for`` loses a cancellation that arrives in the same turn of the
event loop as the awaited thing finishes (CPython gh-86296; rewritten in 3.12): it returns the
result instead of raising, the loop around it goes on, and a ``stop()`` that cancels it and
awaits it waits for ever. A test's app on PostgreSQL hung 300 s in its shutdown, its event loop
waking once a second as the cluster's loops do (which loop was not caught). The server's loops
now wait with ``asyncio.timeout``, which has no such gap.

The other way round, a ``stop()`` that swallows every ``CancelledError`` of the loop it waits
for also swallows its own, when it is cancelled while it waits: the stoppers now use
:func:`otherside.server.tasks.reap`.
"""

from __future__ import annotations

import ast
import asyncio
from datetime import UTC, datetime
from pathlib import Path

import pytest

from otherside.server.cluster.liveness import LivenessLock
from otherside.server.cluster.peers import CHANNEL, _psycopg_url, node_name
from otherside.server.cluster.presence import Presence
from otherside.server.store.db import Database
from otherside.server.tasks import cancel, reap

SRC = Path(__file__).resolve().parents[2] / "src" / "otherside"


@pytest.mark.postgres
@pytest.mark.parametrize("turns", [0, 1, 2, 3])
async def test_presence_stops_when_told_of_a_player_in_the_same_turn(
    database: str, turns: int
) -> None:
    # A clean shutdown: the hub lets its sockets go (each a "went" for presence, waking its
    # writer), then the cluster stops presence. With ``wait_for``, a stop in the same turn as
    # the wake-up never ended.
    db = Database(database)
    db.migrate()
    node = node_name()
    lock = LivenessLock(_psycopg_url(database), node)
    await lock.start()
    presence = Presence(db, node, lock, CHANNEL)
    try:
        presence.start()
        await asyncio.sleep(0.05)  # the writer waits for a change
        now = datetime.now(UTC)
        presence.tell("a-table", 1, False, now)
        for _ in range(turns):
            await asyncio.sleep(0)
        stopping = asyncio.create_task(presence.stop(now))
        # Waited for without cancelling it (a cancel would reach the writer a second time).
        done, _ = await asyncio.wait({stopping}, timeout=5)
        assert stopping in done, "stop() did not end: the writer swallowed its cancellation"
        assert not _running("otherside-presence"), "the writer goes on after stop()"
    finally:
        for task in _running("otherside-presence"):
            task.cancel()
        await lock.stop()
        db.close()


def _running(name: str) -> list[asyncio.Task[object]]:
    return [t for t in asyncio.all_tasks() if t.get_name() == name and not t.done()]


def test_no_server_code_waits_with_asyncio_wait_for() -> None:
    # The same gap in any loop that is cancelled to stop; the server targets Python 3.11.
    found = [
        f"{path.relative_to(SRC)}:{node.lineno}"
        for path in sorted(SRC.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(), str(path)))
        if isinstance(node, ast.Attribute)
        and node.attr == "wait_for"
        and isinstance(node.value, ast.Name)
        and node.value.id == "asyncio"
    ]
    assert not found, f"asyncio.wait_for in {found}: use `async with asyncio.timeout(...)`"


async def _stop_slowly(stopped: asyncio.Event) -> None:
    # A loop that, cancelled, takes a moment to end (it lets go of what it holds).
    try:
        await asyncio.sleep(60)
    except asyncio.CancelledError:
        await stopped.wait()
        raise


@pytest.mark.parametrize("errors", [(), (Exception,)])
async def test_a_stopper_cancelled_while_it_waits_is_cancelled(
    errors: tuple[type[Exception], ...],
) -> None:
    # A stop() cancelled while it waits for its loop to end (a shutdown given up): the old
    # ``suppress(CancelledError)`` swallowed the stopper's own cancellation with the loop's, and
    # the stopper went on.
    stopped = asyncio.Event()
    loop = asyncio.create_task(_stop_slowly(stopped))
    await asyncio.sleep(0)
    went_on = []

    async def stop() -> None:
        await cancel(loop, *errors)
        went_on.append(True)

    stopper = asyncio.create_task(stop())
    await asyncio.sleep(0.01)
    assert not stopper.done()
    stopper.cancel()
    stopped.set()
    with pytest.raises(asyncio.CancelledError):
        await stopper
    assert went_on == [] and loop.cancelled()


async def test_a_stopper_not_cancelled_goes_on_once_its_loop_ends() -> None:
    stopped = asyncio.Event()
    loop = asyncio.create_task(_stop_slowly(stopped))
    await asyncio.sleep(0)
    stopper = asyncio.create_task(cancel(loop))
    await asyncio.sleep(0.01)
    assert not stopper.done(), "the stopper did not wait for its loop"
    stopped.set()
    await stopper
    assert loop.cancelled()


async def test_reap_swallows_only_the_errors_it_is_given() -> None:
    async def fails() -> None:
        raise ValueError("broken")

    failed = asyncio.create_task(fails())
    await asyncio.sleep(0)
    await reap(failed, ValueError)
    again = asyncio.create_task(fails())
    await asyncio.sleep(0)
    with pytest.raises(ValueError):
        await reap(again)


def test_no_server_code_swallows_a_cancellation_blindly() -> None:
    found = [
        f"{path.relative_to(SRC)}:{number}"
        for path in sorted(SRC.rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if "suppress(asyncio.CancelledError" in line.replace(" ", "")
        or "suppress(CancelledError" in line.replace(" ", "")
    ]
    assert not found, f"suppress(CancelledError) in {found}: use otherside.server.tasks.reap"
