"""Paces and deadlines, clocks and forfeits, ratings with their history, e-mail, table chat,
revocable sessions.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the columns and tables of turn-based play, ratings and chat."""
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("email", sa.String(254), nullable=True))
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("pace", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("to_move", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("turn_started_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("deadline_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("reminded_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(
            sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("rematch_id", sa.String(16), nullable=True))
        batch.create_index("ix_game_tables_deadline_at", ["deadline_at"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("time_left_ms", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("forfeit", sa.String(16), nullable=True))
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("game_tables.id"), nullable=False),
        sa.Column("before", sa.Float(), nullable=False),
        sa.Column("after", sa.Float(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rating_changes_user_id", "rating_changes", ["user_id"])
    op.create_index("ix_rating_changes_table_id", "rating_changes", ["table_id"])
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("game_tables.id"), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_lines_table_id", "chat_lines", ["table_id"])
    op.create_table(
        "auth_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_auth_sessions_user_id", "auth_sessions", ["user_id"])


def downgrade() -> None:
    """Drop what :func:`upgrade` added."""
    op.drop_table("auth_sessions")
    op.drop_table("chat_lines")
    op.drop_table("rating_changes")
    op.drop_table("ratings")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("forfeit")
        batch.drop_column("time_left_ms")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_index("ix_game_tables_deadline_at")
        for column in (
            "rematch_id",
            "rated",
            "reminded_at",
            "deadline_at",
            "turn_started_at",
            "to_move",
            "pace",
        ):
            batch.drop_column(column)
    with op.batch_alter_table("users") as batch:
        batch.drop_column("email")
