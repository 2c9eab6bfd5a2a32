"""Personal API tokens and bot accounts (issue 38): ``/api/account/tokens`` (made, listed and
revoked by the signed-in owner on ``/account``), ``/api/account/bot`` (an account with no
games becomes a bot account) and ``/api/account/whoami`` (a token's account and scopes).
How tokens are made and checked: :mod:`sabacc.apps.server.api_auth`."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from sabacc.apps.server.api_auth import (
    bearer,
    check_scopes,
    hash_api_token,
    new_api_token,
    token_auth,
    token_prefix,
)
from sabacc.apps.server.api_bots import hub_of
from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.manager import TableManager
from sabacc.apps.server.routes.accounts import check_csrf, logged_in, user_json
from sabacc.apps.server.site import site_of
from sabacc.apps.server.table import clean_name
from sabacc.services.store import UserRecord
from sabacc.services.store.api_tokens import (
    MAX_TOKENS,
    ApiTokenRecord,
    NotANewAccount,
    TooManyTokens,
)

router = APIRouter()


class NewToken(BaseModel):
    """``POST /api/account/tokens``: a name to know it by, and its scopes."""

    model_config = ConfigDict(extra="forbid")

    name: Annotated[str, Field(min_length=1, max_length=40)]
    scopes: Annotated[list[Annotated[str, Field(max_length=10)]], Field(max_length=3)]


def token_json(record: ApiTokenRecord) -> dict[str, Any]:
    """A token as its owner's list shows it (never the token)."""
    return {
        "id": record.id,
        "name": record.name,
        "scopes": list(record.scopes),
        "prefix": record.prefix,
        "created_at": record.created_at.isoformat(),
        "last_used_at": None if record.last_used_at is None else record.last_used_at.isoformat(),
    }


async def is_bot(m: TableManager, request: Request, user_id: int) -> bool:
    """Whether ``user_id`` is a bot account (remembered once known)."""
    hub = hub_of(request)
    if user_id in hub.bots:
        return True
    if user_id in await m.read(lambda: m.store.bot_accounts({user_id})):
        hub.bots.add(user_id)
        return True
    return False


@router.get("/api/account/tokens")
async def list_tokens(request: Request) -> dict[str, Any]:
    """The signed-in account's tokens (their names, scopes and first characters)."""
    user = await logged_in(request)
    m = site_of(request).tables
    account = user.id
    tokens = await m.read(lambda: m.store.api_tokens_of(account))
    bot = await is_bot(m, request, account)
    return {"tokens": [token_json(t) for t in tokens], "max": MAX_TOKENS, "bot": bot}


@router.post("/api/account/tokens", status_code=201)
async def create_token(body: NewToken, request: Request) -> dict[str, Any]:
    """A new token of the signed-in account: the answer is the only time it is shown."""
    check_csrf(request)
    user = await logged_in(request)
    scopes = check_scopes(body.scopes)
    name = clean_name(body.name, 40)
    if not name:
        raise ServerError("bad_name", "give the token a name")
    token = new_api_token()
    m = site_of(request).tables
    account, token_hash, prefix = user.id, hash_api_token(token), token_prefix(token)
    try:
        record = await m.read(  # read, not persist: a refusal is no lost database
            lambda: m.store.create_api_token(account, token_hash, name, scopes, prefix)
        )
    except TooManyTokens:
        raise ServerError(
            "too_many_tokens", f"an account holds at most {MAX_TOKENS} tokens: revoke one first"
        ) from None
    return {**token_json(record), "token": token}


@router.delete("/api/account/tokens/{token_id}")
async def revoke_token(token_id: int, request: Request) -> dict[str, Any]:
    """Revoke a token of the signed-in account: refused from its next call on, and its open
    streams end."""
    check_csrf(request)
    user = await logged_in(request)
    m = site_of(request).tables
    account = user.id
    if not await m.persist(lambda: m.store.revoke_api_token(account, token_id)):
        raise ServerError("no_token", "you have no such token", status=404)
    hub_of(request).revoke(token_id, account)
    return {"ok": True}


async def _make_bot(request: Request, user: UserRecord) -> dict[str, Any]:
    m = site_of(request).tables
    account = user.id
    try:
        await m.read(lambda: m.store.make_bot_account(account))  # a refusal: no lost database
    except NotANewAccount:
        raise ServerError(
            "not_a_new_account",
            "only an account that has played no game and holds no seat can become a bot",
            status=409,
        ) from None
    hub_of(request).bots.add(account)
    return {**user_json(user), "bot": True}


@router.post("/api/account/bot")
async def become_bot(request: Request) -> dict[str, Any]:
    """Make the account a bot account, for good: by its owner on ``/account`` (session), or by
    a token with the ``bot`` scope."""
    if bearer(request) is not None:
        auth = await token_auth(request, "bot")
        return await _make_bot(request, auth.user)
    check_csrf(request)
    return await _make_bot(request, await logged_in(request))


@router.get("/api/account/whoami")
async def whoami(request: Request) -> dict[str, Any]:
    """The token's account, whether it is a bot, and the token's scopes."""
    auth = await token_auth(request, "read")
    m = site_of(request).tables
    bot = await is_bot(m, request, auth.user.id)
    return {**user_json(auth.user), "bot": bot, "scopes": list(auth.token.scopes)}
