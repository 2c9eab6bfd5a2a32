"""What the processes of a ``--cluster`` site share in PostgreSQL (issue 31, point 2): the
quick-match queues, presence, invitations and the site-wide per-client counters, with a
``NOTIFY`` on channel :data:`CHANNEL` after each change another process may wait for.

Times are the database's (``now()``), so the processes' clocks never disagree. A ticket is
matched once: a match round holds the site's round lock (a transaction-scoped advisory lock:
a process finding it taken skips its round) and takes the waiting tickets ``FOR UPDATE SKIP
LOCKED`` in a transaction it keeps open while it seats them (:class:`Claim`); if the matcher
dies the transaction rolls back and the tickets wait again.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, text

#: The LISTEN/NOTIFY channel of the site's changes.
CHANNEL = "sabacc_site"
#: The advisory lock of a match round ("sabmat" in ASCII): one round at a time on the site.
MATCH_KEY = 0x7361626D6174
#: Seconds a waiting ticket nobody asks about is kept (its player went away), and a settled
#: one nobody read (its result names a seat token: it is not kept longer than needed).
TICKET_IDLE = 60.0


@dataclass
class TicketRow:
    """A ticket as stored; ``waited`` and ``idle`` are seconds by the database's clock."""

    id_hash: str
    variant: str
    seats: int
    wait: float
    name: str
    user_id: int | None
    status: str
    result: dict[str, Any] | None
    waited: float


_TICKET = (
    "id_hash, variant, seats, wait, name, user_id, status, result, "
    "extract(epoch from now() - since) AS waited"
)


def _ticket(row: Any) -> TicketRow:
    id_hash, variant, seats, wait, name, user_id, status, result, waited = row
    return TicketRow(
        id_hash, variant, int(seats), float(wait), name, user_id, status, result, float(waited)
    )


class Claim:
    """Waiting tickets taken by one matcher: row-locked until :meth:`SiteStore.settle` commits
    their outcomes (or :meth:`SiteStore.release` rolls back: they wait again)."""

    def __init__(self, conn: Connection, groups: list[list[TicketRow]]) -> None:
        self.conn = conn
        self.groups = groups


def _groups(rows: list[TicketRow]) -> list[list[TicketRow]]:
    """The groups to seat now, from one queue's waiting tickets (oldest first): full tables,
    then whoever waits if the first has waited as long as it chose."""
    out = []
    queue = list(rows)
    while queue and len(queue) >= queue[0].seats:
        seats = queue[0].seats
        out.append(queue[:seats])
        del queue[:seats]
    if queue and queue[0].waited >= queue[0].wait:
        out.append(queue)
    return out


