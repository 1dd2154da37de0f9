"""An account's e-mail address is confirmed by a link mailed to it before any other mail goes
there: when it was confirmed, and the pending link (hashed) with its expiry.

Every address given before this revision counts as unconfirmed: none was ever checked, and one
may be a stranger's. Its owner confirms it from the lobby ("send again").

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``users.email_confirmed_at`` and ``email_links``."""
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("email_confirmed_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "email_links",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("email_links")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("email_confirmed_at")
