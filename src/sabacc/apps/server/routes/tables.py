"""The tables' HTTP API: the variants' catalogue, the lobby, creating, joining and leaving a
table, a seat's odds, and the history of a table's games."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from fastapi import Path as PathParam

from sabacc.apps.server import history, messages
from sabacc.apps.server.catalogue import variants_catalogue
from sabacc.apps.server.clock import odds_hints
from sabacc.apps.server.community import request_user
from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.integrity import seat_taken
from sabacc.apps.server.protocol import CreateTable, JoinTable, TokenBody
from sabacc.apps.server.quota import charge_table
from sabacc.apps.server.site import site_of

#: Seconds an odds hint may take before the request is refused (``odds_busy``).
ODDS_BUDGET = 10.0

#: Path numbers beyond what the database stores are refused (422) before any query.
GameNumber = Annotated[int, PathParam(ge=1, le=2**31 - 1)]
HandNumber = Annotated[int, PathParam(ge=1, le=2**31 - 1)]

router = APIRouter()


@router.get("/api/variants")
async def variants() -> dict[str, Any]:
    """Every variant's declared facts, and the bots (see :mod:`~sabacc.apps.server.catalogue`)."""
    return variants_catalogue()


@router.get("/api/tables")
async def list_tables(request: Request) -> dict[str, Any]:
    """The lobby."""
    return {"tables": await site_of(request).tables.lobby()}


@router.post("/api/tables", status_code=201)
async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
    """A new table (at most ``tables_per_hour`` per client, quick matches included)."""
    site = site_of(request)
    await charge_table(request)
    m = site.tables
    made = await m.create(body, await request_user(request, m, site.community))
    seat_taken(m, made, request)  # for rating integrity (integrity.py)
    return made


@router.get("/api/tables/{code}")
async def get_table(code: str, request: Request) -> dict[str, Any]:
    """A table's public description."""
    return messages.table_info(await site_of(request).tables.get(code))


@router.post("/api/tables/{code}/join")
async def join_table(code: str, body: JoinTable, request: Request) -> dict[str, Any]:
    """Take a seat (under the account's name, for a logged-in player)."""
    site = site_of(request)
    m = site.tables
    user = await request_user(request, m, site.community)
    joined = await m.join(code, body.name, body.seat, body.host_token, user)
    seat_taken(m, joined, request)  # for rating integrity (integrity.py)
    return joined


@router.post("/api/tables/{code}/leave")
async def leave_table(code: str, body: TokenBody, request: Request) -> dict[str, Any]:
    """Give a seat up."""
    m = site_of(request).tables
    table = await m.get(code)
    seat = m.seat_for_token(table, body.token)
    await m.leave(table, seat)
    return {"ok": True, "seat": seat}


@router.get("/api/tables/{code}/odds")
async def table_odds(
    code: str,
    request: Request,
    x_seat_token: Annotated[str | None, Header(max_length=128)] = None,
) -> dict[str, Any]:
    """The exact odds of the seat's options now (services/odds), for its own cards only."""
    m = site_of(request).tables
    table = await m.get(code)
    if not x_seat_token:
        raise ServerError("not_seated", "odds are for a seated player (send X-Seat-Token)")
    seat = m.seat_for_token(table, x_seat_token)
    game = table.game
    if game is None:
        raise ServerError("no_game", "no game is being played at this table")
    obs = game.observation(seat)
    # Worked out in the bot pool (the odds can take a moment; the server's loop goes on).
    future = asyncio.get_running_loop().run_in_executor(m.clock.bots, odds_hints, obs)
    try:
        return await asyncio.wait_for(future, ODDS_BUDGET)
    except TimeoutError:
        raise ServerError(
            "odds_busy", "the odds are taking too long: try again", status=503
        ) from None


@router.get("/api/tables/{code}/games")
async def list_games(code: str, request: Request) -> dict[str, Any]:
    """The table's games."""
    m = site_of(request).tables
    table = await m.get(code)
    return {"games": await m.read(lambda: history.games(m.store, table))}


@router.get("/api/tables/{code}/games/{number}/history")
async def game_history(code: str, number: GameNumber, request: Request) -> dict[str, Any]:
    """One game's history."""
    m = site_of(request).tables
    table = await m.get(code)
    return await asyncio.to_thread(history.history, m.store, table, number)


@router.get("/api/tables/{code}/games/{number}/hands/{hand}")
async def hand_frames(
    code: str,
    number: GameNumber,
    hand: HandNumber,
    request: Request,
    x_seat_token: Annotated[str | None, Header(max_length=128)] = None,
) -> dict[str, Any]:
    """One hand's frames, as the seat of ``X-Seat-Token`` (or a spectator) may see them."""
    site = site_of(request)
    m = site.tables
    table = await m.get(code)
    # Off the event loop: replaying a long game takes a while, and the tables play on.
    return await asyncio.to_thread(
        history.hand_frames, m.store, table, number, hand, x_seat_token, site.frames,
        m.settings.history_snapshot_every,
    )  # fmt: skip
