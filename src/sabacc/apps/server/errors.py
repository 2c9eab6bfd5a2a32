"""The one refusal type of the server: a machine-readable code and a sentence for the player.

HTTP answers it as ``{"error": {"code", "message"}}`` with ``status``; the WebSocket as an
``error`` message. Kept apart so every server module can raise it without importing the others.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi.exceptions import RequestValidationError
    from pydantic import ValidationError


class ServerError(Exception):
    """A refusal with a machine-readable ``code`` and a message a player can read."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def validation_message(exc: ValidationError | RequestValidationError) -> str:
    """The first problem pydantic found, as ``where: what`` (a refusal's message)."""
    errors = exc.errors()
    if not errors:
        return "invalid message"
    first = errors[0]
    where = ".".join(str(p) for p in first.get("loc", ()) if p not in ("body",))
    text = str(first.get("msg", "invalid"))
    return f"{where}: {text}" if where else text
