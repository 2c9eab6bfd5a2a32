"""The store: write-through persistence of web tables (SQLite by default, PostgreSQL by URL).

Every method is one short transaction. The server calls them as things happen (a table created,
a seat taken, a game started, each action applied), so a server killed at any moment restarts
from the database exactly where it was: see :meth:`Store.load_tables`.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import IO, Any

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no file claim
    fcntl = None  # type: ignore[assignment]

from sqlalchemy import (
    JSON,
    Connection,
    Engine,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from sabacc.services.store.api_tokens import ApiStore
from sabacc.services.store.community import CommunityStore
from sabacc.services.store.models import (
    ActionRow,
    GameRow,
    GameSnapshotRow,
    LeaseRow,
    SeatRow,
    TableRow,
    utcnow,
)
from sabacc.services.store.schema import upgrade
from sabacc.services.store.snapshots import SnapshotRecord, SnapshotStore, insert_snapshots


@dataclass
class SeatRecord:
    position: int
    kind: str  # "human" | "bot"
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None
    away: bool = False
    net: int = 0


@dataclass
class ActionRecord:
    idx: int
    seat: int
    action: str
    hand: int
    auto: bool = False


@dataclass
class ActionWrite:
    """One applied action to store with :meth:`Store.record_actions` (the arguments of
    :meth:`Store.record_action`)."""

    table_id: int
    game_id: int
    action: ActionRecord
    stacks: list[int]
    hands: int
    result: dict[str, Any] | None = None
    nets: dict[int, int] | None = None
    #: The game's state after this action, stored with it (every N-th action: see
    #: :mod:`sabacc.services.store.snapshots`).
    snapshot: SnapshotRecord | None = None


@dataclass
class GameRecord:
    id: int
    number: int
    variant: str
    options: dict[str, Any]
    seed: int
    players: list[str]
    seat_tokens: list[str | None]
    bots: list[str | None]
    stacks: list[int]
    hands: int
    action_count: int
    result: dict[str, Any] | None
    started_at: datetime
    finished_at: datetime | None
    actions: list[ActionRecord] = field(default_factory=list)

    def history(self) -> dict[str, Any]:
        """The engine's hand-history document for this game (see :func:`sabacc.replay`)."""
        from sabacc.engine.game import HISTORY_FORMAT, HISTORY_VERSION

        return {
            "format": HISTORY_FORMAT,
            "version": HISTORY_VERSION,
            "variant": self.variant,
            "options": dict(self.options),
            "seed": self.seed,
            "players": list(self.players),
            "actions": [{"seat": a.seat, "action": a.action} for a in self.actions],
            "result": self.result,
        }


@dataclass
class TableRecord:
    id: int
    code: str
    name: str
    variant: str
    options: dict[str, Any]
    turn_timer: float
    listed: bool
    host_hash: str
    status: str
    games_played: int
    created_at: datetime
    seats: list[SeatRecord] = field(default_factory=list)
    game: GameRecord | None = None  # the latest game, with its actions
    #: Why this table's rows could not be read (then only its plain columns are filled in).
    damage: str | None = None


#: What reading a damaged row raises (bad JSON, a JSON value of the wrong shape); a database
#: that cannot be reached raises SQLAlchemy's errors instead, and those are not caught.
DATA_ERRORS = (ValueError, TypeError, LookupError, AttributeError)


def normalise_url(url: str) -> str:
    """``postgresql://`` means psycopg 3 (the ``postgres`` extra); other URLs pass through."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def redact_url(url: str) -> str:
    """``url`` with its password replaced by ``***``: what logs and banners may show."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL SQLAlchemy reads: show only the scheme
        return url.split("://", 1)[0] + "://..."


def make_engine(url: str, timeout: float = 30.0, pool_size: int = 5) -> Engine:
    """An engine whose every call gives up after about ``timeout`` seconds: a locked SQLite
    file (busy timeout), an unreachable or stuck PostgreSQL (connect and statement timeouts).
    The call itself fails, so a caller never has to abandon a write that may still commit."""
    url = normalise_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": timeout})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            if ":memory:" not in url and url not in ("sqlite://", "sqlite:///"):
                # WAL + NORMAL: a commit survives the process being killed (SIGKILL); only a
                # power loss may drop the last commits. Much faster than a full fsync per action.
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    if url.startswith("postgresql"):
        millis = max(1, int(timeout * 1000))
        return create_engine(
            url,
            pool_pre_ping=True,
            pool_size=pool_size,
            pool_timeout=timeout,
            connect_args={
                "connect_timeout": max(1, round(timeout)),
                "options": f"-c statement_timeout={millis} -c lock_timeout={millis}",
            },
        )
    return create_engine(url, pool_pre_ping=True)


