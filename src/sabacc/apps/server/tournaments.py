"""Tournaments on the web server (issue 32, step 2): events made from a template, players
(accounts, guests, disclosed bots) registering, the director's actions, and the events'
durability.

Each event is a :class:`LiveEvent`: its stored record, registrations and, once started, the
pure :class:`~sabacc.services.tournament.Director` the server gives commands to
(:mod:`~sabacc.apps.server.tournament_setup`). Its tables are played by
:mod:`~sabacc.apps.server.tournament_run`. Every command is stored, with the events it made,
before anyone is told; a director's refusal (a move to a full table, a late registration
after the close...) is a :class:`~sabacc.apps.server.errors.ServerError` and changes nothing.

After a restart (even a ``kill -9``) every event is rebuilt from its stored commands: the
same levels, tables and standings. The hand each table was playing was not stored (a hand is
reported when it ends): it is void, as a misdeal, and the pots left on a table's game are
settled by the event's ``pot_at_close`` (a ``restart`` settlement in the log). The event
clock was saved every second while it ran, and does not run while no server is up.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sabacc.apps.server.auth import hash_token, new_code, new_token, same_hash
from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.table import clean_name
from sabacc.apps.server.tournament_setup import (
    CreateEvent,
    apply_command,
    config_of,
    event_config,
    plain,
    replay,
)
from sabacc.core.errors import SabaccError
from sabacc.services.store import EventRecord, RegistrationRecord, TournamentStore, UserRecord
from sabacc.services.tournament import Director, EventConfig, TournamentError
from sabacc.services.tournament.runner import Players, TableRun

if TYPE_CHECKING:
    from sabacc.apps.server.manager import TableManager

log = logging.getLogger("sabacc.apps.server")

#: Seconds between two saves of a running event clock.
CLOCK_SAVE = 1.0


@dataclass
class LiveEvent:
    """An event in memory (see the module's docstring)."""

    rec: EventRecord
    config: EventConfig
    regs: list[RegistrationRecord]
    director: Director | None = None
    seq: int = 0
    elapsed: float = 0.0  # seconds the clock ran, as of ``anchor``
    added: float = 0.0  # seconds a director added (the levels end that much later)
    running: bool = False
    anchor: float = field(default_factory=time.monotonic)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # held by an event hand
    desk: asyncio.Lock = field(default_factory=asyncio.Lock)  # registrations, the start
    #: Checked commands waiting for the end of the event hand in play (seating changes).
    pending: list[dict[str, Any]] = field(default_factory=list)
    runs: dict[int, TableRun] = field(default_factory=dict)
    players: Players | None = None
    #: A person's pending turn: player id -> (table, seat, the future their action sets).
    turns: dict[str, tuple[int, int, asyncio.Future[str]]] = field(default_factory=dict)
    deadlines: dict[str, float] = field(default_factory=dict)  # player id -> time.time()
    away: set[str] = field(default_factory=set)
    version: int = 0
    task: asyncio.Task[None] | None = None
    cache: dict[Any, Any] = field(default_factory=dict)

    @property
    def code(self) -> str:
        return self.rec.code

    @property
    def status(self) -> str:
        return self.rec.status

    def clock(self) -> float:
        """Seconds the clock has run."""
        if self.running:
            return self.elapsed + time.monotonic() - self.anchor
        return self.elapsed

    def level_clock(self) -> float:
        """The clock the levels read, in minutes (added time pushes them later)."""
        return max(0.0, self.clock() - self.added) / 60.0

    def set_running(self, running: bool) -> None:
        self.elapsed = self.clock()
        self.anchor = time.monotonic()
        self.running = running

    def changed(self) -> None:
        self.version += 1
        self.cache.clear()

    def player_of(self, name: str) -> str | None:
        """The director's player id of a registered name."""
        if self.director is None:
            return None
        for pid, info in self.director.state.players.items():
            if info["name"] == name:
                return pid
        return None


class Tournaments:
    """Every event of one server (see the module's docstring)."""

    def __init__(self, manager: TableManager) -> None:
        self.m = manager
        self.store = TournamentStore(manager.store.engine)
        self.events: dict[str, LiveEvent] = {}
        self.tasks: list[asyncio.Task[None]] = []

    # ------------------------------------------------------------------ lifecycle
    async def load(self) -> None:
        """Rebuild every stored event and run the unfinished ones."""
        from sabacc.apps.server.tournament_run import run_event

        for rec in await self.m.read(self.store.events):
            ev = await self._rebuild(rec)
            self.events[rec.code] = ev
            if ev.director is not None and rec.status == "running":
                await self._settle_restart(ev)
                ev.task = asyncio.create_task(run_event(self, ev))
        self.tasks.append(asyncio.create_task(self._save_clocks()))

    async def _rebuild(self, rec: EventRecord) -> LiveEvent:
        regs = await self.m.read(lambda: self.store.registrations(rec.id))
        config = config_of(rec.config)
        ev = LiveEvent(rec, config, regs)
        ev.elapsed, ev.added, ev.running = rec.clock_elapsed, rec.clock_added, rec.clock_running
        if rec.status != "registering":
            stored = await self.m.read(lambda: self.store.log(rec.id))
            ev.director = replay(config, rec.seed, stored)
            ev.seq = len(stored)
            ev.players = self._players(ev)
            known = {p["name"] for p in ev.director.state.players.values()}
            for reg in regs:  # registered, and the server stopped before the entry was made
                if reg.name not in known:
                    ev.pending.append({"op": "register", "name": reg.name, "bot": reg.bot})
        return ev

    async def _settle_restart(self, ev: LiveEvent) -> None:
        """The pots a table's game held when the server stopped are settled (its game is
        made again from the event's stacks)."""
        assert ev.director is not None
        batch = []
        for table, pot in sorted(ev.director.state.pots.items()):
            if pot and table in ev.director.state.tables:
                batch.append(
                    self.command(ev, {"op": "close_pot", "table": table, "reason": "restart"})
                )
        if batch:
            await self.persist(ev, batch)

    def shutdown(self) -> None:
        for task in self.tasks:
            task.cancel()
        for ev in self.events.values():
            if ev.task is not None:
                ev.task.cancel()

    async def _save_clocks(self) -> None:
        """Save every running clock each second (a dead server loses at most that)."""
        while True:
            await asyncio.sleep(CLOCK_SAVE)
            for ev in list(self.events.values()):
                if ev.running and ev.status == "running":
                    await self.save_clock(ev)

    async def save_clock(self, ev: LiveEvent) -> None:
        clock = (ev.clock(), ev.added, ev.running)
        try:
            await self.m.persist(lambda: self.store.save(ev.rec.id, clock=clock))
        except ServerError:
            log.warning("tournament %s: the clock could not be saved", ev.code)

    # ------------------------------------------------------------------ commands
    def command(self, ev: LiveEvent, command: dict[str, Any]) -> tuple[dict[str, Any], Any]:
        """Apply a director command now; what to store (the command and its events). A
        refusal is a ``ServerError`` (``tournament_refused``) and changes nothing."""
        assert ev.director is not None
        mark = len(ev.director.events)
        try:
            apply_command(ev.director, command)
        except TournamentError as exc:
            raise ServerError("tournament_refused", str(exc), status=409) from None
        ev.changed()
        return command, plain(ev.director.events[mark:])

    async def persist(
        self, ev: LiveEvent, batch: list[tuple[dict[str, Any], Any]], status: str | None = None
    ) -> None:
        """Store commands (with the event's status and clock) in one transaction."""
        seq, clock = ev.seq, (ev.clock(), ev.added, ev.running)
        await self.m.persist(
            lambda: self.store.append(ev.rec.id, seq, batch, status=status, clock=clock)
        )
        ev.seq += len(batch)
        if status is not None:
            ev.rec.status = status

    def _players(self, ev: LiveEvent) -> Players:
        """The bots: each bot's level, and an ``easy`` autopilot for a person's seat while
        they are away (sit-out plays automatically)."""
        assert ev.director is not None
        levels = {p: info["bot"] or "easy" for p, info in ev.director.state.players.items()}
        return Players(ev.rec.seed, levels)

    # ------------------------------------------------------------------ events
    def get(self, code: str) -> LiveEvent:
        ev = self.events.get(code.upper())
        if ev is None:
            raise ServerError("no_event", f"no tournament {code!r}", status=404)
        return ev

    async def create(self, body: CreateEvent, user: UserRecord | None) -> dict[str, Any]:
        """A new event; the answer holds the director's token (the creator's account, if
        signed in, is a director too)."""
        stored = event_config(body)
        config = config_of(stored)
        code = new_code(6)
        while code in self.events:
            code = new_code(6)  # pragma: no cover - rare
        token = new_token()
        seed = random.SystemRandom().randrange(2**62)
        name = clean_name(body.name, 80) or f"{config.info.title} {body.template.upper()}"
        uid = user.id if user is not None else None
        rec = await self.m.persist(
            lambda: self.store.create(code, name, stored, seed, hash_token(token), uid)
        )
        self.events[code] = LiveEvent(rec, config, [])
        return {"code": code, "url": f"/e/{code}", "director_token": token}

    def is_director(self, ev: LiveEvent, token: str | None, user: UserRecord | None) -> bool:
        if user is not None and ev.rec.director_user_id == user.id:
            return True
        return bool(token) and same_hash(hash_token(token or ""), ev.rec.director_hash)

    def require_director(self, ev: LiveEvent, token: str | None, user: UserRecord | None) -> None:
        if not self.is_director(ev, token, user):
            raise ServerError("not_director", "only this event's director can do that", status=403)

    def registration_of(
        self, ev: LiveEvent, token: str | None, user: UserRecord | None
    ) -> RegistrationRecord | None:
        """The viewer's registration (their token, or their account)."""
        hashed = hash_token(token) if token else None
        for reg in ev.regs:
            if reg.kind == "bot":
                continue
            if user is not None and reg.user_id == user.id:
                return reg
            if hashed is not None and reg.token_hash and same_hash(reg.token_hash, hashed):
                return reg
        return None

    # ------------------------------------------------------------------ registration
    def registration_open(self, ev: LiveEvent) -> bool:
        if ev.status == "registering":
            seats = ev.config.seats
            return seats is None or len(ev.regs) < seats
        return ev.director is not None and ev.director.registration_open()

    async def register(
        self, code: str, name: str, user: UserRecord | None, bot: str | None = None
    ) -> dict[str, Any]:
        """Register a person (an account under its username, a guest under ``name``) or a
        bot (``bot``: its level); returns the player's token. A Sit & Go starts when its
        seats fill; after the start, a late entry (while late registration is open)."""
        ev = self.get(code)
        async with ev.desk:
            display = user.username if user is not None else clean_name(name)
            if not display:
                raise ServerError("bad_name", "please give a name")
            if bot is None and user is None:
                await self.m.seating.not_an_account(display)
            if not self.registration_open(ev):
                raise ServerError("registration_closed", "registration is closed", status=409)
            if any(r.name.casefold() == display.casefold() for r in ev.regs):
                raise ServerError("name_taken", f"{display!r} is registered already", status=409)
            if user is not None and any(r.user_id == user.id for r in ev.regs):
                raise ServerError("registered", "you are registered already", status=409)
            late = {"op": "register", "name": display, "bot": bot}
            if ev.status != "registering":
                self.check(ev, late)
            token = new_token() if bot is None else None
            kind = "bot" if bot is not None else ("account" if user is not None else "guest")
            uid = user.id if user is not None else None
            th = hash_token(token) if token else None
            reg = await self.m.persist(
                lambda: self.store.register(ev.rec.id, display, kind, bot, uid, th)
            )
            if ev.status != "registering":
                ev.pending.append(late)  # seated when the event hand in play ends
            ev.regs.append(reg)
            ev.changed()
            if ev.status == "registering" and len(ev.regs) == ev.config.seats:
                await self._start(ev)
        return {"code": ev.code, "name": display, "token": token}

    async def unregister(self, code: str, token: str | None, user: UserRecord | None) -> None:
        """Withdraw a registration before the start."""
        ev = self.get(code)
        async with ev.desk:
            reg = self.registration_of(ev, token, user)
            if reg is None:
                raise ServerError("not_registered", "you are not registered", status=404)
            if ev.status != "registering":
                raise ServerError(
                    "event_started", "the event has started: you can no longer withdraw", 409
                )
            await self.m.persist(lambda: self.store.unregister(ev.rec.id, reg.id))
            ev.regs.remove(reg)
            ev.changed()

    async def add_bots(self, code: str, count: int | None, level: str) -> list[str]:
        """Register disclosed bots of ``level``: ``count`` of them, or as many as a Sit &
        Go's empty seats (which starts it)."""
        from sabacc.services.bots import make_bot

        ev = self.get(code)
        try:
            make_bot(level, 0, ev.config.info)
        except SabaccError as exc:
            raise ServerError("bad_bot", str(exc)) from None
        if count is None:
            if ev.config.seats is None:
                raise ServerError("bad_request", "say how many bots to add")
            count = ev.config.seats - len(ev.regs)
        added: list[str] = []
        number = 1
        while len(added) < count and self.registration_open(ev):
            name = f"Bot {number}"
            number += 1
            if any(r.name == name for r in ev.regs):
                continue
            await self.register(code, name, None, bot=level)
            added.append(name)
        return added

    # ------------------------------------------------------------------ the director
    async def start(self, code: str) -> None:
        ev = self.get(code)
        async with ev.desk:
            if ev.status != "registering":
                raise ServerError("event_started", "the event has started already", 409)
            await self._start(ev)

    async def _start(self, ev: LiveEvent) -> None:
        """The seeded seat draw: the director gets every registration, in order."""
        from sabacc.apps.server.tournament_run import run_event

        if len(ev.regs) < 2:
            raise ServerError("too_few", "an event needs at least 2 players", status=409)
        if ev.config.format == "cantina" and len(ev.regs) > (ev.config.table_size or 8):
            raise ServerError("too_many", "a cantina game is one table", status=409)
        ev.director = Director(ev.config, ev.rec.seed)
        players = [[r.name, r.bot] for r in ev.regs]
        try:
            done = self.command(ev, {"op": "start", "players": players})
        except ServerError:
            ev.director = None
            raise
        ev.set_running(True)
        try:
            await self.persist(ev, [done], status="running")
        except ServerError:
            ev.director, ev.running = None, False
            raise
        ev.players = self._players(ev)
        ev.task = asyncio.create_task(run_event(self, ev))

    async def direct(self, code: str, action: str, **args: Any) -> dict[str, Any]:
        """A director's action (the caller checked who asks): pause, resume, add time, move
        a player, break a table. Seating changes wait for the event hand in play to end."""
        ev = self.get(code)
        if action == "start":
            await self.start(code)
            return {"ok": True}
        if ev.director is None or ev.status != "running":
            raise ServerError("not_running", "the event is not running", status=409)
        if action in ("pause", "resume"):
            if ev.running == (action == "resume"):
                raise ServerError("no_change", f"the clock is {action}d already", 409)
            ev.set_running(action == "resume")
        elif action == "add_time":
            seconds = float(args.get("seconds") or 0)
            if not seconds or ev.added + seconds < 0:
                raise ServerError("bad_request", "add a number of seconds (not below 0 in all)")
            ev.added += seconds
        elif action == "move":
            entry, table = args.get("entry"), args.get("table")
            if not entry or table is None:
                raise ServerError("bad_request", "name the entry and the table to move it to")
            self.queue(ev, {"op": "move", "entry": entry, "to": table})
            return {"ok": True, "pending": True}
        else:
            if args.get("table") is None:
                raise ServerError("bad_request", "name the table to break")
            self.queue(ev, {"op": "break", "table": args["table"]})
            return {"ok": True, "pending": True}
        await self.save_clock(ev)
        ev.changed()
        return {"ok": True}

    def check(self, ev: LiveEvent, command: dict[str, Any]) -> None:
        """Refuse now (``tournament_refused``, nothing changed) a command the director would
        refuse after the commands already waiting."""
        assert ev.director is not None
        trial = copy.deepcopy(ev.director)
        try:
            for waiting in [*ev.pending, command]:
                apply_command(trial, waiting)
        except TournamentError as exc:
            raise ServerError("tournament_refused", str(exc), status=409) from None

    def queue(self, ev: LiveEvent, command: dict[str, Any]) -> None:
        """A checked seating change, made when the event hand in play ends."""
        self.check(ev, command)
        ev.pending.append(command)
        ev.changed()
