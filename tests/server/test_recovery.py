"""No table freezes on a failure: a bot's move that could not be stored is tried again (and the
table restarted from the store) until the game goes on; a catch-up with another process's
change that fails is tried again until it succeeds; ``sync`` answers from the store (from a
read begun since it was asked, or since its connection opened if it is its first message). Two hubs
on one store in memory stand for two server processes on one database."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from otherside.server.bots.workers import BotRunner
from otherside.server.clock import ManualClock
from otherside.server.cluster.catch_up import Refresh
from otherside.server.live.inbox import handle
from otherside.server.store.memory import MemoryTableStore
from otherside.server.store.records import Held, TableInfo
from otherside.server.tables import seating
from otherside.server.tables.hub import TableHub
from otherside.server.tables.live import LiveTable, ticket
from otherside.server.tables.play import Play
from tests.server.conftest import ADA, BOB, Recorder, eventually, play_out

WAIT = 20.0


class FlakyStore(MemoryTableStore):
    """A store whose next writes of a bot's move, or next reads of a table, fail (the database
    away for a moment)."""

    def __init__(self) -> None:
        super().__init__()
        self.bot_writes_to_fail = 0
        self.reads_to_fail = 0
        self.failed = 0
        self.reads = 0  # reads of a table's row
        self.gate: asyncio.Event | None = None  # when set up, reads of a table wait for it

    def _fail(self) -> None:
        self.failed += 1
        raise OperationalError("SELECT 1", {}, Exception("connection refused"))

    async def _read(self) -> None:
        self.reads += 1
        if self.gate is not None:
            await self.gate.wait()
        if self.reads_to_fail > 0:
            self.reads_to_fail -= 1
            self._fail()

    async def table(self, table_id: str) -> TableInfo | None:
        await self._read()
        return await super().table(table_id)

    async def held(self, table_id: str) -> Held | None:
        await self._read()
        return await super().held(table_id)

    async def move(self, info: TableInfo, seat: int, *args: Any, **kwargs: Any) -> Any:
        if self.bot_writes_to_fail > 0 and info.seats[seat].bot is not None:
            self.bot_writes_to_fail -= 1
            self._fail()
        return await super().move(info, seat, *args, **kwargs)


@pytest.fixture
async def store() -> FlakyStore:
    return FlakyStore()


@pytest.fixture
async def hubs(store: FlakyStore) -> AsyncIterator[tuple[TableHub, TableHub]]:
    runner = BotRunner(workers=0)
    clock = ManualClock()
    made = (TableHub(None, runner, clock, store=store), TableHub(None, runner, clock, store=store))
    try:
        yield made
    finally:
        for hub in made:
            await hub.close()
        await runner.close()


async def test_a_bot_move_that_could_not_be_stored_is_tried_again(
    hubs: tuple[TableHub, TableHub], store: FlakyStore
) -> None:
    hub = hubs[0]
    table = (await seating.create(hub, ADA, "nim", 2, {})).id
    store.bot_writes_to_fail = 2
    await hub.ask(table, seating.Fill(ADA, "random"))
    live = await play_out(hub, table, ADA)
    # Both failures happened (each a refusal that changed nothing), and the bot played on to
    # the end of the game rather than stop for good.
    assert store.failed == 2
    assert live.info.status == "over"
    _, moves = await store.moves(table)
    assert len(moves) == live.info.version
    assert any(live.info.seats[move.seat].bot for move in moves)


async def _started_there(there: TableHub) -> str:
    """A game of Ada and Bob started through ``there``."""
    table = (await seating.create(there, ADA, "verso", 2, {"first_player": 0})).id
    await there.ask(table, seating.Join(BOB))
    await there.ask(table, seating.Start(ADA))
    return table


async def _two_processes(hubs: tuple[TableHub, TableHub]) -> tuple[str, LiveTable, Recorder]:
    """A game of Ada and Bob played through the second hub, watched through the first."""
    here, there = hubs
    table = await _started_there(there)
    watcher = Recorder(BOB)
    live = await here.attach(table, watcher)
    assert live.info.version == 0
    await there.ask(table, Play(ADA, 0, "flip"))
    return table, live, watcher


async def test_a_failed_catch_up_is_tried_again_until_it_succeeds(
    hubs: tuple[TableHub, TableHub], store: FlakyStore
) -> None:
    here = hubs[0]
    table, live, watcher = await _two_processes(hubs)
    store.reads_to_fail = 3
    await here.catch_up.on_remote({"kind": "move", "table": table, "node": "there"})
    await eventually(lambda: live.info.version == 1, WAIT)
    assert store.failed == 3
    assert watcher.last("view")["version"] == 1


async def test_sync_answers_from_the_store(hubs: tuple[TableHub, TableHub]) -> None:
    here = hubs[0]
    _table, live, watcher = await _two_processes(hubs)
    # No notification reached this process: it still shows version 0 until asked.
    assert live.info.version == 0
    await handle(here, live, watcher, '{"type": "sync"}')
    assert watcher.last("view")["version"] == 1 and watcher.last("view")["legal"]


async def test_a_sync_read_from_the_store_before_the_connection_opened_is_read_again(
    hubs: tuple[TableHub, TableHub], store: FlakyStore
) -> None:
    here = hubs[0]
    _table, live, watcher = await _two_processes(hubs)
    # The table was read here at version 0, before this connection; the move since never
    # reached this process. A sync as the connection's first message reads the store.
    opened, reads = ticket(), store.reads
    await handle(here, live, watcher, '{"type": "sync"}', opened)
    assert store.reads == reads + 1
    assert watcher.last("view")["version"] == 1


async def test_a_sync_on_a_new_connection_is_answered_by_the_load_it_caused(
    hubs: tuple[TableHub, TableHub], store: FlakyStore
) -> None:
    # A process died and its players come here, each connection's first message a sync: the
    # table's load for the connection, begun after it opened, is the table as stored.
    here, there = hubs
    table = await _started_there(there)
    await there.ask(table, Play(ADA, 0, "flip"))
    opened = [ticket(), ticket()]  # Ada's and Bob's connections, opened at once
    ada, bob = Recorder(ADA), Recorder(BOB)
    live = await here.attach(table, ada)
    await here.attach(table, bob)
    reads = store.reads
    for watcher, since in zip((ada, bob), opened, strict=True):
        await handle(here, live, watcher, '{"type": "sync"}', since)
        assert watcher.last("view")["version"] == 1
    assert store.reads == reads


async def test_a_sync_on_a_new_connection_reads_again_after_a_change_heard_since_the_load(
    hubs: tuple[TableHub, TableHub], store: FlakyStore
) -> None:
    here, there = hubs
    table = await _started_there(there)
    opened = ticket()
    bob = Recorder(BOB)
    live = await here.attach(table, bob)  # loaded for this connection, at version 0
    await there.ask(table, Play(ADA, 0, "flip"))
    # Bob's sync comes just as this process is told of a change it cannot apply from the
    # message, before its catch-up: what is held here is behind, though it was read after the
    # connection opened, and the sync reads (waiting at the gate) rather than answer at once.
    store.gate = asyncio.Event()
    told = len(bob.messages)
    sync = asyncio.create_task(handle(here, live, bob, '{"type": "sync"}', opened))
    await here.catch_up.on_remote({"kind": "seated", "table": table, "node": "there"})
    await asyncio.sleep(0.05)
    store.gate.set()
    await sync
    answers = [m for m in bob.messages[told:] if m["type"] == "view"]
    assert answers and answers[0]["version"] == 1


async def test_syncs_asked_while_a_read_waits_are_answered_by_it(
    hubs: tuple[TableHub, TableHub], store: FlakyStore
) -> None:
    here = hubs[0]
    table, live, _watcher = await _two_processes(hubs)
    reads = store.reads
    # Asked together (no connection just opened): the first read answers both.
    await asyncio.gather(*(here.ask(table, Refresh(since=ticket())) for _ in range(2)))
    assert store.reads == reads + 1 and live.info.version == 1
    # Asked after that read began: read again.
    await here.ask(table, Refresh(since=ticket()))
    assert store.reads == reads + 2


async def test_a_move_sent_again_after_it_was_applied_answers_with_the_table(
    hubs: tuple[TableHub, TableHub],
) -> None:
    here = hubs[0]
    table, live, _watcher = await _two_processes(hubs)
    await here.ask(table, Refresh())
    ada = Recorder(ADA)
    await here.attach(table, ada)
    ada.clear()
    # Ada's "flip" at version 0 was applied (through the other process); her page, which
    # never heard back, sends it again: no error, the table as it stands.
    await handle(here, live, ada, json.dumps({"type": "action", "version": 0, "action": "flip"}))
    assert [m["type"] for m in ada.messages] == ["table", "view"]
    assert ada.last("view")["version"] == 1 and live.info.version == 1
    _, moves = await here.services.store.moves(table)
    assert len(moves) == 1
    # Another action at that old version is still refused as stale.
    ada.clear()
    await handle(here, live, ada, json.dumps({"type": "action", "version": 0, "action": "pass"}))
    assert ada.messages[0]["type"] == "error"
    assert ada.messages[0]["code"] in ("stale", "not_your_turn")
