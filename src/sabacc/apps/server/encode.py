"""The one encoder of everything the server sends on a WebSocket: :func:`encode` (and
:func:`dumps`, the JSON encoding under it).

A message is a typed dict (:mod:`~sabacc.apps.server.outgoing`). The state messages are the
server's hottest path, and most of one is the same for many connections (the table's part for
all of them, the observation and the events for every connection of a seat): those parts are
encoded once and shared, and a ``state`` or ``delta`` reaches :func:`encode` as
:class:`Parts`, each part already JSON, which it joins in the order of the models' keys.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from sabacc.apps.server.outgoing import ServerMessage

try:
    import orjson
except ImportError:  # pragma: no cover - orjson is in the server extra
    orjson = None  # type: ignore[assignment]

__all__ = ["Parts", "dumps", "encode", "orjson"]


def dumps(value: Any) -> str:
    """Compact JSON, the encoding of every message: orjson when installed (several times
    faster; non-ASCII as UTF-8 rather than ``\\u`` escapes, the same JSON), else the standard
    library. What orjson refuses (an integer beyond 64 bits, such as a large seed) goes through
    the standard library, so every value that encoded before still encodes."""
    if orjson is not None:
        try:
            return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
        except TypeError:  # orjson.JSONEncodeError: e.g. an int outside 64 bits
            pass
    return json.dumps(value, separators=(",", ":"))


class Parts:
    """A :class:`~sabacc.apps.server.outgoing.State` or
    :class:`~sabacc.apps.server.outgoing.Delta` whose parts are encoded already: each a JSON
    text, or None where a delta leaves the part out (a state has every part but
    ``explain``)."""

    __slots__ = (
        "events",
        "explain",
        "game",
        "game_no",
        "game_rows",
        "kind",
        "table",
        "turn",
        "v",
        "version",
        "you",
    )

    def __init__(
        self,
        kind: Literal["state", "delta"],
        v: int,
        version: int,
        game_no: int,
        *,
        table: str | None = None,
        you: str | None = None,
        turn: str | None = None,
        game: str | None = None,
        game_rows: str | None = None,
        events: str | None = None,
        explain: str | None = None,
    ) -> None:
        self.kind = kind
        self.v = v
        self.version = version
        self.game_no = game_no
        self.table = table
        self.you = you
        self.turn = turn
        self.game = game
        self.game_rows = game_rows
        self.events = events
        self.explain = explain


def encode(message: ServerMessage | Parts) -> str:
    """The JSON text of one server message, the only way any message is encoded."""
    if type(message) is not Parts:
        return dumps(message)
    m = message
    return "".join(
        (
            f'{{"type":"{m.kind}","v":{m.v},"version":{m.version},"game_no":{m.game_no}',
            "" if m.table is None else f',"table":{m.table}',
            "" if m.you is None else f',"you":{m.you}',
            "" if m.turn is None else f',"turn":{m.turn}',
            "" if m.game is None else f',"game":{m.game}',
            "" if m.game_rows is None else f',"game_rows":{m.game_rows}',
            "" if m.events is None else f',"events":{m.events}',
            "" if m.explain is None else f',"explain":{m.explain}',
            "}",
        )
    )