class StoreBusy(Exception):
    """Another server already holds this database (see :meth:`Store.claim`)."""


#: The PostgreSQL advisory lock a server holds on its database ("sabacc" in ASCII).
CLAIM_KEY = 0x736162616363


def _busy(what: str, shared: bool, cluster_holds: bool | None) -> str:
    """Why a claim was refused: who holds ``what`` (a plain server, cluster servers)."""
    if shared:
        return (
            f"another sabacc server is using {what} without --cluster: cluster servers share "
            "a database only with each other; one server per database"
        )
    if cluster_holds:
        return (
            f"another sabacc server is using {what}: --cluster servers lease its tables, and a "
            "plain server would give their seats away again; one server per database"
        )
    return f"another sabacc server is using {what}: one server per database"


class Store(SnapshotStore, CommunityStore, ApiStore):
    """Tables, seats, games and actions in a relational database."""

    def __init__(
        self, url: str = "sqlite:///sabacc.db", *, timeout: float = 30.0, pool_size: int = 5
    ) -> None:
        self.url = url
        self.engine = make_engine(url, timeout, pool_size)
        #: The schema revision the database was at when opened (None: new, or made before
        #: migrations); it is at the newest one now (:mod:`sabacc.services.store.schema`).
        self.upgraded_from = upgrade(self.engine)
        self.session = sessionmaker(self.engine, expire_on_commit=False)
        # One connection per worker thread, kept open for the per-action hot path.
        self._local = threading.local()
        self._writers: list[Connection] = []
        self._writers_lock = threading.Lock()
        #: Bumped by every failed write: each thread's kept connection is opened again before
        #: its next write (after a PostgreSQL restart every kept one is dead, not only the
        #: one that failed).
        self._writer_generation = 0
        self._claim_file: IO[str] | None = None
        self._claim_conn: Connection | None = None
        #: Whether the claim is a cluster server's, shared with the other cluster servers.
        self._claim_shared = False

    def close(self) -> None:
        with self._writers_lock:
            for writer in self._writers:
                with contextlib.suppress(Exception):
                    writer.close()
            self._writers.clear()
        if self._claim_conn is not None:
            with contextlib.suppress(Exception):
                self._claim_conn.close()
            self._claim_conn = None
        if self._claim_file is not None:
            self._claim_file.close()  # releases the lock
            self._claim_file = None
        self.engine.dispose()

    def claim(self, shared: bool | None = None) -> None:
        """Make this process the one server of this database, or raise :class:`StoreBusy`.

        Two servers on one database would give one seat to two people. SQLite: a lock on a
        file beside the database (``<file>.server-lock``); PostgreSQL: a session advisory lock
        on a connection of its own. A plain server takes it exclusively; ``--cluster`` servers
        (``shared=True``) share it among themselves (their tables are leased one by one), so a
        plain server refuses a database cluster servers use and a cluster server refuses one a
        plain server uses. The operating system or the database drops the claim when the
        process dies, so a killed server's successor, of either kind, starts at once: there is
        no marker left to expire. Calling it again (``shared`` None: as before) renews a
        PostgreSQL claim lost with its connection (a database restart).
        """
        if shared is not None:
            self._claim_shared = shared
        shared = self._claim_shared
        url = self.engine.url
        backend = url.get_backend_name()
        if backend == "sqlite":
            path = url.database
            if self._claim_file is not None or not path or path == ":memory:" or fcntl is None:
                return
            handle = open(f"{path}.server-lock", "a")  # noqa: SIM115 - held until close()
            try:
                fcntl.flock(handle, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
            except OSError:
                handle.close()
                raise StoreBusy(_busy(f"the database file {path}", shared, None)) from None
            self._claim_file = handle
            return
        if backend != "postgresql":
            return
        if self._claim_conn is not None:
            try:
                self._claim_conn.execute(select(1))
                self._claim_conn.commit()
                return  # still held
            except Exception:
                self._claim_conn.invalidate()
                self._claim_conn = None
        conn = self.engine.connect()
        kind = "_shared" if shared else ""
        got = conn.execute(
            text(f"SELECT pg_try_advisory_lock{kind}(:key)"), {"key": CLAIM_KEY}
        ).scalar()
        conn.commit()
        if not got:
            cluster_holds = None
            if not shared:  # held by a plain server, or shared by cluster servers?
                cluster_holds = bool(
                    conn.execute(
                        text("SELECT pg_try_advisory_lock_shared(:key)"), {"key": CLAIM_KEY}
                    ).scalar()
                )
                if cluster_holds:
                    conn.execute(text("SELECT pg_advisory_unlock_shared(:key)"), {"key": CLAIM_KEY})
                conn.commit()
            conn.close()
            raise StoreBusy(_busy(f"the database {redact_url(self.url)}", shared, cluster_holds))
        self._claim_conn = conn

    def ping(self) -> None:
        """Raise if the database cannot be reached now (the server's check while it is down)."""
        with self.engine.connect() as conn:
            conn.execute(select(1))

    def _writer_connection(self) -> Connection:
        """This thread's writer connection (opened on first use, again after a failure)."""
        writer: Connection | None = getattr(self._local, "writer", None)
        generation = self._writer_generation
        stale = getattr(self._local, "generation", generation) != generation
        if writer is not None and stale and not writer.closed:
            writer.invalidate()  # this thread's own connection, not in use now
        if writer is None or writer.closed or writer.invalidated:
            writer = self.engine.connect()
            self._local.writer = writer
            self._local.generation = generation
            with self._writers_lock:
                self._writers = [w for w in self._writers if not w.closed]
                self._writers.append(writer)
        return writer

    # ------------------------------------------------------------------ tables and seats
    def code_taken(self, code: str) -> bool:
        with self.session() as s:
            return s.scalar(select(TableRow.id).where(TableRow.code == code)) is not None

    def create_table(
        self,
        *,
        code: str,
        name: str,
        variant: str,
        options: dict[str, Any],
        turn_timer: float,
        listed: bool,
        host_hash: str,
        seats: Sequence[SeatRecord],
    ) -> TableRecord:
        with self.session.begin() as s:
            row = TableRow(
                code=code,
                name=name,
                variant=variant,
                options=dict(options),
                turn_timer=turn_timer,
                listed=listed,
                host_hash=host_hash,
                status="waiting",
                games_played=0,
                created_at=utcnow(),
            )
            s.add(row)
            s.flush()
            for seat in seats:
                s.add(_seat_row(row.id, seat))
            table_id = row.id
            created = row.created_at
        return TableRecord(
            id=table_id,
            code=code,
            name=name,
            variant=variant,
            options=dict(options),
            turn_timer=turn_timer,
            listed=listed,
            host_hash=host_hash,
            status="waiting",
            games_played=0,
            created_at=created,
            seats=list(seats),
        )

    def save_seat(self, table_id: int, seat: SeatRecord) -> None:
        with self.session.begin() as s:
            s.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.position == seat.position)
                .values(
                    kind=seat.kind,
                    bot=seat.bot,
                    name=seat.name,
                    token_hash=seat.token_hash,
                    away=seat.away,
                    net=seat.net,
                )
            )

    def replace_seats(self, table_id: int, seats: Sequence[SeatRecord]) -> None:
        """Rewrite every seat of a table (the host started early: empty seats removed)."""
        with self.session.begin() as s:
            s.execute(delete(SeatRow).where(SeatRow.table_id == table_id))
            for seat in seats:
                s.add(_seat_row(table_id, seat))

    def set_status(self, table_id: int, status: str) -> None:
        with self.session.begin() as s:
            s.execute(update(TableRow).where(TableRow.id == table_id).values(status=status))

    def unused_since(self, before: datetime, limit: int = 500) -> list[tuple[int, str]]:
        """``(id, code)`` of up to ``limit`` tables with nothing stored since ``before``: made
        earlier, and no game started or finished, no action played since (the candidates for
        expiry; seats taken or left are not dated, and the server also checks its memory)."""
        recent_game = (
            select(GameRow.id)
            .where(
                GameRow.table_id == TableRow.id,
                (GameRow.started_at >= before) | (GameRow.finished_at >= before),
            )
            .exists()
        )
        recent_action = (
            select(ActionRow.id)
            .join(GameRow, ActionRow.game_id == GameRow.id)
            .where(GameRow.table_id == TableRow.id, ActionRow.created_at >= before)
            .exists()
        )
        query = (
            select(TableRow.id, TableRow.code)
            .where(TableRow.created_at < before, ~recent_game, ~recent_action)
            .order_by(TableRow.id)
            .limit(limit)
        )
        with self.session() as s:
            return [(int(row.id), str(row.code)) for row in s.execute(query)]

    def delete_table(self, table_id: int) -> None:
        """Delete a table with its seats, games and actions."""
        with self.session.begin() as s:
            game_ids = select(GameRow.id).where(GameRow.table_id == table_id)
            s.execute(delete(GameSnapshotRow).where(GameSnapshotRow.game_id.in_(game_ids)))
            s.execute(delete(ActionRow).where(ActionRow.game_id.in_(game_ids)))
            s.execute(delete(GameRow).where(GameRow.table_id == table_id))
            s.execute(delete(SeatRow).where(SeatRow.table_id == table_id))
            s.execute(delete(TableRow).where(TableRow.id == table_id))

    # ------------------------------------------------------------------ leases (PostgreSQL)
    # Several servers sharing one PostgreSQL own tables one at a time: a lease row per table,
    # dated by the database's own clock (no clock skew between hosts).
    def table_id(self, code: str) -> int | None:
        with self.session() as s:
            found = s.scalar(select(TableRow.id).where(TableRow.code == code))
            return None if found is None else int(found)

    def take_lease(self, table_id: int, owner: str, ttl: float) -> str:
        """Take (or renew) the lease of a table for ``owner`` if it is free, expired or
        already ``owner``'s; returns the owner it has now (someone else: not taken, and that
        owner is asked to hand it over)."""
        with self.session.begin() as s:
            got = s.execute(_TAKE_LEASE, {"t": table_id, "o": owner, "ttl": ttl}).scalar()
            if got is not None:
                return str(got)
            s.execute(update(LeaseRow).where(LeaseRow.table_id == table_id).values(wanted_by=owner))
            current = s.scalar(select(LeaseRow.owner).where(LeaseRow.table_id == table_id))
            return str(current) if current is not None else ""

    def renew_leases(self, owner: str, ttl: float) -> tuple[set[int], set[int]]:
        """Extend every lease ``owner`` holds; returns the tables held and, among them, those
        another server asked for."""
        with self.session.begin() as s:
            rows = s.execute(_RENEW_LEASES, {"o": owner, "ttl": ttl}).all()
        held = {int(r[0]) for r in rows}
        wanted = {int(r[0]) for r in rows if r[1] is not None and r[1] != owner}
        return held, wanted

    def expired_leases(self, limit: int = 100) -> list[str]:
        """Codes of tables whose owner stopped renewing (a dead server): to be adopted."""
        query = (
            select(TableRow.code)
            .join(LeaseRow, LeaseRow.table_id == TableRow.id)
            .where(LeaseRow.expires_at < func.now())
            .limit(limit)
        )
        with self.session() as s:
            return [str(c) for c in s.scalars(query)]

    def listed_tables(self, limit: int = 100) -> list[dict[str, Any]]:
        """The listed tables of every server sharing this database, newest first: each one's
        plain columns, its seat counts and ``owner``, the server whose lease on it is live
        (None: no server holds it now; the first to be asked for it loads it). For the lobby
        of a cluster."""
        with self.session() as s:
            rows = s.execute(
                select(
                    TableRow.id, TableRow.code, TableRow.name, TableRow.variant,
                    TableRow.status, TableRow.games_played, TableRow.created_at,
                )
                .where(TableRow.listed.is_(True))
                .order_by(TableRow.created_at.desc(), TableRow.id.desc())
                .limit(limit)
            ).all()  # fmt: skip
            ids = [r.id for r in rows]
            seats: dict[int, list[tuple[str, bool]]] = {i: [] for i in ids}
            owners: dict[int, str] = {}
            if ids:
                for t, kind, token in s.execute(
                    select(SeatRow.table_id, SeatRow.kind, SeatRow.token_hash).where(
                        SeatRow.table_id.in_(ids)
                    )
                ):
                    seats[t].append((kind, token is not None))
                for t, owner in s.execute(
                    select(LeaseRow.table_id, LeaseRow.owner).where(
                        LeaseRow.table_id.in_(ids), LeaseRow.expires_at >= func.now()
                    )
                ):
                    owners[t] = owner
        return [
            {
                "id": r.id,
                "code": r.code,
                "name": r.name,
                "variant": r.variant,
                "status": r.status,
                "game_no": r.games_played,
                "seats": len(seats[r.id]),
                "open_seats": sum(
                    1 for kind, taken in seats[r.id] if kind == "human" and not taken
                ),
                "humans": sum(1 for kind, _ in seats[r.id] if kind == "human"),
                "owner": owners.get(r.id),
            }
            for r in rows
        ]

    def lease_counts(self) -> dict[str, int]:
        """How many tables each server holds a live lease on (the live servers of a cluster
        that hold any table)."""
        with self.session() as s:
            rows = s.execute(
                select(LeaseRow.owner, func.count())
                .where(LeaseRow.expires_at >= func.now())
                .group_by(LeaseRow.owner)
            ).all()
        return {str(owner): int(n) for owner, n in rows}

    def release_lease(self, table_id: int, owner: str) -> None:
        with self.session.begin() as s:
            s.execute(
                delete(LeaseRow).where(LeaseRow.table_id == table_id, LeaseRow.owner == owner)
            )

    def lease_owner(self, table_id: int) -> str | None:
        with self.session() as s:
            owner = s.scalar(select(LeaseRow.owner).where(LeaseRow.table_id == table_id))
            return None if owner is None else str(owner)

    # ------------------------------------------------------------------ games and actions
    def start_game(
        self,
        table_id: int,
        *,
        number: int,
        variant: str,
        options: dict[str, Any],
        seed: int,
        players: list[str],
        seat_tokens: list[str | None],
        bots: list[str | None],
        stacks: list[int],
        hands: int,
    ) -> GameRecord:
        now = utcnow()
        with self.session.begin() as s:
            row = GameRow(
                table_id=table_id,
                number=number,
                variant=variant,
                options=dict(options),
                seed=seed,
                players=list(players),
                seat_tokens=list(seat_tokens),
                bots=list(bots),
                stacks=list(stacks),
                hands=hands,
                action_count=0,
                result=None,
                started_at=now,
                finished_at=None,
            )
            s.add(row)
            s.execute(
                update(TableRow)
                .where(TableRow.id == table_id)
                .values(status="playing", games_played=number)
            )
            s.flush()
            game_id = row.id
        return GameRecord(
            id=game_id,
            number=number,
            variant=variant,
            options=dict(options),
            seed=seed,
            players=list(players),
            seat_tokens=list(seat_tokens),
            bots=list(bots),
            stacks=list(stacks),
            hands=hands,
            action_count=0,
            result=None,
            started_at=now,
            finished_at=None,
        )

    def record_action(
        self,
        table_id: int,
        game_id: int,
        action: ActionRecord,
        *,
        stacks: list[int],
        hands: int,
        result: dict[str, Any] | None = None,
        nets: dict[int, int] | None = None,
    ) -> None:
        """Store one applied action (and, if it ended the game, the result) atomically (see
        :meth:`record_actions`)."""
        self.record_actions(
            [ActionWrite(table_id, game_id, action, list(stacks), hands, result, nets)]
        )

    def record_actions(self, writes: Sequence[ActionWrite]) -> None:
        """Store several applied actions (of different games) in one transaction: all of them
        or none (group commit: one commit, one statement for all the action rows and one for
        all the game rows, however many tables acted meanwhile).

        The hot path of the server: Core statements compiled once, on a connection kept open
        (no pool round trip, one per thread), in one short transaction.
        """
        if not writes:
            return
        conn = self._writer_connection()
        try:
            with conn.begin():
                now = utcnow()
                conn.execute(
                    _INSERT_ACTION,
                    [
                        {
                            "game_id": w.game_id,
                            "idx": w.action.idx,
                            "seat": w.action.seat,
                            "action": w.action.action,
                            "hand": w.action.hand,
                            "auto": w.action.auto,
                            "created_at": now,
                        }
                        for w in writes
                    ],
                )
                running = [
                    {
                        "gid": w.game_id,
                        "stacks": list(w.stacks),
                        "hands": w.hands,
                        "action_count": w.action.idx + 1,
                    }
                    for w in writes
                    if w.result is None
                ]
                if running:
                    conn.execute(_UPDATE_GAME, running)
                for w in writes:
                    if w.snapshot is not None:
                        insert_snapshots(conn, w.game_id, [w.snapshot])
                for w in writes:
                    if w.result is not None:
                        self._finish(conn, w)
        except Exception:
            conn.invalidate()  # start afresh on the next call (e.g. a lost PostgreSQL link)
            self._writer_generation += 1  # and the other threads too
            raise

    @staticmethod
    def _finish(conn: Connection, w: ActionWrite) -> None:
        """The game's last action ended it: its result, the table finished, the seats' nets."""
        table_id, game_id, stacks = w.table_id, w.game_id, w.stacks
        conn.execute(
            update(GameRow)
            .where(GameRow.id == game_id)
            .values(
                stacks=list(stacks),
                hands=w.hands,
                action_count=w.action.idx + 1,
                result=w.result,
                finished_at=utcnow(),
            )
        )
        conn.execute(update(TableRow).where(TableRow.id == table_id).values(status="finished"))
        for position, net in (w.nets or {}).items():
            conn.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.position == position)
                .values(net=net)
            )

    # ------------------------------------------------------------------ loading
    def load_tables(self, code: str | None = None) -> list[TableRecord]:
        """Every table (or the one called ``code``) with its seats and its latest game (with
        all of that game's actions).

        A table whose rows cannot be read (bad JSON, say) does not stop the others: it comes
        back with only its plain columns and :attr:`TableRecord.damage` saying what is wrong.
        """
        try:
            return self._load_tables(code=code)
        except DATA_ERRORS:
            pass
        with self.session() as s:  # one at a time, to find the damaged ones
            query = select(TableRow.id).order_by(TableRow.id)
            if code is not None:
                query = query.where(TableRow.code == code)
            ids = list(s.scalars(query))
        out: list[TableRecord] = []
        for table_id in ids:
            try:
                out += self._load_tables(table_id=table_id)
            except DATA_ERRORS as exc:
                out.append(self._damaged(table_id, exc))
        return out

    def _load_tables(
        self, *, code: str | None = None, table_id: int | None = None
    ) -> list[TableRecord]:
        out: list[TableRecord] = []
        with self.session() as s:
            query = select(TableRow).order_by(TableRow.id)
            seat_query = select(SeatRow).order_by(SeatRow.table_id, SeatRow.position)
            if code is not None:
                query = query.where(TableRow.code == code)
                seat_query = seat_query.join(TableRow, SeatRow.table_id == TableRow.id).where(
                    TableRow.code == code
                )
            if table_id is not None:
                query = query.where(TableRow.id == table_id)
                seat_query = seat_query.where(SeatRow.table_id == table_id)
            tables = s.scalars(query).all()
            seats: dict[int, list[SeatRecord]] = {}
            for seat in s.scalars(seat_query):
                seats.setdefault(seat.table_id, []).append(_seat_record(seat))
            for t in tables:
                rec = _table_record(t)
                rec.seats = seats.get(t.id, [])
                game = s.scalars(
                    select(GameRow)
                    .where(GameRow.table_id == t.id)
                    .order_by(GameRow.number.desc())
                    .limit(1)
                ).first()
                if game is not None:
                    rec.game = _game_record(game)
                    rec.game.actions = self._actions(s, game.id)
                out.append(rec)
        return out

    def _damaged(self, table_id: int, exc: Exception) -> TableRecord:
        """A table whose rows do not read: its plain columns, and what went wrong."""
        with self.session() as s:
            row = s.execute(
                select(
                    TableRow.code,
                    TableRow.name,
                    TableRow.variant,
                    TableRow.turn_timer,
                    TableRow.listed,
                    TableRow.host_hash,
                    TableRow.status,
                    TableRow.games_played,
                    TableRow.created_at,
                ).where(TableRow.id == table_id)
            ).one()
        return TableRecord(
            id=table_id,
            code=row.code,
            name=row.name,
            variant=row.variant,
            options={},
            turn_timer=row.turn_timer,
            listed=row.listed,
            host_hash=row.host_hash,
            status=row.status,
            games_played=row.games_played,
            created_at=row.created_at,
            damage=f"{type(exc).__name__}: {exc}"[:300],
        )

    def list_games(self, table_id: int) -> list[GameRecord]:
        with self.session() as s:
            rows = s.scalars(
                select(GameRow).where(GameRow.table_id == table_id).order_by(GameRow.number)
            ).all()
            return [_game_record(r) for r in rows]

    def load_game(self, table_id: int, number: int, *, actions: bool = True) -> GameRecord | None:
        """Game ``number`` of a table, with its actions unless ``actions`` is False."""
        with self.session() as s:
            row = s.scalars(
                select(GameRow).where(GameRow.table_id == table_id, GameRow.number == number)
            ).first()
            if row is None:
                return None
            rec = _game_record(row)
            if actions:
                rec.actions = self._actions(s, row.id)
            return rec

    @staticmethod
    def _actions(s: Session, game_id: int) -> list[ActionRecord]:
        rows = s.execute(
            select(ActionRow.idx, ActionRow.seat, ActionRow.action, ActionRow.hand, ActionRow.auto)
            .where(ActionRow.game_id == game_id)
            .order_by(ActionRow.idx)
        ).all()
        return [ActionRecord(r.idx, r.seat, r.action, r.hand, r.auto) for r in rows]


