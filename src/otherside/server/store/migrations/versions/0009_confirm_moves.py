"""Whether a player confirms each move before it is sent (choose the piece, the cell, then
confirm, as the VERSUS site plays), kept on the account: none chosen means the pages' default
(on in turn-based games, off in live ones).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the account's move confirmation choice (none: the default)."""
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("confirm_moves", sa.Boolean(), nullable=True))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("users") as batch:
        batch.drop_column("confirm_moves")
