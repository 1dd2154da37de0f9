"""A table made for an event's board names its event, so that the lobby's requests can refuse
to change it (a host stopping their event's game of bots, which would decide its result).

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the table's event (none: NULL)."""
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("event_id", sa.String(16), nullable=True))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("event_id")