class SiteStore:
    """The shared site state on a PostgreSQL ``engine`` (every call is one transaction)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @staticmethod
    def _notify(conn: Connection, payload: str) -> None:
        conn.execute(text("SELECT pg_notify(:c, :p)"), {"c": CHANNEL, "p": payload})

    # -------------------------------------------------------------- quick match
    def add_ticket(
        self, id_hash: str, variant: str, seats: int, wait: float, name: str, user_id: int | None
    ) -> None:
        """A waiting ticket (an account's older waiting tickets in that queue are dropped)."""
        with self.engine.begin() as conn:
            if user_id is not None:
                conn.execute(
                    text(
                        "DELETE FROM match_tickets WHERE user_id = :u AND status = 'waiting' "
                        "AND variant = :v AND seats = :s"
                    ),
                    {"u": user_id, "v": variant, "s": seats},
                )
            conn.execute(
                text(
                    "INSERT INTO match_tickets (id_hash, variant, seats, wait, name, user_id, "
                    "status, since, seen) VALUES (:h, :v, :s, :w, :n, :u, 'waiting', now(), now())"
                ),
                {"h": id_hash, "v": variant, "s": seats, "w": wait, "n": name, "u": user_id},
            )
            self._notify(conn, "queue")

    def waiting(self) -> int:
        """How many tickets wait, over every queue."""
        with self.engine.connect() as conn:
            found = conn.execute(
                text("SELECT count(*) FROM match_tickets WHERE status = 'waiting'")
            ).scalar()
        return int(found or 0)

    def poll_ticket(self, id_hash: str) -> tuple[TicketRow, int] | None:
        """The ticket (its player asked: kept for another minute) and how many wait in its
        queue; a settled ticket is handed over once (deleted as it is read)."""
        with self.engine.begin() as conn:
            row = conn.execute(
                text(
                    f"UPDATE match_tickets SET seen = now() WHERE id_hash = :h RETURNING {_TICKET}"
                ),
                {"h": id_hash},
            ).first()
            if row is None:
                return None
            ticket = _ticket(row)
            if ticket.status != "waiting":
                conn.execute(text("DELETE FROM match_tickets WHERE id_hash = :h"), {"h": id_hash})
                return ticket, 0
            queue = conn.execute(
                text(
                    "SELECT count(*) FROM match_tickets WHERE status = 'waiting' "
                    "AND variant = :v AND seats = :s"
                ),
                {"v": ticket.variant, "s": ticket.seats},
            ).scalar()
        return ticket, int(queue or 0)

    def cancel_ticket(self, id_hash: str) -> None:
        """Drop a waiting ticket (one being seated now is seated: its matcher holds it)."""
        with self.engine.begin() as conn:
            conn.execute(
                text("DELETE FROM match_tickets WHERE id_hash = :h AND status = 'waiting'"),
                {"h": id_hash},
            )

    def claim_due(self) -> Claim | None:
        """Take the waiting tickets no other matcher holds, drop the forgotten ones, and
        group those to seat now; None when there is nothing to seat (nothing stays locked), or
        another process's round is under way (it sees the whole queue: no queue is split
        between two rounds that would each see too few tickets to seat)."""
        conn = self.engine.connect()
        try:
            mine = conn.execute(text("SELECT pg_try_advisory_xact_lock(:k)"), {"k": MATCH_KEY})
            if not mine.scalar():
                conn.rollback()
                conn.close()
                return None
            conn.execute(
                text(
                    "DELETE FROM match_tickets WHERE id_hash IN (SELECT id_hash FROM "
                    "match_tickets WHERE seen < now() - make_interval(secs => :idle) "
                    "FOR UPDATE SKIP LOCKED)"
                ),
                {"idle": TICKET_IDLE},
            )
            rows = conn.execute(
                text(
                    f"SELECT {_TICKET} FROM match_tickets WHERE status = 'waiting' "
                    "ORDER BY variant, seats, since, id_hash FOR UPDATE SKIP LOCKED"
                )
            ).all()
            queues: dict[tuple[str, int], list[TicketRow]] = {}
            for row in rows:
                ticket = _ticket(row)
                queues.setdefault((ticket.variant, ticket.seats), []).append(ticket)
            groups = [g for queue in queues.values() for g in _groups(queue)]
            if not groups:
                conn.commit()
                conn.close()
                return None
            return Claim(conn, groups)
        except BaseException:
            conn.close()
            raise

    def settle(self, claim: Claim, outcomes: dict[str, tuple[str, dict[str, Any]]]) -> None:
        """Store each seated ticket's ``(status, result)`` and let the locks go."""
        conn = claim.conn
        try:
            for id_hash, (status, result) in outcomes.items():
                conn.execute(
                    text(
                        "UPDATE match_tickets SET status = :s, result = CAST(:r AS json), "
                        "seen = now() WHERE id_hash = :h"
                    ),
                    {"s": status, "r": _json(result), "h": id_hash},
                )
            self._notify(conn, "settled")
            conn.commit()
        finally:
            conn.close()

    @staticmethod
    def release(claim: Claim) -> None:
        """Give the claimed tickets back to their queues, as they were."""
        try:
            claim.conn.rollback()
        finally:
            claim.conn.close()

    # -------------------------------------------------------------- presence
    def touch(self, user_ids: Collection[int]) -> None:
        """These accounts are here now."""
        if not user_ids:
            return
        with self.engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO presence (user_id, seen_at) SELECT u, now() FROM unnest("
                    "CAST(:ids AS integer[])) AS u WHERE EXISTS (SELECT 1 FROM users "
                    "WHERE id = u) ON CONFLICT (user_id) DO UPDATE SET seen_at = now()"
                ),
                {"ids": sorted(set(user_ids))},
            )

    def online(self, user_ids: Iterable[int], within: float) -> set[int]:
        """Those of ``user_ids`` seen within ``within`` seconds."""
        ids = sorted(set(user_ids))
        if not ids:
            return set()
        with self.engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT user_id FROM presence WHERE user_id = ANY(CAST(:ids AS integer[])) "
                    "AND seen_at >= now() - make_interval(secs => :w)"
                ),
                {"ids": ids, "w": within},
            ).all()
        return {int(r[0]) for r in rows}

    def place(self, places: dict[int, dict[str, Any] | None]) -> None:
        """Where these accounts are connected now (None: at no table); seen now too."""
        if not places:
            return
        with self.engine.begin() as conn:
            for user_id, place in sorted(places.items()):
                conn.execute(
                    text(
                        "INSERT INTO presence (user_id, seen_at, place, placed_at) "
                        "SELECT :u, now(), CAST(:p AS json), now() WHERE EXISTS (SELECT 1 "
                        "FROM users WHERE id = :u) ON CONFLICT (user_id) DO UPDATE SET "
                        "seen_at = now(), place = excluded.place, placed_at = now()"
                    ),
                    {"u": user_id, "p": None if place is None else _json(place)},
                )

    def places(self, user_ids: Iterable[int], within: float) -> dict[int, dict[str, Any]]:
        """The tables those of ``user_ids`` were connected to within ``within`` seconds."""
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT user_id, place FROM presence WHERE user_id = ANY("
                    "CAST(:ids AS integer[])) AND place IS NOT NULL "
                    "AND placed_at >= now() - make_interval(secs => :w)"
                ),
                {"ids": ids, "w": within},
            ).all()
        return {int(r[0]): dict(r[1]) for r in rows}

    def forget(self, user_id: int) -> None:
        """A deleted account: no presence, no invitations, no tickets."""
        with self.engine.begin() as conn:
            for table in ("presence", "invites", "match_tickets"):
                conn.execute(text(f"DELETE FROM {table} WHERE user_id = :u"), {"u": user_id})

    # -------------------------------------------------------------- invitations
    def add_invite(self, user_id: int, by: str, code: str, table: str, keep: int) -> None:
        """Invite ``user_id`` to table ``code`` (again: only the newest stays); the newest
        ``keep`` invitations of ``user_id`` are kept."""
        with self.engine.begin() as conn:
            args = {"u": user_id, "c": code, "b": by, "t": table, "k": keep}
            conn.execute(text("DELETE FROM invites WHERE user_id = :u AND code = :c"), args)
            conn.execute(
                text(
                    "INSERT INTO invites (user_id, by_name, code, table_name, at) "
                    "VALUES (:u, :b, :c, :t, now())"
                ),
                args,
            )
            conn.execute(
                text(
                    "DELETE FROM invites WHERE user_id = :u AND id NOT IN (SELECT id FROM "
                    "invites WHERE user_id = :u ORDER BY id DESC LIMIT :k)"
                ),
                args,
            )

    def invites(self, user_id: int, ttl: float) -> list[tuple[str, str, str]]:
        """``(by, code, table name)`` of the invitations of ``user_id`` younger than ``ttl``."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT by_name, code, table_name FROM invites WHERE user_id = :u "
                    "AND at >= now() - make_interval(secs => :ttl) ORDER BY id"
                ),
                {"u": user_id, "ttl": ttl},
            ).all()
        return [(str(r[0]), str(r[1]), str(r[2])) for r in rows]

    # -------------------------------------------------------------- counters
    def count(self, kind: str, keys: Collection[str], window: float) -> dict[str, int]:
        """Events of ``kind`` per key within the last ``window`` seconds."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT key, count(*) FROM site_events WHERE kind = :k AND key = ANY(:keys) "
                    "AND at >= now() - make_interval(secs => :w) GROUP BY key"
                ),
                {"k": kind, "keys": list(keys), "w": window},
            ).all()
        return {str(r[0]): int(r[1]) for r in rows}

    def charge(self, kind: str, keys: Collection[str], limit: int, window: float) -> bool:
        """Count one event of ``kind`` for every key of ``keys`` if each has had fewer than
        ``limit`` within ``window`` seconds (then True); else count nothing (False). Two
        processes charging one key take turns (a transaction-scoped advisory lock)."""
        with self.engine.begin() as conn:
            for key in sorted(keys):
                conn.execute(
                    text("SELECT pg_advisory_xact_lock(hashtext(:k || '/' || :key))"),
                    {"k": kind, "key": key},
                )
            if limit > 0:
                rows = conn.execute(
                    text(
                        "SELECT count(*) FROM site_events WHERE kind = :k AND key = ANY(:keys) "
                        "AND at >= now() - make_interval(secs => :w) GROUP BY key "
                        "HAVING count(*) >= :n"
                    ),
                    {"k": kind, "keys": list(keys), "w": window, "n": limit},
                ).all()
                if rows:
                    return False
            for key in keys:
                conn.execute(
                    text("INSERT INTO site_events (kind, key, at) VALUES (:k, :key, now())"),
                    {"k": kind, "key": key},
                )
        return True

    def clear(self, kind: str, key: str) -> None:
        """Forget the events of ``kind`` counted for ``key`` (a good log-in clears failures)."""
        with self.engine.begin() as conn:
            conn.execute(
                text("DELETE FROM site_events WHERE kind = :k AND key = :key"),
                {"k": kind, "key": key},
            )

    def sweep(self, windows: dict[str, float], invite_ttl: float, online_for: float) -> None:
        """Drop what no limit, invitation or presence looks at any more."""
        with self.engine.begin() as conn:
            for kind, window in windows.items():
                conn.execute(
                    text(
                        "DELETE FROM site_events WHERE kind = :k "
                        "AND at < now() - make_interval(secs => :w)"
                    ),
                    {"k": kind, "w": window},
                )
            conn.execute(
                text("DELETE FROM invites WHERE at < now() - make_interval(secs => :t)"),
                {"t": invite_ttl},
            )
            conn.execute(
                text("DELETE FROM presence WHERE seen_at < now() - make_interval(secs => :t)"),
                {"t": online_for},
            )


def _json(value: dict[str, Any]) -> str:
    import json

    return json.dumps(value, separators=(",", ":"))
