"""SQLAlchemy models of the web tables: tables, seats, games and every applied action.

The game state itself is never stored: a game is ``(variant, options, seed, players)`` plus its
ordered actions, and :func:`sabacc.replay` rebuilds it exactly. Stacks are stored too (a copy
kept in step with each action) so the lobby and the history pages need no replay.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON}


class TableRow(Base):
    """A web table: its settings and where it stands (waiting, playing, finished)."""

    __tablename__ = "tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(16), unique=True, index=True)
    name: Mapped[str] = mapped_column(String(80))
    variant: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    turn_timer: Mapped[float] = mapped_column(Float, default=0.0)
    listed: Mapped[bool] = mapped_column(Boolean, default=True)
    host_hash: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), default="waiting")
    games_played: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SeatRow(Base):
    """A seat of a table: a bot, or a human seat (open while ``token_hash`` is None)."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("table_id", "position"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))  # "human" | "bot"
    bot: Mapped[str | None] = mapped_column(String(40), nullable=True)
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    away: Mapped[bool] = mapped_column(Boolean, default=False)
    net: Mapped[int] = mapped_column(Integer, default=0)  # credits won/lost over finished games


class GameRow(Base):
    """One game played at a table (a buy-in to a game end), replayable from seed and actions."""

    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("table_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    variant: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    players: Mapped[list[Any]] = mapped_column(JSON)
    seat_tokens: Mapped[list[Any]] = mapped_column(JSON)  # token hash per seat (None: a bot)
    bots: Mapped[list[Any]] = mapped_column(JSON)  # bot name per seat (None: a human)
    stacks: Mapped[list[Any]] = mapped_column(JSON)
    hands: Mapped[int] = mapped_column(Integer, default=0)
    action_count: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ActionRow(Base):
    """One applied action, in order (``idx`` from 0) within its game."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game_id", "idx"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    idx: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(40))
    hand: Mapped[int] = mapped_column(Integer)
    auto: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class GameSnapshotRow(Base):
    """A game's state after ``idx`` of its actions (every N-th: the server's
    ``history_snapshot_every``), so a hand's frames replay only the actions after the nearest
    one instead of the whole game. ``state`` is the JSON of :mod:`sabacc.apps.server.snapshots`
    (format ``format``); ``hand`` is the hand the next action belongs to. Derived data: a row
    missing or unreadable only means a longer replay."""

    __tablename__ = "game_snapshots"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand: Mapped[int] = mapped_column(Integer)
    format: Mapped[int] = mapped_column(Integer)
    state: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class LeaseRow(Base):
    """Which server process owns a table, until when (several servers sharing PostgreSQL):
    renewed by its owner's heartbeat; an expired lease may be taken by any server. ``wanted_by``
    names a server asking the owner to hand the table over (a client was routed there)."""

    __tablename__ = "leases"

    table_id: Mapped[int] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    owner: Mapped[str] = mapped_column(String(80))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    wanted_by: Mapped[str | None] = mapped_column(String(80), nullable=True)


# ---------------------------------------------------------------------- the community layer
# Accounts are optional: a guest plays by seat token as before. An account owns the seat tokens
# linked to it (those it sat down with, and a guest's earlier ones it claimed when signing up).


class UserRow(Base):
    """An account: a unique username (``name_key``: its case-folded form) and a password hash
    (argon2; the password itself is never stored)."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(20))
    name_key: Mapped[str] = mapped_column(String(20), unique=True, index=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SessionRow(Base):
    """A logged-in browser: the SHA-256 of its session cookie (revoked by deleting the row)."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SeatLinkRow(Base):
    """A seat token (its hash, as in ``seats`` and ``games.seat_tokens``) owned by an account."""

    __tablename__ = "seat_links"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PlayerGameRow(Base):
    """One human seat's summary of one finished game: what profiles and stats add up.

    ``user_id`` is set when the seat's token belongs to an account (then, or later when a guest
    signs up and claims it); it is cleared when the account is deleted."""

    __tablename__ = "player_games"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True, index=True
    )
    variant: Mapped[str] = mapped_column(String(40))
    players: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)  # 1: first (equal stacks share a place)
    net: Mapped[int] = mapped_column(Integer)
    hands: Mapped[int] = mapped_column(Integer)
    sabacc_pots: Mapped[int] = mapped_column(Integer)
    best_hand: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RatingRow(Base):
    """An account's rating in one variant (openskill Plackett-Luce: ``mu`` and ``sigma``)."""

    __tablename__ = "ratings"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    variant: Mapped[str] = mapped_column(String(40), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class FriendRow(Base):
    """``user_id`` counts ``friend_id`` among their friends (one direction; each adds the other
    to see them both ways)."""

    __tablename__ = "friends"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    friend_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


# The state a --cluster site shares across its processes (issue 31, point 2): quick-match
# tickets, presence, invitations and the site-wide per-client counters. A plain server keeps
# these in memory (see sabacc.apps.server.shared_state); the tables exist on every database.


class MatchTicketRow(Base):
    """A quick-match ticket: ``waiting`` in its queue (``variant``, ``seats``), then
    ``matched`` (``result``: the table and seat) or ``failed`` (``result``: the error) until
    its player reads it once. Keyed by the SHA-256 of the ticket id the player holds."""

    __tablename__ = "match_tickets"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    variant: Mapped[str] = mapped_column(String(40))
    seats: Mapped[int] = mapped_column(Integer)
    wait: Mapped[float] = mapped_column(Float)
    name: Mapped[str] = mapped_column(String(64))
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), nullable=True, index=True
    )
    status: Mapped[str] = mapped_column(String(10), index=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seen: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PresenceRow(Base):
    """When an account was last seen by any server (a request, or a heartbeat while it is
    connected to a table): online while recent enough; and the table it is connected to
    (``place``, as ``/api/friends`` shows it) as of ``placed_at``."""

    __tablename__ = "presence"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    place: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    placed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class InviteRow(Base):
    """An invitation of ``user_id`` to a table, by the account called ``by_name``."""

    __tablename__ = "invites"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    by_name: Mapped[str] = mapped_column(String(64))
    code: Mapped[str] = mapped_column(String(32))
    table_name: Mapped[str] = mapped_column(String(80))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SiteEventRow(Base):
    """One event counted against a site-wide limit (``kind``: a table made, a failed log-in,
    a sign-up...; ``key``: the client address or account it counts for), kept for the limit's
    window."""

    __tablename__ = "site_events"
    __table_args__ = (Index("ix_site_events_kind_key_at", "kind", "key", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    key: Mapped[str] = mapped_column(String(200))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
