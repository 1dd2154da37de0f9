"""Reads batched (:mod:`otherside.server.store.batched`): the keys asked while a transaction is
under way are read together in the next one, never answered by the one under way (it began
before they were asked), and a failed transaction reaches each of its askers only."""

from __future__ import annotations

import asyncio
import threading

import pytest
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from otherside.server.store.batched import BatchedRead
from otherside.server.store.db import Database
from otherside.server.store.models import User


class Names:
    """Users' names by id, read in batches; the first transaction waits at a gate."""

    def __init__(self, db: Database) -> None:
        self.gate = threading.Event()
        self.reading = threading.Event()
        self.asked: list[list[int]] = []
        self.read = BatchedRead(db, self.fetch)

    def fetch(self, session: Session, ids: list[int]) -> dict[int, str]:
        self.asked.append(sorted(ids))
        if 666 in ids:
            raise LookupError("the number of the beast")
        rows = session.execute(select(User.id, User.name).where(User.id.in_(ids)))
        found = {user_id: name for user_id, name in rows}
        self.reading.set()
        self.gate.wait(10)
        return found


async def _people(db: Database, *names: str) -> list[int]:
    def add(session: Session) -> list[int]:
        rows = [User(name=name, name_key=name.lower(), is_guest=True) for name in names]
        session.add_all(rows)
        session.flush()
        return [row.id for row in rows]

    return await db.run(add)


async def test_keys_asked_meanwhile_are_read_together_and_after(db: Database) -> None:
    ada, bob, cyd = await _people(db, "Ada", "Bob", "Cyd")
    names = Names(db)
    first = asyncio.ensure_future(names.read.get(ada))
    await asyncio.to_thread(names.reading.wait, 10)  # under way, holding Ada's old name
    with db.writing() as connection:  # not through the read's thread (SQLite has one)
        connection.execute(update(User).where(User.id == ada).values(name="Ada2"))
    later = [asyncio.ensure_future(names.read.get(key)) for key in (ada, bob, cyd, 999, bob)]
    await asyncio.sleep(0.05)
    assert not any(f.done() for f in later)  # not answered by the transaction under way
    names.gate.set()
    assert await first == "Ada"
    assert await asyncio.gather(*later) == ["Ada2", "Bob", "Cyd", None, "Bob"]
    # Two transactions: the first key alone, then every key asked while it was under way.
    assert names.asked == [[ada], sorted([ada, bob, cyd, 999])]
    assert names.read.transactions == 2


async def test_a_failed_read_reaches_its_askers_and_the_next_read_works(db: Database) -> None:
    (ada,) = await _people(db, "Ada")
    names = Names(db)
    names.gate.set()
    failed = await asyncio.gather(names.read.get(ada), names.read.get(666), return_exceptions=True)
    assert all(isinstance(x, LookupError) for x in failed)
    assert await names.read.get(ada) == "Ada"


async def test_a_batch_holds_at_most_so_many_keys(db: Database) -> None:
    ids = await _people(db, *(f"P{n}" for n in range(7)))
    names = Names(db)
    names.read.most = 3
    names.gate.set()
    found = await asyncio.gather(*(names.read.get(key) for key in ids))
    assert found == [f"P{n}" for n in range(7)]
    assert [len(keys) for keys in names.asked] == [3, 3, 1]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_an_asker_that_leaves_does_not_stop_the_others(db: Database) -> None:
    ada, bob = await _people(db, "Ada", "Bob")
    names = Names(db)
    first = asyncio.ensure_future(names.read.get(ada))
    second = asyncio.ensure_future(names.read.get(bob))
    await asyncio.to_thread(names.reading.wait, 10)
    first.cancel()  # a socket closed while its session was being read
    names.gate.set()
    assert await second == "Bob"
    with pytest.raises(asyncio.CancelledError):
        await first
    assert await names.read.get(ada) == "Ada"
