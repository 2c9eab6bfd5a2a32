"""The store's part for programs (issue 38): personal API tokens and bot accounts (mixed into
:class:`sabacc.services.store.Store`).

A token is a random secret shown once to its owner; only a keyed hash of it is stored (the
server computes it: :mod:`sabacc.apps.server.api_auth`), with its name, scopes and a short
prefix that lets the owner tell their tokens apart. Revoking a token deletes its row, so the
very next request with it is refused. A bot account is an account with a row in
``bot_accounts``: it is marked as a bot wherever accounts are shown and kept out of the human
leaderboards.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import DateTime, ForeignKey, Integer, String, delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.sql.selectable import Exists

from sabacc.services.store.community import UserRecord
from sabacc.services.store.models import Base, PlayerGameRow, SeatLinkRow, UserRow, utcnow

#: Tokens one account may hold at once.
MAX_TOKENS = 20
#: ``last_used_at`` is written at most this often per token (not at every request).
TOUCH_EVERY = timedelta(minutes=1)


class ApiTokenRow(Base):
    """A personal API token: its keyed hash, owner, name, scopes (comma-separated) and the
    first characters of the token (shown in lists: never enough to use it)."""

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    scopes: Mapped[str] = mapped_column(String(40))
    prefix: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class BotAccountRow(Base):
    """An account that is a bot (played by a program through the API)."""

    __tablename__ = "bot_accounts"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


@dataclass(frozen=True)
class ApiTokenRecord:
    """A stored token (never the token itself)."""

    id: int
    user_id: int
    name: str
    scopes: tuple[str, ...]
    prefix: str
    created_at: datetime
    last_used_at: datetime | None


class NotANewAccount(Exception):
    """The account has played games (or holds seats): it cannot become a bot account."""


class TooManyTokens(Exception):
    """The account holds :data:`MAX_TOKENS` tokens already."""


def _aware(moment: datetime | None) -> datetime | None:
    """SQLite gives back naive datetimes (stored as UTC)."""
    if moment is None:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _token(row: ApiTokenRow) -> ApiTokenRecord:
    return ApiTokenRecord(
        row.id, row.user_id, row.name, tuple(s for s in row.scopes.split(",") if s), row.prefix,
        _aware(row.created_at) or utcnow(), _aware(row.last_used_at),
    )  # fmt: skip


class ApiStore:
    session: sessionmaker[Session]

    # ------------------------------------------------------------------ tokens
    def create_api_token(
        self, user_id: int, token_hash: str, name: str, scopes: tuple[str, ...], prefix: str
    ) -> ApiTokenRecord:
        """Store a new token of ``user_id`` (refused past :data:`MAX_TOKENS`)."""
        with self.session.begin() as s:
            held = s.scalar(
                select(func.count()).select_from(ApiTokenRow).where(ApiTokenRow.user_id == user_id)
            )
            if int(held or 0) >= MAX_TOKENS:
                raise TooManyTokens(user_id)
            row = ApiTokenRow(
                token_hash=token_hash, user_id=user_id, name=name, scopes=",".join(scopes),
                prefix=prefix, created_at=utcnow(),
            )  # fmt: skip
            s.add(row)
            s.flush()
            return _token(row)

    def api_tokens_of(self, user_id: int) -> list[ApiTokenRecord]:
        """An account's tokens, newest first."""
        with self.session() as s:
            rows = s.scalars(
                select(ApiTokenRow)
                .where(ApiTokenRow.user_id == user_id)
                .order_by(ApiTokenRow.id.desc())
            ).all()
            return [_token(r) for r in rows]

    def api_token_user(self, token_hash: str) -> tuple[ApiTokenRecord, UserRecord] | None:
        """The token with this hash and its account (None: no such token, or revoked); its
        ``last_used_at`` is brought up to date now and then."""
        with self.session() as s:
            found = s.execute(
                select(ApiTokenRow, UserRow)
                .join(UserRow, UserRow.id == ApiTokenRow.user_id)
                .where(ApiTokenRow.token_hash == token_hash)
            ).first()
            if found is None:
                return None
            row, account = found
            record = _token(row)
            user = UserRecord(
                account.id, account.username, account.password_hash,
                _aware(account.created_at) or utcnow(),
            )  # fmt: skip
        last = record.last_used_at
        if last is None or utcnow() - last >= TOUCH_EVERY:
            with self.session.begin() as s:
                s.execute(
                    update(ApiTokenRow).where(ApiTokenRow.id == record.id).values(
                        last_used_at=utcnow()
                    )
                )  # fmt: skip
        return record, user

    def revoke_api_token(self, user_id: int, token_id: int) -> bool:
        """Delete the token ``token_id`` of ``user_id``; whether there was one."""
        with self.session.begin() as s:
            gone = s.execute(
                delete(ApiTokenRow).where(
                    ApiTokenRow.id == token_id, ApiTokenRow.user_id == user_id
                )
            )
            return bool(getattr(gone, "rowcount", 0))

    # ------------------------------------------------------------------ bot accounts
    def make_bot_account(self, user_id: int) -> None:
        """Mark ``user_id`` a bot account: only an account that has played no game and holds
        no seat (:class:`NotANewAccount` otherwise). Doing it twice changes nothing."""
        with self.session.begin() as s:
            if s.get(BotAccountRow, user_id) is not None:
                return
            played = s.scalar(select(PlayerGameRow.id).where(PlayerGameRow.user_id == user_id))
            seated = s.scalar(select(SeatLinkRow.token_hash).where(SeatLinkRow.user_id == user_id))
            if played is not None or seated is not None:
                raise NotANewAccount(user_id)
            try:
                s.add(BotAccountRow(user_id=user_id, created_at=utcnow()))
                s.flush()
            except IntegrityError:  # made by a request at the same moment
                raise NotANewAccount(user_id) from None

    def bot_accounts(self, user_ids: set[int]) -> set[int]:
        """Which of ``user_ids`` are bot accounts."""
        if not user_ids:
            return set()
        with self.session() as s:
            return set(
                s.scalars(select(BotAccountRow.user_id).where(BotAccountRow.user_id.in_(user_ids)))
            )

    def bot_list(self, limit: int = 200) -> list[str]:
        """The usernames of the bot accounts, oldest first."""
        with self.session() as s:
            rows = s.scalars(
                select(UserRow.username)
                .join(BotAccountRow, BotAccountRow.user_id == UserRow.id)
                .order_by(BotAccountRow.created_at, UserRow.id)
                .limit(limit)
            ).all()
        return [str(r) for r in rows]


def is_bot_clause() -> Exists:
    """A SQL condition true for the rows whose ``UserRow.id`` is a bot account (leaderboards
    keep the humans' and the bots' apart)."""
    return select(BotAccountRow.user_id).where(BotAccountRow.user_id == UserRow.id).exists()
