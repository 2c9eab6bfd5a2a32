"""The account endpoints (``/api/me``, ``/api/account/*``): sign-up, log-in and out,
sessions, password, deletion; the state they share is the app's
:class:`~sabacc.apps.server.site.Site` (the community layer is
:mod:`sabacc.apps.server.community`)."""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from fastapi import APIRouter, Request, Response

from sabacc.apps.server.auth import hash_token, new_token
from sabacc.apps.server.community import (
    CSRF_COOKIE,
    CSRF_HEADER,
    SESSION_COOKIE,
    Credentials,
    PasswordBody,
    PasswordChange,
    current_user,
    reserved_names,
)
from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.limits import client_key
from sabacc.apps.server.manager import TableManager
from sabacc.apps.server.names import account_deleted, account_made, check_new_username
from sabacc.apps.server.site import site_of
from sabacc.services.community import accounts
from sabacc.services.community.accounts import AccountError
from sabacc.services.store import UsernameTaken, UserRecord
from sabacc.services.store.models import utcnow

router = APIRouter()


def session_lifetime(request: Request) -> timedelta:
    """How long a session lasts (``settings.session_days``)."""
    return timedelta(days=site_of(request).settings.session_days)


def client_of(request: Request) -> str:
    """The request's client (see :func:`~sabacc.apps.server.limits.client_key`)."""
    return client_key(request.client.host if request.client else None)


def secure(request: Request) -> bool:
    """Whether cookies are set Secure (``--secure-cookies``, or the request is https)."""
    return site_of(request).settings.secure_cookies or request.url.scheme == "https"


def check_csrf(request: Request) -> None:
    """Refuse a state-changing request without its CSRF token (double submit)."""
    cookie = request.cookies.get(CSRF_COOKIE, "")
    header = request.headers.get(CSRF_HEADER, "")
    if not cookie or not header or not hmac.compare_digest(cookie, header):
        raise ServerError(
            "csrf",
            "this request lacks its CSRF token (reload the page and try again)",
            status=403,
        )


async def start_session(request: Request, response: Response, user: UserRecord) -> None:
    """A new session for ``user``: stored, and its cookie set on ``response``."""
    lifetime = session_lifetime(request)
    token = new_token()
    expires = utcnow() + lifetime
    m = site_of(request).tables
    await m.persist(lambda: m.store.create_session(hash_token(token), user.id, expires))
    response.set_cookie(
        SESSION_COOKIE, token, max_age=int(lifetime.total_seconds()), httponly=True,
        samesite="lax", secure=secure(request), path="/",
    )  # fmt: skip
    await site_of(request).shared.touch(user)


def user_json(user: UserRecord) -> dict[str, Any]:
    """An account as the API names it."""
    return {"username": user.username, "url": f"/u/{user.username}"}


def claim(m: TableManager, user: UserRecord, tokens: list[str]) -> Callable[[], int]:
    """The store call that links the seat tokens a browser hands over to ``user``."""
    hashes = [hash_token(t) for t in tokens if t]
    return lambda: m.store.link_tokens(user.id, hashes)


def rules() -> dict[str, Any]:
    """The account rules the sign-up page checks before sending."""
    return {
        "username_min": accounts.USERNAME_MIN,
        "username_max": accounts.USERNAME_MAX,
        "password_min": accounts.PASSWORD_MIN,
        "password_max": accounts.PASSWORD_MAX,
    }


@router.get("/api/me")
async def me(request: Request, response: Response) -> dict[str, Any]:
    """Who this browser is logged in as (None: a guest), the account rules, and the CSRF
    token (set as a cookie too when the browser has none)."""
    user = await current_user(request, site_of(request).tables, site_of(request).community)
    lifetime = session_lifetime(request)
    csrf = request.cookies.get(CSRF_COOKIE) or secrets.token_urlsafe(24)
    if CSRF_COOKIE not in request.cookies:
        response.set_cookie(
            CSRF_COOKIE, csrf, samesite="lax", secure=secure(request), path="/",
            max_age=int(lifetime.total_seconds()),
        )  # fmt: skip
    invites = []
    if user is not None:
        invites = [
            {"by": i.by, "code": i.code, "table": i.table, "url": f"/t/{i.code}"}
            for i in await site_of(request).shared.invites_of(user.id)
        ]
    return {
        "user": None if user is None else user_json(user),
        "csrf": csrf,
        "rules": rules(),
        "invites": invites,
    }


