"""Alembic environment for the otherside server database.

The server runs the migrations itself at start
(:meth:`otherside.server.store.db.Database.migrate`), passing an open connection in
``config.attributes["connection"]``; a developer may also point the ``alembic`` command at this
directory with ``sqlalchemy.url`` set.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from otherside.server.store.models import Base

target_metadata = Base.metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        # SQLite cannot ALTER most things in place; batch mode copies the table instead.
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_offline() -> None:
    """Emit the SQL for ``alembic upgrade --sql`` without a database."""
    context.configure(
        url=context.config.get_main_option("sqlalchemy.url"),
        target_metadata=target_metadata,
        literal_binds=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Run the migrations on the given connection, or on ``sqlalchemy.url``."""
    config = context.config
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "")
    with engine.begin() as new_connection:
        _run(new_connection)


# Only Alembic runs this file; importing it elsewhere (pytest's doctest collection) does nothing.
if hasattr(context, "config"):
    if context.is_offline_mode():
        run_migrations_offline()
    else:
        run_migrations_online()
