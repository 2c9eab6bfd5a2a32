"""The community layer of the server: accounts (sign-up, log-in, sessions), profiles, ratings
and leaderboards, friends with presence and invitations, and quick match.

Accounts are optional: a guest plays by seat token as before. A session is a random cookie
(``sabacc_session``: HttpOnly, SameSite=Lax, Secure over https) whose SHA-256 is stored, so a
session is revoked by deleting its row. Every state-changing account request carries the CSRF
token (double submit: the ``sabacc_csrf`` cookie, readable by the page, sent back in the
``X-CSRF-Token`` header; a cross-site page can neither read the cookie nor set the header).
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import Request
from pydantic import BaseModel, ConfigDict, Field

from sabacc.apps.server.auth import hash_token
from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.protocol import MAX_NAME, CreateTable
from sabacc.apps.server.settings import Settings
from sabacc.services.bots import LEVELS, bot_names
from sabacc.services.store import UserRecord
from sabacc.variants.registry import lookup

if TYPE_CHECKING:
    from sabacc.apps.server.manager import TableManager

SESSION_COOKIE = "sabacc_session"
CSRF_COOKIE = "sabacc_csrf"
CSRF_HEADER = "x-csrf-token"
#: Seat tokens a guest may hand over at sign-up (the tables of that browser).
MAX_CLAIMED_TOKENS = 200
#: Seconds after its last request or connection a logged-in player counts as online.
ONLINE_FOR = 120.0
#: Invitations a player keeps (the newest), and how long one lasts.
MAX_INVITES = 20
INVITE_TTL = 3600.0
#: Quick match: the waits a player may choose (seconds before bots fill the table).
MATCH_WAITS = (0, 15, 30, 60, 120)
#: Quick-match tickets one server holds at once.
MAX_TICKETS = 2000


def reserved_names() -> frozenset[str]:
    """Names no account may take: the bots' seat names, the bot levels and the bots."""
    from sabacc.apps.server.manager import BOT_NAMES

    return frozenset({*BOT_NAMES, *LEVELS, *bot_names()})


# ---------------------------------------------------------------------- request bodies
class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")

    username: Annotated[str, Field(min_length=1, max_length=64)]
    password: Annotated[str, Field(min_length=1, max_length=1024)]
    #: The seat tokens this browser holds (a guest's games, kept by the account).
    tokens: Annotated[
        list[Annotated[str, Field(max_length=128)]], Field(max_length=MAX_CLAIMED_TOKENS)
    ] = Field(default_factory=list)


class PasswordChange(BaseModel):
    model_config = ConfigDict(extra="forbid")

    current: Annotated[str, Field(min_length=1, max_length=1024)]
    new: Annotated[str, Field(min_length=1, max_length=1024)]


class PasswordBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    password: Annotated[str, Field(min_length=1, max_length=1024)]


class UsernameBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    username: Annotated[str, Field(min_length=1, max_length=64)]


class MatchBody(BaseModel):
    """``POST /api/match``: wait for a table of ``variant`` with ``seats`` seats."""

    model_config = ConfigDict(extra="forbid")

    variant: Annotated[str, Field(min_length=1, max_length=40)]
    seats: Annotated[int, Field(ge=2, le=8)] = 4
    #: Seconds to wait for people before bots fill the empty seats (one of MATCH_WAITS).
    wait: Annotated[int, Field(ge=0, le=600)] = 30
    name: Annotated[str, Field(max_length=MAX_NAME)] = ""


