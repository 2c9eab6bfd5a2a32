"""The tournaments' HTTP API and pages (see docs/tournaments.md, "On the web server").

A player is known by their account's session, or by the token their registration returned
(header ``X-Tournament-Token``, or ``token`` in a body); a director by the creator's account
or the director token the event's creation returned (header ``X-Director-Token``). A
director's action asked by anyone else is refused (``not_director``, 403) and changes
nothing. The results, the standings exports and the TV page are public.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, PlainTextResponse

from sabacc.apps.server import tournament_run
from sabacc.apps.server import tournament_views as views
from sabacc.apps.server.community import current_user, request_user
from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.routes.pages import NO_CACHE, WEB_DIR
from sabacc.apps.server.site import site_of
from sabacc.apps.server.tournament_setup import (
    ActBody,
    BotsBody,
    CreateEvent,
    DirectorBody,
    RegisterBody,
    TokenBody,
)
from sabacc.apps.server.tournaments import LiveEvent, Tournaments
from sabacc.services.store import UserRecord

router = APIRouter()

Code = Annotated[str, PathParam(min_length=1, max_length=16)]
TableNo = Annotated[int, PathParam(ge=1, le=10_000)]
PlayerToken = Annotated[str | None, Header(alias="X-Tournament-Token", max_length=128)]
DirectorToken = Annotated[str | None, Header(alias="X-Director-Token", max_length=128)]


def tournaments_of(request: Request) -> Tournaments:
    found: Tournaments | None = getattr(request.app.state, "tournaments", None)
    if found is None:
        raise ServerError("unavailable", "the server is starting", status=503)
    return found


async def viewer(request: Request, write: bool = False) -> UserRecord | None:
    site = site_of(request)
    if write:
        return await request_user(request, site.tables, site.community)
    return await current_user(request, site.tables, site.community)


def lang_of(request: Request) -> str:
    return "ja" if request.query_params.get("lang") == "ja" else "en"


def player_of(
    svc: Tournaments, ev: LiveEvent, token: str | None, user: UserRecord | None
) -> str | None:
    reg = svc.registration_of(ev, token, user)
    return ev.player_of(reg.name) if reg is not None else None


# ---------------------------------------------------------------------- pages
async def page() -> FileResponse:
    """The pages are the one client page; it draws them from this API."""
    return FileResponse(WEB_DIR / "index.html", headers=NO_CACHE)


for _path in ("/tournaments", "/e/{code}", "/e/{code}/table/{table}", "/e/{code}/director"):
    router.add_api_route(_path, page, include_in_schema=False, methods=["GET"])
router.add_api_route("/tv/{code}", page, include_in_schema=False, methods=["GET"])


# ---------------------------------------------------------------------- reading
@router.get("/api/tournaments")
async def list_events(request: Request) -> dict[str, Any]:
    """Every event, newest first."""
    svc = tournaments_of(request)
    events = sorted(svc.events.values(), key=lambda e: -e.rec.id)
    return {"events": [views.summary(ev) for ev in events]}


@router.get("/api/tournaments/{code}")
async def event_detail(
    code: Code, request: Request, token: PlayerToken = None, director: DirectorToken = None
) -> dict[str, Any]:
    """An event: standings, tables, the clock, the feed, and the viewer's own table."""
    svc = tournaments_of(request)
    ev = svc.get(code)
    user = await viewer(request)
    return views.detail(
        ev, player_of(svc, ev, token, user), svc.is_director(ev, director, user), lang_of(request)
    )


@router.get("/api/tournaments/{code}/tables/{table}")
async def table_detail(
    code: Code, table: TableNo, request: Request, token: PlayerToken = None
) -> dict[str, Any]:
    """A table as the viewer sees it (their cards and actions if they sit there)."""
    svc = tournaments_of(request)
    ev = svc.get(code)
    return views.table_view(ev, table, player_of(svc, ev, token, await viewer(request)))


@router.get("/api/tournaments/{code}/results")
async def event_results(code: Code, request: Request) -> dict[str, Any]:
    """The public read of the results."""
    return views.results(tournaments_of(request).get(code))


@router.get("/api/tournaments/{code}/standings.json")
async def standings_json(code: Code, request: Request) -> dict[str, Any]:
    return views.results(tournaments_of(request).get(code))


@router.get("/api/tournaments/{code}/standings.csv")
async def standings_csv(code: Code, request: Request) -> PlainTextResponse:
    ev = tournaments_of(request).get(code)
    return PlainTextResponse(
        views.standings_csv(ev),
        media_type="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{ev.code}-standings.csv"'},
    )


# ---------------------------------------------------------------------- changing
@router.post("/api/tournaments", status_code=201)
async def create_event(body: CreateEvent, request: Request) -> dict[str, Any]:
    """A new event from a template; the answer holds the director's token."""
    return await tournaments_of(request).create(body, await viewer(request, write=True))


@router.post("/api/tournaments/{code}/register")
async def register(code: Code, body: RegisterBody, request: Request) -> dict[str, Any]:
    """Register (an account under its username, a guest under ``name``)."""
    user = await viewer(request, write=True)
    return await tournaments_of(request).register(code, body.name, user)


@router.post("/api/tournaments/{code}/unregister")
async def unregister(code: Code, body: TokenBody, request: Request) -> dict[str, Any]:
    user = await viewer(request, write=True)
    await tournaments_of(request).unregister(code, body.token, user)
    return {"ok": True}


@router.post("/api/tournaments/{code}/act")
async def act(code: Code, body: ActBody, request: Request) -> dict[str, Any]:
    """A seated player's action (``back``: play again yourself after the autopilot)."""
    svc = tournaments_of(request)
    ev = svc.get(code)
    player = player_of(svc, ev, body.token, await viewer(request, write=True))
    if player is None:
        raise ServerError("not_playing", "you have no entry in this event", status=403)
    if body.action == "back":
        ev.away.discard(player)
        ev.changed()
    else:
        tournament_run.act(ev, player, body.action)
    return {"ok": True}


@router.post("/api/tournaments/{code}/bots")
async def add_bots(
    code: Code, body: BotsBody, request: Request, director: DirectorToken = None
) -> dict[str, Any]:
    """The director registers disclosed bots."""
    svc = tournaments_of(request)
    svc.require_director(svc.get(code), director, await viewer(request, write=True))
    return {"added": await svc.add_bots(code, body.count, body.level)}


@router.post("/api/tournaments/{code}/director")
async def direct(
    code: Code, body: DirectorBody, request: Request, director: DirectorToken = None
) -> dict[str, Any]:
    """A director's action: start, pause, resume, add_time, move, break."""
    svc = tournaments_of(request)
    svc.require_director(svc.get(code), director, await viewer(request, write=True))
    args = {"seconds": body.seconds, "entry": body.entry, "table": body.table}
    return await svc.direct(code, body.action, **args)
