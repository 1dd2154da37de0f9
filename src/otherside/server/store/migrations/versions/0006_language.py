"""The language a player chose on the switcher, kept on the account: the pages follow it after
signing in anywhere, and the mail to that player is written in it.

Revision ID: 0006
Revises: 0004
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the account's language (none: the browser's, then English)."""
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("language", sa.String(8), nullable=True))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("users") as batch:
        batch.drop_column("language")
