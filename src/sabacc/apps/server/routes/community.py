"""The community endpoints (``/api/users/*``, ``/api/leaders``, ``/api/friends``,
``/api/tables/{code}/invite``, ``/api/match``); accounts are :mod:`.accounts`."""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import Field

from sabacc.apps.server.community import (
    MATCH_WAITS,
    MAX_TICKETS,
    Invite,
    MatchBody,
    UsernameBody,
    current_user,
)
from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.manager import TableManager
from sabacc.apps.server.names import check_guest_name
from sabacc.apps.server.quota import charge_table
from sabacc.apps.server.routes.accounts import check_csrf, logged_in, user_json
from sabacc.apps.server.shared_state import LONG_POLL
from sabacc.apps.server.site import site_of
from sabacc.apps.server.table import variant_title
from sabacc.core.errors import SabaccError
from sabacc.services.bots import LEVELS
from sabacc.services.community import accounts
from sabacc.services.community.ratings import BOT_RATINGS, bot_rating, display
from sabacc.services.store import UserRecord
from sabacc.variants.registry import lookup, variant_names

router = APIRouter()


# ------------------------------------------------------------------ profiles, leaders
@router.get("/api/users/{username}")
async def profile(
    request: Request, username: Annotated[str, Field(max_length=64)]
) -> dict[str, Any]:
    m = site_of(request).tables
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
        "online": user.id in await site_of(request).shared.online([user.id]),
        "bot": bool(await m.read(lambda: m.store.bot_accounts({account}))),  # issue 38
        **stats,
    }


@router.get("/api/leaders")
async def leaders(
    request: Request,
    variant: Annotated[str | None, Query(max_length=40)] = None,
) -> dict[str, Any]:
    from sabacc.variants.registry import DEFAULT_VARIANT

    try:
        info = lookup(variant or DEFAULT_VARIANT)
    except SabaccError as exc:
        raise ServerError("bad_variant", str(exc)) from None
    m, least = site_of(request).tables, site_of(request).settings.leaderboard_min_games
    rows = await m.read(lambda: m.store.leaders(info.name, least))
    return {
        "variant": info.name,
        "title": info.title,
        "variants": [{"name": n, "title": lookup(n).title} for n in variant_names()],
        "min_games": least,
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
    m = site_of(request).tables
    account = user.id
    rows = await m.read(lambda: m.store.friends(account))
    ids = [fid for fid, _ in rows]
    at = {**await site_of(request).shared.places(ids), **m.tables_of_users(set(ids))}
    online = await site_of(request).shared.online(ids)
    return {
        "friends": [
            {
                "username": name,
                "url": f"/u/{name}",
                "online": fid in online or fid in at,
                # a listed table's link; an unlisted one's code is its secret
                "table": at.get(fid),
            }
            for fid, name in rows
        ]
    }


async def someone(m: TableManager, username: str) -> UserRecord:
    """The account called ``username`` (else ``no_user``, 404)."""
    key = accounts.name_key(username)[:64]
    found = await m.read(lambda: m.store.user_by_key(key))
    if found is None:
        raise ServerError("no_user", f"nobody is called {username!r} here", status=404)
    return found


@router.post("/api/friends")
async def add_friend(body: UsernameBody, request: Request) -> dict[str, Any]:
    check_csrf(request)
    user = await logged_in(request)
    friend = await someone(site_of(request).tables, body.username)
    if friend.id == user.id:
        raise ServerError("bad_friend", "you cannot add yourself")
    m = site_of(request).tables
    ids = (user.id, friend.id)
    following = len(await m.read(lambda: m.store.friends(ids[0])))
    await site_of(request).shared.friend_added(request, user.id, following)  # S12's limits
    added = await m.persist(lambda: m.store.add_friend(*ids))
    return {"ok": True, "added": added, "username": friend.username}


@router.post("/api/friends/remove")
async def remove_friend(body: UsernameBody, request: Request) -> dict[str, Any]:
    check_csrf(request)
    user = await logged_in(request)
    friend = await someone(site_of(request).tables, body.username)
    m = site_of(request).tables
    ids = (user.id, friend.id)
    await m.persist(lambda: m.store.remove_friend(*ids))
    return {"ok": True}


@router.post("/api/tables/{code}/invite")
async def invite(code: str, body: UsernameBody, request: Request) -> dict[str, Any]:
    """Invite an account to this table (you must hold a seat at it, or be its host)."""
    check_csrf(request)
    user = await logged_in(request)
    friend = await someone(site_of(request).tables, body.username)
    m = site_of(request).tables
    table = await m.get(code)
    mine = await m.read(lambda: m.store.token_owners([s.token_hash for s in table.seats]))
    if user.id not in mine.values():
        raise ServerError("not_seated", "invite people to a table you sit at", status=403)
    await site_of(request).shared.invite_sent(request, user.id)  # S12's limits
    invitation = Invite(user.username, table.code, table.name, time.monotonic())
    await site_of(request).shared.invite(friend.id, invitation)
    return {"ok": True, "username": friend.username}


# ------------------------------------------------------------------ quick match
@router.post("/api/match", status_code=201)
async def match(body: MatchBody, request: Request) -> dict[str, Any]:
    user = await current_user(request, site_of(request).tables, site_of(request).community)
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
        await check_guest_name(site_of(request).tables, name)  # before a table is made for it
    shared = site_of(request).shared
    if await shared.waiting() >= MAX_TICKETS:
        raise ServerError("match_busy", "too many players are waiting: try again soon", 503)
    await charge_table(request)  # a quick match makes a table: the same quota as a create
    return await shared.enqueue(body.model_copy(update={"variant": info.name}), user, name)


@router.get("/api/match/{ticket_id}")
async def match_status(
    request: Request,
    ticket_id: Annotated[str, Field(max_length=64)],
    wait: Annotated[float, Query(ge=0, le=LONG_POLL)] = 0.0,
) -> dict[str, Any]:
    """A ticket's state; with ``wait``, answered when it is matched (on any server of the
    site) or after ``wait`` seconds, whichever comes first. A settled ticket is shown once."""
    out = await site_of(request).shared.ticket_wait(ticket_id, wait)
    if out is None:
        raise ServerError("no_ticket", "that quick-match ticket is not waiting", status=404)
    return out


@router.post("/api/match/{ticket_id}/cancel")
async def match_cancel(
    request: Request, ticket_id: Annotated[str, Field(max_length=64)]
) -> dict[str, Any]:
    await site_of(request).shared.cancel(ticket_id)
    return {"ok": True}
