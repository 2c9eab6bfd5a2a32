"""The table manager: every web table's live game, seats, connections, timers and bots.

The server holds the only game state. Everything that changes a table runs on the event loop
without awaiting in between (validate, apply, store, wake the connections), so two messages can
never interleave inside one change. Bots think in a worker thread (``asyncio.to_thread``): a
search bot may take a second and must not stall the other tables.

Each applied action is stored before anyone is told about it; at start-up every table is rebuilt
from the store by replaying its game's seed and actions (see :meth:`TableManager.load`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import time
import unicodedata
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import sabacc
from sabacc.apps.server.auth import hash_token, new_code, new_token, normalise_code, same_hash
from sabacc.apps.server.protocol import PROTOCOL_VERSION, CreateTable
from sabacc.core.actions import CHECK, JUNK, STAND, Action, Bet, Raise
from sabacc.core.errors import IllegalActionError, SabaccError
from sabacc.core.events import HandStarted
from sabacc.engine.betting import Legal
from sabacc.engine.game import Game
from sabacc.services.bots import Bot, make_bot
from sabacc.services.bots.base import decide
from sabacc.services.render import events_json
from sabacc.services.store import ActionRecord, GameRecord, SeatRecord, Store, TableRecord
from sabacc.variants.registry import lookup

log = logging.getLogger("sabacc.apps.server")

BOT_NAMES = ("R2-D2", "C-3PO", "BB-8", "K-2SO", "L3-37", "IG-88", "4-LOM", "HK-47")


class ServerError(Exception):
    """A refusal with a machine-readable ``code`` and a message a player can read."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


@dataclass
class Settings:
    """Server tuning (``sabacc serve`` flags)."""

    db_url: str = "sqlite:///sabacc.db"
    #: Seconds a bot waits before acting, so people can follow the play.
    bot_delay: float = 0.8
    #: Seconds before the seat of a player who left is played automatically.
    away_delay: float = 1.0
    #: Turns in a row a player may let the timer play before the seat counts as away.
    missed_turns_away: int = 2
    #: Per-connection rate limit: messages per second, and the burst allowed.
    rate: float = 20.0
    burst: int = 40
    #: Rate-limited messages in a row after which the connection is closed.
    abuse_limit: int = 400
    max_tables: int = 10_000
    #: Seconds a table may sit idle (nobody connected, no timer or move pending) before it is
    #: dropped from memory; it is reloaded from the store when somebody opens it. 0: never.
    idle_evict: float = 3600.0


def default_action(legal: Legal) -> Action:
    """What the timer plays for an absent player: check, stand or junk (else the first option)."""
    for action in (CHECK, STAND, JUNK):
        if legal.contains(action):
            return action
    if legal.fixed:
        return legal.fixed[0]
    if legal.bet:
        return Bet(legal.bet[0])
    if legal.raise_:
        return Raise(legal.raise_[0])
    raise ServerError("no_action", "nothing to play")  # pragma: no cover


def clean_name(name: str, limit: int = 24) -> str:
    """A display name: printable characters only, spaces collapsed, at most ``limit`` long."""
    text = "".join(ch for ch in name if unicodedata.category(ch)[0] not in "C")
    text = " ".join(text.split())[:limit]
    return text


