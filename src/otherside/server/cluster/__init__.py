"""Several server processes on one PostgreSQL database: who owns a table, how a change made
in one process reaches the others, and how a process that died is told at once. (One process
alone uses :class:`~otherside.server.cluster.peers.SoloCluster`.)

Concern → module:

- a ``NOTIFY`` to the other processes (sending, listening), a table's lease (who runs its
  bots and clocks), finding the tables a dead process left → :mod:`.peers` (the writer's
  batch sends its announcements in one ``NOTIFY``: :mod:`otherside.server.store.writer`)
- liveness: a process gone is told at once by its advisory lock, and one frozen or cut off
  within :data:`~.liveness.VANISHED_SECONDS` (the lock's session settings) → :mod:`.liveness`
- who is connected to a table through which process (a partner away, an event's absentees
  judged across processes) → :mod:`.presence`; what a table's watchers are shown of it (a
  partner connected through another process is not shown away) → :mod:`.away_marks`
- a move told with the move itself, so the others apply it without a read → :mod:`.moves`
- catching up with another process's change (or re-reading the database after a failure),
  taking over the tables a dead process left → :mod:`.catch_up`
- waiting until every process has acted on an announcement (a sign-out) → :mod:`.receipts`
- announcements about accounts (a seat taken, a token revoked) for the event streams →
  :mod:`.seated`
"""
