"""Tournaments on the web server, stored (issue 32, step 2): the events, their registrations
and the director's log.

The director (:mod:`sabacc.services.tournament`) is pure and seeded, so an event is stored as
its settings and seed, the registrations, and the **log of every command** the server gave
the director (the start, each table's hand, each event hand's close, a late entry, a
director's move or table break) with the events each command made (the draw, levels, busts,
moves, breaks, the final redraw...). Replaying the commands on a new director rebuilds the
event exactly, and the standings are a pure function of the stored events. The event clock
(the seconds it has run, the time a director added, whether it runs) is kept on the event's
row and saved every second while it runs, so a server that dies loses at most that second and
the clock does not run while no server is up.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.orm import Mapped, mapped_column

from sabacc.services.store.models import Base, utcnow


class TournamentRow(Base):
    """One event: its settings (``config``, an ``EventConfig`` as a dict, and the server's
    own: template, bot level, turn timer), seed, status (``registering``, ``running``,
    ``finished``), director, and clock."""

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(16), unique=True, index=True)
    name: Mapped[str] = mapped_column(String(80))
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(12), index=True)
    director_hash: Mapped[str] = mapped_column(String(64))
    director_user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True
    )
    clock_elapsed: Mapped[float] = mapped_column(Float, default=0.0)
    clock_added: Mapped[float] = mapped_column(Float, default=0.0)
    clock_running: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TournamentRegistrationRow(Base):
    """A registered player: an account (``user_id``), a guest (``token_hash``: the SHA-256
    of the token they hold) or a bot (``bot``: its level, always disclosed)."""

    __tablename__ = "tournament_registrations"
    __table_args__ = (UniqueConstraint("tournament_id", "name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(8))
    bot: Mapped[str | None] = mapped_column(String(16), nullable=True)
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True
    )
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TournamentLogRow(Base):
    """One command the server gave an event's director (``seq``: its place in the log) and
    the director events it made."""

    __tablename__ = "tournament_log"
    __table_args__ = (UniqueConstraint("tournament_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    seq: Mapped[int] = mapped_column(Integer)
    command: Mapped[dict[str, Any]] = mapped_column(JSON)
    events: Mapped[list[Any]] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


@dataclass
class EventRecord:
    """An event as stored (see :class:`TournamentRow`)."""

    id: int
    code: str
    name: str
    config: dict[str, Any]
    seed: int
    status: str
    director_hash: str
    director_user_id: int | None
    clock_elapsed: float
    clock_added: float
    clock_running: bool
    created_at: datetime


@dataclass
class RegistrationRecord:
    """A registration as stored (see :class:`TournamentRegistrationRow`)."""

    id: int
    name: str
    kind: str
    bot: str | None
    user_id: int | None
    token_hash: str | None


def _event(row: Any) -> EventRecord:
    return EventRecord(
        row.id,
        row.code,
        row.name,
        dict(row.config),
        int(row.seed),
        row.status,
        row.director_hash,
        row.director_user_id,
        float(row.clock_elapsed),
        float(row.clock_added),
        bool(row.clock_running),
        row.created_at,
    )


class TournamentStore:
    """The tournaments' rows on ``engine`` (the server's store's): every call one
    transaction, run by the server in its storage worker threads."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(
        self,
        code: str,
        name: str,
        config: dict[str, Any],
        seed: int,
        director_hash: str,
        director_user_id: int | None,
    ) -> EventRecord:
        with self.engine.begin() as conn:
            conn.execute(
                insert(TournamentRow).values(
                    code=code,
                    name=name,
                    config=config,
                    seed=seed,
                    status="registering",
                    director_hash=director_hash,
                    director_user_id=director_user_id,
                    clock_elapsed=0.0,
                    clock_added=0.0,
                    clock_running=False,
                    created_at=utcnow(),
                )
            )
        found = self.get(code)
        assert found is not None
        return found

    def get(self, code: str) -> EventRecord | None:
        with self.engine.connect() as conn:
            table = TournamentRow.__table__
            row = conn.execute(select(table).where(table.c.code == code)).first()
        return _event(row) if row is not None else None

    def code_taken(self, code: str) -> bool:
        return self.get(code) is not None

    def events(self) -> list[EventRecord]:
        """Every event, newest first."""
        with self.engine.connect() as conn:
            table = TournamentRow.__table__
            rows = conn.execute(select(table).order_by(table.c.id.desc())).all()
        return [_event(r) for r in rows]

    def registrations(self, event_id: int) -> list[RegistrationRecord]:
        """An event's registrations, in the order they came."""
        t = TournamentRegistrationRow
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(t.id, t.name, t.kind, t.bot, t.user_id, t.token_hash)
                .where(t.tournament_id == event_id)
                .order_by(t.id)
            ).all()
        return [RegistrationRecord(*r) for r in rows]

    def register(
        self,
        event_id: int,
        name: str,
        kind: str,
        bot: str | None = None,
        user_id: int | None = None,
        token_hash: str | None = None,
    ) -> RegistrationRecord:
        with self.engine.begin() as conn:
            rid = conn.execute(
                insert(TournamentRegistrationRow)
                .values(
                    tournament_id=event_id,
                    name=name,
                    kind=kind,
                    bot=bot,
                    user_id=user_id,
                    token_hash=token_hash,
                    at=utcnow(),
                )
                .returning(TournamentRegistrationRow.id)
            ).scalar_one()
        return RegistrationRecord(int(rid), name, kind, bot, user_id, token_hash)

    def unregister(self, event_id: int, registration_id: int) -> None:
        t = TournamentRegistrationRow
        with self.engine.begin() as conn:
            conn.execute(delete(t).where(t.tournament_id == event_id, t.id == registration_id))

    def log(self, event_id: int) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
        """The event's commands and the events each made, in order."""
        t = TournamentLogRow
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(t.command, t.events).where(t.tournament_id == event_id).order_by(t.seq)
            ).all()
        return [(dict(c), list(e)) for c, e in rows]

    def append(
        self,
        event_id: int,
        seq: int,
        entries: list[tuple[dict[str, Any], list[dict[str, Any]]]],
        *,
        status: str | None = None,
        clock: tuple[float, float, bool] | None = None,
    ) -> None:
        """Commands (and their events) from ``seq`` on, the event's status and clock, in one
        transaction: a server that dies stored all of them or none."""
        with self.engine.begin() as conn:
            for i, (command, events) in enumerate(entries):
                conn.execute(
                    insert(TournamentLogRow).values(
                        tournament_id=event_id,
                        seq=seq + i,
                        command=command,
                        events=events,
                        at=utcnow(),
                    )
                )
            self._update(conn, event_id, status, clock)

    def save(
        self,
        event_id: int,
        *,
        status: str | None = None,
        clock: tuple[float, float, bool] | None = None,
    ) -> None:
        """The event's status or clock (``elapsed``, ``added``, ``running``)."""
        with self.engine.begin() as conn:
            self._update(conn, event_id, status, clock)

    @staticmethod
    def _update(
        conn: Any, event_id: int, status: str | None, clock: tuple[float, float, bool] | None
    ) -> None:
        values: dict[str, Any] = {}
        if status is not None:
            values["status"] = status
        if clock is not None:
            values.update(clock_elapsed=clock[0], clock_added=clock[1], clock_running=clock[2])
        if values:
            conn.execute(update(TournamentRow).where(TournamentRow.id == event_id).values(values))

    def count(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(TournamentRow)).scalar_one())
