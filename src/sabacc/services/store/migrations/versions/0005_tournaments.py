"""Tournaments on the web server (issue 32, step 2): the events, their registrations and the
log of every command the server gave an event's director, with the events it made (see
:mod:`sabacc.services.store.tournaments`). Adds tables only.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def _tournament() -> sa.ForeignKey:
    return sa.ForeignKey("tournaments.id", ondelete="CASCADE")


def _user() -> sa.ForeignKey:
    return sa.ForeignKey("users.id", ondelete="SET NULL")


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("code", sa.String(16), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("director_hash", sa.String(64), nullable=False),
        sa.Column("director_user_id", sa.Integer(), _user(), nullable=True),
        sa.Column("clock_elapsed", sa.Float(), nullable=False),
        sa.Column("clock_added", sa.Float(), nullable=False),
        sa.Column("clock_running", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tournaments_code", "tournaments", ["code"], unique=True)
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_registrations",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("tournament_id", sa.Integer(), _tournament(), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot", sa.String(16), nullable=True),
        sa.Column("user_id", sa.Integer(), _user(), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("tournament_id", "name"),
    )
    op.create_index(
        "ix_tournament_registrations_tournament_id", "tournament_registrations", ["tournament_id"]
    )
    op.create_table(
        "tournament_log",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("tournament_id", sa.Integer(), _tournament(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("command", sa.JSON(), nullable=False),
        sa.Column("events", sa.JSON(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("tournament_id", "seq"),
    )
    op.create_index("ix_tournament_log_tournament_id", "tournament_log", ["tournament_id"])


def downgrade() -> None:
    for table in ("tournament_log", "tournament_registrations", "tournaments"):
        op.drop_table(table)
