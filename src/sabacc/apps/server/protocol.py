"""The WebSocket and HTTP message schemas (pydantic). See docs/protocol.md.

Client messages are JSON objects with a ``type``; they are validated strictly (unknown fields,
wrong types and oversized values are refused with an ``error`` message, never a crash).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

from sabacc.engine.observation import SCHEMA_VERSION
from sabacc.variants.registry import DEFAULT_VARIANT

PROTOCOL_VERSION = 1
#: The observation schema version (docs/observation.schema.json) the ``state`` message's
#: ``game`` follows: the engine's :data:`~sabacc.engine.observation.SCHEMA_VERSION`.
OBSERVATION_SCHEMA_VERSION = SCHEMA_VERSION
#: Largest client WebSocket message the server reads (characters); larger ones get an error.
MAX_MESSAGE_CHARS = 4096
MAX_NAME = 24


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Hello(_Msg):
    """First message: who is this connection (a seat token, or none to watch)."""

    type: Literal["hello"]
    token: Annotated[str, Field(max_length=128)] | None = None
    #: After a whole ``state``, send ``delta`` messages (only what changed); absent or false:
    #: a whole state every time, as protocol 1 always did.
    deltas: bool = False


class ActionMsg(_Msg):
    """Play an action in its text form (``"bet 5"``, ``"swap discard -3"``)."""

    type: Literal["action"]
    action: Annotated[str, Field(min_length=1, max_length=40)]
    seat: Annotated[int, Field(ge=0, le=64)] | None = None  # if given, must be your seat
    version: Annotated[int, Field(ge=0)] | None = None  # if given, must be the current version


class Start(_Msg):
    """Host: start the game now with the seats taken (empty human seats are removed)."""

    type: Literal["start"]


class NewGame(_Msg):
    """After a game: play another one at this table (fresh buy-in)."""

    type: Literal["new_game"]


class Leave(_Msg):
    """Give up your seat (during a game: it is played automatically until the game ends)."""

    type: Literal["leave"]


class Ping(_Msg):
    type: Literal["ping"]
    id: Annotated[int, Field(ge=0)] | None = None


class Back(_Msg):
    """The player is at the screen again: an away seat is theirs to play again."""

    type: Literal["back"]


#: Longest chat line (characters) a client may send.
MAX_CHAT = 200


class Chat(_Msg):
    """A line of table chat, sent to everyone at the table (rate-limited per connection)."""

    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=MAX_CHAT)]


class Sync(_Msg):
    """Ask for the full state again (with the current hand's events)."""

    type: Literal["sync"]


AnyClientMessage = Hello | ActionMsg | Start | NewGame | Leave | Ping | Sync | Back | Chat
ClientMessage = Annotated[AnyClientMessage, Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[AnyClientMessage] = TypeAdapter(ClientMessage)
CLIENT_TYPES = ("hello", "action", "start", "new_game", "leave", "ping", "sync", "back", "chat")


# ---------------------------------------------------------------------- HTTP bodies
SeatKind = Annotated[str, Field(pattern=r"^(human|bot:[a-z0-9_\-]{1,30})$")]


class CreateTable(BaseModel):
    """``POST /api/tables``."""

    model_config = ConfigDict(extra="forbid")

    variant: Annotated[str, Field(min_length=1, max_length=40)] = DEFAULT_VARIANT
    name: Annotated[str, Field(max_length=60)] = ""
    #: One entry per seat: ``"human"`` or ``"bot:<name>"`` (2-8 seats).
    seats: Annotated[list[SeatKind], Field(min_length=2, max_length=8)] = ["human", "human"]
    options: dict[str, str | int | float | bool | None] = Field(default_factory=dict)
    buy_in: Annotated[int, Field(ge=1, le=1_000_000)] | None = None
    turn_timer: Annotated[float, Field(ge=0, le=3600)] = 60.0
    listed: bool = True
    #: If given, the creator takes the first human seat under this name.
    player_name: Annotated[str, Field(max_length=MAX_NAME)] | None = None

    @field_validator("options")
    @classmethod
    def _few_options(cls, v: dict[str, Any]) -> dict[str, Any]:
        if len(v) > 40:
            raise ValueError("too many options")
        for key, value in v.items():
            if len(key) > 40 or (isinstance(value, str) and len(value) > 40):
                raise ValueError("option names and values are at most 40 characters")
        return v


class JoinTable(BaseModel):
    """``POST /api/tables/{code}/join``."""

    model_config = ConfigDict(extra="forbid")

    name: Annotated[str, Field(min_length=1, max_length=MAX_NAME)]
    seat: Annotated[int, Field(ge=0, le=7)] | None = None
    #: The host who did not sit at creation sits with the host token (keeping host rights).
    host_token: Annotated[str, Field(max_length=128)] | None = None


class TokenBody(BaseModel):
    """``POST /api/tables/{code}/leave``: whose seat."""

    model_config = ConfigDict(extra="forbid")

    token: Annotated[str, Field(min_length=1, max_length=128)]
