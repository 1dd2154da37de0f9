"""The table server: play in the browser with friends and bots.

FastAPI + uvicorn on SQLAlchemy 2 (SQLite file by default, PostgreSQL by URL; Alembic migrations
run at start). The server speaks to games only through the ``otherside.core`` contract, so every
game plugs in the same way. Packages by concern, each module one reason to change:

- :mod:`~otherside.server.app`: ``create_app``, the composition root (what runs, wired together).
- ``http/``: the HTTP API, routes per resource (accounts, lobby, players).
- ``live/``: the websocket endpoint, the message protocol, messages in (``inbox``) and out
  (``fanout``, ``wire``).
- ``tables/``: one actor per live table (the hub finds and starts them) and the commands they
  run: play, forfeits, deadlines, chat, bot turns, seating; game adapters, paces, the
  scheduler and the bot workers.
- ``store/``: the database, its schema, migrations and queries; ``TableStore``, what the
  tables need of it.
- ``accounts/``: sessions, limits, security headers.
- ``cluster/``: several processes on one PostgreSQL database (leases, notifications, catching
  up with the others' changes).
- ``ratings/``: Elo and the rated games; ``mail.py``: reminders by SMTP; ``clock.py``: the
  injected time source.
"""
