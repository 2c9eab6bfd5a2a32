"""The schema of the release before migrations (tables, seats, games, actions, leases).

A database made by that release (no ``alembic_version`` table) is stamped with this revision
and upgraded from here; a new database is made by running it.

Revision ID: 0001
Revises: (none)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("code", sa.String(16), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("turn_timer", sa.Float(), nullable=False),
        sa.Column("listed", sa.Boolean(), nullable=False),
        sa.Column("host_hash", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("games_played", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tables_code", "tables", ["code"], unique=True)
    op.create_table(
        "seats",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "table_id", sa.Integer(), sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot", sa.String(40), nullable=True),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("away", sa.Boolean(), nullable=False),
        sa.Column("net", sa.Integer(), nullable=False),
        sa.UniqueConstraint("table_id", "position"),
    )
    op.create_index("ix_seats_table_id", "seats", ["table_id"])
    op.create_index("ix_seats_token_hash", "seats", ["token_hash"])
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "table_id", sa.Integer(), sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("seat_tokens", sa.JSON(), nullable=False),
        sa.Column("bots", sa.JSON(), nullable=False),
        sa.Column("stacks", sa.JSON(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("action_count", sa.Integer(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("table_id", "number"),
    )
    op.create_index("ix_games_table_id", "games", ["table_id"])
    op.create_table(
        "actions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("idx", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("hand", sa.Integer(), nullable=False),
        sa.Column("auto", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "idx"),
    )
    op.create_index("ix_actions_game_id", "actions", ["game_id"])
    op.create_table(
        "leases",
        sa.Column(
            "table_id",
            sa.Integer(),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("owner", sa.String(80), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("wanted_by", sa.String(80), nullable=True),
    )


def downgrade() -> None:
    for table in ("leases", "actions", "games", "seats", "tables"):
        op.drop_table(table)
