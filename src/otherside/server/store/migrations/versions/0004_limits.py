"""Limits shared by every server process: one row per limited key (a rule and who it limits,
hashed), its count in the current window and when that window ends.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the table of limit counts."""
    op.create_table(
        "rate_limits",
        sa.Column("key", sa.String(80), primary_key=True),
        sa.Column("hits", sa.Integer(), nullable=False),
        sa.Column("until", sa.Float(), nullable=False),
    )
    op.create_index("ix_rate_limits_until", "rate_limits", ["until"])


def downgrade() -> None:
    """Drop it."""
    op.drop_index("ix_rate_limits_until", table_name="rate_limits")
    op.drop_table("rate_limits")
