"""A move heard from another server process carries the move itself: a process holding the table
at the version before applies it as the owner did, with no database read; anything that does not
follow on (a version missed, an action the engine refuses here, a note without the move) is read
from the database instead.

Two apps on one SQLite file stand for two processes (``SoloCluster`` hears nothing by itself):
the test hands the second one the announcements, built as the store builds them, in the order
it chooses — a gap included. Between real processes on PostgreSQL: ``test_cluster.py``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi import FastAPI

from otherside.core.simultaneous import legal_actions_of
from otherside.server.cluster.catch_up import CatchUp
from otherside.server.cluster.moves import MOST_ACTION_CHARS, heard_move, move_note
from otherside.server.store.db import sqlite_url
from otherside.server.store.records import Timing
from otherside.server.tables.hub import TableHub
from otherside.server.tables.live import LiveTable
from otherside.server.tables.play import Play
from tests.server.conftest import (
    Player,
    Recorder,
    eventually,
    hub_of,
    people,
    running,
    table_with,
)


@pytest.fixture
async def apps(tmp_path: Any) -> AsyncIterator[tuple[FastAPI, FastAPI]]:
    url = sqlite_url(tmp_path / "shared.db")
    async with running(url) as first, running(url) as second:
        yield first, second


async def _move(hub: TableHub, table: str, players: list[Player]) -> dict[str, Any]:
    """The player to move plays their first legal action through ``hub``; the announcement of
    that move as the store makes it for the other processes."""
    live = await hub.live(table)
    assert live.state is not None
    seat = live.info.to_move[0]
    user = next(p.user for p in players if p.user.id == live.info.seats[seat].user_id)
    action = str(legal_actions_of(live.state, seat)[0])
    await hub.ask(table, Play(user, live.info.version, action))
    return _note(live, seat, action)


def _note(live: LiveTable, seat: int, action: str) -> dict[str, Any]:
    info = live.info
    assert info.updated_at is not None
    plan = Timing(
        info.to_move,
        info.turn_started_at,
        info.deadline_at,
        info.reminded_at,
        {s.seat: s.time_left_ms for s in info.seats},
    )
    fields = move_note(info.version, seat, action, plan, info.updated_at)
    return {"table": info.id, "kind": "move", "node": "the other", **fields}


async def _heard(catch_up: CatchUp, note: dict[str, Any]) -> dict[str, int]:
    """Hand ``note`` to ``catch_up`` and wait for its work (in tasks of the hub's) to end."""
    before = catch_up.counts()
    await catch_up.on_remote(note)
    await eventually(lambda: catch_up.counts() != before)
    return {k: v - before[k] for k, v in catch_up.counts().items()}


@dataclass
class Followed:
    """Ada and Bob's game, played on the first process and held, watched by Bob, on the
    second, which hears of each move only from the notes the test hands its catch-up."""

    owner: TableHub
    players: list[Player]
    played: LiveTable
    held: LiveTable
    watcher: Recorder
    catch_up: CatchUp

    async def move(self) -> dict[str, Any]:
        """The next move, played on the first process; its note for the others."""
        return await _move(self.owner, self.played.id, self.players)

    def same_game(self) -> bool:
        """Whether the second process holds the game the first one played."""
        assert self.held.state is not None and self.played.state is not None
        return self.held.state.to_record() == self.played.state.to_record()


@pytest.fixture
async def followed(apps: tuple[FastAPI, FastAPI]) -> Followed:
    first, second = apps
    ada, bob = await people(first, 2)
    table = await table_with(first, [ada, bob])
    watcher = bob.recorder()
    held = await hub_of(second).attach(table, watcher)
    owner = hub_of(first)
    return Followed(
        owner, [ada, bob], await owner.live(table), held, watcher, hub_of(second).catch_up
    )


async def test_a_move_heard_at_the_version_before_is_applied_with_no_read(
    followed: Followed,
) -> None:
    held, played, watcher = followed.held, followed.played, followed.watcher
    for version in (1, 2, 3):
        note = await followed.move()
        assert await _heard(followed.catch_up, note) == {"followed": 1, "reads": 0}
        assert held.info.version == version
        assert held.state is not None and followed.same_game()
        assert held.info.to_move == played.info.to_move
        assert held.info.turn_started_at == played.info.turn_started_at
        view = watcher.last("view")
        assert view["version"] == version
        assert view["legal"] == [str(a) for a in legal_actions_of(held.state, 1)]
    # Heard again (a catch-up read it first): nothing changes, nothing is read.
    texts = len(watcher.texts)
    assert await _heard(followed.catch_up, note) == {"followed": 1, "reads": 0}
    assert held.info.version == 3 and len(watcher.texts) == texts


async def test_a_gap_or_a_move_that_does_not_apply_here_is_read_from_the_database(
    followed: Followed,
) -> None:
    held, catch_up = followed.held, followed.catch_up
    await followed.move()  # its note is lost
    gap = await followed.move()
    assert await _heard(catch_up, gap) == {"followed": 0, "reads": 1}
    assert held.info.version == 2 and followed.watcher.last("view")["version"] == 2
    assert followed.same_game()
    # A move the engine refuses here (not what the owner had): read, not applied.
    wrong = await followed.move()
    wrong["move"]["action"] = "no such action"
    assert await _heard(catch_up, wrong) == {"followed": 0, "reads": 1}
    assert held.info.version == 3 and followed.same_game()
    # A note without the move (an action too long for one NOTIFY) or garbled: read too.
    bare = await followed.move()
    del bare["move"]
    assert await _heard(catch_up, bare) == {"followed": 0, "reads": 1}
    garbled = await followed.move()
    garbled["move"]["at"] = "yesterday"
    assert await _heard(catch_up, garbled) == {"followed": 0, "reads": 1}
    assert held.info.version == 5 and followed.same_game()
    # And the next move follows on from what was read.
    note = await followed.move()
    assert await _heard(catch_up, note) == {"followed": 1, "reads": 0}
    assert followed.same_game()


def test_a_note_carries_the_move_only_when_it_fits_one_notify() -> None:
    plan = Timing((1,), None, None, None, {})
    at = datetime(2026, 1, 2, 3, 4, 5, 6789, tzinfo=UTC)
    note = {"kind": "move", **move_note(7, 0, "flip", plan, at)}
    heard = heard_move(note)
    assert heard is not None and (heard.version, heard.seat, heard.action) == (7, 0, "flip")
    assert heard.at == at and heard.plan == plan
    long = "x" * (MOST_ACTION_CHARS + 1)
    assert move_note(7, 0, long, plan, at) == {"version": 7}
    assert heard_move({"kind": "move", "version": 7}) is None
