"""The group-committing writer (``store/writer.py``) on a real SQLite file and a real PostgreSQL
database: many writes, few transactions; every caller answered only after its write committed;
a failing write fails alone, a failing batch fails each caller and changes nothing."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from typing import Any

import pytest
from sqlalchemy import bindparam, func, insert, select, text, update

from otherside.server.store.db import Database
from otherside.server.store.models import User
from otherside.server.store.records import StaleWrite
from otherside.server.store.writer import Batch, Writer

ADD_USER = insert(User).values(
    name=bindparam("name"), name_key=bindparam("key"), is_guest=bindparam("guest")
)
RENAME_AT = (
    update(User)
    .where(User.name_key == bindparam("key"), User.name == bindparam("was"))
    .values(name=bindparam("now"))
)


def names(db: Database) -> set[str]:
    """The users' names as a separate transaction sees them: what has committed."""
    return set(db.transaction(lambda s: list(s.scalars(select(User.name)))))


def adding(name: str) -> Any:
    def work(batch: Batch) -> str:
        batch.add(ADD_USER, {"name": name, "key": name.lower(), "guest": True})
        return name

    return work


async def test_concurrent_writes_share_few_transactions_and_answer_after_commit(
    db: Database,
) -> None:
    writer = Writer(db)
    seen_committed: list[bool] = []

    async def one(index: int) -> None:
        name = f"u{index}"
        assert await writer.write(adding(name)) == name
        # Answered: another transaction must already see it.
        seen_committed.append(name in await asyncio.to_thread(names, db))

    await asyncio.gather(*(one(i) for i in range(200)))
    assert len(seen_committed) == 200 and all(seen_committed)
    assert writer.batches <= 3
    assert len(names(db)) == 200


async def test_writes_arriving_during_a_commit_go_into_the_next_one(db: Database) -> None:
    writer = Writer(db)
    first = asyncio.ensure_future(writer.write(adding("first")))
    await asyncio.sleep(0)  # the first batch is on its way to the database thread
    rest = [asyncio.ensure_future(writer.write(adding(f"next{i}"))) for i in range(50)]
    await asyncio.gather(first, *rest)
    assert writer.batches == 2
    assert len(names(db)) == 51


async def test_a_failing_write_fails_alone(db: Database) -> None:
    writer = Writer(db)

    def broken(batch: Batch) -> None:
        batch.session.execute(text("SELECT * FROM no_such_table"))

    results = await asyncio.gather(
        *(writer.write(adding(f"ok{i}")) for i in range(10)),
        writer.write(broken),
        writer.write(adding("ok10")),
        return_exceptions=True,
    )
    failed = [r for r in results if isinstance(r, BaseException)]
    assert len(failed) == 1 and "no_such_table" in str(failed[0])
    assert names(db) == {f"ok{i}" for i in range(11)}


async def test_a_row_at_the_wrong_version_is_a_stale_write_of_its_caller_only(
    db: Database,
) -> None:
    writer = Writer(db)
    await asyncio.gather(*(writer.write(adding(f"p{i}")) for i in range(5)))

    def rename(index: int, was: str) -> Any:
        def work(batch: Batch) -> None:
            batch.add(RENAME_AT, {"key": f"p{index}", "was": was, "now": f"q{index}"}, expect=1)

        return work

    results = await asyncio.gather(
        *(writer.write(rename(i, "stale" if i == 2 else f"p{i}")) for i in range(5)),
        return_exceptions=True,
    )
    assert [isinstance(r, StaleWrite) for r in results] == [False, False, True, False, False]
    assert names(db) == {"q0", "q1", "p2", "q3", "q4"}


async def test_a_failed_batch_fails_every_caller_and_changes_nothing(db: Database) -> None:
    writer = Writer(db)
    # The database itself refuses every write: the table the works write to is gone.
    await asyncio.to_thread(
        db.transaction, lambda s: s.execute(text("ALTER TABLE users RENAME TO users_away"))
    )
    results = await asyncio.gather(
        *(writer.write(adding(f"lost{i}")) for i in range(20)), return_exceptions=True
    )
    await asyncio.to_thread(
        db.transaction, lambda s: s.execute(text("ALTER TABLE users_away RENAME TO users"))
    )
    assert all(isinstance(r, Exception) for r in results)
    assert names(db) == set()
    # The writer goes on afterwards.
    assert await writer.write(adding("after")) == "after"
    assert names(db) == {"after"}


async def test_a_caller_who_stops_waiting_still_gets_its_write_committed(db: Database) -> None:
    writer = Writer(db)
    task = asyncio.ensure_future(writer.write(adding("impatient")))
    await asyncio.sleep(0)
    task.cancel()
    await writer.close()
    assert names(db) == {"impatient"}


async def test_results_come_back_in_each_callers_own_future(db: Database) -> None:
    writer = Writer(db)

    def count(batch: Batch) -> int:
        return int(batch.session.scalar(select(func.count()).select_from(User)) or 0)

    got = await asyncio.gather(writer.write(adding("a")), writer.write(count))
    # The count runs after the first work queued its row but before the rows are written.
    assert got == ["a", 0]


