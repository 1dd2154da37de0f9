"""A table counts the takebacks accepted at it: the version goes down on a takeback, so the
version alone does not say which position an action was chosen for — with the count (which
only grows) it does, and a move sent before a takeback is refused after it.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the count, 0 for every table so far (a takeback before it is not told apart)."""
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("takebacks", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("takebacks")
