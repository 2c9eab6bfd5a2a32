"""Table chat: a line from anyone at the table (spectators included), to everyone there, and
kept for those who come later."""

from __future__ import annotations

from sabacc.apps.server.connection import Connection
from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.outgoing import ChatLine
from sabacc.apps.server.protocol import MAX_CHAT
from sabacc.apps.server.table import clean_name


def chat(conn: Connection, text: str) -> None:
    """A chat line from ``conn``, to everyone at the table (rate-limited per connection)."""
    table = conn.table
    line = clean_name(text, MAX_CHAT)
    if not line:
        raise ServerError("bad_chat", "say something")
    if not conn.chat_bucket.allow():
        raise ServerError("chat_rate", "you are chatting too fast: wait a moment")
    seat = conn.seat
    name = table.seats[seat].name if seat is not None else None
    table.chat_no += 1
    entry: ChatLine = {
        "type": "chat",
        "id": table.chat_no,
        "seat": seat,
        "name": name,
        "text": line,
    }
    table.chat.append(entry)
    for other in table.conns:
        other.push(entry)