@pytest.mark.postgres
async def test_one_notify_per_batch_carries_every_announcement(database_url: str) -> None:
    if database_url.startswith("sqlite"):
        pytest.skip("NOTIFY is PostgreSQL's")
    import psycopg

    from otherside.server.cluster.peers import _psycopg_url

    db = Database(database_url)
    await asyncio.to_thread(db.migrate)
    writer = Writer(db, channel="otherside_test_writer")
    heard: list[Any] = []
    try:
        async with await psycopg.AsyncConnection.connect(
            _psycopg_url(database_url), autocommit=True
        ) as listener:
            await listener.execute("LISTEN otherside_test_writer")

            def announcing(index: int) -> Any:
                def work(batch: Batch) -> None:
                    batch.add(ADD_USER, {"name": f"n{index}", "key": f"n{index}", "guest": True})
                    batch.notify({"table": f"t{index}", "kind": "move", "pad": "x" * 100})

                return work

            await asyncio.gather(*(writer.write(announcing(i)) for i in range(100)))

            async def hear() -> None:
                async for note in listener.notifies(timeout=2.0):
                    heard.append(json.loads(note.payload))
                    if sum(len(h) for h in heard) == 100:
                        break

            # Bounded: a missing announcement fails the assertion below instead of hanging.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(hear(), timeout=20)
    finally:
        db.close()
    assert sorted(m["table"] for batch in heard for m in batch) == sorted(
        f"t{i}" for i in range(100)
    )
    # 100 announcements of ~150 bytes: a couple of payloads, not a hundred.
    assert len(heard) <= 2 * writer.batches + 2
    assert len(heard) < 10


async def test_the_writer_on_the_event_loop_and_the_thread_pool_wait_for_each_other(
    db: Database, database_url: str
) -> None:
    """On SQLite the writer commits on the event loop beside the thread pool's transactions, on
    two connections: whichever writes second waits for the other's commit, neither fails."""
    if not database_url.startswith("sqlite"):
        pytest.skip("the writer runs on the event loop on SQLite only")
    assert db.writes_inline

    def pool_work(session: Any) -> int:
        before = len(session.scalars(select(User.name)).all())
        session.execute(ADD_USER, {"name": "pool", "key": "pool", "guest": True})
        return before

    with db.writing() as writer_transaction:  # BEGIN IMMEDIATE: holds the write lock
        writer_transaction.execute(ADD_USER, {"name": "writer", "key": "writer", "guest": True})
        pool = asyncio.ensure_future(db.run(pool_work))
        await asyncio.sleep(0.3)
        assert not pool.done()  # waiting for the lock, not failed
    assert await pool == 0  # it read before the writer committed, and then waited to write
    assert names(db) == {"writer", "pool"}

    # And the other way round: the writer waits for a transaction of the pool to commit.
    holding = threading.Event()

    def slow_pool_work(session: Any) -> None:
        session.execute(ADD_USER, {"name": "slow", "key": "slow", "guest": True})
        holding.set()
        time.sleep(0.3)

    slow = asyncio.ensure_future(db.run(slow_pool_work))
    await asyncio.to_thread(holding.wait)
    assert await Writer(db).write(adding("after")) == "after"
    await slow
    assert names(db) == {"writer", "pool", "slow", "after"}


class Crossing:
    """A transaction under test (:meth:`work`) and another one (:meth:`other`, in a thread)
    that lock two users' rows in opposite orders: a deadlock. PostgreSQL aborts the one whose
    ``deadlock_timeout`` comes first, the work's (100 ms against 10 s); the other then gets
    its rows and commits. The work waits for the other only on its first run."""

    LOCK = text("SELECT id FROM users WHERE id = :id FOR UPDATE")

    def __init__(self, db: Database, first: int, second: int) -> None:
        self.db, self.first, self.second = db, first, second
        self.runs = 0
        self.work_locked, self.other_locked = threading.Event(), threading.Event()
        self.other_committed = False

    def work(self, connection: Any) -> int:
        self.runs += 1
        if self.runs == 1:
            connection.execute(text("SET LOCAL deadlock_timeout = '100ms'"))
        connection.execute(self.LOCK, {"id": self.first})
        if self.runs == 1:
            self.work_locked.set()
            assert self.other_locked.wait(10)
        connection.execute(self.LOCK, {"id": self.second})
        return self.runs

    def other(self) -> None:
        with self.db.engine.begin() as connection:
            connection.execute(text("SET LOCAL deadlock_timeout = '10s'"))
            assert self.work_locked.wait(10)
            connection.execute(self.LOCK, {"id": self.second})
            self.other_locked.set()
            connection.execute(self.LOCK, {"id": self.first})  # waits for the work
        self.other_committed = True


async def two_users(database_url: str) -> tuple[Database, int, int]:
    if database_url.startswith("sqlite"):
        pytest.skip("SQLite has one writer at a time: no deadlock")
    db = Database(database_url)
    await asyncio.to_thread(db.migrate)
    for name in ("a", "b"):
        db.transaction(lambda s, n=name: s.execute(ADD_USER, {"name": n, "key": n, "guest": True}))
    first, second = db.transaction(lambda s: sorted(s.scalars(select(User.id))))
    return db, first, second


@pytest.mark.postgres
async def test_a_transaction_postgres_aborts_for_a_deadlock_runs_again(database_url: str) -> None:
    db, first, second = await two_users(database_url)
    crossing = Crossing(db, first, second)
    try:
        other = asyncio.ensure_future(asyncio.to_thread(crossing.other))
        # The second run succeeds: the caller sees its result, not the deadlock.
        assert await db.run(crossing.work) == 2
        await other
    finally:
        db.close()
    assert crossing.other_committed


@pytest.mark.postgres
async def test_a_batch_postgres_aborts_for_a_deadlock_is_written_again(database_url: str) -> None:
    db, first, second = await two_users(database_url)
    crossing = Crossing(db, first, second)
    writer = Writer(db)
    try:
        other = asyncio.ensure_future(asyncio.to_thread(crossing.other))
        # A write alone: before, its own transaction's deadlock was its caller's error.
        assert await writer.write(lambda batch: crossing.work(batch.connection)) == 2
        await other
    finally:
        db.close()
    assert crossing.other_committed and writer.batches == 2
