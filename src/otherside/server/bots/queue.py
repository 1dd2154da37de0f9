"""Fair turns for bot decisions: queued per table, taken round-robin across tables.

A table whose bots think long, or which queues many decisions, gets one decision at a time
like every other table: after each one it goes to the back of the line. A table's bots thus
wait behind the other tables' next decisions, never behind one table's whole queue.

>>> line = FairQueue[str]()
>>> for job in ("a1", "a2", "a3"):
...     line.put("a", job)
>>> line.put("b", "b1")
>>> [line.take() for _ in range(5)]
['a1', 'b1', 'a2', 'a3', None]
"""

from __future__ import annotations

from collections import OrderedDict, deque
from typing import Generic, TypeVar

T = TypeVar("T")


class FairQueue(Generic[T]):
    """Jobs by table; :meth:`take` serves the tables in turn, oldest waiting first."""

    def __init__(self) -> None:
        self._tables: OrderedDict[str, deque[T]] = OrderedDict()

    def put(self, table: str, job: T) -> None:
        """Queue ``job`` of ``table`` (a table new to the line goes to its back)."""
        self._tables.setdefault(table, deque()).append(job)

    def take(self) -> T | None:
        """The next job: the first job of the table whose turn it is (``None``: no job)."""
        if not self._tables:
            return None
        table, jobs = next(iter(self._tables.items()))
        job = jobs.popleft()
        if jobs:
            self._tables.move_to_end(table)
        else:
            del self._tables[table]
        return job

    def tables(self) -> list[str]:
        """The tables waiting, in the order they will be served."""
        return list(self._tables)

    def __len__(self) -> int:
        return sum(len(jobs) for jobs in self._tables.values())
