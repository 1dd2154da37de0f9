"""Leases: which server process owns a table's bots, clocks and timers (several processes on
one PostgreSQL database).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the lease and the flag saying a bot may act."""
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(
            sa.Column("bots_to_act", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("lease_owner", sa.String(64), nullable=True))
        batch.add_column(sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("game_tables") as batch:
        for column in ("lease_until", "lease_owner", "bots_to_act"):
            batch.drop_column(column)
