"""The table server: play in the browser with friends and bots.

FastAPI + uvicorn on SQLAlchemy 2 (SQLite file by default, PostgreSQL by URL; Alembic migrations
run at start). The server speaks to games only through the ``otherside.core`` contract, so every
game plugs in the same way. Packages by concern, each module one reason to change:

- :mod:`~otherside.server.app`: ``create_app``, the composition root (what runs, wired together).
- ``http/``: the HTTP API, routes per resource (accounts, lobby, players).
- ``live/``: the websocket endpoint and the message protocol.
- ``tables/``: the live tables (the hub), game adapters, paces, clocks and deadlines, the
  scheduler and the bot workers.
- ``store/``: the database, its schema, migrations and queries.
- ``accounts/``: sessions, limits, security headers.
- ``cluster/``: several processes on one PostgreSQL database (leases, notifications).
- ``ratings/``: Elo and the rated games; ``mail.py``: reminders by SMTP; ``clock.py``: the
  injected time source.
"""
