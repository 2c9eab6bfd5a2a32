"""Personal API tokens (issue 38): how a token is made, stored, recognised and limited.

A token is ``sbc_`` and 43 random URL-safe characters (256 bits). It is shown once, when it is
made; the store keeps only its HMAC-SHA256 under the server's key (``SABACC_TOKEN_KEY``, or a
fixed key without it). A fast keyed hash is right here, unlike for passwords: a token has all
the entropy an attacker would have to guess, so slowing each guess down buys nothing, and the
server checks one at every API call. With a secret ``SABACC_TOKEN_KEY``, a copy of the database
alone does not even let anyone test a token.

A program sends its token as ``Authorization: Bearer <token>``. Each token has scopes:
``read`` (read the API as its account), ``play`` (also challenge and play as its account),
``bot`` (also act as a bot account: its event stream, challenges, games). Every call made with a
token counts against that token's rate (:data:`TOKEN_RATE` a second, bursts of
:data:`TOKEN_BURST`) besides the per-address rate every API call has (``--http-rate``). A token
is never logged: it travels in a header only, and is never part of a path or query.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass

from fastapi import Request

from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.limits import TokenBucket
from sabacc.apps.server.site import site_of
from sabacc.services.store import UserRecord
from sabacc.services.store.api_tokens import ApiTokenRecord

#: The scopes a token may have; each allows what the ones before it allow (``bot`` can play
#: and read, ``play`` can read).
SCOPES = ("read", "play", "bot")
PREFIX = "sbc_"
#: Calls per second one token may make, and the burst allowed.
TOKEN_RATE = 20.0
TOKEN_BURST = 100
#: Tokens whose buckets are kept (the least recently used forgotten first).
MAX_BUCKETS = 50_000
_DEFAULT_KEY = b"sabacc personal API token v1"


def new_api_token() -> str:
    """A fresh token (shown to its owner once)."""
    return PREFIX + secrets.token_urlsafe(32)


def token_key() -> bytes:
    """The server's key for token hashes (``SABACC_TOKEN_KEY``, else a fixed one)."""
    key = os.environ.get("SABACC_TOKEN_KEY", "")
    return key.encode() if key else _DEFAULT_KEY


def hash_api_token(token: str) -> str:
    """The keyed hash stored for ``token`` (HMAC-SHA256, hex)."""
    return hmac.new(token_key(), token.encode("utf-8", "replace"), hashlib.sha256).hexdigest()


def token_prefix(token: str) -> str:
    """The start of a token shown in lists (``sbc_AbCd``): tells tokens apart, opens nothing."""
    return token[: len(PREFIX) + 4]


def check_scopes(scopes: list[str]) -> tuple[str, ...]:
    """The scopes asked for, known and in order (``bad_scopes`` otherwise)."""
    unknown = sorted(set(scopes) - set(SCOPES))
    if unknown or not scopes:
        raise ServerError(
            "bad_scopes", f"scopes are one or more of {', '.join(SCOPES)}; not {unknown or '[]'}"
        )
    return tuple(s for s in SCOPES if s in scopes)


@dataclass(frozen=True)
class TokenAuth:
    """A request authorised by a token: the token and its account."""

    token: ApiTokenRecord
    user: UserRecord

    def allows(self, scope: str) -> bool:
        return allows(self.token.scopes, scope)


def allows(held: tuple[str, ...], scope: str) -> bool:
    """Whether scopes ``held`` allow ``scope`` (each scope allows the ones before it)."""
    need = SCOPES.index(scope)
    return any(SCOPES.index(s) >= need for s in held if s in SCOPES)


class TokenLimits:
    """One token bucket per token (by its id), the least recently used forgotten first."""

    def __init__(self, rate: float = TOKEN_RATE, burst: int = TOKEN_BURST) -> None:
        self.rate = rate
        self.burst = burst
        self.buckets: dict[int, TokenBucket] = {}

    def allow(self, token_id: int) -> bool:
        bucket = self.buckets.pop(token_id, None)
        if bucket is None:
            bucket = TokenBucket(self.rate, self.burst)
            while len(self.buckets) >= MAX_BUCKETS:
                del self.buckets[next(iter(self.buckets))]
        self.buckets[token_id] = bucket  # the most recently used last
        return bucket.allow()


def token_limits(request: Request) -> TokenLimits:
    """The app's per-token limits (made with the app's first token call)."""
    state = request.app.state
    found: TokenLimits | None = getattr(state, "token_limits", None)
    if found is None:
        found = state.token_limits = TokenLimits()
    return found


def bearer(request: Request) -> str | None:
    """The token of the request's ``Authorization: Bearer`` header, if it has one."""
    header = request.headers.get("authorization", "")
    kind, _, value = header.partition(" ")
    if kind.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


async def token_auth(request: Request, scope: str) -> TokenAuth:
    """The request's token and account, if the token exists and has ``scope``; else 401
    (``bad_token``: missing, malformed, unknown or revoked), 403 (``missing_scope``) or 429
    (``rate_limited``: this token's calls)."""
    token = bearer(request)
    if token is None:
        raise ServerError(
            "bad_token", "send a personal API token: Authorization: Bearer <token>", status=401
        )
    if not token.startswith(PREFIX) or len(token) > 100:
        raise ServerError("bad_token", "that is not a valid API token", status=401)
    m = site_of(request).tables
    token_hash = hash_api_token(token)
    found = await m.read(lambda: m.store.api_token_user(token_hash))
    if found is None:
        raise ServerError("bad_token", "that API token does not exist or was revoked", 401)
    record, user = found
    if not token_limits(request).allow(record.id):
        raise ServerError("rate_limited", "too many calls with this token: slow down", 429)
    if not allows(record.scopes, scope):
        raise ServerError(
            "missing_scope", f"this token lacks the {scope!r} scope ({', '.join(SCOPES)})", 403
        )
    request.state.user = user
    return TokenAuth(record, user)
