"""The web page (one HTML file for the lobby, every table and the community pages), the
variants' card art, and ``/healthz``. The static files are mounted by the app."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse

from sabacc.apps.server.site import site_of
from sabacc.core.errors import UnknownVariantError
from sabacc.variants.registry import lookup

WEB_DIR = Path(__file__).resolve().parents[2] / "web"
#: The variants' packages: each declares its card art (an ES module the client imports) as a
#: path under this folder, served as ``/art/<variant>.js``.
VARIANTS_DIR = Path(__file__).resolve().parents[3] / "variants"
NO_CACHE = {"Cache-Control": "no-cache"}

router = APIRouter()


@router.get("/", include_in_schema=False)
async def index() -> FileResponse:
    """The page: it draws the lobby, a table or a community page from the JSON API."""
    return FileResponse(WEB_DIR / "index.html", headers=NO_CACHE)


@router.get("/t/{code}", include_in_schema=False)
async def table_page(code: str) -> FileResponse:
    """A table's page (the same page)."""
    return FileResponse(WEB_DIR / "index.html", headers=NO_CACHE)


# The community pages: drawn by the client from the JSON API.
for _page in ("/signup", "/login", "/account", "/leaders", "/friends", "/u/{username}"):
    router.add_api_route(_page, index, include_in_schema=False, methods=["GET"])


@router.get("/art/{variant}.js", include_in_schema=False)
def card_art(variant: str) -> FileResponse:
    """A variant's card-art module, from the file its record declares."""
    try:
        info = lookup(variant)
    except UnknownVariantError:
        raise HTTPException(status_code=404, detail=f"unknown variant {variant!r}") from None
    if not info.card_art or info.name != variant:
        raise HTTPException(status_code=404, detail=f"no card art for {variant!r}")
    return FileResponse(VARIANTS_DIR / info.card_art, media_type="text/javascript")


@router.get("/healthz")
async def healthz(request: Request) -> dict[str, Any]:
    """This process, its database and, in a cluster, every server holding tables."""
    return await site_of(request).tables.health()