class TokenBucket:
    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class Connection:
    """One WebSocket client: who it is, what it was last sent, and its outgoing queue.

    State messages are pulled, not pushed: a change marks every connection dirty and its writer
    builds the newest state (with every event it has not been sent yet) when it gets to send.
    A slow client therefore skips intermediate states but never misses an event.
    """

    def __init__(self, manager: TableManager, table: Table) -> None:
        self.manager = manager
        self.table = table
        self.token_hash: str | None = None
        self.ready = False  # said hello
        self.outbox: deque[str] = deque()
        self.dirty = False
        self.wake = asyncio.Event()
        self.closed = False
        self.game_no = -1
        self.events_sent = 0
        self.bucket = TokenBucket(manager.settings.rate, manager.settings.burst)
        self.strikes = 0

    @property
    def seat(self) -> int | None:
        return self.table.seat_of(self.token_hash)

    @property
    def host(self) -> bool:
        return same_hash(self.token_hash, self.table.host_hash)

    def push(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        self.outbox.append(_dumps(message))
        self.wake.set()

    def error(self, code: str, message: str, ref: str | None = None) -> None:
        self.push({"type": "error", "code": code, "message": message, "ref": ref})

    def mark_dirty(self) -> None:
        if self.ready and not self.closed:
            self.dirty = True
            self.wake.set()

    async def run_writer(self, send: Callable[[str], Awaitable[None]]) -> None:
        try:
            while not self.closed:
                await self.wake.wait()
                self.wake.clear()
                while self.outbox:
                    await send(self.outbox.popleft())
                if self.dirty:
                    self.dirty = False
                    await send(self.manager.state_message(self))
        except Exception:  # the socket went away: the reader notices and cleans up
            self.closed = True


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
    info_cache: dict[str, Any] | None = None
    info_json_cache: str | None = None
    #: time.monotonic() of the last change: a connection, a departure, an action (eviction)
    last_active: float = field(default_factory=time.monotonic)

    @property
    def version(self) -> int:
        return len(self.game.actions) if self.game is not None else 0

    @property
    def title(self) -> str:
        return lookup(self.variant).title

    def seat_of(self, token_hash: str | None) -> int | None:
        if token_hash is None:
            return None
        for seat in self.seats:
            if same_hash(seat.token_hash, token_hash):
                return seat.position
        return None

    def human_seats_filled(self) -> bool:
        return all(s.kind == "bot" or s.token_hash is not None for s in self.seats)

    def info(self) -> dict[str, Any]:
        """The public description of the table (same for every viewer)."""
        if self.info_cache is None:
            connected: dict[int, int] = {}
            for conn in self.conns:
                seat = conn.seat
                if seat is not None:
                    connected[seat] = connected.get(seat, 0) + 1
            info = lookup(self.variant)
            self.info_cache = {
                "code": self.code,
                "name": self.name,
                "variant": self.variant,
                "title": info.title,
                "options": dict(self.options),
                "turn_timer": self.turn_timer,
                "status": self.status,
                "game_no": self.games_played,
                "min_players": info.min_players,
                "max_players": info.max_players,
                "spectators": sum(1 for c in self.conns if c.seat is None),
                "host_seat": self.seat_of(self.host_hash),
                "seats": [
                    {
                        "seat": s.position,
                        "kind": s.kind,
                        "bot": s.bot,
                        "name": s.name,
                        "taken": s.kind == "bot" or s.token_hash is not None,
                        "away": s.away,
                        "connected": s.kind == "bot" or connected.get(s.position, 0) > 0,
                        "net": s.net,
                    }
                    for s in self.seats
                ],
            }
        return self.info_cache

    def info_json(self) -> str:
        """:meth:`info` as JSON, encoded once per change for all the connections."""
        if self.info_json_cache is None or self.info_cache is None:
            self.info_json_cache = _dumps(self.info())
        return self.info_json_cache

    def summary(self) -> dict[str, Any]:
        open_seats = sum(1 for s in self.seats if s.kind == "human" and s.token_hash is None)
        return {
            "code": self.code,
            "name": self.name,
            "variant": self.variant,
            "title": self.title,
            "status": self.status,
            "seats": len(self.seats),
            "open_seats": open_seats,
            "humans": sum(1 for s in self.seats if s.kind == "human"),
            "game_no": self.games_played,
        }


class TableManager:
    """All the tables of one server process, backed by a :class:`~sabacc.services.store.Store`."""

    def __init__(self, store: Store, settings: Settings | None = None) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.tables: dict[str, Table] = {}
        self.loop: asyncio.AbstractEventLoop | None = None

    # ------------------------------------------------------------------ start-up
    def load(self) -> None:
        """Rebuild every stored table; a game in progress is replayed from seed and actions."""
        for rec in self.store.load_tables():
            table = self._table_from_store(rec)
            self.tables[table.code] = table
        log.info("loaded %d table(s) from %s", len(self.tables), self.store.url)

    def _table_from_store(self, rec: TableRecord) -> Table:
        table = _table_from_record(rec)
        if rec.game is not None:
            game = sabacc.new_game(
                rec.game.variant,
                players=rec.game.players,
                seed=rec.game.seed,
                **rec.game.options,
            )
            for a in rec.game.actions:
                game.apply(a.action, seat=a.seat)
            table.game = game
            table.game_rec = rec.game
            table.bots = self._make_bots(rec.game)
            table.hand_event_start = _last_hand_start(game)
            if game.is_over and table.status == "playing":  # pragma: no cover - safety
                table.status = "finished"
        elif table.status == "playing":  # pragma: no cover - a game row always exists
            table.status = "waiting"
        return table

    # ------------------------------------------------------------------ memory
    def evict_idle(self, now: float | None = None) -> list[str]:
        """Drop the tables idle for ``settings.idle_evict`` seconds from memory (nobody
        connected, no turn timer or move pending); :meth:`get` reloads them from the store.
        Returns the codes dropped."""
        limit = self.settings.idle_evict
        if limit <= 0:
            return []
        now = time.monotonic() if now is None else now
        idle = [
            code
            for code, t in self.tables.items()
            if not t.conns
            and t.timer is None
            and t.pending is None
            and now - t.last_active >= limit
        ]
        for code in idle:
            del self.tables[code]
        if idle:
            log.info("evicted %d idle table(s); %d in memory", len(idle), len(self.tables))
        return idle

    async def run_evictions(self) -> None:
        """Evict idle tables now and then, for as long as the server runs."""
        limit = self.settings.idle_evict
        if limit <= 0:
            return
        while True:
            await asyncio.sleep(max(1.0, min(60.0, limit / 4)))
            self.evict_idle()

    def resume(self, loop: asyncio.AbstractEventLoop) -> None:
        """Restart timers and bots of the loaded tables (call once the loop runs)."""
        self.loop = loop
        for table in self.tables.values():
            self._changed(table)

    def shutdown(self) -> None:
        for table in self.tables.values():
            if table.timer is not None:
                table.timer.cancel()
            if table.pending is not None:
                table.pending.cancel()

    # ------------------------------------------------------------------ lobby
    def get(self, code: str) -> Table:
        """The table called ``code``: in memory, or reloaded from the store if it was evicted."""
        norm = normalise_code(code)
        table = self.tables.get(norm)
        if table is None:
            records = self.store.load_tables(norm) if norm else []
            if not records:
                raise ServerError("no_table", f"there is no table {code!r}", status=404)
            table = self._table_from_store(records[0])
            self.tables[table.code] = table
            self._schedule(table)
        return table

    def listed(self) -> list[dict[str, Any]]:
        tables = [t for t in self.tables.values() if t.listed]
        tables.sort(key=lambda t: t.created_at, reverse=True)
        return [t.summary() for t in tables[:100]]

    def create(self, req: CreateTable) -> dict[str, Any]:
        if len(self.tables) >= self.settings.max_tables:
            raise ServerError("too_many_tables", "this server has as many tables as it can hold")
        try:
            info = lookup(req.variant)
        except SabaccError as exc:
            raise ServerError("bad_variant", str(exc)) from None
        n = len(req.seats)
        if not info.min_players <= n <= info.max_players:
            raise ServerError(
                "bad_seats",
                f"{info.title} is played by {info.min_players}-{info.max_players} players, not {n}",
            )
        raw = {k: v for k, v in req.options.items() if v is not None and v != ""}
        if req.buy_in is not None:
            raw["buy_in"] = req.buy_in
        try:
            options = info.options_type.from_mapping(raw).changed()
        except SabaccError as exc:
            raise ServerError("bad_options", str(exc)) from None
        seats: list[SeatRecord] = []
        for i, kind in enumerate(req.seats):
            if kind == "human":
                seats.append(SeatRecord(position=i, kind="human"))
                continue
            bot = kind.split(":", 1)[1]
            try:
                make_bot(bot, 0)
            except SabaccError as exc:
                raise ServerError("bad_bot", str(exc)) from None
            seats.append(SeatRecord(position=i, kind="bot", bot=bot, name=BOT_NAMES[i % 8]))
        code = new_code()
        while code in self.tables or self.store.code_taken(code):  # pragma: no cover - rare
            code = new_code()
        host_token = new_token()
        host_hash = hash_token(host_token)
        seat_no: int | None = None
        if req.player_name is not None and clean_name(req.player_name):
            first = next((s for s in seats if s.kind == "human"), None)
            if first is not None:
                first.name = clean_name(req.player_name)
                first.token_hash = host_hash
                seat_no = first.position
        name = clean_name(req.name, 60) or f"{info.title} table"
        rec = self.store.create_table(
            code=code,
            name=name,
            variant=info.name,
            options=options,
            turn_timer=float(req.turn_timer),
            listed=req.listed,
            host_hash=host_hash,
            seats=seats,
        )
        table = _table_from_record(rec)
        self.tables[code] = table
        self._maybe_start(table)
        self._changed(table)
        return {
            "code": code,
            "url": f"/t/{code}",
            "host_token": host_token,
            "seat": seat_no,
            "token": host_token if seat_no is not None else None,
        }

    def join(
        self, code: str, name: str, seat: int | None = None, host_token: str | None = None
    ) -> dict[str, Any]:
        table = self.get(code)
        display = clean_name(name)
        if not display:
            raise ServerError("bad_name", "please give a name")
        if table.status == "playing":
            raise ServerError(
                "game_running",
                "a game is being played at this table: watch it, and take a seat when it ends",
                status=409,
            )
        if seat is not None:
            if seat >= len(table.seats):
                raise ServerError("bad_seat", f"this table has seats 0-{len(table.seats) - 1}")
            chosen = table.seats[seat]
            if chosen.kind != "human":
                raise ServerError("bad_seat", "that seat is played by a bot", status=409)
            if chosen.token_hash is not None:
                raise ServerError("seat_taken", "that seat is taken", status=409)
        else:
            open_seats = [s for s in table.seats if s.kind == "human" and s.token_hash is None]
            if not open_seats:
                raise ServerError("table_full", "every seat at this table is taken", status=409)
            chosen = open_seats[0]
        token = new_token()
        if (
            host_token
            and same_hash(hash_token(host_token), table.host_hash)
            and table.seat_of(table.host_hash) is None
        ):
            token = host_token  # the host sits down and stays host
        chosen.name = display
        chosen.token_hash = hash_token(token)
        chosen.away = False
        chosen.net = 0
        self.store.save_seat(table.id, chosen)
        self._maybe_start(table)
        self._changed(table)
        return {"code": table.code, "seat": chosen.position, "token": token}

    def seat_for_token(self, table: Table, token: str) -> int:
        seat = table.seat_of(hash_token(token))
        if seat is None:
            raise ServerError("bad_token", "that token holds no seat at this table", status=403)
        return seat

    def leave(self, table: Table, seat: int) -> None:
        rec = table.seats[seat]
        if table.status == "playing" and table.game is not None and not table.game.is_over:
            rec.away = True  # played automatically; the seat is freed when the game ends
        else:
            rec.name = None
            rec.token_hash = None
            rec.away = False
            rec.net = 0
        self.store.save_seat(table.id, rec)
        self._changed(table)

    def start(self, table: Table, conn_host: bool) -> None:
        """The host starts now: empty human seats are removed, the others play."""
        if not conn_host:
            raise ServerError("not_host", "only the player who created the table can start it")
        if table.status == "playing":
            raise ServerError("game_running", "the game has already started")
        taken = [s for s in table.seats if s.kind == "bot" or s.token_hash is not None]
        info = lookup(table.variant)
        if len(taken) < info.min_players:
            raise ServerError(
                "not_enough_players",
                f"{info.title} needs at least {info.min_players} players seated",
            )
        if len(taken) != len(table.seats):
            for i, s in enumerate(taken):
                s.position = i
            table.seats = taken
            self.store.replace_seats(table.id, taken)
        self._start_game(table)
        self._changed(table)

    def new_game(self, table: Table, seat: int | None, host: bool) -> None:
        if table.status != "finished":
            raise ServerError("game_running", "the game is not over yet")
        if seat is None and not host:
            raise ServerError("not_seated", "only a seated player can start a new game")
        for rec in table.seats:
            if rec.away and rec.kind == "human":  # they left during the game: free the seat
                rec.name = None
                rec.token_hash = None
                rec.away = False
                rec.net = 0
                self.store.save_seat(table.id, rec)
        table.status = "waiting"
        self.store.set_status(table.id, "waiting")
        self._maybe_start(table)
        self._changed(table)

    # ------------------------------------------------------------------ connections
    def hello(self, conn: Connection, token: str | None) -> None:
        table = conn.table
        conn.token_hash = hash_token(token) if token else None
        conn.ready = True
        conn.game_no = -1
        table.conns.add(conn)
        seat = conn.seat
        if token and seat is None and not conn.host:
            conn.error("bad_token", "that token holds no seat at this table: you are watching")
        if seat is not None and table.seats[seat].away and table.status == "playing":
            table.seats[seat].away = False  # back at the table
            table.missed.pop(seat, None)
            self.store.save_seat(table.id, table.seats[seat])
        conn.push(
            {
                "type": "welcome",
                "protocol": PROTOCOL_VERSION,
                "table": table.code,
                "seat": seat,
                "host": conn.host,
            }
        )
        self._changed(table)

    def disconnect(self, conn: Connection) -> None:
        conn.closed = True
        conn.wake.set()
        table = conn.table
        if conn in table.conns:
            table.conns.discard(conn)
            self._changed(table)

    # ------------------------------------------------------------------ play
    def act(
        self, table: Table, seat: int | None, text: str | Action, *, auto: bool = False
    ) -> None:
        """Apply ``seat``'s action: validated, stored, then announced. Refusals change nothing."""
        game = table.game
        if game is None or table.status != "playing" or game.is_over:
            raise ServerError("no_game", "no game is being played at this table")
        if seat is None:
            raise ServerError("not_seated", "you are watching this table, not seated at it")
        actor = game.current_player
        if actor != seat:
            who = game.names[actor] if actor is not None else "nobody"
            raise ServerError("not_your_turn", f"it is not your turn: {who} is to act")
        hand = game.hand_no
        try:
            game.apply(text, seat=seat)
        except IllegalActionError as exc:
            raise ServerError("illegal_action", str(exc)) from None
        idx = len(game.actions) - 1
        result: dict[str, Any] | None = None
        nets: dict[int, int] | None = None
        if game.is_over:
            outcome = game.outcome
            result = outcome.to_dict() if outcome else {}
            nets = {s: table.seats[s].net + pay for s, pay in enumerate(game.payoffs)}
        assert table.game_rec is not None
        try:
            self.store.record_action(
                table.id,
                table.game_rec.id,
                ActionRecord(idx, seat, game.actions[-1][1], hand, auto),
                stacks=list(game.stacks),
                hands=game.hand_no,
                result=result,
                nets=nets,
            )
        except Exception:
            log.exception("could not store an action at table %s: rebuilding it", table.code)
            self._rebuild(table)
            raise ServerError(
                "storage_error", "the server could not save that: try again"
            ) from None
        for s, net in (nets or {}).items():
            table.seats[s].net = net
        if not auto:
            table.missed.pop(seat, None)
        for i in range(len(game.events) - 1, table.hand_event_start, -1):
            if isinstance(game.events[i], HandStarted):
                table.hand_event_start = i
                break
        if game.is_over:
            table.status = "finished"
        self._changed(table)

    def _rebuild(self, table: Table) -> None:  # pragma: no cover - storage failures only
        rec = self.store.load_game(table.id, table.games_played)
        if rec is None:
            return
        game = sabacc.new_game(rec.variant, players=rec.players, seed=rec.seed, **rec.options)
        for a in rec.actions:
            game.apply(a.action, seat=a.seat)
        table.game = game
        table.hand_event_start = _last_hand_start(game)
        table.status = "finished" if game.is_over else "playing"

    # ------------------------------------------------------------------ game lifecycle
    def _maybe_start(self, table: Table) -> None:
        if table.status == "waiting" and table.human_seats_filled():
            self._start_game(table)

    def _start_game(self, table: Table) -> None:
        seed = random.SystemRandom().randrange(2**63)
        names: list[str] = []
        for s in table.seats:
            base = s.name or f"Player {s.position + 1}"
            name, k = base, 2
            while name in names:
                name = f"{base} {k}"
                k += 1
            names.append(name)
        game = sabacc.new_game(table.variant, players=names, seed=seed, **table.options)
        number = table.games_played + 1
        rec = self.store.start_game(
            table.id,
            number=number,
            variant=table.variant,
            options=dict(table.options),
            seed=seed,
            players=names,
            seat_tokens=[s.token_hash for s in table.seats],
            bots=[s.bot for s in table.seats],
            stacks=list(game.stacks),
            hands=game.hand_no,
        )
        table.game = game
        table.game_rec = rec
        table.bots = self._make_bots(rec)
        table.games_played = number
        table.status = "playing"
        table.missed.clear()
        table.hand_event_start = _last_hand_start(game)

    @staticmethod
    def _make_bots(rec: GameRecord) -> dict[int, Bot]:
        bots: dict[int, Bot] = {}
        for seat, name in enumerate(rec.bots):
            if name:
                bots[seat] = make_bot(name, (rec.seed + 7919 * (seat + 1)) % (2**63))
        return bots

    # ------------------------------------------------------------------ after every change
    def _changed(self, table: Table) -> None:
        table.last_active = time.monotonic()
        table.info_cache = None
        table.info_json_cache = None
        for conn in table.conns:
            conn.mark_dirty()
        self._schedule(table)

    def _schedule(self, table: Table) -> None:
        """Arm the turn timer, or start a bot's or an away seat's move, for the seat to act."""
        game = table.game
        loop = self.loop
        if loop is None or self.tables.get(table.code) is not table:
            return  # not started, or a table evicted since (a late call_later)
        cp = game.current_player if game is not None and table.status == "playing" else None
        key = (table.games_played, table.version)
        if cp is None:
            self._clear_timer(table)
            return
        assert game is not None
        seat = table.seats[cp]
        if seat.kind == "bot" or seat.away:
            self._clear_timer(table)
            if table.pending_key != key:
                table.pending_key = key
                delay = self.settings.bot_delay if seat.kind == "bot" else self.settings.away_delay
                table.pending = loop.create_task(self._auto_move(table, key, delay))
            return
        if table.turn_timer <= 0:
            self._clear_timer(table)
            return
        if table.timer_key == key and table.timer is not None:
            return  # this turn's timer is already running
        self._clear_timer(table)
        table.timer_key = key
        table.deadline = loop.time() + table.turn_timer
        table.timer = loop.call_later(table.turn_timer, self._timeout, table, key)

    @staticmethod
    def _clear_timer(table: Table) -> None:
        if table.timer is not None:
            table.timer.cancel()
        table.timer = None
        table.timer_key = None
        table.deadline = None

    @staticmethod
    def _still_to_act(table: Table, key: tuple[int, int]) -> tuple[Game, int] | None:
        """The game and the seat to act, if the table is still at decision ``key`` (a timer or
        a prepared move for an older decision is stale: None)."""
        game = table.game
        if game is None or (table.games_played, table.version) != key:
            return None
        seat = game.current_player
        return None if seat is None else (game, seat)

    def _timeout(self, table: Table, key: tuple[int, int]) -> None:
        table.timer = None
        turn = self._still_to_act(table, key)
        if turn is None:
            return
        game, seat = turn
        table.missed[seat] = table.missed.get(seat, 0) + 1
        if table.missed[seat] >= self.settings.missed_turns_away:
            table.seats[seat].away = True
            self.store.save_seat(table.id, table.seats[seat])
        try:
            self.act(table, seat, default_action(game.legal()), auto=True)
        except ServerError:  # pragma: no cover - the default action is always legal
            log.exception("timer move refused at table %s", table.code)

    async def _auto_move(self, table: Table, key: tuple[int, int], delay: float) -> None:
        """A bot's move (thought out in a worker thread), or the default move of an away seat."""
        try:
            if delay > 0:
                await asyncio.sleep(delay)
            turn = self._still_to_act(table, key)
            if turn is None:
                return
            game, seat = turn
            bot = table.bots.get(seat)
            action: Action | str
            if bot is not None and table.seats[seat].kind == "bot":
                try:
                    # decide() also hands search bots (ismcts) their sampler of hidden cards.
                    action = await asyncio.to_thread(decide, bot, game, seat)
                except Exception:
                    log.exception("bot %s failed at table %s", bot.name, table.code)
                    action = default_action(game.legal())
                if table.game is not game or (table.games_played, table.version) != key:
                    return
                auto = False
            else:
                action = default_action(game.legal())
                auto = True
            try:
                self.act(table, seat, action, auto=auto)
            except ServerError as exc:
                if exc.code == "storage_error":
                    raise
                log.warning("bot move %r refused at %s: %s", action, table.code, exc.message)
                self.act(table, seat, default_action(game.legal()), auto=True)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("automatic move failed at table %s", table.code)
        finally:
            if table.pending_key == key:
                table.pending = None
                table.pending_key = None
                # A refused or failed move must not stall the table: look again.
                if (table.games_played, table.version) == key and self.loop is not None:
                    self.loop.call_later(1.0, self._schedule, table)

    # ------------------------------------------------------------------ messages out
    def state_message(self, conn: Connection) -> str:
        """The state as ``conn`` may see it, with the events it has not been sent yet."""
        table = conn.table
        game = table.game
        seat = conn.seat
        events: list[dict[str, Any]] = []
        obs: dict[str, Any] | None = None
        if game is not None:
            if conn.game_no != table.games_played:
                conn.game_no = table.games_played
                conn.events_sent = table.hand_event_start
            events = events_json(
                game.events[conn.events_sent :], game.names, viewer=seat, variant=game.info
            )
            conn.events_sent = len(game.events)
            obs = game.observation(seat)
        turn: dict[str, Any] | None = None
        if game is not None and table.status == "playing" and game.current_player is not None:
            remaining = None
            if table.deadline is not None and self.loop is not None:
                remaining = max(0, int((table.deadline - self.loop.time()) * 1000))
            turn = {
                "seat": game.current_player,
                "deadline_ms": remaining,
                "timer": table.turn_timer,
            }
        seated = table.seats[seat] if seat is not None and seat < len(table.seats) else None
        you = {
            "seat": seat,
            "host": conn.host,
            "name": seated.name if seated else None,
            "away": seated.away if seated else False,
        }
        # Assembled from parts: the table's part is encoded once for every connection.
        return (
            f'{{"type":"state","version":{table.version},"game_no":{table.games_played},'
            f'"table":{table.info_json()},"you":{_dumps(you)},"turn":{_dumps(turn)},'
            f'"game":{_dumps(obs)},"events":{_dumps(events)}}}'
        )

    # ------------------------------------------------------------------ history
    def games(self, table: Table) -> list[dict[str, Any]]:
        out = []
        for g in self.store.list_games(table.id):
            over = g.result is not None
            out.append(
                {
                    "number": g.number,
                    "players": g.players,
                    "started_at": g.started_at.isoformat(),
                    "finished_at": g.finished_at.isoformat() if g.finished_at else None,
                    "hands_finished": g.hands if over else max(0, g.hands - 1),
                    "actions": g.action_count,
                    "stacks": g.stacks,
                    "result": g.result,
                }
            )
        return out

    def _game_record(self, table: Table, number: int) -> GameRecord:
        rec = self.store.load_game(table.id, number)
        if rec is None:
            raise ServerError("no_game", f"this table has no game {number}", status=404)
        return rec

    def history(self, table: Table, number: int) -> dict[str, Any]:
        """The replayable history document of a finished game (it holds the seed)."""
        rec = self._game_record(table, number)
        if rec.result is None:
            raise ServerError(
                "game_running", "a game's full history is published when it is over", status=403
            )
        return rec.history()

    def hand_frames(
        self, table: Table, number: int, hand: int, token: str | None
    ) -> dict[str, Any]:
        """A finished hand step by step, as the viewer saw it (their own seat, or a spectator)."""
        rec = self._game_record(table, number)
        finished = rec.hands if rec.result is not None else rec.hands - 1
        if not 1 <= hand <= finished:
            raise ServerError(
                "hand_not_finished",
                f"hand {hand} of game {number} is not a finished hand (1-{finished} are)",
                status=404,
            )
        viewer: int | None = None
        if token:
            h = hash_token(token)
            viewer = next((i for i, t in enumerate(rec.seat_tokens) if same_hash(t, h)), None)
        game = sabacc.new_game(rec.variant, players=rec.players, seed=rec.seed, **rec.options)
        actions = list(rec.actions)
        i = 0
        while i < len(actions) and actions[i].hand < hand:
            game.apply(actions[i].action, seat=actions[i].seat)
            i += 1
        start = _last_hand_start(game)
        frames = [
            {
                "action": None,
                "events": events_json(
                    game.events[start:], game.names, viewer=viewer, variant=game.info
                ),
                "game": game.observation(viewer),
            }
        ]
        while i < len(actions) and actions[i].hand == hand:
            a = actions[i]
            before = len(game.events)
            game.apply(a.action, seat=a.seat)
            frames.append(
                {
                    "action": {"seat": a.seat, "auto": a.auto},
                    "events": events_json(
                        game.events[before:], game.names, viewer=viewer, variant=game.info
                    ),
                    "game": game.observation(viewer),
                }
            )
            i += 1
        return {
            "game": number,
            "hand": hand,
            "viewer": viewer,
            "players": rec.players,
            "variant": rec.variant,
            "frames": frames,
        }


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _last_hand_start(game: Game) -> int:
    for i in range(len(game.events) - 1, -1, -1):
        if isinstance(game.events[i], HandStarted):
            return i
    return 0


def _table_from_record(rec: TableRecord) -> Table:
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


async def cancel_quietly(task: asyncio.Task[Any] | None) -> None:
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await task
