"""The table server: play in the browser with friends and bots.

FastAPI + uvicorn on SQLAlchemy 2 (SQLite file by default, PostgreSQL by URL; Alembic migrations
run at start). The server speaks to games only through the ``otherside.core`` contract, so every
game plugs in the same way. Packages by concern, each module one reason to change; each
package's ``__init__`` is its concern index ("concern → module"), and a test
(``tests/test_rooms.py``) keeps every module named there, under 400 lines, its classes under 250.

- :mod:`.app`: ``create_app``, the composition root (what runs, wired together).
- :mod:`.tables`: a live table — its actor and the hub, a move, clocks and deadlines,
  forfeits, takebacks, chat, bot turns, seats, start and rematch,
  refusals and their words, the games' adapters.
- :mod:`.bots`: running bots' decisions — the bot worker processes, fair across tables,
  within a time cap (a table's bot turns and a game's analysis both use them).
- :mod:`.live`: the table websocket — its protocol, messages in and out, floods and caps.
- :mod:`.http`: the HTTP routes per resource (lobby, replays, accounts, tokens, the bot API's
  stream, tournaments, lessons, languages), the browser pages' routes, and the guards every
  request passes.
- :mod:`.store`: the database — schema, migrations, reads, writes, the group-committing
  writer, ``TableStore`` (what the tables need of it).
- :mod:`.accounts`: sessions and the cookie, guests and their names, passwords, API tokens,
  rate limits, security headers.
- :mod:`.cluster`: several processes on one PostgreSQL database — ``NOTIFY``, leases,
  liveness, who is connected through which process, catching up with the others' changes.
- :mod:`.ratings`: Elo and the rated games.
- :mod:`.tournaments`: Swiss and round-robin events — pairings, standings, the director.
- :mod:`.analysis`: a finished game's analysis by the bots.
- :mod:`.clock`: the injected time source (``ManualClock`` in tests).
- :mod:`.tasks`: waiting for a background task told to stop, without swallowing the
  waiter's own cancellation.
- :mod:`.mail`: e-mail — sending it by SMTP, the words of a turn reminder and of an
  address's confirmation.
- :mod:`.lifeline`: child processes that end with the server; :mod:`.collector`: the garbage
  collector's settings of a long-running process.
- :mod:`.faults`: the named moments a test may kill a real server process at, or hold it.

A move, end to end: :mod:`.live.inbox` → the table's actor (:mod:`.tables.actor`) →
:mod:`.tables.play` → :mod:`.tables.commit` → :mod:`.store.writer` (group commit, one
``NOTIFY``) → :mod:`.live.fanout` here and :mod:`.cluster.moves` in the other processes.
"""
