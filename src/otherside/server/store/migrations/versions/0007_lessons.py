"""The lesson steps each player has done, so that their progress follows them.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``lesson_steps`` (player, game, step, when)."""
    op.create_table(
        "lesson_steps",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("step", sa.String(40), primary_key=True),
        sa.Column("done_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop it."""
    op.drop_table("lesson_steps")
