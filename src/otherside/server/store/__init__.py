"""Persistence: the database, its schema and migrations, the tables' reads and writes.

Concern → module:

- the engine, a transaction off the event loop (:meth:`~otherside.server.store.db.Database.run`),
  migrations run at start, SQLite's durability settings → :mod:`.db`; waiting for a database
  not there yet at start (bounded), or failing at once with a clear message → :mod:`.waiting`
- the schema (SQLAlchemy models) → :mod:`.models`; its changes, one Alembic revision each →
  :mod:`.migrations`
- what the live tables need of storage, one method per change
  (:class:`~otherside.server.store.contract.TableStore`) → :mod:`.contract`; kept on the
  database by :mod:`.tables` (which also rates a finished game, through
  :mod:`otherside.server.ratings.rated`), in memory for fast tests by :mod:`.memory`
- a table, its seats, moves and chat as plain data, and ``StaleWrite`` (the table changed
  since it was read) → :mod:`.records`
- group commit: every table's writes that arrive while a transaction is in flight go into
  the next one (one commit, one fsync, one ``NOTIFY``) → :mod:`.writer`
- a move's durable write (the move row, the table row at its version, the clocks) →
  :mod:`.play_rows`; a table made, seated, started, ended, a chat line → :mod:`.writes`; a
  takeback's writes → :mod:`.takebacks`; an event's board made, started and recorded in one
  write → :mod:`.boards`
- reading tables (one, the lobby's lists, moves, due deadlines, recent chat) → :mod:`.queries`;
  the same read asked for many keys at once (a process died and its players all came to this
  one) made in one transaction → :mod:`.batched`
- the database out of reach: telling it from a bug, logging it in one line → :mod:`.outage`

Elsewhere: the rows of accounts, sessions and limits are written by
:mod:`otherside.server.accounts`; events' by :mod:`otherside.server.tournaments.events`;
analyses' by :mod:`otherside.server.analysis.rows`.
"""
