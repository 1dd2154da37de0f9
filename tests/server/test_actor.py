"""One owner per live table: its actor runs the table's commands one at a time in the order they
came, answers each caller with its result or its error, and goes on after a failure. Run on the
hub with the store in memory (no database): whole games in milliseconds."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field, replace
from datetime import timedelta

import pytest

from otherside.server.clock import ManualClock
from otherside.server.live.inbox import handle
from otherside.server.store.memory import MemoryTableStore
from otherside.server.tables import seating
from otherside.server.tables.chat import Say
from otherside.server.tables.deadlines import on_deadline
from otherside.server.tables.errors import Refused
from otherside.server.tables.forfeits import Resign
from otherside.server.tables.hub import TableHub
from otherside.server.tables.live import LiveTable
from otherside.server.tables.play import Play
from otherside.server.tables.services import Services
from tests.server.conftest import ADA, BOB, Recorder, play_out


@dataclass
class Note:
    """A command that writes down when it starts and ends, awaiting in between."""

    name: str
    log: list[str]
    fail: bool = False

    async def run(self, live: LiveTable, services: Services) -> str:
        self.log.append(f"{self.name}+")
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        self.log.append(f"{self.name}-")
        if self.fail:
            raise ValueError(f"{self.name} failed")
        return self.name


@dataclass
class Cut:
    """A command whose awaited work is cancelled by someone else."""

    async def run(self, live: LiveTable, services: Services) -> None:
        work = asyncio.ensure_future(asyncio.sleep(10))
        asyncio.get_running_loop().call_soon(work.cancel)
        await work


@dataclass
class Wait:
    """A command that holds the table until it is let go."""

    gate: asyncio.Event = field(default_factory=asyncio.Event)

    async def run(self, live: LiveTable, services: Services) -> None:
        await self.gate.wait()


@dataclass
class AskMyself:
    """A command that asks its own table for something (it would wait for itself)."""

    async def run(self, live: LiveTable, services: Services) -> None:
        await services.ask(live.id, Note("inner", []))


@dataclass
class Botch:
    """A command that fails half-way, leaving the table in memory wrong."""

    async def run(self, live: LiveTable, services: Services) -> None:
        live.info = replace(live.info, version=live.info.version + 99)
        live.state = None
        raise RuntimeError("half-way")


async def _table(hub: TableHub, game: str = "nim") -> str:
    return (await seating.create(hub, ADA, game, 2, {})).id


async def test_commands_run_one_at_a_time_in_the_order_they_came(hub: TableHub) -> None:
    actor = await hub.actor(await _table(hub))
    log: list[str] = []
    answers = await asyncio.gather(*(actor.ask(Note(str(n), log)) for n in range(4)))
    assert answers == ["0", "1", "2", "3"]
    assert log == ["0+", "0-", "1+", "1-", "2+", "2-", "3+", "3-"]


async def test_a_failed_command_answers_its_caller_and_the_table_goes_on(hub: TableHub) -> None:
    table = await _table(hub)
    log: list[str] = []
    first = asyncio.ensure_future(hub.ask(table, Note("a", log, fail=True)))
    second = asyncio.ensure_future(hub.ask(table, Note("b", log)))
    with pytest.raises(ValueError, match="a failed"):
        await first
    assert await second == "b"
    with pytest.raises(RuntimeError, match="was cut"):
        await hub.ask(table, Cut())
    assert await hub.ask(table, Note("c", log)) == "c"
    with pytest.raises(RuntimeError, match="asked its own actor"):
        await hub.ask(table, AskMyself())
    assert await hub.ask(table, Note("d", log)) == "d"


async def test_a_failure_half_way_restarts_the_table_from_the_store(hub: TableHub) -> None:
    table = await _table(hub, "verso")
    await hub.ask(table, seating.Join(BOB))
    await hub.ask(table, seating.Start(ADA))
    actor = await hub.actor(table)
    live = actor.live
    assert live.state is not None
    seat = live.info.to_move[0]
    mover = ADA if live.info.seats[seat].user_id == ADA.id else BOB
    await hub.ask(table, Play(mover, 0, str(live.state.legal_actions()[0])))
    before = live.state.to_record()
    watcher = Recorder(None)
    await hub.attach(table, watcher)
    # A refusal changed nothing: no restart.
    now_to_move = ADA if live.info.seats[live.info.to_move[0]].user_id == ADA.id else BOB
    with pytest.raises(Refused, match="for version 0"):
        await hub.ask(table, Play(now_to_move, 0, "flip"))
    assert actor.recoveries == 0
    with pytest.raises(RuntimeError, match="half-way"):
        await hub.ask(table, Botch())
    watcher.clear()
    log: list[str] = []
    assert await hub.ask(table, Note("after", log)) == "after"
    # Restarted from the store before the next command: as stored, and shown to the watchers.
    assert actor.recoveries == 1 and live.info.version == 1
    assert live.state is not None and live.state.to_record() == before
    assert watcher.last("view")["version"] == 1


async def test_a_command_its_caller_gave_up_on_before_it_ran_does_not_run(hub: TableHub) -> None:
    table = await _table(hub)
    hold = Wait()
    held = asyncio.ensure_future(hub.ask(table, hold))
    log: list[str] = []
    given_up = asyncio.ensure_future(hub.ask(table, Note("late", log)))
    await asyncio.sleep(0)
    given_up.cancel()
    hold.gate.set()
    await held
    assert await hub.ask(table, Note("next", log)) == "next"
    assert log == ["next+", "next-"]


async def test_a_table_nobody_holds_is_let_go_and_its_actor_stopped(hub: TableHub) -> None:
    table = await _table(hub)
    actor = await hub.actor(table)
    hold = Wait()
    held = asyncio.ensure_future(actor.ask(hold))
    await asyncio.sleep(0)
    # A waiting table this process is not playing: kept while a command runs, let go after.
    hub.forget_if_idle(actor.live)
    assert hub.loaded(table) is actor.live
    hold.gate.set()
    await held
    hub.forget_if_idle(actor.live)
    assert hub.loaded(table) is None
    with pytest.raises(RuntimeError, match="no longer held"):
        await actor.ask(Note("x", []))
    assert (await hub.actor(table)) is not actor  # loaded afresh from the store


async def test_a_table_let_go_while_a_caller_waited_for_its_load_is_loaded_again(
    hub: TableHub,
) -> None:
    table = await _table(hub)
    hub.forget_if_idle((await hub.actor(table)).live)
    assert hub.loaded(table) is None
    log: list[str] = []
    waiting = asyncio.ensure_future(hub.ask(table, Note("x", log)))
    await asyncio.sleep(0)  # the load has begun
    loading = hub.loading(table)
    assert loading is not None
    # Let go again as soon as it is loaded, before the caller's turn comes.
    loading.add_done_callback(lambda done: hub.forget_if_idle(done.result().live))
    assert await waiting == "x" and log == ["x+", "x-"]
    assert hub.loaded(table) is not None


async def test_a_whole_game_against_a_bot_without_a_database(hub: TableHub) -> None:
    table = await _table(hub)
    filled = await hub.ask(table, seating.Fill(ADA, "random"))
    assert filled.status == "playing"  # nobody left to wait for
    with pytest.raises(Refused) as refused:
        await hub.ask(table, seating.Join(BOB))
    assert refused.value.code == "seats_locked"
    ada = Recorder(ADA)
    live = await hub.attach(table, ada)
    await hub.ask(table, Say(ADA, "good luck"))
    assert await play_out(hub, table, ADA) is live
    assert live.info.status == "over" and live.info.outcome is not None
    assert ada.last("view")["version"] == live.info.version
    assert ada.last("chat")["lines"][-1]["text"] == "good luck"
    store = hub.services.store
    assert isinstance(store, MemoryTableStore)
    _, moves = await store.moves(table)
    assert len(moves) == live.info.version and store.record(table) is not None


async def test_resign_and_time_out_through_the_actor(hub: TableHub) -> None:
    table = await _table(hub, "verso")
    await hub.ask(table, seating.Join(BOB))
    await hub.ask(table, seating.Start(ADA))
    conn = Recorder(BOB)
    live = await hub.attach(table, conn)
    await handle(hub, live, conn, '{"type": "resign"}')
    assert live.info.status == "over" and live.info.seats[1].forfeit == "resigned"
    rematch = await seating.rematch(hub, table, ADA)
    await hub.ask(rematch.id, seating.Start(ADA))
    again = await hub.live(rematch.id)
    waited = again.info.waiting_on()
    assert waited is not None
    clock = hub.services.clock
    assert isinstance(clock, ManualClock)
    clock.advance(timedelta(minutes=11))
    assert await on_deadline(hub, rematch.id)
    # In a Verso game of two, a bot plays the seat of whoever ran out of time on.
    seat = again.info.seats[waited]
    assert (seat.forfeit, seat.bot) == ("timeout", again.adapter.replacement_bot())
    late = ADA if seat.user_id == ADA.id else BOB
    with pytest.raises(Refused, match="you gave up this seat"):
        await hub.ask(rematch.id, Resign(late))
