"""The one refusal type of the server: a machine-readable code and a sentence for the player.

HTTP answers it as ``{"error": {"code", "message"}}`` with ``status``; the WebSocket as an
``error`` message. Kept apart so every server module can raise it without importing the others.
"""

from __future__ import annotations


class ServerError(Exception):
    """A refusal with a machine-readable ``code`` and a message a player can read."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
