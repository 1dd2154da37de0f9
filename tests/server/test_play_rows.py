"""A move written as rows of Core statements through the writer (``store/play_rows.py``): the
move, the table's version, deadlines and clocks land together, and a move for a version the
table has left is refused and writes nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from functools import partial

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from otherside.server.store.db import Database
from otherside.server.store.models import GameTable, Move, Seat, User
from otherside.server.store.play_rows import add_move, add_timing
from otherside.server.store.queries import load_table
from otherside.server.store.records import StaleWrite, Timing
from otherside.server.store.writer import Batch, Writer
from otherside.server.store.writes import create_table, save_start
from otherside.server.tables.pace import Pace

NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def started_tables(db: Database, count: int) -> list[str]:
    def make(session: Session) -> list[str]:
        owner = User(name="Ada", name_key="ada", is_guest=True)
        session.add(owner)
        session.flush()
        ids = [create_table(session, owner.id, "nim", 2, {}, Pace(), NOW) for _ in range(count)]
        session.flush()
        start = Timing((0,), NOW, NOW + timedelta(minutes=10), None, {0: 600_000})
        for table_id in ids:
            save_start(session, table_id, {}, {"moves": []}, False, start, NOW)
        return ids

    return db.transaction(make)


async def test_moves_of_many_tables_land_with_their_versions_deadlines_and_clocks(
    db: Database,
) -> None:
    ids = await asyncio.to_thread(started_tables, db, 30)
    writer = Writer(db)
    later = NOW + timedelta(seconds=7)
    after = Timing((1,), later, later + timedelta(minutes=9), None, {0: 598_000})

    def move(table_id: str) -> Callable[[Batch], None]:
        return lambda batch: add_move(batch, table_id, 1, 0, "take 1", None, None, after, later)

    await asyncio.gather(*(writer.write(move(t)) for t in ids))
    assert writer.batches <= 2
    for table_id in ids:
        info = db.transaction(partial(load_table, table_id=table_id))
        assert info is not None
        assert (info.version, info.status, info.to_move) == (1, "playing", (1,))
        assert info.deadline_at == later + timedelta(minutes=9)
        assert info.seats[0].time_left_ms == 598_000
    rows = db.transaction(
        lambda s: s.execute(select(Move.table_id, Move.number, Move.action)).all()
    )
    assert sorted(rows) == sorted((t, 1, "take 1") for t in ids)


async def test_a_move_at_a_version_the_table_left_is_stale_and_writes_nothing(
    db: Database,
) -> None:
    first, second = await asyncio.to_thread(started_tables, db, 2)
    writer = Writer(db)
    after = Timing((1,), NOW, None, None, {0: 1})

    def move(table_id: str, number: int) -> Callable[[Batch], None]:
        return lambda batch: add_move(batch, table_id, number, 0, "take 1", None, None, after, NOW)

    results = await asyncio.gather(
        writer.write(move(first, 1)),
        writer.write(move(second, 5)),
        return_exceptions=True,
    )
    assert results[0] is None and isinstance(results[1], StaleWrite)
    versions = dict(
        db.transaction(lambda s: s.execute(select(GameTable.id, GameTable.version)).all())
    )
    assert versions == {first: 1, second: 0}
    moved = db.transaction(lambda s: list(s.scalars(select(Move.table_id))))
    assert moved == [first]
    clocks = dict(
        db.transaction(
            lambda s: s.execute(
                select(Seat.table_id, Seat.time_left_ms).where(Seat.seat == 0)
            ).all()
        )
    )
    assert clocks == {first: 1, second: 600_000}


async def test_the_last_move_stores_the_outcome_and_record_and_ends_the_lease(db: Database) -> None:
    (table_id,) = await asyncio.to_thread(started_tables, db, 1)
    writer = Writer(db)
    outcome = {"scores": [1, 0], "winners": [0]}
    record = {"moves": ["take 1"], "result": outcome}
    done = Timing((), None, None, None, {})

    def last(batch: Batch) -> None:
        add_move(batch, table_id, 1, 0, "take 1", record, outcome, done, NOW)

    await writer.write(last)
    info = db.transaction(lambda s: load_table(s, table_id, with_record=True))
    assert info is not None
    assert (info.status, info.outcome, info.record, info.deadline_at) == (
        "over",
        outcome,
        record,
        None,
    )
    lease = db.transaction(lambda s: s.scalar(select(GameTable.lease_owner)))
    assert lease is None


async def test_deadlines_without_a_move_are_written_at_the_table_version(db: Database) -> None:
    (table_id,) = await asyncio.to_thread(started_tables, db, 1)
    writer = Writer(db)
    reminded = Timing((0,), NOW, NOW + timedelta(days=3), NOW, {})
    await writer.write(lambda batch: add_timing(batch, table_id, 0, reminded, NOW))
    with pytest.raises(StaleWrite):
        await writer.write(lambda batch: add_timing(batch, table_id, 4, reminded, NOW))
    info = db.transaction(lambda s: load_table(s, table_id))
    assert (
        info is not None and info.reminded_at == NOW and info.deadline_at == NOW + timedelta(days=3)
    )
