"""HTTP hardening in front of the app: security headers on every response, a cap on request
bodies and each client's API rate limit (pure ASGI middleware: WebSockets pass through; the
socket endpoint checks its own limits).

The page's policy allows only this origin's scripts, styles, images and sockets; inline style
*attributes* stay allowed because the client positions seats and chips with them. The API
explorer (``/api/docs``) loads Swagger UI from a CDN, so it gets no Content-Security-Policy.
"""

from __future__ import annotations

import json
import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sabacc.apps.server.limits import ClientLimits, client_key

#: Largest request body read (bytes); the lobby's largest body is well under 4 KiB.
MAX_BODY = 64 * 1024

_HOST = re.compile(r"^[A-Za-z0-9.\-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$")

BASE_HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
)


def content_security_policy(host: str | None) -> str:
    """The page's policy. ``connect-src`` names the page's own WebSocket origin too: older
    browsers do not count ``ws:``/``wss:`` as ``'self'``."""
    sockets = f" ws://{host} wss://{host}" if host and _HOST.match(host) else ""
    return (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        f"img-src 'self' data:; font-src 'self'; connect-src 'self'{sockets}; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )


class Guard:
    """Security headers on every HTTP response; request bodies over ``max_body`` get 413; a
    client over its API rate (``limits``) gets 429."""

    def __init__(
        self, app: ASGIApp, max_body: int = MAX_BODY, limits: ClientLimits | None = None
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        extra = list(BASE_HEADERS)
        if not str(scope.get("path", "")).startswith("/api/docs"):
            host = headers.get(b"host", b"").decode("latin-1")
            csp = content_security_policy(host).encode("latin-1")
            extra.append((b"content-security-policy", csp))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        path = str(scope.get("path", ""))
        if self.limits is not None and path.startswith("/api/"):
            client = scope.get("client")
            if not self.limits.request(client_key(client[0] if client else None)):
                await _refuse(
                    send_with_headers, 429, "rate_limited", "too many requests: slow down"
                )
                return
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await _too_large(send_with_headers, self.max_body)
            return
        if length is None and headers.get(b"transfer-encoding"):
            body = await _read_capped(receive, self.max_body)
            if body is None:
                await _too_large(send_with_headers, self.max_body)
                return
            receive = _replay(body, receive)
        await self.app(scope, receive, send_with_headers)


async def _read_capped(receive: Receive, limit: int) -> bytes | None:
    """The whole body, or None once it grows past ``limit``."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks)
        chunk = bytes(message.get("body", b""))
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the buffered body, then what the client sends next."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _too_large(send: Send, limit: int) -> None:
    await _refuse(send, 413, "too_large", f"request bodies are at most {limit} bytes")


async def _refuse(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    if status == 429:
        headers.append((b"retry-after", b"1"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
