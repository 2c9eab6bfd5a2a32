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
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from sabacc.apps.server.auth import hash_token, new_token
from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.limits import client_key
from sabacc.apps.server.names import (
    account_deleted,
    account_made,
    check_guest_name,
    check_new_username,
)
from sabacc.apps.server.protocol import MAX_NAME, CreateTable
from sabacc.apps.server.quota import charge_table
from sabacc.apps.server.settings import Settings
from sabacc.apps.server.social import social_limits
from sabacc.apps.server.table import variant_title
from sabacc.core.errors import SabaccError
from sabacc.services.bots import LEVELS, bot_names
from sabacc.services.community import accounts
from sabacc.services.community.accounts import AccountError
from sabacc.services.community.ratings import BOT_RATINGS, bot_rating, display
from sabacc.services.store import UsernameTaken, UserRecord
from sabacc.services.store.models import utcnow
from sabacc.variants.registry import lookup, variant_names

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

    async def run_matches(self, manager: TableManager) -> None:
        while True:
            await asyncio.sleep(0.5)
            await self.match_now(manager)

    async def match_now(self, manager: TableManager) -> None:
        async with self._match_lock:
            for group in self.due():
                await self._seat_group(manager, group)

    async def _seat_group(self, manager: TableManager, group: list[Ticket]) -> None:
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


