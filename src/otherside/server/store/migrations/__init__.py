"""The database's schema changes, run by the server at start.

- the Alembic environment (the server's open connection, or the ``alembic`` command) →
  :mod:`.env`
- one revision per schema change, numbered in order (``0001_initial`` …) → :mod:`.versions`
"""
