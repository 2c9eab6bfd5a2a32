"""Game snapshots in the store: a game's state every N actions (``game_snapshots``), and the
actions a hand's replay needs from the nearest one, so the history viewer never replays a
long game from its start (issue 31, S9).

A snapshot is derived data: the game is still its seed and its actions. A game stored before
snapshots existed, or whose snapshot is missing or unreadable, replays from the start (or from
an earlier snapshot) as before. What a snapshot holds, and how it is made and read back, is
:mod:`sabacc.apps.server.snapshots`'s business; the store keeps its text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, func, insert, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session, sessionmaker

from sabacc.services.store.models import ActionRow, GameSnapshotRow, utcnow

if TYPE_CHECKING:
    from sabacc.services.store.repository import ActionRecord


@dataclass
class SnapshotRecord:
    """A game's state after ``idx`` actions: ``hand`` is the hand its next action belongs to,
    ``state`` the text of the snapshot, in format ``format``."""

    idx: int
    hand: int
    format: int
    state: str


@dataclass
class ActionSpan:
    """What replaying one hand needs: the snapshot to start from (None: the game's start) and
    the stored actions from there to the hand's last one, in order."""

    snapshot: SnapshotRecord | None
    actions: list[ActionRecord]


def insert_snapshots(conn: Connection | Session, game_id: int, snaps: Sequence[Any]) -> None:
    """Insert ``snaps`` (:class:`SnapshotRecord`) of one game, leaving alone any already
    stored at the same index (one action's snapshot is the same whoever took it)."""
    if not snaps:
        return
    rows = [
        {
            "game_id": game_id,
            "idx": s.idx,
            "hand": s.hand,
            "format": s.format,
            "state": s.state,
            "created_at": utcnow(),
        }
        for s in snaps
    ]
    bind = conn.get_bind() if isinstance(conn, Session) else conn
    dialect = bind.dialect.name
    if dialect == "postgresql":
        stmt: Any = postgresql.insert(GameSnapshotRow).on_conflict_do_nothing()
    elif dialect == "sqlite":
        stmt = sqlite.insert(GameSnapshotRow).on_conflict_do_nothing()
    else:  # pragma: no cover - the two databases the server supports
        stmt = insert(GameSnapshotRow)
    conn.execute(stmt, rows)


class SnapshotStore:
    """The store's snapshot calls (mixed into :class:`~sabacc.services.store.Store`)."""

    session: sessionmaker[Session]
    engine: Engine

    def add_snapshots(self, game_id: int, snaps: Sequence[SnapshotRecord]) -> None:
        """Store snapshots of a game taken later (a replay passing an index without one)."""
        with self.session.begin() as s:
            insert_snapshots(s, game_id, snaps)

    def snapshots(self, game_id: int) -> list[SnapshotRecord]:
        """Every snapshot of a game, in order (for tests and operators)."""
        with self.session() as s:
            rows = s.execute(
                select(
                    GameSnapshotRow.idx,
                    GameSnapshotRow.hand,
                    GameSnapshotRow.format,
                    GameSnapshotRow.state,
                )
                .where(GameSnapshotRow.game_id == game_id)
                .order_by(GameSnapshotRow.idx)
            ).all()
        return [SnapshotRecord(r.idx, r.hand, r.format, r.state) for r in rows]

    def hand_span(
        self, game_id: int, hand: int, *, snapshot: bool = True, below: int | None = None
    ) -> ActionSpan:
        """The nearest snapshot whose next action belongs to a hand before ``hand`` (so
        replaying from it shows the hand being dealt), unless ``snapshot`` is False, and the
        actions from it to the end of ``hand``: a range of the ``(game_id, idx)`` key, bounded
        by the first snapshot past the hand, never the whole game. ``below``: only a snapshot
        at an index before it (one at ``below`` did not read back)."""
        from sabacc.services.store.repository import ActionRecord

        with self.session() as s:
            snap = None
            if snapshot:
                row = s.execute(
                    select(
                        GameSnapshotRow.idx,
                        GameSnapshotRow.hand,
                        GameSnapshotRow.format,
                        GameSnapshotRow.state,
                    )
                    .where(
                        GameSnapshotRow.game_id == game_id,
                        GameSnapshotRow.hand < hand,
                        GameSnapshotRow.idx < (below if below is not None else 2**31 - 1),
                    )
                    .order_by(GameSnapshotRow.idx.desc())
                    .limit(1)
                ).first()
                if row is not None:
                    snap = SnapshotRecord(row.idx, row.hand, row.format, row.state)
            bound = s.scalar(
                select(func.min(GameSnapshotRow.idx)).where(
                    GameSnapshotRow.game_id == game_id, GameSnapshotRow.hand > hand
                )
            )
            query = (
                select(
                    ActionRow.idx, ActionRow.seat, ActionRow.action, ActionRow.hand, ActionRow.auto
                )
                .where(
                    ActionRow.game_id == game_id,
                    ActionRow.idx >= (snap.idx if snap else 0),
                    ActionRow.hand <= hand,
                )
                .order_by(ActionRow.idx)
            )
            if bound is not None:
                query = query.where(ActionRow.idx < bound)
            rows = s.execute(query).all()
        return ActionSpan(
            snap, [ActionRecord(r.idx, r.seat, r.action, r.hand, r.auto) for r in rows]
        )