_INSERT_ACTION = insert(ActionRow)
_UPDATE_GAME = (
    update(GameRow)
    .where(GameRow.id == bindparam("gid"))
    .values(
        stacks=bindparam("stacks", type_=JSON),
        hands=bindparam("hands"),
        action_count=bindparam("action_count"),
    )
)


def _seat_row(table_id: int, seat: SeatRecord) -> SeatRow:
    return SeatRow(
        table_id=table_id,
        position=seat.position,
        kind=seat.kind,
        bot=seat.bot,
        name=seat.name,
        token_hash=seat.token_hash,
        away=seat.away,
        net=seat.net,
    )


def _seat_record(row: SeatRow) -> SeatRecord:
    return SeatRecord(
        position=row.position,
        kind=row.kind,
        bot=row.bot,
        name=row.name,
        token_hash=row.token_hash,
        away=row.away,
        net=row.net,
    )


def _table_record(row: TableRow) -> TableRecord:
    return TableRecord(
        id=row.id,
        code=row.code,
        name=row.name,
        variant=row.variant,
        options=dict(row.options or {}),
        turn_timer=row.turn_timer,
        listed=row.listed,
        host_hash=row.host_hash,
        status=row.status,
        games_played=row.games_played,
        created_at=row.created_at,
    )


def _game_record(row: GameRow) -> GameRecord:
    return GameRecord(
        id=row.id,
        number=row.number,
        variant=row.variant,
        options=dict(row.options or {}),
        seed=int(row.seed),
        players=list(row.players),
        seat_tokens=list(row.seat_tokens),
        bots=list(row.bots),
        stacks=list(row.stacks),
        hands=row.hands,
        action_count=row.action_count,
        result=row.result,
        started_at=row.started_at,
        finished_at=row.finished_at,
    )


_TAKE_LEASE = text(
    "INSERT INTO leases (table_id, owner, expires_at, wanted_by) "
    "VALUES (:t, :o, now() + make_interval(secs => :ttl), NULL) "
    "ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, "
    "expires_at = EXCLUDED.expires_at, wanted_by = NULL "
    "WHERE leases.owner = EXCLUDED.owner OR leases.expires_at < now() "
    "RETURNING owner"
)
_RENEW_LEASES = text(
    "UPDATE leases SET expires_at = now() + make_interval(secs => :ttl) "
    "WHERE owner = :o RETURNING table_id, wanted_by"
)
