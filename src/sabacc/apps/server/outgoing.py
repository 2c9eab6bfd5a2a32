"""Every message the server sends on a table's WebSocket, as typed models (see
docs/protocol.md, whose JSON Schema is generated from these: :func:`server_schema`).

They are ``TypedDict``: a message is a plain dict, built without validation (the state
messages are the server's hottest path), and every message is encoded by the one function
:func:`~sabacc.apps.server.encode.encode`. A test validates real traffic of every variant
against the published schema, so the models, the encoder and the wire agree.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from pydantic import ConfigDict, Field, TypeAdapter, with_config
from typing_extensions import TypedDict

#: A message's parts hold exactly these keys (the schema says ``additionalProperties: false``).
_EXACT = ConfigDict(extra="forbid")

#: The engine's observation of one seat (``Game.observation``): its own schema is
#: docs/observation.schema.json.
Observation = dict[str, Any]
#: One event as a seat may see it (``Event.to_dict``), with its log line in every language
#: (``text``) and ``auto`` for a move the timer played (docs/log.md).
EventLine = dict[str, Any]


@with_config(_EXACT)
class SeatInfo(TypedDict):
    """One seat in a table's public description."""

    seat: int
    kind: Literal["human", "bot"]
    bot: str | None
    name: str | None
    taken: bool
    away: bool
    connected: bool
    net: int


@with_config(_EXACT)
class TableInfo(TypedDict):
    """A table's public description (the same for every viewer)."""

    code: str
    name: str
    variant: str
    title: str
    options: dict[str, Any]
    turn_timer: float
    status: Literal["waiting", "playing", "finished"]
    problem: str | None
    game_no: int
    min_players: int
    max_players: int
    spectators: int
    host_seat: int | None
    seats: list[SeatInfo]


@with_config(_EXACT)
class You(TypedDict):
    """Who this connection is."""

    seat: int | None
    host: bool
    name: str | None
    away: bool


@with_config(_EXACT)
class Turn(TypedDict):
    """Whose turn it is, and the time left (None: no turn timer)."""

    seat: int
    deadline_ms: int | None
    timer: float


@with_config(_EXACT)
class Explanation(TypedDict):
    """Why the last finished hand ended as it did, for this seat, in every language."""

    hand: int
    lines: dict[str, list[str]]


@with_config(_EXACT)
class Welcome(TypedDict):
    """The answer to ``hello``."""

    type: Literal["welcome"]
    protocol: int
    table: str
    seat: int | None
    host: bool
    deltas: bool


@with_config(_EXACT)
class ErrorMessage(TypedDict):
    """A refusal (``ref``: the client message type it answers, if any)."""

    type: Literal["error"]
    code: str
    message: str
    ref: str | None


@with_config(_EXACT)
class Pong(TypedDict):
    """The answer to ``ping``."""

    type: Literal["pong"]
    id: int | None


@with_config(_EXACT)
class ChatLine(TypedDict):
    """A chat line (``seat`` None: a spectator's)."""

    type: Literal["chat"]
    id: int
    seat: int | None
    name: str | None
    text: str


@with_config(_EXACT)
class State(TypedDict):
    """The table as this connection may see it, with the events it was not sent yet."""

    type: Literal["state"]
    v: int
    version: int
    game_no: int
    table: TableInfo
    you: You
    turn: Turn | None
    game: Observation | None
    events: list[EventLine]
    explain: NotRequired[Explanation]


@with_config(_EXACT)
class Delta(TypedDict):
    """What changed since the last state or delta (only to a connection that asked)."""

    type: Literal["delta"]
    v: int
    version: int
    game_no: int
    table: NotRequired[TableInfo]
    you: NotRequired[You]
    turn: NotRequired[Turn | None]
    game: NotRequired[dict[str, Any]]
    game_rows: NotRequired[dict[str, dict[str, Any]]]
    events: NotRequired[list[EventLine]]
    explain: NotRequired[Explanation]


#: Any message the server sends on a WebSocket, told apart by ``type``.
ServerMessage = Welcome | ErrorMessage | Pong | ChatLine | State | Delta
SERVER_TYPES = ("welcome", "error", "pong", "chat", "state", "delta")


def server_schema() -> dict[str, Any]:
    """The JSON Schema of every server message (docs/protocol.md publishes it)."""
    tagged = Annotated[ServerMessage, Field(discriminator="type")]
    adapter: TypeAdapter[ServerMessage] = TypeAdapter(tagged)
    return adapter.json_schema(mode="serialization")
