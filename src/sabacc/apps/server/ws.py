"""The WebSocket play endpoint (``/ws/{code}``): a table's client says hello, plays, chats;
every message is validated (:mod:`~sabacc.apps.server.protocol`) and every refusal is an
``error`` message. See docs/protocol.md."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

from fastapi import APIRouter, WebSocket
from pydantic import ValidationError

from sabacc.apps.server import messages, trace
from sabacc.apps.server.auth import hash_token
from sabacc.apps.server.community import SESSION_COOKIE
from sabacc.apps.server.connection import Connection
from sabacc.apps.server.encode import encode, orjson
from sabacc.apps.server.errors import ServerError, validation_message
from sabacc.apps.server.limits import client_key
from sabacc.apps.server.manager import TableManager
from sabacc.apps.server.protocol import (
    CLIENT_MESSAGE,
    CLIENT_TYPES,
    MAX_MESSAGE_CHARS,
    ActionMsg,
    AnyClientMessage,
    Back,
    Chat,
    Hello,
    Leave,
    NewGame,
    Ping,
    Start,
    Sync,
)
from sabacc.apps.server.site import Site, site_of

log = logging.getLogger("sabacc.apps.server")

router = APIRouter()


@router.websocket("/ws/{code}")
async def play(websocket: WebSocket, code: str) -> None:
    """One client of table ``code``, refused (and closed, 1008) beyond the per-client limits."""
    await websocket.accept()
    site = site_of(websocket)
    limits = site.limits
    client = client_key(websocket.client.host if websocket.client else None)
    refusal: ServerError | None = None
    if not limits.request(client):
        refusal = ServerError("rate_limited", "too many connections opened: slow down")
    elif not limits.open_socket(client):
        refusal = ServerError(
            "too_many_connections",
            f"one client may hold {site.settings.sockets_per_client} connections at once",
        )
    if refusal is not None:
        await websocket.send_text(encode(messages.error(refusal.code, refusal.message)))
        await websocket.close(code=1008)
        return
    try:
        await _play(websocket, site, code, client)
    finally:
        limits.close_socket(client)


async def _play(websocket: WebSocket, site: Site, code: str, client: str) -> None:
    m = site.tables
    try:
        table = await m.get(code)
    except ServerError as exc:
        await websocket.send_text(encode(messages.error(exc.code, exc.message)))
        await websocket.close(code=4404)
        return
    conn = m.connect(table, client)
    await _who(websocket, m, conn)

    async def close_socket() -> None:
        with contextlib.suppress(Exception):
            await websocket.close(code=1012)

    conn.close_socket = close_socket
    writer = asyncio.create_task(conn.run_writer(websocket.send_text))
    try:
        await _read(websocket, site, m, conn, client)
    except Exception:  # a broken socket: clean up below
        log.debug("websocket closed abruptly", exc_info=True)
    finally:
        m.disconnect(conn)
        if conn.user_id is not None:
            with contextlib.suppress(Exception):  # presence only
                await site.shared.left_table(conn.user_id)
        writer.cancel()
        with contextlib.suppress(BaseException):  # cancelled or failed: gone either way
            await writer


async def _who(websocket: WebSocket, m: TableManager, conn: Connection) -> None:
    """The account logged in on this browser (its session cookie), for presence only."""
    session = websocket.cookies.get(SESSION_COOKIE)
    if session and len(session) <= 128:
        with contextlib.suppress(Exception):  # presence only: a guest if unreadable
            session_hash = hash_token(session)
            user = await m.read(lambda: m.store.session_user(session_hash))
            conn.user_id = user.id if user is not None else None
            if user is not None:  # seen by the whole site, at this table
                await site_of(websocket).shared.at_table(user.id, conn.table)


async def _read(
    websocket: WebSocket, site: Site, m: TableManager, conn: Connection, client: str
) -> None:
    """Read and carry out the client's messages until it goes (or abuses its rate limits:
    closed with 1008 after ``abuse_limit`` refused messages in a row)."""
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
        if not conn.bucket.allow() or not site.limits.message(client):
            conn.strikes += 1
            if conn.strikes == 1 or conn.strikes % 50 == 0:
                conn.error("rate_limited", "too many messages: slow down")
            if conn.strikes >= site.settings.abuse_limit:
                await asyncio.sleep(0)
                await websocket.close(code=1008)
                break
            continue
        conn.strikes = 0
        if trace.TRACE is not None:
            conn.trace_recv = trace.now()
        await handle_message(m, conn, text)


def parse(conn: Connection, text: str) -> AnyClientMessage | None:
    """The client message ``text`` validated, or None once ``conn`` is sent the refusal."""
    if len(text) > MAX_MESSAGE_CHARS:
        conn.error("too_large", f"messages are at most {MAX_MESSAGE_CHARS} characters")
        return None
    try:
        data = _loads(text)
    except (ValueError, RecursionError):
        conn.error("bad_json", "that is not valid JSON")
        return None
    if not isinstance(data, dict):
        conn.error("bad_message", 'a message is a JSON object with a "type"')
        return None
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        conn.error("unknown_type", f"unknown message type; known: {', '.join(CLIENT_TYPES)}")
        return None
    try:
        return CLIENT_MESSAGE.validate_python(data)
    except ValidationError as exc:
        conn.error("bad_message", validation_message(exc), kind)
        return None


def _loads(text: str) -> object:
    """``json.loads``, by orjson when installed (several times faster on the hot path: every
    action is a message). orjson reads a subset of what the standard library does (no NaN, no
    integer beyond 64 bits): what it refuses goes through ``json.loads``, so every message is
    read, or refused, exactly as before."""
    if orjson is not None:
        try:
            return orjson.loads(text)
        except ValueError:  # orjson.JSONDecodeError
            pass
    return json.loads(text)


async def handle_message(m: TableManager, conn: Connection, text: str) -> None:
    """Validate and carry out one client message; every refusal is an ``error`` message.

    A connection's messages are carried out one after another; a change waiting for the
    database holds up that connection (and, through the table's lock, changes of its table),
    nothing else."""
    msg = parse(conn, text)
    if msg is None:
        return
    ref = msg.type
    try:
        if isinstance(msg, Hello):
            conn.deltas = msg.deltas
            await m.hello(conn, msg.token)
        elif not conn.ready:
            conn.error("hello_first", 'say {"type": "hello"} first (with your token to play)', ref)
        else:
            await carry_out(m, conn, msg)
    except ServerError as exc:
        conn.error(exc.code, exc.message, ref)
    except Exception:
        # The type only: a hello carries its seat token, which must never reach a log.
        log.exception("error handling a %r message", ref)
        conn.error("internal", "the server could not handle that message", ref)


async def carry_out(m: TableManager, conn: Connection, msg: AnyClientMessage) -> None:
    """Carry out a message of a connection that said hello (refusals raise ServerError)."""
    table = conn.table
    if isinstance(msg, ActionMsg):
        await _action(m, conn, msg)
    elif isinstance(msg, Back):
        await m.back(table, conn.seat)
    elif isinstance(msg, Chat):
        m.chat(conn, msg.text)
    elif isinstance(msg, Ping):
        conn.push(messages.pong(msg.id))
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


async def _action(m: TableManager, conn: Connection, msg: ActionMsg) -> None:
    """Play ``msg``'s action at ``conn``'s seat (a stale one: the connection is sent the
    state again)."""
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
        await m.act(conn.table, seat, msg.action, version=msg.version, marks=marks)
        conn.trace_marks = marks  # its writer adds "built" and "sent"
    except ServerError as exc:
        if exc.code == "stale":
            conn.mark_dirty()
        raise
