"""Who is connected to a table through which server process, so that a process judging a
player away (Recto Verso's play-on, an event's absentees) sees the connections of the others.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``table_presence``."""
    op.create_table(
        "table_presence",
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("user_id", sa.Integer(), primary_key=True),
        sa.Column("node", sa.String(64), primary_key=True),
        sa.Column("node_key", sa.Integer(), nullable=False),
        sa.Column("here", sa.Boolean(), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop it."""
    op.drop_table("table_presence")
