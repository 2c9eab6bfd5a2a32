"""A live table in memory: its settings, seats, game, bots, connections and timer handles.

It mirrors its :class:`~sabacc.services.store.TableRecord`; what the other server modules do to
it (lifecycle, timers, messages, history, eviction) lives in their own modules.
"""

from __future__ import annotations

import asyncio
import time
import unicodedata
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sabacc.apps.server.auth import same_hash
from sabacc.apps.server.outgoing import ChatLine
from sabacc.core.errors import SabaccError
from sabacc.core.events import HandStarted
from sabacc.engine.game import Game
from sabacc.engine.variant import VariantInfo
from sabacc.services.bots import Bot, make_bot
from sabacc.services.store import GameRecord, SeatRecord, TableRecord
from sabacc.variants.registry import lookup

if TYPE_CHECKING:
    from sabacc.apps.server.connection import Connection

#: Chat lines a table keeps in memory for newcomers (chat is not stored).
CHAT_KEPT = 50


@dataclass
class Table:
    """A live table (mirrors its :class:`~sabacc.services.store.TableRecord`)."""

    id: int
    code: str
    name: str
    variant: str
    options: dict[str, Any]
    turn_timer: float
    listed: bool
    host_hash: str
    status: str
    games_played: int
    created_at: float
    seats: list[SeatRecord]
    game: Game | None = None
    game_rec: GameRecord | None = None
    bots: dict[int, Bot] = field(default_factory=dict)
    conns: set[Connection] = field(default_factory=set)
    hand_event_start: int = 0
    # the turn timer
    timer: asyncio.TimerHandle | None = None
    timer_key: tuple[int, int] | None = None
    deadline: float | None = None  # loop.time() when the timer fires
    missed: dict[int, int] = field(default_factory=dict)
    pending: asyncio.Task[None] | None = None  # a bot or away-seat move being prepared
    pending_key: tuple[int, int] | None = None
    #: A coming push of the spectator count to every connection (see TableManager.hello).
    announce: asyncio.TimerHandle | None = None
    info_cache: dict[str, Any] | None = None
    #: The encoded observations and event runs of the game's current point, per viewer (see
    #: :func:`sabacc.apps.server.messages.state`), and which point that is.
    views: dict[Any, Any] = field(default_factory=dict)
    views_game: Game | None = None
    views_stamp: tuple[int, int, int] | None = None
    info_json_cache: str | None = None
    #: time.monotonic() of the last change: a connection, a departure, an action (eviction)
    last_active: float = field(default_factory=time.monotonic)
    #: The database is unreachable: the table is paused until it answers again.
    storage_down: bool = False
    #: Indices (in the game's events) of the Acted events of timer and away moves.
    auto_events: set[int] = field(default_factory=set)
    #: The last chat lines (sent to whoever connects) and the number of the last one.
    chat: deque[ChatLine] = field(default_factory=lambda: deque(maxlen=CHAT_KEPT))
    chat_no: int = 0
    #: Why the table could not be rebuilt from the store (it is kept, but not played).
    quarantine: str | None = None
    #: Held by every change of this table (see TableManager): changes never interleave.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: An applied action is being stored: nobody may be sent the state until it is durable.
    saving: bool = False

    @property
    def problem(self) -> str | None:
        """A sentence for the players when the table cannot be played now, else None."""
        if self.quarantine is not None:
            return self.quarantine
        if self.storage_down:
            return "the server cannot reach its database: play resumes when it is back"
        return None

    @property
    def version(self) -> int:
        return len(self.game.actions) if self.game is not None else 0

    @property
    def title(self) -> str:
        return variant_title(self.variant)

    def seat_of(self, token_hash: str | None) -> int | None:
        if token_hash is None:
            return None
        for seat in self.seats:
            if same_hash(seat.token_hash, token_hash):
                return seat.position
        return None

    @property
    def bots_only(self) -> bool:
        """No human seat: a table of bots playing each other (their number is limited)."""
        return all(s.kind == "bot" for s in self.seats)

    def human_seats_filled(self) -> bool:
        return all(s.kind == "bot" or s.token_hash is not None for s in self.seats)

    def touch(self) -> None:
        """Something changed: drop the cached public description, note the time (eviction)."""
        self.last_active = time.monotonic()
        self.info_cache = None
        self.info_json_cache = None


def clean_name(name: str, limit: int = 24) -> str:
    """A display name: printable characters only, spaces collapsed, at most ``limit`` long."""
    text = "".join(ch for ch in name if unicodedata.category(ch)[0] not in "C")
    text = " ".join(text.split())[:limit]
    return text


def last_hand_start(game: Game) -> int:
    """The index of the current hand's ``HandStarted`` event (what a newcomer is sent)."""
    for i in range(len(game.events) - 1, -1, -1):
        if isinstance(game.events[i], HandStarted):
            return i
    return 0


def make_bots(rec: GameRecord) -> dict[int, Bot]:
    """The bots of a game, seeded from the game's seed: the same bots after a restart (a
    level plays the bot it names in the game's variant)."""
    bots: dict[int, Bot] = {}
    for seat, name in enumerate(rec.bots):
        if name:
            bots[seat] = make_bot(name, (rec.seed + 7919 * (seat + 1)) % (2**63), rec.variant)
    return bots


def table_from_record(rec: TableRecord) -> Table:
    """A live table without its game (see :mod:`sabacc.apps.server.recovery` for that)."""
    return Table(
        id=rec.id,
        code=rec.code,
        name=rec.name,
        variant=rec.variant,
        options=dict(rec.options),
        turn_timer=rec.turn_timer,
        listed=rec.listed,
        host_hash=rec.host_hash,
        status=rec.status,
        games_played=rec.games_played,
        created_at=rec.created_at.timestamp(),
        seats=list(rec.seats),
    )


def variant_info(name: str) -> VariantInfo | None:
    """The record of the variant ``name``, None if this server does not know it (a stored
    table of a variant since removed: quarantined, and still shown)."""
    try:
        return lookup(name)
    except SabaccError:
        return None


def variant_title(name: str) -> str:
    """The variant's title, or its stored name if this server does not know it."""
    info = variant_info(name)
    return name if info is None else info.title
