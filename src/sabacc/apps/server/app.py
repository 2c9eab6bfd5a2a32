"""The FastAPI application: HTTP lobby and history, the WebSocket play endpoint, the web page.

``create_app(Settings(db_url=...))`` builds an app; ``sabacc serve`` runs it with uvicorn.
The protocol is documented in docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, HTTPException, Request, WebSocket
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError

from sabacc.apps.server import history, messages, trace
from sabacc.apps.server.auth import hash_token
from sabacc.apps.server.clock import odds_hints
from sabacc.apps.server.community import SESSION_COOKIE, Community, request_user, routes
from sabacc.apps.server.connection import Connection
from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.guard import Guard
from sabacc.apps.server.integrity import seat_taken
from sabacc.apps.server.limits import ClientLimits, client_key
from sabacc.apps.server.manager import TableManager, storage_workers
from sabacc.apps.server.protocol import (
    CLIENT_MESSAGE,
    CLIENT_TYPES,
    MAX_MESSAGE_CHARS,
    ActionMsg,
    Back,
    Chat,
    CreateTable,
    Hello,
    JoinTable,
    Leave,
    NewGame,
    Ping,
    Start,
    Sync,
    TokenBody,
)
from sabacc.apps.server.quota import charge_table
from sabacc.apps.server.settings import Settings
from sabacc.core.errors import UnknownVariantError
from sabacc.engine.variant import VariantInfo
from sabacc.services.bots import DEFAULT_LEVEL, LEVELS
from sabacc.services.bots.levels import alike_levels, levels_note, offered_bots, strengths
from sabacc.services.house_rules import spec_json
from sabacc.services.messages import LANGUAGES
from sabacc.services.render import vocabulary, vocabulary_json
from sabacc.services.store import Store, StoreBusy
from sabacc.services.store.schema import head as schema_head
from sabacc.variants.registry import lookup, variant_names

log = logging.getLogger("sabacc.apps.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
#: The variants' packages: each declares its card art (an ES module the client imports) as a
#: path under this folder, served as ``/art/<variant>.js``.
VARIANTS_DIR = Path(__file__).resolve().parents[2] / "variants"
NO_CACHE = {"Cache-Control": "no-cache"}
#: Seconds an odds hint may take before the request is refused (``odds_busy``).
ODDS_BUDGET = 10.0


def variants_catalogue() -> dict[str, Any]:
    """Each variant's declared facts (what the web client draws from, so that it never names a
    variant): names, players, options with their choices and ranges, piles, pots, card art,
    action kinds and shown fields; and the bots."""
    out = []
    for name in variant_names():
        info = lookup(name)
        out.append(
            {
                "name": info.name,
                "title": info.title,
                "aliases": list(info.aliases),
                "summary": info.summary,
                "min_players": info.min_players,
                "max_players": info.max_players,
                "deck": info.deck.style,
                "signed_values": info.deck.signed_values,
                # the card codes the log's lines may name (the client draws them as the cards)
                "codes": sorted({card.code for card in info.deck.cards}),
                # a stack's unit beside it, in the variant's words ("cr", Kessel's "chips")
                "unit": {lang: vocabulary(info, lang).text("ui.unit") for lang in LANGUAGES},
                # what each player starts with under the default options (the lobby's buy-in
                # box shows it when the option's default is "none": 100 x ante, say)
                "starting_stack": info.options_type().starting_stack,
                "card_art": f"/art/{info.name}.js" if info.card_art else None,
                "rules": info.rules_text,
                # how many different bots the levels play here, and which levels coincide
                "bot_strengths": strengths(info),
                "alike_levels": [list(group) for group in alike_levels(info)],
                "levels_note": {lang: levels_note(info, lang) for lang in LANGUAGES},
                **localized(info),
                "options": [
                    {
                        **spec_json(info, spec),
                        "help_ja": translated(info, f"help.{spec.name}"),
                        "label_ja": translated(info, f"option.{spec.name}"),
                    }
                    for spec in info.options_type.specs()
                ],
                "piles": [dataclasses.asdict(pile) for pile in info.piles],
                "pots": [
                    {"pot": rule.pot, "rule": rule.rule, "per_seat": rule.per_seat}
                    for rule in info.pots
                ],
                "text": vocabulary_json(info),
                "display": dataclasses.asdict(info.display),
                # the declared action kinds: how the client groups and draws each legal action
                "actions": [
                    {
                        "name": kind.name,
                        "head": " ".join(kind.head),
                        "form": kind.form,
                        "control": str(kind.control),
                        "key": kind.key,
                        "pile": kind.pile,
                        "source": kind.source,
                        "betting": kind.betting,
                    }
                    for kind in info.actions
                ],
                # the observation fields shown in a place of their own (not as loose facts)
                "fields": [{"key": f.key, "show": f.show} for f in info.fields],
                "placed_fields": sorted(info.placed_fields),
            }
        )
    default = lookup(str(CreateTable.model_fields["variant"].default)).name
    levels = [
        {"name": level.name, "about": dict(level.about), "rating": level.rating}
        for level in LEVELS.values()
    ]
    return {
        "variants": out,
        "default_variant": default,
        # what a seat may be besides the levels (a level's bot is private: not listed)
        "bots": [name for name in offered_bots() if name not in LEVELS],
        "levels": levels,
        "default_level": DEFAULT_LEVEL,
    }


def translated(info: VariantInfo, key: str, lang: str = "ja") -> str | None:
    """The variant's (or the catalogue's) text ``key`` in ``lang``, None if it has none."""
    vocab = vocabulary(info, lang)
    return vocab.template(key) if vocab.has_own(key) else None


def localized(info: VariantInfo) -> dict[str, Any]:
    """The Japanese menu line and rules, and the one-screen how-to-win in every language."""
    return {
        "summary_ja": translated(info, "summary"),
        "rules_ja": translated(info, "rules"),
        "howto": {lang: translated(info, "howto", lang) for lang in LANGUAGES},
        # hand names as each language writes them (the web's hand value, showdown, glossary)
        "hands": {
            lang: {
                key[5:]: text
                for key, text in info.text.messages.get(lang, {}).items()
                if key.startswith("hand.")
            }
            for lang in LANGUAGES
        },
    }


#: Path numbers beyond what the database stores are refused (422) before any query.
GameNumber = Annotated[int, PathParam(ge=1, le=2**31 - 1)]
HandNumber = Annotated[int, PathParam(ge=1, le=2**31 - 1)]


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


def _validation_message(exc: ValidationError | RequestValidationError) -> str:
    errors = exc.errors()
    if not errors:
        return "invalid message"
    first = errors[0]
    where = ".".join(str(p) for p in first.get("loc", ()) if p not in ("body",))
    text = str(first.get("msg", "invalid"))
    return f"{where}: {text}" if where else text


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the app. The store is opened and every table reloaded when the app starts."""
    settings = settings or Settings()
    holder: dict[str, TableManager] = {}
    limits = ClientLimits(settings)
    frames = history.FrameCache()
    community = Community(settings)

    async def sweep_limits() -> None:
        while True:
            await asyncio.sleep(60)
            limits.sweep()
            community.logins.sweep()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hide_frames()
        raise_open_file_limit()
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
        manager = TableManager(store, settings)
        manager.load()
        manager.resume(asyncio.get_running_loop())
        holder["manager"] = manager
        app.state.manager = manager
        sweeper = asyncio.create_task(manager.run_evictions())
        forgetter = asyncio.create_task(sweep_limits())
        claimer = asyncio.create_task(manager.keep_claim())
        leaser = asyncio.create_task(manager.run_leases()) if settings.cluster else None
        expirer = asyncio.create_task(manager.run_expiry())
        matcher = asyncio.create_task(community.run_matches(manager))
        try:
            yield
        finally:
            matcher.cancel()
            sweeper.cancel()
            forgetter.cancel()
            claimer.cancel()
            if leaser is not None:
                leaser.cancel()
            expirer.cancel()
            if settings.cluster:
                await manager.release_all()
            manager.shutdown()
            store.close()

    app = FastAPI(
        title="Sabacc",
        lifespan=lifespan,
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )

    app.add_middleware(Guard, limits=limits)
    app.state.limits = limits  # charged by every route that makes a table (quota.py)

    def mgr() -> TableManager:
        return holder["manager"]

    @app.exception_handler(ServerError)
    async def _server_error(request: Request, exc: ServerError) -> JSONResponse:
        return _error(exc.code, exc.message, exc.status)

    @app.exception_handler(SQLAlchemyError)
    async def _storage_error(request: Request, exc: SQLAlchemyError) -> JSONResponse:
        log.error("database error on %s: %s", request.url.path, type(exc).__name__)
        return _error("storage_error", "the server cannot read its database right now", 503)

    @app.exception_handler(RequestValidationError)
    async def _bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        return _error("bad_request", _validation_message(exc), 422)

    # ------------------------------------------------------------------ the page
    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html", headers=NO_CACHE)

    @app.get("/t/{code}", include_in_schema=False)
    async def table_page(code: str) -> FileResponse:
        return FileResponse(WEB_DIR / "index.html", headers=NO_CACHE)

    # The community pages: drawn by the client from the JSON API.
    for page in ("/signup", "/login", "/account", "/leaders", "/friends", "/u/{username}"):
        app.add_api_route(page, index, include_in_schema=False, methods=["GET"])

    app.include_router(routes(settings, community, mgr))

    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")

    @app.get("/art/{variant}.js", include_in_schema=False)
    def card_art(variant: str) -> FileResponse:
        """A variant's card-art module, from the file its record declares."""
        try:
            info = lookup(variant)
        except UnknownVariantError:
            raise HTTPException(status_code=404, detail=f"unknown variant {variant!r}") from None
        if not info.card_art or info.name != variant:
            raise HTTPException(status_code=404, detail=f"no card art for {variant!r}")
        return FileResponse(VARIANTS_DIR / info.card_art, media_type="text/javascript")

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        return await mgr().health()

    # ------------------------------------------------------------------ lobby
    @app.get("/api/variants")
    async def variants() -> dict[str, Any]:
        return variants_catalogue()

    @app.get("/api/tables")
    async def list_tables() -> dict[str, Any]:
        return {"tables": await mgr().lobby()}

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        charge_table(request)
        m = mgr()
        made = await m.create(body, await request_user(request, m, community))
        seat_taken(m, made, request)  # for rating integrity (integrity.py)
        return made

    @app.get("/api/tables/{code}")
    async def get_table(code: str) -> dict[str, Any]:
        return messages.table_info(await mgr().get(code))

    @app.post("/api/tables/{code}/join")
    async def join_table(code: str, body: JoinTable, request: Request) -> dict[str, Any]:
        m = mgr()
        user = await request_user(request, m, community)
        joined = await m.join(code, body.name, body.seat, body.host_token, user)
        seat_taken(m, joined, request)  # for rating integrity (integrity.py)
        return joined

    @app.post("/api/tables/{code}/leave")
    async def leave_table(code: str, body: TokenBody) -> dict[str, Any]:
        m = mgr()
        table = await m.get(code)
        seat = m.seat_for_token(table, body.token)
        await m.leave(table, seat)
        return {"ok": True, "seat": seat}

    @app.get("/api/tables/{code}/odds")
    async def table_odds(
        code: str, x_seat_token: Annotated[str | None, Header(max_length=128)] = None
    ) -> dict[str, Any]:
        """The exact odds of the seat's options now (services/odds), for its own cards only."""
        m = mgr()
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

    # ------------------------------------------------------------------ history
    @app.get("/api/tables/{code}/games")
    async def list_games(code: str) -> dict[str, Any]:
        m = mgr()
        table = await m.get(code)
        return {"games": await m.read(lambda: history.games(m.store, table))}

    @app.get("/api/tables/{code}/games/{number}/history")
    async def game_history(code: str, number: GameNumber) -> dict[str, Any]:
        m = mgr()
        table = await m.get(code)
        return await asyncio.to_thread(history.history, m.store, table, number)

    @app.get("/api/tables/{code}/games/{number}/hands/{hand}")
    async def hand_frames(
        code: str,
        number: GameNumber,
        hand: HandNumber,
        x_seat_token: Annotated[str | None, Header(max_length=128)] = None,
    ) -> dict[str, Any]:
        m = mgr()
        table = await m.get(code)
        # Off the event loop: replaying a long game takes a while, and the tables play on.
        return await asyncio.to_thread(
            history.hand_frames, m.store, table, number, hand, x_seat_token, frames
        )

    # ------------------------------------------------------------------ play
    @app.websocket("/ws/{code}")
    async def play(websocket: WebSocket, code: str) -> None:
        await websocket.accept()
        m = mgr()
        client = client_key(websocket.client.host if websocket.client else None)
        refusal: ServerError | None = None
        if not limits.request(client):
            refusal = ServerError("rate_limited", "too many connections opened: slow down")
        elif not limits.open_socket(client):
            refusal = ServerError(
                "too_many_connections",
                f"one client may hold {settings.sockets_per_client} connections at once",
            )
        if refusal is not None:
            await websocket.send_text(messages.dumps(messages.error(refusal.code, refusal.message)))
            await websocket.close(code=1008)
            return
        try:
            await _play(websocket, m, code, client)
        finally:
            limits.close_socket(client)

    async def _play(websocket: WebSocket, m: TableManager, code: str, client: str) -> None:
        try:
            table = await m.get(code)
        except ServerError as exc:
            await websocket.send_text(messages.dumps(messages.error(exc.code, exc.message)))
            await websocket.close(code=4404)
            return
        conn = m.connect(table, client)
        session = websocket.cookies.get(SESSION_COOKIE)
        if session and len(session) <= 128:
            with contextlib.suppress(Exception):  # presence only: a guest if unreadable
                session_hash = hash_token(session)
                user = await m.read(lambda: m.store.session_user(session_hash))
                conn.user_id = user.id if user is not None else None

        async def close_socket() -> None:
            with contextlib.suppress(Exception):
                await websocket.close(code=1012)

        conn.close_socket = close_socket
        writer = asyncio.create_task(conn.run_writer(websocket.send_text))
        try:
            while not conn.closed:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    if not conn.bucket.allow():
                        continue
                    conn.error("bad_message", "send JSON text frames, not binary")
                    continue
                if not conn.bucket.allow() or not limits.message(client):
                    conn.strikes += 1
                    if conn.strikes == 1 or conn.strikes % 50 == 0:
                        conn.error("rate_limited", "too many messages: slow down")
                    if conn.strikes >= settings.abuse_limit:
                        await asyncio.sleep(0)
                        await websocket.close(code=1008)
                        break
                    continue
                conn.strikes = 0
                if trace.TRACE is not None:
                    conn.trace_recv = trace.now()
                await handle_message(m, conn, text)
        except Exception:  # a broken socket: clean up below
            log.debug("websocket closed abruptly", exc_info=True)
        finally:
            m.disconnect(conn)
            writer.cancel()
            with contextlib.suppress(BaseException):  # cancelled or failed: gone either way
                await writer

    return app


