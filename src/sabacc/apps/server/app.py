"""The FastAPI application: the routes (:mod:`~sabacc.apps.server.routes`), the WebSocket
play endpoint (:mod:`~sabacc.apps.server.ws`), the error answers, and the start and stop of
the table manager and its background tasks.

``create_app(Settings(db_url=...))`` builds an app; ``sabacc serve`` runs it with uvicorn.
The protocol is documented in docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import SQLAlchemyError

from sabacc.apps.server import history, ws
from sabacc.apps.server.community import Community
from sabacc.apps.server.errors import ServerError, validation_message
from sabacc.apps.server.guard import Guard
from sabacc.apps.server.limits import ClientLimits
from sabacc.apps.server.manager import TableManager
from sabacc.apps.server.passwords import PasswordGate
from sabacc.apps.server.persistence import storage_workers
from sabacc.apps.server.proxies import ForwardedFor, TrustedProxies
from sabacc.apps.server.routes import (
    accounts,
    api_bot,
    api_tokens,
    community,
    pages,
    tables,
    tournaments,
)
from sabacc.apps.server.routes.pages import WEB_DIR
from sabacc.apps.server.settings import Settings
from sabacc.apps.server.shared_pg import PostgresState
from sabacc.apps.server.shared_state import MemoryState
from sabacc.apps.server.site import Site
from sabacc.apps.server.tournaments import Tournaments
from sabacc.services.store import Store, StoreBusy
from sabacc.services.store.schema import head as schema_head

log = logging.getLogger("sabacc.apps.server")


class HideFrames(logging.Filter):
    """Drops the WebSocket library's debug dumps of frames: a ``hello`` frame carries a seat
    token, and no secret may reach a log, whatever the log level."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.msg not in ("< %s", "> %s")


def hide_frames() -> None:
    """Install :class:`HideFrames` on the loggers uvicorn hands to the WebSocket library."""
    for name in ("uvicorn.error", "websockets.server", "websockets.protocol"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, HideFrames) for f in logger.filters):
            logger.addFilter(HideFrames())


