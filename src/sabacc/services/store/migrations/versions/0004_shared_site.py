"""The state a ``--cluster`` site shares across its processes: quick-match tickets, presence,
invitations and the site-wide per-client counters (a plain server keeps them in memory).
Adds tables only: every earlier row is kept as it was.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def _users() -> sa.ForeignKey:
    return sa.ForeignKey("users.id", ondelete="CASCADE")


def upgrade() -> None:
    op.create_table(
        "match_tickets",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("wait", sa.Float(), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("user_id", sa.Integer(), _users(), nullable=True),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_match_tickets_user_id", "match_tickets", ["user_id"])
    op.create_index("ix_match_tickets_status", "match_tickets", ["status"])
    op.create_table(
        "presence",
        sa.Column("user_id", sa.Integer(), _users(), primary_key=True),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("place", sa.JSON(), nullable=True),
        sa.Column("placed_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "invites",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("user_id", sa.Integer(), _users(), nullable=False),
        sa.Column("by_name", sa.String(64), nullable=False),
        sa.Column("code", sa.String(32), nullable=False),
        sa.Column("table_name", sa.String(80), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_invites_user_id", "invites", ["user_id"])
    op.create_table(
        "site_events",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_site_events_kind_key_at", "site_events", ["kind", "key", "at"])


def downgrade() -> None:
    for table in ("site_events", "invites", "presence", "match_tickets"):
        op.drop_table(table)