@router.post("/api/account/signup", status_code=201)
async def signup(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    check_csrf(request)
    try:
        username = accounts.check_username(body.username, reserved_names())
        accounts.check_password(body.password, username)
    except AccountError as exc:
        raise ServerError(exc.code, exc.message) from None
    gate = site_of(request).passwords
    gate.signup(client_of(request))
    if not await site_of(request).shared.signup(client_of(request)):  # the site's count
        raise ServerError(
            "too_many_signups",
            "too many accounts made from this address: try again later",
            status=429,
        )
    m = site_of(request).tables
    await check_new_username(m, username)  # nor a look-alike of an account's or a bot's
    hashed = await gate.run(accounts.hash_password, body.password)
    try:
        user = await m.read(
            lambda: m.store.create_user(username, accounts.name_key(username), hashed)
        )
    except UsernameTaken:
        raise ServerError(
            "username_taken", f"the username {username!r} is taken", status=409
        ) from None
    account_made(m, user.username)
    claimed = await m.persist(claim(m, user, body.tokens))
    await start_session(request, response, user)
    return {"user": user_json(user), "claimed": claimed}


@router.post("/api/account/login")
async def login(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    check_csrf(request)
    shared = site_of(request).shared
    client, key = client_of(request), accounts.name_key(body.username)[:64]
    if not await shared.login_allowed(client, key):
        raise ServerError(
            "too_many_attempts",
            "too many failed log-ins: wait a few minutes and try again",
            status=429,
        )
    gate = site_of(request).passwords
    gate.login(client)
    m = site_of(request).tables
    user = await m.read(lambda: m.store.user_by_key(key))
    if len(body.password) > accounts.PASSWORD_MAX:
        ok = False
    else:
        stored = user.password_hash if user is not None else accounts.dummy_hash()
        ok = await gate.run(accounts.verify_password, stored, body.password)
    if user is None or not ok:
        await shared.login_failed(client, key)
        raise ServerError("bad_login", "wrong username or password", status=401)
    await shared.login_succeeded(client, key)
    if accounts.needs_rehash(user.password_hash):
        rehashed = await gate.run(accounts.hash_password, body.password)
        account = user.id
        await m.persist(lambda: m.store.set_password(account, rehashed))
    claimed = await m.persist(claim(m, user, body.tokens))
    await start_session(request, response, user)
    return {"user": user_json(user), "claimed": claimed}


@router.post("/api/account/logout")
async def logout(request: Request, response: Response) -> dict[str, Any]:
    check_csrf(request)
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        m = site_of(request).tables
        await m.persist(lambda: m.store.delete_session(hash_token(token)))
    response.delete_cookie(SESSION_COOKIE, path="/")
    return {"ok": True}


async def logged_in(request: Request) -> UserRecord:
    """The request's account (else ``not_logged_in``, 401)."""
    user = await current_user(request, site_of(request).tables, site_of(request).community)
    if user is None:
        raise ServerError("not_logged_in", "log in first", status=401)
    return user


@router.post("/api/account/password")
async def change_password(body: PasswordChange, request: Request) -> dict[str, Any]:
    check_csrf(request)
    user = await logged_in(request)
    gate = site_of(request).passwords
    gate.other()
    ok = len(body.current) <= accounts.PASSWORD_MAX and await gate.run(
        accounts.verify_password, user.password_hash, body.current
    )
    if not ok:
        raise ServerError("bad_password", "your current password is not that", status=403)
    try:
        accounts.check_password(body.new, user.username)
    except AccountError as exc:
        raise ServerError(exc.code, exc.message) from None
    hashed = await gate.run(accounts.hash_password, body.new)
    m = site_of(request).tables
    keep = hash_token(request.cookies.get(SESSION_COOKIE, ""))
    account = user.id

    def write() -> None:
        m.store.set_password(account, hashed)
        m.store.delete_sessions(account, keep=keep)  # logged out everywhere else

    await m.persist(write)
    return {"ok": True}


@router.post("/api/account/delete")
async def delete_account(
    body: PasswordBody, request: Request, response: Response
) -> dict[str, Any]:
    check_csrf(request)
    user = await logged_in(request)
    gate = site_of(request).passwords
    gate.other()
    ok = len(body.password) <= accounts.PASSWORD_MAX and await gate.run(
        accounts.verify_password, user.password_hash, body.password
    )
    if not ok:
        raise ServerError("bad_password", "that is not your password", status=403)
    m = site_of(request).tables
    account = user.id
    hashes = await m.persist(lambda: m.store.delete_user(account, accounts.DELETED_NAME))
    m.forget_names(hashes, accounts.DELETED_NAME)
    account_deleted(m)  # the name may be taken again
    await site_of(request).shared.forget(account)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return {"ok": True}