def _error(code: str, message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def open_store(settings: Settings) -> Store:
    """The database, upgraded in place if need be, and claimed by this server (one plain
    server per database; a cluster shares a PostgreSQL one)."""
    workers = storage_workers(settings, settings.db_url)
    store = Store(settings.db_url, timeout=settings.storage_timeout, pool_size=workers + 1)
    if store.upgraded_from != schema_head():
        log.info(
            "database schema upgraded in place from %s to %s",
            store.upgraded_from or "the release before migrations (or new)",
            schema_head(),
        )
    if settings.cluster and not store.url.startswith("postgresql"):
        store.close()
        raise StoreBusy("--cluster needs PostgreSQL: SQLite is one server per file")
    try:
        # One server per database (or cluster servers only): a second one stops here.
        store.claim(shared=settings.cluster)
    except StoreBusy as exc:
        log.error("%s", exc)
        store.close()
        raise
    return store


async def sweep_limits(site: Site) -> None:
    """Forget the per-client counters of clients long gone, now and then."""
    while True:
        await asyncio.sleep(60)
        site.shared.sweep()


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Open the store, reload the tables and run the background tasks while the app runs."""
    site: Site = app.state.site
    settings = site.settings
    hide_frames()
    raise_open_file_limit()
    store = open_store(settings)
    manager = TableManager(store, settings)
    manager.load()
    manager.resume(asyncio.get_running_loop())
    site.manager = manager
    app.state.manager = manager
    app.state.tournaments = events = Tournaments(manager)
    await events.load()
    if settings.cluster:  # one site across processes: the shared state in PostgreSQL
        site.shared = PostgresState(manager, site.community)
    tasks = [
        asyncio.create_task(manager.run_evictions()),
        asyncio.create_task(sweep_limits(site)),
        asyncio.create_task(manager.keep_claim()),
        *([asyncio.create_task(manager.run_leases())] if settings.cluster else []),
        asyncio.create_task(manager.run_expiry()),
        asyncio.create_task(site.shared.run(manager)),
    ]
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
        events.shutdown()
        if settings.cluster:
            await manager.release_all()
        manager.shutdown()
        store.close()


async def _server_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ServerError)
    return _error(exc.code, exc.message, exc.status)


async def _storage_error(request: Request, exc: Exception) -> JSONResponse:
    log.error("database error on %s: %s", request.url.path, type(exc).__name__)
    return _error("storage_error", "the server cannot read its database right now", 503)


async def _bad_request(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return _error("bad_request", validation_message(exc), 422)


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the app. The store is opened and every table reloaded when the app starts."""
    settings = settings or Settings()
    limits = ClientLimits(settings)
    community_ = Community(settings)
    frames, gate = history.FrameCache(), PasswordGate(settings)
    site = Site(settings, limits, community_, frames, gate, MemoryState(community_, limits))
    app = FastAPI(
        title="Sabacc",
        lifespan=lifespan,
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.site = site
    app.add_middleware(Guard, limits=limits)
    app.add_middleware(ForwardedFor, proxies=TrustedProxies(settings.trusted_proxies))
    app.add_exception_handler(ServerError, _server_error)
    app.add_exception_handler(SQLAlchemyError, _storage_error)
    app.add_exception_handler(RequestValidationError, _bad_request)
    app.include_router(pages.router)
    app.include_router(accounts.router)
    app.include_router(community.router)
    app.include_router(api_tokens.router)  # programs: tokens, bots (docs/bot-api.md)
    app.include_router(api_bot.router)
    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    app.include_router(tables.router)
    app.include_router(tournaments.router)
    app.include_router(ws.router)
    return app


def raise_open_file_limit() -> None:
    """Raise this process's soft limit of open files to its hard limit, where the system
    allows: each WebSocket is a file, and the usual soft limit of 1024 is soon reached."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Windows
        return
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        if soft == resource.RLIM_INFINITY or soft >= target:
            return
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        log.info("open-file limit raised from %d to %d", soft, target)
    except (ValueError, OSError) as exc:  # pragma: no cover - a container may refuse
        log.warning("could not raise the open-file limit: %s", exc)


#: The collector's first threshold in a server process (the interpreter's default is 700).
GC_THRESHOLD0 = 10_000


def tune_gc() -> None:
    """Tune the cyclic garbage collector for a long-running server: what exists at start-up
    (modules, the application) is moved out of its reach (``gc.freeze``), and a collection
    starts after 10,000 net new container objects instead of 700. Building the state messages
    allocates many short-lived dicts; with the defaults, full collections over every table in
    memory ran often and took about a tenth of the CPU under load."""
    gc.collect()
    gc.freeze()
    _, second, third = gc.get_threshold()
    gc.set_threshold(GC_THRESHOLD0, second, third)


def run(
    app: FastAPI,
    host: str,
    port: int,
    *,
    log_level: str = "info",
    access_log: bool = False,
    header_timeout: float = 10.0,
) -> None:
    """Serve ``app`` with uvicorn (incoming WebSocket messages are capped at 64 KiB).

    Per-message compression is off: state messages are a few KiB, and deflating each one for
    every connection costs more CPU than the bandwidth is worth on a small server. A request
    whose headers are not in after ``header_timeout`` seconds is dropped (see
    :mod:`sabacc.apps.server.slow`); idle keep-alive connections close after 5 s (uvicorn).
    """
    import uvicorn

    from sabacc.apps.server.slow import with_header_deadline

    protocol = with_header_deadline(header_timeout)
    tune_gc()
    uvicorn.run(
        app,
        host=host,
        port=port,
        http=protocol if protocol is not None else "auto",
        log_level=log_level,
        access_log=access_log,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,
        ws_ping_interval=20,
        ws_ping_timeout=30,
        proxy_headers=False,  # forwarded addresses: sabacc.apps.server.proxies
    )