# ---------------------------------------------------------------------- the routes
def routes(settings: Settings, community: Community, mgr: Callable[[], TableManager]) -> APIRouter:
    """The community endpoints (``/api/me``, ``/api/account/*``, ``/api/users/*``,
    ``/api/leaders``, ``/api/friends``, ``/api/match``)."""
    router = APIRouter()
    reserved = reserved_names()
    lifetime = timedelta(days=settings.session_days)

    def client_of(request: Request) -> str:
        return client_key(request.client.host if request.client else None)

    def secure(request: Request) -> bool:
        return settings.secure_cookies or request.url.scheme == "https"

    def check_csrf(request: Request) -> None:
        cookie = request.cookies.get(CSRF_COOKIE, "")
        header = request.headers.get(CSRF_HEADER, "")
        if not cookie or not header or not hmac.compare_digest(cookie, header):
            raise ServerError(
                "csrf",
                "this request lacks its CSRF token (reload the page and try again)",
                status=403,
            )

    async def start_session(request: Request, response: Response, user: UserRecord) -> None:
        token = new_token()
        expires = utcnow() + lifetime
        m = mgr()
        await m.persist(lambda: m.store.create_session(hash_token(token), user.id, expires))
        response.set_cookie(
            SESSION_COOKIE, token, max_age=int(lifetime.total_seconds()), httponly=True,
            samesite="lax", secure=secure(request), path="/",
        )  # fmt: skip
        community.touch(user)

    def user_json(user: UserRecord) -> dict[str, Any]:
        return {"username": user.username, "url": f"/u/{user.username}"}

    def claim(user: UserRecord, tokens: list[str]) -> Callable[[], int]:
        hashes = [hash_token(t) for t in tokens if t]
        m = mgr()
        return lambda: m.store.link_tokens(user.id, hashes)

    def rules() -> dict[str, Any]:
        return {
            "username_min": accounts.USERNAME_MIN,
            "username_max": accounts.USERNAME_MAX,
            "password_min": accounts.PASSWORD_MIN,
            "password_max": accounts.PASSWORD_MAX,
        }

    @router.get("/api/me")
    async def me(request: Request, response: Response) -> dict[str, Any]:
        """Who this browser is logged in as (None: a guest), the account rules, and the CSRF
        token (set as a cookie too when the browser has none)."""
        user = await current_user(request, mgr(), community)
        csrf = request.cookies.get(CSRF_COOKIE) or secrets.token_urlsafe(24)
        if CSRF_COOKIE not in request.cookies:
            response.set_cookie(
                CSRF_COOKIE, csrf, samesite="lax", secure=secure(request), path="/",
                max_age=int(lifetime.total_seconds()),
            )  # fmt: skip
        invites = []
        if user is not None:
            invites = [
                {"by": i.by, "code": i.code, "table": i.table, "url": f"/t/{i.code}"}
                for i in community.invites_of(user.id)
            ]
        return {
            "user": None if user is None else user_json(user),
            "csrf": csrf,
            "rules": rules(),
            "invites": invites,
        }

    @router.post("/api/account/signup", status_code=201)
    async def signup(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        check_csrf(request)
        try:
            username = accounts.check_username(body.username, reserved)
            accounts.check_password(body.password, username)
        except AccountError as exc:
            raise ServerError(exc.code, exc.message) from None
        m = mgr()
        await check_new_username(m, username)  # nor a look-alike of an account's or a bot's
        hashed = await asyncio.to_thread(accounts.hash_password, body.password)
        try:
            user = await m.read(
                lambda: m.store.create_user(username, accounts.name_key(username), hashed)
            )
        except UsernameTaken:
            raise ServerError(
                "username_taken", f"the username {username!r} is taken", status=409
            ) from None
        account_made(m, user.username)
        claimed = await m.persist(claim(user, body.tokens))
        await start_session(request, response, user)
        return {"user": user_json(user), "claimed": claimed}

    @router.post("/api/account/login")
    async def login(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        check_csrf(request)
        client, key = client_of(request), accounts.name_key(body.username)[:64]
        if not community.logins.allowed(client, key):
            raise ServerError(
                "too_many_attempts",
                "too many failed log-ins: wait a few minutes and try again",
                status=429,
            )
        m = mgr()
        user = await m.read(lambda: m.store.user_by_key(key))
        if len(body.password) > accounts.PASSWORD_MAX:
            ok = False
        else:
            stored = user.password_hash if user is not None else accounts.dummy_hash()
            ok = await asyncio.to_thread(accounts.verify_password, stored, body.password)
        if user is None or not ok:
            community.logins.failed(client, key)
            raise ServerError("bad_login", "wrong username or password", status=401)
        community.logins.succeeded(client, key)
        if accounts.needs_rehash(user.password_hash):
            rehashed = await asyncio.to_thread(accounts.hash_password, body.password)
            account = user.id
            await m.persist(lambda: m.store.set_password(account, rehashed))
        claimed = await m.persist(claim(user, body.tokens))
        await start_session(request, response, user)
        return {"user": user_json(user), "claimed": claimed}

    @router.post("/api/account/logout")
    async def logout(request: Request, response: Response) -> dict[str, Any]:
        check_csrf(request)
        token = request.cookies.get(SESSION_COOKIE)
        if token:
            m = mgr()
            await m.persist(lambda: m.store.delete_session(hash_token(token)))
        response.delete_cookie(SESSION_COOKIE, path="/")
        return {"ok": True}

    async def logged_in(request: Request) -> UserRecord:
        user = await current_user(request, mgr(), community)
        if user is None:
            raise ServerError("not_logged_in", "log in first", status=401)
        return user

    @router.post("/api/account/password")
    async def change_password(body: PasswordChange, request: Request) -> dict[str, Any]:
        check_csrf(request)
        user = await logged_in(request)
        ok = len(body.current) <= accounts.PASSWORD_MAX and await asyncio.to_thread(
            accounts.verify_password, user.password_hash, body.current
        )
        if not ok:
            raise ServerError("bad_password", "your current password is not that", status=403)
        try:
            accounts.check_password(body.new, user.username)
        except AccountError as exc:
            raise ServerError(exc.code, exc.message) from None
        hashed = await asyncio.to_thread(accounts.hash_password, body.new)
        m = mgr()
        keep = hash_token(request.cookies.get(SESSION_COOKIE, ""))
        account = user.id

        def write() -> None:
            m.store.set_password(account, hashed)
            m.store.delete_sessions(account, keep=keep)  # logged out everywhere else

        await m.persist(write)
        return {"ok": True}

    @router.post("/api/account/delete")
    async def delete_account(
        body: PasswordBody, request: Request, response: Response
    ) -> dict[str, Any]:
        check_csrf(request)
        user = await logged_in(request)
        ok = len(body.password) <= accounts.PASSWORD_MAX and await asyncio.to_thread(
            accounts.verify_password, user.password_hash, body.password
        )
        if not ok:
            raise ServerError("bad_password", "that is not your password", status=403)
        m = mgr()
        account = user.id
        hashes = await m.persist(lambda: m.store.delete_user(account, accounts.DELETED_NAME))
        m.forget_names(hashes, accounts.DELETED_NAME)
        account_deleted(m)  # the name may be taken again
        community.seen.pop(account, None)
        community.invites.pop(account, None)
        response.delete_cookie(SESSION_COOKIE, path="/")
        return {"ok": True}

    # ------------------------------------------------------------------ profiles, leaders
    @router.get("/api/users/{username}")
    async def profile(username: Annotated[str, Field(max_length=64)]) -> dict[str, Any]:
        m = mgr()
        key = accounts.name_key(username)[:64]
        user = await m.read(lambda: m.store.user_by_key(key))
        if user is None:
            raise ServerError("no_user", f"nobody is called {username!r} here", status=404)
        account = user.id
        stats = await m.read(lambda: m.store.profile(account))
        for row in stats["variants"]:
            row["title"] = variant_title(row["variant"])
        return {
            **user_json(user),
            "since": user.created_at.isoformat(),
            "online": community.online(user.id),
            **stats,
        }

    @router.get("/api/leaders")
    async def leaders(
        variant: Annotated[str | None, Query(max_length=40)] = None,
    ) -> dict[str, Any]:
        from sabacc.variants.registry import DEFAULT_VARIANT

        try:
            info = lookup(variant or DEFAULT_VARIANT)
        except SabaccError as exc:
            raise ServerError("bad_variant", str(exc)) from None
        m = mgr()
        rows = await m.read(lambda: m.store.leaders(info.name, settings.leaderboard_min_games))
        return {
            "variant": info.name,
            "title": info.title,
            "variants": [{"name": n, "title": lookup(n).title} for n in variant_names()],
            "min_games": settings.leaderboard_min_games,
            "leaders": rows,
            "bots": [
                {"bot": name, "rating": display(r), "mu": r.mu, "sigma": r.sigma}
                for name in BOT_RATINGS
                if name in LEVELS or name == "random"
                for r in (bot_rating(name),)
            ],
        }

    # ------------------------------------------------------------------ friends
    @router.get("/api/friends")
    async def friends(request: Request) -> dict[str, Any]:
        user = await logged_in(request)
        m = mgr()
        account = user.id
        rows = await m.read(lambda: m.store.friends(account))
        at = m.tables_of_users({fid for fid, _ in rows})
        return {
            "friends": [
                {
                    "username": name,
                    "url": f"/u/{name}",
                    "online": community.online(fid) or fid in at,
                    # a listed table's link; an unlisted one's code is its secret
                    "table": at.get(fid),
                }
                for fid, name in rows
            ]
        }

    async def someone(username: str) -> UserRecord:
        m = mgr()
        key = accounts.name_key(username)[:64]
        found = await m.read(lambda: m.store.user_by_key(key))
        if found is None:
            raise ServerError("no_user", f"nobody is called {username!r} here", status=404)
        return found

    @router.post("/api/friends")
    async def add_friend(body: UsernameBody, request: Request) -> dict[str, Any]:
        check_csrf(request)
        user = await logged_in(request)
        friend = await someone(body.username)
        if friend.id == user.id:
            raise ServerError("bad_friend", "you cannot add yourself")
        m = mgr()
        ids = (user.id, friend.id)
        following = len(await m.read(lambda: m.store.friends(ids[0])))
        social_limits(request, settings).friend_added(user.id, following)  # S12's limits
        added = await m.persist(lambda: m.store.add_friend(*ids))
        return {"ok": True, "added": added, "username": friend.username}

    @router.post("/api/friends/remove")
    async def remove_friend(body: UsernameBody, request: Request) -> dict[str, Any]:
        check_csrf(request)
        user = await logged_in(request)
        friend = await someone(body.username)
        m = mgr()
        ids = (user.id, friend.id)
        await m.persist(lambda: m.store.remove_friend(*ids))
        return {"ok": True}

    @router.post("/api/tables/{code}/invite")
    async def invite(code: str, body: UsernameBody, request: Request) -> dict[str, Any]:
        """Invite an account to this table (you must hold a seat at it, or be its host)."""
        check_csrf(request)
        user = await logged_in(request)
        friend = await someone(body.username)
        m = mgr()
        table = await m.get(code)
        mine = await m.read(lambda: m.store.token_owners([s.token_hash for s in table.seats]))
        if user.id not in mine.values():
            raise ServerError("not_seated", "invite people to a table you sit at", status=403)
        social_limits(request, settings).invite_sent(user.id)  # S12's limits
        community.invite(friend.id, Invite(user.username, table.code, table.name, time.monotonic()))
        return {"ok": True, "username": friend.username}

    # ------------------------------------------------------------------ quick match
    @router.post("/api/match", status_code=201)
    async def match(body: MatchBody, request: Request) -> dict[str, Any]:
        user = await current_user(request, mgr(), community)
        try:
            info = lookup(body.variant)
        except SabaccError as exc:
            raise ServerError("bad_variant", str(exc)) from None
        if not info.min_players <= body.seats <= info.max_players:
            raise ServerError(
                "bad_seats",
                f"{info.title} is played by {info.min_players}-{info.max_players} players",
            )
        if body.wait not in MATCH_WAITS:
            raise ServerError("bad_wait", f"wait one of {', '.join(map(str, MATCH_WAITS))} s")
        from sabacc.apps.server.table import clean_name

        name = user.username if user is not None else clean_name(body.name)
        if not name:
            raise ServerError("bad_name", "please give a name")
        if user is None:
            await check_guest_name(mgr(), name)  # before a table is made for the ticket
        if len(community.tickets) >= MAX_TICKETS:
            raise ServerError("match_busy", "too many players are waiting: try again soon", 503)
        charge_table(request)  # a quick match makes a table: the same quota as a create
        ticket = community.enqueue(body.model_copy(update={"variant": info.name}), user, name)
        await community.match_now(mgr())
        return ticket_json(community, ticket)

    @router.get("/api/match/{ticket_id}")
    async def match_status(ticket_id: Annotated[str, Field(max_length=64)]) -> dict[str, Any]:
        ticket = community.tickets.get(ticket_id)
        if ticket is None:
            raise ServerError("no_ticket", "that quick-match ticket is not waiting", status=404)
        ticket.seen = time.monotonic()
        out = ticket_json(community, ticket)
        if ticket.result is not None or ticket.error is not None:
            community.tickets.pop(ticket_id, None)  # handed over once
        return out

    @router.post("/api/match/{ticket_id}/cancel")
    async def match_cancel(ticket_id: Annotated[str, Field(max_length=64)]) -> dict[str, Any]:
        community.cancel(ticket_id)
        return {"ok": True}

    return router


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
    community.touch(user)
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
