"""The API for programs (issue 38; docs/api.md): an account's event stream, challenges of bot
accounts, a game's stream for one seat, moves, and the bot accounts' list and ladder. Every call
but the public lists is made with a personal API token (:mod:`sabacc.apps.server.api_auth`);
the hub of challenges and streams is :mod:`sabacc.apps.server.api_bots`."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from sabacc.apps.server.api_auth import TokenAuth, token_auth
from sabacc.apps.server.api_bots import game_stream, hub_of, open_seat_connection, seat_of
from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.limits import client_key
from sabacc.apps.server.quota import charge_table
from sabacc.apps.server.routes.api_tokens import is_bot
from sabacc.apps.server.site import site_of
from sabacc.core.errors import SabaccError
from sabacc.services.community import accounts
from sabacc.variants.registry import lookup, variant_names

router = APIRouter()
NDJSON = "application/x-ndjson"
#: Headers of a stream: not cached, not buffered by a reverse proxy.
STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}


class ChallengeBody(BaseModel):
    """``POST /api/challenge/{username}``: the game offered."""

    model_config = ConfigDict(extra="forbid")

    variant: Annotated[str, Field(min_length=1, max_length=40)]
    #: Seconds each turn may take before the timer plays it (a bot that stops answering).
    turn_timer: Annotated[float, Field(ge=2, le=600)] = 30.0
    #: The variant's options, as a table's (``POST /api/tables``).
    options: dict[str, str | int | float | bool | None] = Field(default_factory=dict)


class MoveBody(BaseModel):
    """``POST /api/games/{code}/move``: an action in its text form (``"bet 5"``)."""

    model_config = ConfigDict(extra="forbid")

    action: Annotated[str, Field(min_length=1, max_length=40)]
    #: If given, must be the table's version (the number of actions played), else ``stale``.
    version: Annotated[int, Field(ge=0)] | None = None
    #: If given, must be the seat the account holds, else ``not_your_seat``.
    seat: Annotated[int, Field(ge=0, le=64)] | None = None


async def acting(request: Request) -> TokenAuth:
    """A token that may act for its account: ``bot`` for a bot account, ``play`` otherwise."""
    auth = await token_auth(request, "read")
    bot = await is_bot(site_of(request).tables, request, auth.user.id)
    needed = "bot" if bot else "play"
    if not auth.allows(needed):
        raise ServerError(
            "missing_scope",
            f"acting for {'a bot' if bot else 'this'} account needs the {needed!r} scope",
            status=403,
        )
    return auth


# ------------------------------------------------------------------ events
@router.get("/api/stream/events")
async def events(request: Request) -> StreamingResponse:
    """The account's events as NDJSON: ``challenge``, ``challenge_canceled``,
    ``challenge_declined``, ``challenge_accepted``, ``game_start``, ``game_finish``; an empty
    line every few seconds while quiet."""
    auth = await token_auth(request, "read")
    hub = hub_of(request)
    queue = hub.listen(auth.user.id, site_of(request).tables.tables)
    stream = hub.events(auth.user.id, auth.token.id, queue)
    return StreamingResponse(stream, media_type=NDJSON, headers=STREAM_HEADERS)


# ------------------------------------------------------------------ challenges
@router.post("/api/challenge/{username}", status_code=201)
async def challenge(
    username: Annotated[str, Field(max_length=64)], body: ChallengeBody, request: Request
) -> dict[str, Any]:
    """Challenge the bot account ``username`` to one game; it answers on its event stream."""
    auth = await acting(request)
    m = site_of(request).tables
    key = accounts.name_key(username)[:64]
    target = await m.read(lambda: m.store.user_by_key(key))
    if target is None:
        raise ServerError("no_user", f"nobody is called {username!r} here", status=404)
    if not await is_bot(m, request, target.id):
        raise ServerError("not_a_bot", f"{target.username} is not a bot account", status=409)
    try:
        info = lookup(body.variant)
        info.options_type.from_mapping(dict(body.options))
    except SabaccError as exc:
        known = ", ".join(variant_names())
        raise ServerError("bad_variant", f"{exc} (variants: {known})") from None
    await charge_table(request)  # an accepted challenge makes a table: the creator's quota
    ch = hub_of(request).challenge(auth.user, target, info.name, body.turn_timer, body.options)
    return ch.json(auth.user.id)


@router.get("/api/challenge/{challenge_id}")
async def challenge_status(challenge_id: str, request: Request) -> dict[str, Any]:
    """A challenge made by or of the token's account (once accepted: the game)."""
    auth = await token_auth(request, "read")
    return hub_of(request).get(challenge_id[:40], auth.user.id).json(auth.user.id)


