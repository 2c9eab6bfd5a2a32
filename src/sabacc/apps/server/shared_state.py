"""The state a site shares across its processes (issue 31, point 2): quick-match tickets,
presence, invitations and the site-wide per-client counters, behind one interface,
:class:`SiteState`, with two implementations:

* :class:`MemoryState`, a plain server's (one process: the
  :class:`~sabacc.apps.server.community.Community` and the
  :class:`~sabacc.apps.server.limits.ClientLimits` in memory, as before);
* :class:`~sabacc.apps.server.shared_pg.PostgresState`, a ``--cluster`` server's (the
  tables of :mod:`sabacc.services.store.site`, pushes by ``LISTEN/NOTIFY``), so two processes
  behind one proxy are one site and a restart loses no ticket.

Shared site-wide under ``--cluster``: the tables made per client an hour, failed log-ins
(per address and name, and per address), sign-ups per address an hour, an account's friend
additions an hour and pending invitations: abuse limits over minutes or hours that a client
would otherwise multiply by the number of processes. Kept per process: the request, message
and socket limits, log-ins per minute, the hashing rate and pool: they guard the CPU and memory
of the process they run in, which each has its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from fastapi import Request

from sabacc.apps.server.community import (
    Community,
    Invite,
    MatchBody,
    ticket_json,
)
from sabacc.apps.server.limits import ClientLimits
from sabacc.apps.server.social import social_limits
from sabacc.services.store import UserRecord

if TYPE_CHECKING:
    from sabacc.apps.server.manager import TableManager
    from sabacc.apps.server.table import Table


#: The longest a request may wait on a ticket (``GET /api/match/{id}?wait=``), and how often
#: it looks again without a push.
LONG_POLL = 25.0
POLL_EVERY = 0.5


class SiteState:
    """What the routes ask of the shared state (every call may read the database)."""

    def __init__(self) -> None:
        self._settled = asyncio.Event()

    def settled(self) -> None:
        """Tickets were settled (here or, told by a push, elsewhere): waiters look again."""
        event, self._settled = self._settled, asyncio.Event()
        event.set()

    async def ticket_wait(self, ticket_id: str, wait: float) -> dict[str, Any] | None:
        """:meth:`ticket`, waiting up to ``wait`` seconds for it to be settled: answered as
        soon as a match is made on any process."""
        deadline = time.monotonic() + min(wait, LONG_POLL)
        while True:
            event = self._settled
            out = await self.ticket(ticket_id)
            left = deadline - time.monotonic()
            if out is None or out["status"] != "waiting" or left <= 0:
                return out
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(left, POLL_EVERY))

    async def touch(self, user: UserRecord | None) -> None:
        """``user`` made a request: online now."""
        raise NotImplementedError

    async def online(self, user_ids: Collection[int]) -> set[int]:
        """Those of ``user_ids`` online now (seen lately by any process)."""
        raise NotImplementedError

    async def at_table(self, user_id: int, table: Table) -> None:
        """``user_id`` connected to ``table`` here (the other processes' friends pages show it;
        in one process the connections themselves say it)."""

    async def left_table(self, user_id: int) -> None:
        """A connection of ``user_id`` here closed."""

    async def places(self, user_ids: Collection[int]) -> dict[int, dict[str, Any]]:
        """Where those of ``user_ids`` connected to another process are (see :func:`place`)."""
        return {}

    async def invite(self, user_id: int, invite: Invite) -> None:
        raise NotImplementedError

    async def invites_of(self, user_id: int) -> list[Invite]:
        """The invitations of ``user_id`` not yet lapsed (oldest first)."""
        raise NotImplementedError

    async def forget(self, user_id: int) -> None:
        """A deleted account: its presence and invitations go."""
        raise NotImplementedError

    async def login_allowed(self, client: str, name: str) -> bool:
        raise NotImplementedError

    async def login_failed(self, client: str, name: str) -> None:
        raise NotImplementedError

    async def login_succeeded(self, client: str, name: str) -> None:
        raise NotImplementedError

    async def table_made(self, client: str) -> bool:
        """Count one table made by ``client``: within its tables per hour (then True)?"""
        raise NotImplementedError

    async def signup(self, client: str) -> bool:
        """Count one sign-up from ``client``: within its sign-ups per hour (then True)?"""
        raise NotImplementedError

    async def friend_added(self, request: Request, who: int, following: int) -> None:
        """Count one friend added by account ``who`` (following ``following``), or refuse
        (:mod:`.social`'s limits)."""
        raise NotImplementedError

    async def invite_sent(self, request: Request, who: int) -> None:
        """Count one invitation sent by account ``who``, or refuse past its pending ones."""
        raise NotImplementedError

    async def waiting(self) -> int:
        """Quick-match tickets waiting, over every queue."""
        raise NotImplementedError

    async def enqueue(self, body: MatchBody, user: UserRecord | None, name: str) -> dict[str, Any]:
        """A new ticket (matched at once if it can be); its state as ``/api/match`` shows it."""
        raise NotImplementedError

    async def ticket(self, ticket_id: str) -> dict[str, Any] | None:
        """A ticket's state (a settled one is handed over once), or None: not waiting."""
        raise NotImplementedError

    async def cancel(self, ticket_id: str) -> None:
        raise NotImplementedError

    async def run(self, manager: TableManager) -> None:
        """The background work (matching, presence heartbeats), until cancelled."""
        raise NotImplementedError

    def sweep(self) -> None:
        """Forget the per-client counters of clients long gone (memory only)."""


class MemoryState(SiteState):
    """One process's state: the community layer's and the client limits' (as before)."""

    def __init__(self, community: Community, limits: ClientLimits) -> None:
        super().__init__()
        self.community = community
        self.limits = limits
        self.manager: TableManager | None = None

    async def touch(self, user: UserRecord | None) -> None:
        self.community.touch(user)

    async def online(self, user_ids: Collection[int]) -> set[int]:
        now = time.monotonic()
        return {u for u in user_ids if self.community.online(u, now)}

    async def invite(self, user_id: int, invite: Invite) -> None:
        self.community.invite(user_id, invite)

    async def invites_of(self, user_id: int) -> list[Invite]:
        return self.community.invites_of(user_id)

    async def forget(self, user_id: int) -> None:
        self.community.seen.pop(user_id, None)
        self.community.invites.pop(user_id, None)

    async def login_allowed(self, client: str, name: str) -> bool:
        return self.community.logins.allowed(client, name)

    async def login_failed(self, client: str, name: str) -> None:
        self.community.logins.failed(client, name)

    async def login_succeeded(self, client: str, name: str) -> None:
        self.community.logins.succeeded(client, name)

    async def table_made(self, client: str) -> bool:
        return self.limits.create(client)

    async def signup(self, client: str) -> bool:
        return True  # the password gate's per-address bucket counts sign-ups in one process

    async def friend_added(self, request: Request, who: int, following: int) -> None:
        social_limits(request, self.limits.settings).friend_added(who, following)

    async def invite_sent(self, request: Request, who: int) -> None:
        social_limits(request, self.limits.settings).invite_sent(who)

    async def waiting(self) -> int:
        return len(self.community.tickets)

    async def enqueue(self, body: MatchBody, user: UserRecord | None, name: str) -> dict[str, Any]:
        ticket = self.community.enqueue(body, user, name)
        if self.manager is not None:
            await self.community.match_now(self.manager)
            self.settled()
        return ticket_json(self.community, ticket)

    async def ticket(self, ticket_id: str) -> dict[str, Any] | None:
        community = self.community
        ticket = community.tickets.get(ticket_id)
        if ticket is None:
            return None
        ticket.seen = time.monotonic()
        out = ticket_json(community, ticket)
        if ticket.result is not None or ticket.error is not None:
            community.tickets.pop(ticket_id, None)  # handed over once
        return out

    async def cancel(self, ticket_id: str) -> None:
        self.community.cancel(ticket_id)

    async def run(self, manager: TableManager) -> None:
        self.manager = manager
        while True:
            await asyncio.sleep(POLL_EVERY)
            await self.community.match_now(manager)
            self.settled()

    def sweep(self) -> None:
        self.limits.sweep()
        self.community.logins.sweep()


def place(table: Table) -> dict[str, Any]:
    """Where a friend is, as ``/api/friends`` shows it: a listed table's code, name and link,
    or only ``{"private": True}`` (an unlisted table's code is its secret)."""
    if table.listed:
        return {"code": table.code, "name": table.name, "url": f"/t/{table.code}"}
    return {"private": True}


def new_ticket_id() -> str:
    """A ticket's id: its holder's secret (the store keeps only its SHA-256)."""
    return secrets.token_urlsafe(16)


async def sleep_or(event: asyncio.Event, seconds: float) -> None:
    """Wait ``seconds``, or less if ``event`` is set meanwhile (then clear it)."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(event.wait(), seconds)
    event.clear()
