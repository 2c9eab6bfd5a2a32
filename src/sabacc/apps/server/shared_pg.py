"""The shared state of a ``--cluster`` site in PostgreSQL (see
:mod:`sabacc.apps.server.shared_state` for what is shared and why, and
:mod:`sabacc.services.store.site` for the tables).

Every process matches: each round takes the waiting tickets no other process holds (row locks,
``SKIP LOCKED``), seats the groups that are due, and stores their tables; the player reads the
outcome from whichever process answers. A ticket enqueued or settled anywhere is announced on
the channel ``sabacc_site`` (``NOTIFY``): each process's :class:`Listener` wakes its matcher
and the requests waiting on a ticket at once. Without the listener (its connection dropped; it
reconnects) the matcher and the waiting requests fall back to polling every half second.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable, Collection
from functools import partial
from typing import TYPE_CHECKING, Any

from fastapi import Request

from sabacc.apps.server.auth import hash_token
from sabacc.apps.server.community import (
    INVITE_TTL,
    MAX_INVITES,
    ONLINE_FOR,
    Community,
    Invite,
    MatchBody,
    Ticket,
)
from sabacc.apps.server.shared_state import SiteState, new_ticket_id, place, sleep_or
from sabacc.apps.server.social import check_friends, too_many_friend_requests, too_many_invites
from sabacc.services.store import UserRecord
from sabacc.services.store.site import CHANNEL, Claim, SiteStore, TicketRow

if TYPE_CHECKING:
    from sabacc.apps.server.manager import TableManager
    from sabacc.apps.server.table import Table

log = logging.getLogger("sabacc.apps.server")

#: Seconds between match rounds without a push, and between presence heartbeats.
MATCH_EVERY = 0.5
HEARTBEAT = 30.0
#: A request refreshes its account's presence at most this often (seconds) per process.
TOUCH_EVERY = 10.0
#: The windows of the site-wide counters (seconds).
LOGIN_WINDOW = 300.0
HOUR = 3600.0
#: Seconds a table connection reported by a heartbeat counts (a killed process's are dropped
#: after it: its heartbeats stop).
PLACE_FOR = 2 * HEARTBEAT + 5.0
_HOURLY = ("table", "signup", "friend", "invite")


class Listener:
    """``LISTEN sabacc_site`` on a connection of its own, in a thread: each payload is handed
    to ``deliver`` on the event loop. A dropped connection is opened again (after 0.5 s, then
    up to 5 s); ``connected`` says whether pushes arrive now."""

    def __init__(self, url: str, loop: asyncio.AbstractEventLoop, deliver: Callable[[str], None]):
        from sqlalchemy.engine import make_url

        self.conninfo = (
            make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        )
        self.loop = loop
        self.deliver = deliver
        self.connected = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sabacc-listen", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _hand(self, payload: str) -> None:
        with contextlib.suppress(RuntimeError):  # the loop closed: shutting down
            self.loop.call_soon_threadsafe(self.deliver, payload)

    def _run(self) -> None:
        import psycopg

        backoff = 0.5
        while not self._stop.is_set():
            try:
                with psycopg.connect(
                    self.conninfo, autocommit=True, connect_timeout=5, keepalives_idle=10
                ) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.connected, backoff = True, 0.5
                    self._hand("listening")  # catch up with what was missed meanwhile
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=1.0):
                            self._hand(note.payload)
            except Exception as exc:
                if not self._stop.is_set():
                    log.warning("site notifications lost (%s): polling", type(exc).__name__)
            finally:
                self.connected = False
            self._stop.wait(backoff)
            backoff = min(5.0, backoff * 2)


class PostgresState(SiteState):
    """A cluster server's view of the shared state (its ``manager`` runs the store calls)."""

    def __init__(self, manager: TableManager, community: Community) -> None:
        super().__init__()
        self.m = manager
        self.settings = manager.settings
        self.community = community  # seats matched groups; its constants are the site's
        self.db = SiteStore(manager.store.engine)
        self.listener: Listener | None = None
        self._touched: dict[int, float] = {}
        self._wake = asyncio.Event()
        self._lock = asyncio.Lock()

    def delivered(self, payload: str) -> None:
        """A push from the channel (or the listener's reconnection): look again now."""
        self._wake.set()
        self.settled()

    # -------------------------------------------------------------- presence, invitations
    async def touch(self, user: UserRecord | None) -> None:
        if user is None:
            return
        now = time.monotonic()
        if now - self._touched.get(user.id, -1e9) < TOUCH_EVERY:
            return
        if len(self._touched) > 10_000:
            self._touched.clear()
        self._touched[user.id] = now
        await self.m.read(partial(self.db.touch, [user.id]))

    async def online(self, user_ids: Collection[int]) -> set[int]:
        return await self.m.read(partial(self.db.online, list(user_ids), ONLINE_FOR))

    async def at_table(self, user_id: int, table: Table) -> None:
        self._touched[user_id] = time.monotonic()
        await self.m.read(partial(self.db.place, {user_id: place(table)}))

    async def left_table(self, user_id: int) -> None:
        here = self.m.tables_of_users({user_id}).get(user_id)  # another connection here
        await self.m.read(partial(self.db.place, {user_id: here}))

    async def places(self, user_ids: Collection[int]) -> dict[int, dict[str, Any]]:
        return await self.m.read(partial(self.db.places, list(user_ids), PLACE_FOR))

    async def invite(self, user_id: int, invite: Invite) -> None:
        call = partial(self.db.add_invite, user_id, invite.by, invite.code, invite.table)
        await self.m.read(partial(call, MAX_INVITES))

    async def invites_of(self, user_id: int) -> list[Invite]:
        rows = await self.m.read(partial(self.db.invites, user_id, INVITE_TTL))
        now = time.monotonic()
        return [Invite(by, code, table, now) for by, code, table in rows]

    async def forget(self, user_id: int) -> None:
        self._touched.pop(user_id, None)
        await self.m.read(partial(self.db.forget, user_id))

    # -------------------------------------------------------------- counters
    async def login_allowed(self, client: str, name: str) -> bool:
        keys = [f"{client}|{name}", f"{client}|"]
        counts = await self.m.read(partial(self.db.count, "login_fail", keys, LOGIN_WINDOW))
        logins = self.community.logins
        return (
            counts.get(keys[0], 0) < logins.per_name and counts.get(keys[1], 0) < logins.per_client
        )

    async def login_failed(self, client: str, name: str) -> None:
        keys = [f"{client}|{name}", f"{client}|"]
        await self.m.read(partial(self.db.charge, "login_fail", keys, 0, LOGIN_WINDOW))

    async def login_succeeded(self, client: str, name: str) -> None:
        await self.m.read(partial(self.db.clear, "login_fail", f"{client}|{name}"))

    async def _charge(self, kind: str, key: str, limit: int) -> bool:
        if limit <= 0:
            return True
        return await self.m.read(partial(self.db.charge, kind, [key], limit, HOUR))

    async def table_made(self, client: str) -> bool:
        return await self._charge("table", client, self.settings.tables_per_hour)

    async def signup(self, client: str) -> bool:
        return await self._charge("signup", client, self.settings.signups_per_hour)

    async def friend_added(self, request: Request, who: int, following: int) -> None:
        s = self.settings
        check_friends(s, following)
        if not await self._charge("friend", str(who), s.friend_adds_per_hour):
            raise too_many_friend_requests(s)

    async def invite_sent(self, request: Request, who: int) -> None:
        if not await self._charge("invite", str(who), self.settings.invites_pending):
            raise too_many_invites(self.settings)

    # -------------------------------------------------------------- quick match
    async def waiting(self) -> int:
        return await self.m.read(self.db.waiting)

    async def enqueue(self, body: MatchBody, user: UserRecord | None, name: str) -> dict[str, Any]:
        ticket_id = new_ticket_id()
        user_id = None if user is None else user.id
        add = partial(self.db.add_ticket, hash_token(ticket_id), body.variant, body.seats)
        await self.m.read(partial(add, float(body.wait), name, user_id))
        await self.match_now()
        found = await self.ticket(ticket_id)
        assert found is not None  # just stored; read once if already matched
        return found

    async def ticket(self, ticket_id: str) -> dict[str, Any] | None:
        polled = await self.m.read(partial(self.db.poll_ticket, hash_token(ticket_id)))
        if polled is None:
            return None
        row, queue = polled
        status = {"matched": "matched", "failed": "failed"}.get(row.status, "waiting")
        return {
            "ticket": ticket_id,
            "status": status,
            "variant": row.variant,
            "seats": row.seats,
            "waiting": queue,
            "wait": row.wait,
            "bots_in": max(0.0, round(row.wait - row.waited, 1)) if queue else 0.0,
            "table": row.result if status == "matched" else None,
            "error": row.result if status == "failed" else None,
        }

    async def cancel(self, ticket_id: str) -> None:
        await self.m.read(partial(self.db.cancel_ticket, hash_token(ticket_id)))

    async def match_now(self) -> None:
        """One round: seat the groups that are due among the tickets no one else holds."""
        async with self._lock:
            claim = await self.m.read(self.db.claim_due)
            if claim is None:
                return
            try:
                outcomes = await self._seat(claim)
            except BaseException:
                await asyncio.shield(self.m.read(partial(SiteStore.release, claim)))
                raise
            await self.m.read(partial(self.db.settle, claim, outcomes))
        self.settled()

    async def _seat(self, claim: Claim) -> dict[str, tuple[str, dict[str, Any]]]:
        outcomes: dict[str, tuple[str, dict[str, Any]]] = {}
        for rows in claim.groups:
            tickets = [await self._ticket_of(row) for row in rows]
            await self.community.seat_group(self.m, tickets)
            for row, t in zip(rows, tickets, strict=True):
                if t.result is not None:
                    outcomes[row.id_hash] = ("matched", t.result)
                else:
                    error = t.error or {"code": "match_failed", "message": "no table was made"}
                    outcomes[row.id_hash] = ("failed", error)
        return outcomes

    async def _ticket_of(self, row: TicketRow) -> Ticket:
        user = None
        if row.user_id is not None:
            account = row.user_id
            user = await self.m.read(lambda: self.m.store.user_by_id(account))
        now = time.monotonic()
        return Ticket(row.id_hash, row.variant, row.seats, row.wait, row.name, user, now)

    # -------------------------------------------------------------- background
    async def run(self, manager: TableManager) -> None:
        self.listener = Listener(self.m.store.url, asyncio.get_running_loop(), self.delivered)
        self.listener.start()
        beats = asyncio.create_task(self._heartbeats())
        failing = False
        try:
            while True:
                await sleep_or(self._wake, MATCH_EVERY)
                try:
                    await self.match_now()
                except Exception as exc:  # the database is down: try again next round
                    if not failing:  # once per outage, not twice a second
                        log.warning("quick match failed (%s): retrying", type(exc).__name__)
                    failing = True
                else:
                    failing = False
        finally:
            beats.cancel()
            self.listener.stop()

    async def _heartbeats(self) -> None:
        """Every :data:`HEARTBEAT` seconds, the accounts connected to this process's tables
        are seen again (a killed process's players go offline after ``ONLINE_FOR``); old
        counters, invitations and presence rows are dropped."""
        windows = {"login_fail": LOGIN_WINDOW, **dict.fromkeys(_HOURLY, HOUR)}
        while True:
            await asyncio.sleep(HEARTBEAT)
            here = {
                c.user_id
                for table in list(self.m.tables.values())
                for c in table.conns
                if c.user_id is not None and not c.closed
            }
            try:
                await self.m.read(partial(self.db.place, dict(self.m.tables_of_users(here))))
                await self.m.read(partial(self.db.sweep, windows, INVITE_TTL, ONLINE_FOR))
            except Exception as exc:
                log.warning("presence heartbeat failed (%s)", type(exc).__name__)