async def handle_message(m: TableManager, conn: Connection, text: str) -> None:
    """Validate and carry out one client message; every refusal is an ``error`` message.

    A connection's messages are carried out one after another; a change waiting for the
    database holds up that connection (and, through the table's lock, changes of its table),
    nothing else."""
    if len(text) > MAX_MESSAGE_CHARS:
        conn.error("too_large", f"messages are at most {MAX_MESSAGE_CHARS} characters")
        return
    ref: str | None = None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        conn.error("bad_json", "that is not valid JSON")
        return
    if not isinstance(data, dict):
        conn.error("bad_message", 'a message is a JSON object with a "type"')
        return
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        conn.error("unknown_type", f"unknown message type; known: {', '.join(CLIENT_TYPES)}")
        return
    ref = kind
    try:
        msg = CLIENT_MESSAGE.validate_python(data)
    except ValidationError as exc:
        conn.error("bad_message", _validation_message(exc), ref)
        return
    try:
        if isinstance(msg, Hello):
            conn.deltas = msg.deltas
            await m.hello(conn, msg.token)
            return
        if not conn.ready:
            conn.error("hello_first", 'say {"type": "hello"} first (with your token to play)', ref)
            return
        table = conn.table
        if isinstance(msg, ActionMsg):
            seat = conn.seat
            if seat is None:
                raise ServerError("not_seated", "you are watching this table, not seated at it")
            if msg.seat is not None and msg.seat != seat:
                raise ServerError("not_your_seat", f"you hold seat {seat}, not seat {msg.seat}")
            marks: dict[str, float] | None = None
            if trace.TRACE is not None:
                trace.TRACE.start_sampler()
                marks = {"recv": conn.trace_recv}
            try:
                await m.act(table, seat, msg.action, version=msg.version, marks=marks)
                conn.trace_marks = marks  # its writer adds "built" and "sent"
            except ServerError as exc:
                if exc.code == "stale":
                    conn.mark_dirty()
                raise
        elif isinstance(msg, Back):
            await m.back(table, conn.seat)
        elif isinstance(msg, Chat):
            m.chat(conn, msg.text)
        elif isinstance(msg, Ping):
            conn.push({"type": "pong", "id": msg.id})
        elif isinstance(msg, Sync):
            conn.resync()
        elif isinstance(msg, Start):
            await m.start(table, conn.host)
        elif isinstance(msg, NewGame):
            await m.new_game(table, conn.seat, conn.host)
        elif isinstance(msg, Leave):
            seat = conn.seat
            if seat is None:
                raise ServerError("not_seated", "you are not seated at this table")
            await m.leave(table, seat)
    except ServerError as exc:
        conn.error(exc.code, exc.message, ref)
    except Exception:
        # The type only: a hello carries its seat token, which must never reach a log.
        log.exception("error handling a %r message", ref)
        conn.error("internal", "the server could not handle that message", ref)


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
    forwarded_allow_ips: str = "127.0.0.1",
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
        proxy_headers=True,
        forwarded_allow_ips=forwarded_allow_ips,
    )
