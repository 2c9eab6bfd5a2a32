"""Seat tokens and table codes.

A token is a random secret given once to the player who takes a seat; only its SHA-256 is
stored, so a stolen database does not let anyone act for a seat. Comparisons are constant-time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
CODE_LENGTH = 6


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def same_hash(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and hmac.compare_digest(a, b)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(code: str) -> str:
    return code.strip().upper().replace("-", "")[:16]
