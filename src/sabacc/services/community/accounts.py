"""Usernames and passwords: what an account may be called, and how its password is kept.

Passwords are hashed with argon2id (argon2-cffi's defaults); only the hash is stored, and a
hash made with older parameters is replaced at the next log-in (:func:`needs_rehash`).
"""

from __future__ import annotations

import re
from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

#: The rules players are told (the sign-up page and the API's errors say them).
USERNAME_MIN = 3
USERNAME_MAX = 20
PASSWORD_MIN = 10
#: Longer passwords are refused before hashing (hashing a megabyte costs the server).
PASSWORD_MAX = 128
USERNAME_CHARS = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
#: Words no account may be called, nor contain as a whole (case and ``-``/``_`` ignored):
#: the server's own voice and roles.
RESERVED_WORDS = frozenset(
    {
        "admin", "administrator", "root", "system", "server", "sabacc", "moderator", "mod",
        "staff", "support", "official", "dealer", "bot", "guest", "anonymous", "deleted",
        "deletedplayer", "nobody", "everyone", "host",
    }
)  # fmt: skip
#: What a deleted account's seats and past games say instead of its name.
DELETED_NAME = "deleted player"


class AccountError(ValueError):
    """A username or password that may not be used: ``code`` and a message to show."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def name_key(username: str) -> str:
    """The case-folded form two usernames are compared by (unique among accounts)."""
    return username.strip().casefold()


def _squashed(text: str) -> str:
    return re.sub(r"[-_\s]", "", text.casefold())


def check_username(username: str, reserved: frozenset[str] = frozenset()) -> str:
    """``username`` stripped, or :class:`AccountError` saying why it may not be used.

    ``reserved``: more names taken by the server (its bots' names and the bot levels): refused
    whatever the case and ``-``/``_``, so nobody passes for a bot (``r2d2``, ``R2_D2``).
    """
    name = username.strip()
    if not USERNAME_MIN <= len(name) <= USERNAME_MAX:
        raise AccountError(
            "bad_username",
            f"a username is {USERNAME_MIN}-{USERNAME_MAX} characters long",
        )
    if not USERNAME_CHARS.match(name):
        raise AccountError(
            "bad_username",
            "a username has letters A-Z, digits, '-' and '_' only, and starts with a letter "
            "or digit",
        )
    squashed = _squashed(name)
    if squashed in RESERVED_WORDS or squashed in {_squashed(r) for r in reserved}:
        raise AccountError("reserved_username", f"the name {name!r} is reserved: choose another")
    if any(squashed.startswith(w) and len(w) >= 4 for w in ("admin", "moderator", "official")):
        raise AccountError("reserved_username", f"the name {name!r} is reserved: choose another")
    return name


def check_password(password: str, username: str = "") -> None:
    """Raise :class:`AccountError` if ``password`` is too weak or too long."""
    if len(password) < PASSWORD_MIN:
        raise AccountError("weak_password", f"a password has at least {PASSWORD_MIN} characters")
    if len(password) > PASSWORD_MAX:
        raise AccountError("bad_password", f"a password has at most {PASSWORD_MAX} characters")
    if username and name_key(password) == name_key(username):
        raise AccountError("weak_password", "a password may not be the username")
    if len(set(password)) < 4:
        raise AccountError("weak_password", "a password needs at least 4 different characters")


@cache
def _hasher() -> PasswordHasher:
    return PasswordHasher()


def hash_password(password: str) -> str:
    """The argon2id hash of ``password`` (salted; what the store keeps)."""
    return _hasher().hash(password)


def verify_password(stored: str, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` was made from (constant-time)."""
    try:
        return _hasher().verify(stored, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    return _hasher().check_needs_rehash(stored)


#: A hash checked when no account has the name given, so that a log-in takes as long whether
#: the name exists or not (no telling which usernames are taken by timing).
@cache
def dummy_hash() -> str:
    return hash_password("not a password of anyone")
