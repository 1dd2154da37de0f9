"""The table server: play in the browser with friends and bots.

FastAPI + uvicorn on SQLAlchemy 2 (SQLite file by default, PostgreSQL by URL; Alembic migrations
run at start). Modules: :mod:`~otherside.server.app` (``create_app``), ``db`` and ``models``
(persistence), ``accounts`` (argon2 passwords, signed session cookies, guests), ``adapters``
(per-game options and pages), ``lobby`` (HTTP API), ``protocol`` (websocket messages),
``tables`` (the authoritative runtime), ``sockets`` (the websocket endpoint) and
``bots_runner`` (bot seats in worker threads). The server only speaks to games through the
``otherside.core`` contract, so every game plugs in the same way.
"""