# ---------------------------------------------------------------------- log-in limits
class LoginLimiter:
    """Failed log-ins allowed per (address, username) and per address within ``window``
    seconds; past either, log-ins are refused (429) until the oldest failure is older."""

    def __init__(self, per_name: int = 5, per_client: int = 30, window: float = 300.0) -> None:
        self.per_name = per_name
        self.per_client = per_client
        self.window = window
        self.failures: dict[tuple[str, str], deque[float]] = {}

    def _recent(self, key: tuple[str, str], now: float) -> deque[float]:
        times = self.failures.setdefault(key, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        return times

    def allowed(self, client: str, name: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        return (
            len(self._recent((client, name), now)) < self.per_name
            and len(self._recent((client, ""), now)) < self.per_client
        )

    def failed(self, client: str, name: str, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        self._recent((client, name), now).append(now)
        self._recent((client, ""), now).append(now)

    def succeeded(self, client: str, name: str) -> None:
        self.failures.pop((client, name), None)

    def sweep(self, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        for key in list(self.failures):
            if not self._recent(key, now):
                del self.failures[key]


# ---------------------------------------------------------------------- quick match
@dataclass
class Ticket:
    id: str
    variant: str
    seats: int
    wait: float
    name: str
    user: UserRecord | None
    since: float
    result: dict[str, Any] | None = None
    error: dict[str, str] | None = None
    seen: float = field(default_factory=time.monotonic)


@dataclass
class Invite:
    by: str
    code: str
    table: str
    at: float


class Community:
    """What the community layer keeps in memory: log-in failures, presence, invitations and
    the quick-match queues (one server's; accounts, stats and ratings are in the store)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.logins = LoginLimiter(settings.login_attempts, settings.login_attempts * 6)
        self.seen: dict[int, float] = {}
        self.invites: dict[int, list[Invite]] = {}
        self.queues: dict[tuple[str, int], list[Ticket]] = {}
        self.tickets: dict[str, Ticket] = {}
        self._match_lock = asyncio.Lock()

    def touch(self, user: UserRecord | None) -> None:
        if user is not None:
            self.seen[user.id] = time.monotonic()

    def online(self, user_id: int, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        return now - self.seen.get(user_id, -1e9) <= ONLINE_FOR

    def invite(self, user_id: int, invite: Invite) -> None:
        kept = [i for i in self.invites.get(user_id, []) if i.code != invite.code]
        kept.append(invite)
        self.invites[user_id] = kept[-MAX_INVITES:]

    def invites_of(self, user_id: int, now: float | None = None) -> list[Invite]:
        now = time.monotonic() if now is None else now
        kept = [i for i in self.invites.get(user_id, []) if now - i.at <= INVITE_TTL]
        self.invites[user_id] = kept
        return kept

    # -------------------------------------------------------------- quick match
    def enqueue(self, body: MatchBody, user: UserRecord | None, name: str) -> Ticket:
        ticket = Ticket(
            id=secrets.token_urlsafe(16),
            variant=body.variant,
            seats=body.seats,
            wait=float(body.wait),
            name=name,
            user=user,
            since=time.monotonic(),
        )
        queue = self.queues.setdefault((ticket.variant, ticket.seats), [])
        if user is not None:  # one place in a queue per account: the newest
            for old in [t for t in queue if t.user is not None and t.user.id == user.id]:
                self.cancel(old.id)
        queue.append(ticket)
        self.tickets[ticket.id] = ticket
        return ticket

    def cancel(self, ticket_id: str) -> None:
        ticket = self.tickets.pop(ticket_id, None)
        if ticket is None:
            return
        queue = self.queues.get((ticket.variant, ticket.seats), [])
        if ticket in queue:
            queue.remove(ticket)

    def due(self, now: float | None = None) -> list[list[Ticket]]:
        """The groups to seat now: a full table of waiting people, or whoever waits in a queue
        whose first ticket has waited as long as it chose (bots take the other seats). Tickets
        not polled for a minute are dropped (the player went away)."""
        now = time.monotonic() if now is None else now
        groups = []
        for key, queue in self.queues.items():
            for gone in [t for t in queue if now - t.seen > 60.0]:
                queue.remove(gone)
                self.tickets.pop(gone.id, None)
            seats = key[1]
            while len(queue) >= seats:
                groups.append(queue[:seats])
                del queue[:seats]
            if queue and now - queue[0].since >= queue[0].wait:
                groups.append(list(queue))
                queue.clear()
        return groups

    async def match_now(self, manager: TableManager) -> None:
        async with self._match_lock:
            for group in self.due():
                await self.seat_group(manager, group)

    async def seat_group(self, manager: TableManager, group: list[Ticket]) -> None:
        first = group[0]
        info = lookup(first.variant)
        kinds = ["human"] * len(group) + ["bot:easy"] * (first.seats - len(group))
        try:
            made = await manager.create(
                CreateTable(
                    variant=info.name,
                    name=f"Quick match: {info.title}"[:60],
                    seats=kinds,
                    listed=False,
                )
            )
            for ticket in group:
                joined = await manager.join(made["code"], ticket.name, user=ticket.user)
                ticket.result = {**joined, "url": made["url"]}
        except ServerError as exc:
            for ticket in group:
                if ticket.result is None:
                    ticket.error = {"code": exc.code, "message": exc.message}


def ticket_json(community: Community, ticket: Ticket) -> dict[str, Any]:
    queue = community.queues.get((ticket.variant, ticket.seats), [])
    waited = time.monotonic() - ticket.since
    if ticket.result is not None:
        status = "matched"
    elif ticket.error is not None:
        status = "failed"
    else:
        status = "waiting"
    return {
        "ticket": ticket.id,
        "status": status,
        "variant": ticket.variant,
        "seats": ticket.seats,
        "waiting": len(queue),
        "wait": ticket.wait,
        "bots_in": max(0.0, round(ticket.wait - waited, 1)) if queue else 0.0,
        "table": ticket.result,
        "error": ticket.error,
    }


async def current_user(
    request: Request, manager: TableManager, community: Community
) -> UserRecord | None:
    """The account of the request's session cookie (None: a guest, or a forged or expired
    session). Once per request."""
    if hasattr(request.state, "user"):
        cached: UserRecord | None = request.state.user
        return cached
    token = request.cookies.get(SESSION_COOKIE)
    user = None
    if token and len(token) <= 128:
        token_hash = hash_token(token)
        user = await manager.read(lambda: manager.store.session_user(token_hash))
    request.state.user = user
    await request.app.state.site.shared.touch(user)  # presence (the site's, in a cluster)
    return user


async def request_user(
    request: Request, manager: TableManager, community: Community
) -> UserRecord | None:
    """The account a table request (create, join) acts for: only with the CSRF token too, so
    that another site cannot seat a logged-in player; without it, a guest's request."""
    cookie = request.cookies.get(CSRF_COOKIE, "")
    header = request.headers.get(CSRF_HEADER, "")
    if not cookie or not hmac.compare_digest(cookie, header):
        return None
    return await current_user(request, manager, community)