@router.post("/api/challenge/{challenge_id}/accept")
async def accept(challenge_id: str, request: Request) -> dict[str, Any]:
    """Accept a challenge: the game starts at once (``game_start`` on both event streams)."""
    auth = await acting(request)
    hub = hub_of(request)
    ch = hub.get(challenge_id[:40], auth.user.id)
    return await hub.accept(site_of(request).tables, ch, auth.user.id)


@router.post("/api/challenge/{challenge_id}/decline")
async def decline(challenge_id: str, request: Request) -> dict[str, Any]:
    auth = await acting(request)
    hub = hub_of(request)
    ch = hub.get(challenge_id[:40], auth.user.id)
    hub.answer(ch, auth.user.id, "declined")
    return ch.json(auth.user.id)


@router.post("/api/challenge/{challenge_id}/cancel")
async def cancel(challenge_id: str, request: Request) -> dict[str, Any]:
    auth = await acting(request)
    hub = hub_of(request)
    ch = hub.get(challenge_id[:40], auth.user.id)
    hub.answer(ch, auth.user.id, "canceled")
    return ch.json(auth.user.id)


# ------------------------------------------------------------------ games
@router.get("/api/games/{code}/stream")
async def stream_game(code: str, request: Request) -> StreamingResponse:
    """The game at table ``code`` as the account's seat sees it: a ``state`` line after every
    change (the seat's observation, with its legal actions when it is to act), until the game
    is over."""
    auth = await token_auth(request, "read")
    m = site_of(request).tables
    table = await m.get(code)
    seat = await seat_of(m, table, auth.user.id)
    if seat is None:
        raise ServerError("not_seated", "your account holds no seat at this table", status=403)
    client = client_key(request.client.host if request.client else None)
    conn = open_seat_connection(m, table, seat, client)
    stream = game_stream(m, hub_of(request), table, seat, conn, auth.token.id)
    return StreamingResponse(stream, media_type=NDJSON, headers=STREAM_HEADERS)


@router.post("/api/games/{code}/move")
async def move(code: str, body: MoveBody, request: Request) -> dict[str, Any]:
    """Play an action at the account's own seat, checked as every seat's action is: refused
    (nothing changes) if it is illegal, not this seat's turn, or stale."""
    auth = await acting(request)
    m = site_of(request).tables
    table = await m.get(code)
    seat = await seat_of(m, table, auth.user.id)
    if seat is None:
        raise ServerError("not_seated", "your account holds no seat at this table", status=403)
    if body.seat is not None and body.seat != seat:
        raise ServerError("not_your_seat", f"you hold seat {seat}, not seat {body.seat}", 403)
    await m.act(table, seat, body.action, version=body.version)
    over = table.game is None or table.game.is_over
    if over:
        hub_of(request).game_over(table.code)
    return {"ok": True, "version": table.version, "over": over}


# ------------------------------------------------------------------ the bots
@router.get("/api/bots")
async def bots(request: Request) -> dict[str, Any]:
    """The bot accounts (public)."""
    m = site_of(request).tables
    names = await m.read(lambda: m.store.bot_list())
    return {"bots": [{"username": n, "url": f"/u/{n}", "bot": True} for n in names]}


@router.get("/api/bots/leaders")
async def bot_leaders(
    request: Request, variant: Annotated[str, Query(max_length=40)] = "corellian_spike"
) -> dict[str, Any]:
    """The bot ladder of ``variant``: bot accounts by rating (rated games between accounts,
    the same openskill ratings as the people's, on a leaderboard of their own)."""
    try:
        info = lookup(variant)
    except SabaccError as exc:
        raise ServerError("bad_variant", str(exc)) from None
    m = site_of(request).tables
    least = site_of(request).settings.leaderboard_min_games
    rows = await m.read(lambda: m.store.leaders(info.name, least, bots=True))
    return {"variant": info.name, "title": info.title, "min_games": least, "leaders": rows}
