"""A takeback asked for is kept with its table, so that every server process on the database
sees it (and may have it answered there) and it outlives a restart of the process it was asked
through.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the table's takeback request: seat, version and plies (none: NULL)."""
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("takeback_seat", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("takeback_version", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("takeback_plies", sa.Integer(), nullable=True))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("takeback_plies")
        batch.drop_column("takeback_version")
        batch.drop_column("takeback_seat")
