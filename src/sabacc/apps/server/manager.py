"""The table manager: the lifecycle of every web table (create, seat, start, play, leave,
new game) and the list of tables of one server process.

The server holds the only game state. Every change of a table runs under that table's lock
(validate, apply, store, wake the connections), so two changes of one table never interleave;
the store call itself runs in a bounded pool of worker threads (``storage_workers``), never on
the event loop, so a slow or locked database holds up only the tables waiting for it. Timers
and automatic moves are in :mod:`~sabacc.apps.server.clock`, the messages in
:mod:`~sabacc.apps.server.messages`, the rebuilding from the store in
:mod:`~sabacc.apps.server.recovery`.

Every change is stored before anyone sees it: a seat or a game is stored and then changed in
memory; an action is applied, stored and only then announced (while it is being stored the
table is ``saving`` and no connection is sent its state), and undone if it cannot be stored.
A store call that takes too long fails by itself (the driver's busy, connect, statement and
lock timeouts, ``storage_timeout``): the server never abandons a write that might still
commit later. Why not apply to a copy: copying a game copies its event log,
which costs more per action the longer the game runs, while undoing is needed only on failure.
When the store fails, the change is refused (``storage_error``), nothing changes, every table
says the database is down, and the manager
checks the database every ``settings.storage_retry`` seconds; when it answers, timers, bots and
waiting tables carry on. At start-up every table is rebuilt from the store by replaying its
game's seed and actions (see :meth:`TableManager.load`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import socket
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any, TypeVar

import sabacc
from sabacc.apps.server import messages, trace
from sabacc.apps.server.auth import (
    CODE_LENGTH,
    UNLISTED_CODE_LENGTH,
    hash_token,
    new_code,
    new_token,
    normalise_code,
    same_hash,
)
from sabacc.apps.server.clock import TurnClock
from sabacc.apps.server.connection import Connection
from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.integrity import origins_of
from sabacc.apps.server.protocol import MAX_CHAT, CreateTable
from sabacc.apps.server.recovery import idle_codes, table_from_store, undo_last
from sabacc.apps.server.settings import Settings
from sabacc.apps.server.table import (
    Table,
    clean_name,
    last_hand_start,
    make_bots,
    table_from_record,
)
from sabacc.core.actions import Action
from sabacc.core.errors import IllegalActionError, SabaccError
from sabacc.core.events import HandStarted
from sabacc.services.bots import make_bot
from sabacc.services.community.stats import summarise
from sabacc.services.store import (
    ActionRecord,
    ActionWrite,
    GameRecord,
    SeatRecord,
    Store,
    StoreBusy,
    UserRecord,
    redact_url,
)
from sabacc.variants.registry import lookup

log = logging.getLogger("sabacc.apps.server")

T = TypeVar("T")

STORAGE_DOWN = (
    "the server cannot save right now (its database is unreachable): nothing was changed; "
    "play resumes by itself when the database is back"
)

#: Seconds the cluster's lobby and lease counts are reused before being read again, and the
#: longest a read of them may take.
LOBBY_CACHE = 1.0
CLUSTER_READ = 3.0

#: At most this many actions in one group commit.
GROUP_COMMIT_MAX = 500

BOT_NAMES = ("R2-D2", "C-3PO", "BB-8", "K-2SO", "L3-37", "IG-88", "4-LOM", "HK-47")


class TableManager:
    """All the tables of one server process, backed by a :class:`~sabacc.services.store.Store`."""

    def __init__(self, store: Store, settings: Settings | None = None) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.pool = ThreadPoolExecutor(
            max_workers=storage_workers(self.settings, store.url),
            thread_name_prefix="sabacc-store",
        )
        self.tables: dict[str, Table] = {}
        self.clock = TurnClock(self, self.settings)
        #: This server's name in the table leases (``settings.cluster``).
        self.node = self.settings.node or f"{socket.gethostname()}-{os.getpid()}"
        #: False from a failed write until the database answers again (see :meth:`persist`).
        self.storage_ok = True
        self._watch: asyncio.Task[None] | None = None
        self._beats: set[asyncio.Task[None]] = set()
        #: Applied actions waiting for the next group commit (see :meth:`persist_action`).
        self._writes: list[tuple[ActionWrite, asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None
        #: The cluster's lobby and leases as last read (monotonic time, value).
        self._lobby: tuple[float, list[dict[str, Any]]] | None = None
        self._health: tuple[float, dict[str, int]] | None = None

    # ------------------------------------------------------------------ storage
    async def persist(self, write: Callable[[], T]) -> T:
        """Run one store call in the worker pool; on any failure refuse with ``storage_error``
        (status 503).

        Callers change memory only after this returns, so a refusal leaves memory as the store
        has it. While the database is down every write is refused at once.
        """
        if not self.storage_ok:
            raise ServerError("storage_error", STORAGE_DOWN, status=503)
        try:
            return await self.read(write)
        except Exception as exc:
            self._storage_lost(exc)
            raise ServerError("storage_error", STORAGE_DOWN, status=503) from None

    async def persist_action(self, write: ActionWrite) -> None:
        """Store one applied action, in the next group commit: every action applied meanwhile
        (one per table at most: each waits under its table's lock) is stored in one
        transaction, and each caller returns only once that transaction has committed, so
        the action is still durable before anyone sees it. While one commit runs, the next
        batch gathers. A failure refuses every action of the batch, as :meth:`persist` does.
        """
        if not self.storage_ok:
            raise ServerError("storage_error", STORAGE_DOWN, status=503)
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._writes.append((write, done))
        if self._flusher is None:
            self._flusher = asyncio.get_running_loop().create_task(self._flush_writes())
        try:
            await done
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self._storage_lost(exc)
            raise ServerError("storage_error", STORAGE_DOWN, status=503) from None

    async def _flush_writes(self) -> None:
        """Commit the waiting actions, a batch at a time, until none is left. The first
        action of a batch waits ``settings.commit_window`` for others to join it (each
        caller is still told only after the commit)."""
        try:
            if self.settings.commit_window > 0:
                await asyncio.sleep(self.settings.commit_window)
            while self._writes:
                batch, self._writes = (
                    self._writes[:GROUP_COMMIT_MAX],
                    self._writes[GROUP_COMMIT_MAX:],
                )
                writes = [w for w, _ in batch]
                if trace.TRACE is not None:
                    trace.TRACE.batches.append(len(writes))
                try:
                    await self.read(partial(self._record, writes))
                except Exception as exc:
                    for _, done in batch:
                        if not done.done():
                            done.set_exception(exc)
                else:
                    for _, done in batch:
                        if not done.done():
                            done.set_result(None)
        finally:
            self._flusher = None

    async def read(self, call: Callable[[], T]) -> T:
        """Run one store call in the worker pool (off the event loop)."""
        return await asyncio.get_running_loop().run_in_executor(self.pool, call)

    def _record(self, writes: list[ActionWrite]) -> None:
        """``store.record_actions`` (timed when :mod:`~sabacc.apps.server.trace` is on)."""
        if trace.TRACE is None:
            self.store.record_actions(writes)
            return
        t = trace.now()
        self.store.record_actions(writes)
        trace.TRACE.commits.append(trace.now() - t)

    def _storage_lost(self, exc: Exception) -> None:
        if not self.storage_ok:
            return
        self.storage_ok = False
        # The exception's class only: a driver message may quote the connection string.
        log.error(
            "the database failed (%s): changes are refused until it answers", type(exc).__name__
        )
        for table in self.tables.values():
            table.storage_down = True
            self._changed(table)
        loop = self.clock.loop
        if loop is not None and self._watch is None:
            self._watch = loop.create_task(self._wait_for_storage())

    async def _wait_for_storage(self) -> None:
        """Check the database until it answers, then let every table carry on."""
        try:
            while True:
                await asyncio.sleep(self.settings.storage_retry)
                try:
                    await asyncio.to_thread(self.store.ping)
                    # A PostgreSQL restart dropped this server's claim: take it again.
                    await asyncio.to_thread(self.store.claim)
                except StoreBusy as exc:
                    log.error("the database answers, but %s", exc)
                    continue
                except Exception as exc:
                    log.warning("the database is still unreachable (%s)", type(exc).__name__)
                    continue
                break
        finally:
            self._watch = None
        self.storage_ok = True
        log.warning("the database answers again: play resumes")
        for table in list(self.tables.values()):
            table.storage_down = False
            for conn in list(table.conns):
                seat = conn.seat
                if seat is not None:
                    await self._back_at_table(table, seat)
            async with table.lock:
                await self._maybe_start(table)
            self._changed(table)

    async def keep_claim(self) -> None:
        """Renew this server's claim on its database now and then (a PostgreSQL restart drops
        it even when no write fails); losing it to another server stops every change."""
        while True:
            await asyncio.sleep(self.settings.claim_renew)
            if not self.storage_ok:
                continue  # _wait_for_storage takes the claim again
            try:
                await asyncio.to_thread(self.store.claim)
            except Exception as exc:
                if isinstance(exc, StoreBusy):
                    log.error("%s", exc)
                self._storage_lost(exc)

    @staticmethod
    def _usable(table: Table) -> None:
        """Refuse any change at a quarantined table (its stored game does not rebuild)."""
        if table.quarantine is not None:
            raise ServerError("table_unavailable", table.quarantine, status=503)

    async def update_seat(self, table: Table, position: int, **changes: Any) -> SeatRecord:
        """Store a changed copy of a seat, then put it in place (see :meth:`persist`; call it
        holding ``table.lock``)."""
        new = replace(table.seats[position], **changes)
        await self.persist(lambda: self.store.save_seat(table.id, new))
        table.seats[position] = new
        return new

    # ------------------------------------------------------------------ start-up
    def load(self) -> None:
        """Rebuild every stored table; a game in progress is replayed from seed and actions.
        (In a cluster, tables are loaded when they are asked for or their owner died.)"""
        if self.settings.cluster:
            log.info("cluster node %s on %s", self.node, redact_url(self.store.url))
            return
        for rec in self.store.load_tables():
            table = table_from_store(rec)
            self.tables[table.code] = table
        log.info("loaded %d table(s) from %s", len(self.tables), redact_url(self.store.url))

    def resume(self, loop: asyncio.AbstractEventLoop) -> None:
        """Restart timers and bots of the loaded tables (call once the loop runs)."""
        self.clock.loop = loop
        for table in self.tables.values():
            self._changed(table)

    def shutdown(self) -> None:
        for table in self.tables.values():
            self.clock.stop(table)
        if self._watch is not None:
            self._watch.cancel()
        self.clock.close()
        self.pool.shutdown(wait=True)

    # ------------------------------------------------------------------ memory
    def evict_idle(self, now: float | None = None) -> list[str]:
        """Drop the tables idle for ``settings.idle_evict`` seconds from memory (nobody
        connected, no turn timer or move pending); :meth:`get` reloads them from the store.
        Returns the codes dropped."""
        limit = self.settings.idle_evict
        if limit <= 0:
            return []
        idle = idle_codes(self.tables, limit, time.monotonic() if now is None else now)
        for code in idle:
            table = self.tables.pop(code)
            if self.settings.cluster:  # let another server have it
                self.pool.submit(self.store.release_lease, table.id, self.node)
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

    async def expire(self) -> list[str]:
        """Delete the tables nobody has used for ``settings.expire_days`` days (see
        :meth:`~sabacc.services.store.Store.unused_since`), except those in memory that are in
        use (somebody connected, a timer or a move pending, a change within that time) or
        quarantined (their data is kept for the operators). Returns the codes deleted."""
        window = self.settings.expire_days * 86400
        if window <= 0 or not self.storage_ok:
            return []
        before = datetime.now(UTC) - timedelta(seconds=window)
        try:
            candidates = await self.read(partial(self.store.unused_since, before))
        except Exception as exc:
            self._storage_lost(exc)
            return []
        gone: list[str] = []
        for table_id, code in candidates:
            table = self.tables.get(code)
            if table is not None:
                in_use = table.conns or table.timer is not None or table.pending is not None
                recent = time.monotonic() - table.last_active < window
                if in_use or recent or table.quarantine is not None or table.lock.locked():
                    continue
            try:
                await self.persist(partial(self.store.delete_table, table_id))
            except ServerError:
                break
            if table is not None and self.tables.get(code) is table:
                self.clock.stop(table)
                del self.tables[code]
            gone.append(code)
        if gone:
            log.info("expired %d table(s) unused for %g days", len(gone), self.settings.expire_days)
        return gone

    async def run_expiry(self) -> None:
        """Expire abandoned tables now and then, for as long as the server runs."""
        window = self.settings.expire_days * 86400
        if window <= 0:
            return
        while True:
            await asyncio.sleep(max(0.5, min(3600.0, window / 4)))
            try:
                await self.expire()
            except Exception:  # pragma: no cover - logged, tried again next time
                log.exception("expiring abandoned tables failed")

    # ------------------------------------------------------------------ lobby
    async def get(self, code: str) -> Table:
        """The table called ``code``: in memory, or reloaded from the store if it was evicted
        (read and replayed in the worker pool)."""
        norm = normalise_code(code)
        table = self.tables.get(norm)
        if table is None:
            if not norm:
                raise ServerError("no_table", f"there is no table {code!r}", status=404)

            loaded = await self._load(norm)
            if loaded is None:
                raise ServerError("no_table", f"there is no table {code!r}", status=404)
            table = self.tables.setdefault(loaded.code, loaded)  # another call may have won
            self.clock.schedule(table)
        return table

    async def _load(self, code: str) -> Table | None:
        """Read and replay the table ``code`` from the store (None: no such table). In a
        cluster, its lease is taken first: if another live server owns it, that server is
        asked to hand it over and this waits a little (a client routed here, e.g. after the
        table was created elsewhere), then refuses with ``table_elsewhere`` (503)."""
        if not self.storage_ok:
            raise ServerError("storage_error", STORAGE_DOWN, status=503)
        cluster = self.settings.cluster
        ttl = self.settings.lease_ttl

        def load() -> Table | str | None:
            if cluster:
                table_id = self.store.table_id(code)
                if table_id is None:
                    return None
                owner = self.store.take_lease(table_id, self.node, ttl)
                if owner != self.node:
                    return owner
            records = self.store.load_tables(code)
            return table_from_store(records[0]) if records else None

        deadline = time.monotonic() + ttl + 2.0
        while True:
            try:
                got = await self.read(load)
            except Exception as exc:
                self._storage_lost(exc)
                raise ServerError("storage_error", STORAGE_DOWN, status=503) from None
            if not isinstance(got, str):
                return got
            if time.monotonic() > deadline:
                raise ServerError(
                    "table_elsewhere",
                    "this table is being moved between servers: try again in a moment",
                    status=503,
                )
            await asyncio.sleep(0.2)

    # ------------------------------------------------------------------ cluster
    async def run_leases(self) -> None:
        """In a cluster: renew this server's leases every third of ``lease_ttl``; hand over
        the tables another server asked for, drop those whose lease was lost, and adopt the
        tables of servers that stopped renewing (they resume here exactly where they were).

        The renewal runs on a thread of its own, on its own timer: a busy event loop or a
        queue of writes must not let the leases of a live server expire (another server would
        take its tables, and it would drop them: tables bouncing between servers)."""
        loop = asyncio.get_running_loop()
        stop = threading.Event()
        beat = threading.Thread(
            target=self._heartbeat, args=(loop, stop), name="sabacc-leases", daemon=True
        )
        beat.start()
        try:
            await asyncio.Event().wait()  # until cancelled (shutdown)
        finally:
            stop.set()

    def _heartbeat(self, loop: asyncio.AbstractEventLoop, stop: threading.Event) -> None:
        ttl = self.settings.lease_ttl
        while not stop.wait(ttl / 3):
            if not self.storage_ok:
                continue
            known = list(self.tables.values())  # a table loaded meanwhile has a fresh lease
            try:
                held, wanted = self.store.renew_leases(self.node, ttl)
                orphans = self.store.expired_leases()
            except Exception as exc:
                log.warning("could not renew table leases (%s)", type(exc).__name__)
                continue
            with contextlib.suppress(RuntimeError):  # the loop closed: shutting down
                loop.call_soon_threadsafe(self._after_beat, known, held, wanted, orphans)

    def _after_beat(
        self, known: list[Table], held: set[int], wanted: set[int], orphans: list[str]
    ) -> None:
        task = asyncio.get_running_loop().create_task(self._beat(known, held, wanted, orphans))
        self._beats.add(task)
        task.add_done_callback(self._beats.discard)

    async def _beat(
        self, known: list[Table], held: set[int], wanted: set[int], orphans: list[str]
    ) -> None:
        for table in known:
            if self.tables.get(table.code) is not table:
                continue
            if table.id not in held:
                log.error("lost the lease of table %s: dropped here", table.code)
                self._drop(table)
            elif table.id in wanted:
                await self._hand_over(table)
        for code in orphans:
            if code not in self.tables:
                try:
                    await self.get(code)
                    log.warning("took over table %s from a server that stopped", code)
                except ServerError:
                    pass  # someone else took it, or the database is down

    async def _hand_over(self, table: Table) -> None:
        """Give ``table`` up to the server that asked for it (everything is stored already)."""
        async with table.lock:
            if self.tables.get(table.code) is not table:
                return
            self._drop(table)
            try:
                await self.read(partial(self.store.release_lease, table.id, self.node))
            except Exception as exc:  # the lease expires by itself
                log.warning("could not release table %s (%s)", table.code, type(exc).__name__)
        log.info("handed table %s over to another server", table.code)

    def _drop(self, table: Table) -> None:
        """Forget ``table`` here: timers stopped, its sockets closed (clients reconnect, and
        the proxy sends them to the table's owner)."""
        self.clock.stop(table)
        if self.tables.get(table.code) is table:
            del self.tables[table.code]
        for conn in list(table.conns):
            conn.kick()

    async def release_all(self) -> None:
        """Shutting down in a cluster: give every table up at once (no wait for expiry)."""
        for table in list(self.tables.values()):
            try:
                await self.read(partial(self.store.release_lease, table.id, self.node))
            except Exception:
                return

    def listed(self, now: float | None = None) -> list[dict[str, Any]]:
        """The lobby of this process: its listed tables in memory still to be played at, newest
        first. Finished tables leave it, and so do abandoned ones (nobody connected for
        ``settings.abandon_after``); a quarantined table stays, with its problem, so its players
        learn why it cannot be played."""
        now = time.monotonic() if now is None else now
        limit = self.settings.abandon_after
        tables = [
            t
            for t in self.tables.values()
            if t.listed
            and (t.quarantine is not None or t.status != "finished")
            and (t.conns or limit <= 0 or now - t.last_active < limit)
        ]
        tables.sort(key=lambda t: t.created_at, reverse=True)
        return [messages.table_summary(t) for t in tables[:100]]

    async def lobby(self) -> list[dict[str, Any]]:
        """The lobby: :meth:`listed`, or in a cluster every server's listed tables, read from
        the shared database (at most once a second), each with ``server``, the server that
        holds it now (None: nobody; any server loads it when it is opened). If the database
        cannot be read, this server's own tables."""
        if not self.settings.cluster:
            return self.listed()
        now = time.monotonic()
        cached = self._lobby
        if cached is not None and now - cached[0] < LOBBY_CACHE:
            return cached[1]
        try:
            rows = await asyncio.wait_for(self.read(self.store.listed_tables), CLUSTER_READ)
        except Exception as exc:
            log.warning("could not read the cluster's lobby (%s)", type(exc).__name__)
            return [dict(t, server=self.node) for t in self.listed()]
        out = []
        for row in rows:
            here = self.tables.get(row["code"])
            if row["status"] == "finished" and (here is None or here.quarantine is None):
                continue  # as in :meth:`listed`: finished tables leave the lobby
            try:
                title = lookup(row["variant"]).title
            except SabaccError:
                title = row["variant"]
            out.append(
                {
                    "code": row["code"],
                    "name": row["name"],
                    "variant": row["variant"],
                    "title": title,
                    "status": row["status"],
                    "problem": here.problem if here is not None else None,
                    "seats": row["seats"],
                    "open_seats": row["open_seats"],
                    "humans": row["humans"],
                    "game_no": row["game_no"],
                    "server": row["owner"],
                }
            )
        self._lobby = (now, out)
        return out

    async def health(self) -> dict[str, Any]:
        """``/healthz``: this process (its tables in memory, its database), and in a cluster
        every server holding tables (from the live leases, at most once a second)."""
        out: dict[str, Any] = {
            "ok": True,
            "tables": len(self.tables),
            "storage": "ok" if self.storage_ok else "down",
        }
        if not self.settings.cluster:
            return out
        out["node"] = self.node
        now = time.monotonic()
        cached = self._health
        if cached is None or now - cached[0] >= LOBBY_CACHE:
            try:
                counts = await asyncio.wait_for(self.read(self.store.lease_counts), CLUSTER_READ)
            except Exception as exc:
                log.warning("could not read the cluster's leases (%s)", type(exc).__name__)
                out["cluster"] = None
                return out
            cached = self._health = (now, counts)
        counts = dict(cached[1])
        counts.setdefault(self.node, 0)
        out["cluster"] = {
            "servers": [{"node": n, "tables": k} for n, k in sorted(counts.items())],
            "tables": sum(counts.values()),
        }
        return out

    async def create(self, req: CreateTable, user: UserRecord | None = None) -> dict[str, Any]:
        """A new table; ``user`` (logged in) sits under their username if they sit, and the
        seat's token is theirs (their account's stats count the games)."""
        if len(self.tables) >= self.settings.max_tables:
            raise ServerError("too_many_tables", "this server has as many tables as it can hold")
        bot_cap = self.settings.max_bot_tables
        bots_only = all(kind != "human" for kind in req.seats)
        if bot_cap > 0 and bots_only and sum(t.bots_only for t in self.tables.values()) >= bot_cap:
            raise ServerError(
                "too_many_bot_tables",
                f"this server holds {bot_cap} tables of bots only already: "
                "seat at least one person, or try again later",
                status=429,
            )
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
                make_bot(bot, 0, info)
            except SabaccError as exc:
                raise ServerError("bad_bot", str(exc)) from None
            seats.append(SeatRecord(position=i, kind="bot", bot=bot, name=BOT_NAMES[i % 8]))
        length = CODE_LENGTH if req.listed else UNLISTED_CODE_LENGTH
        code = new_code(length)
        while code in self.tables or await self.persist(partial(self.store.code_taken, code)):
            code = new_code(length)  # pragma: no cover - rare
        host_token = new_token()
        host_hash = hash_token(host_token)
        seat_no: int | None = None
        sits = req.player_name is not None and bool(clean_name(req.player_name))
        if sits and user is None:
            await self._not_an_account(clean_name(req.player_name or ""))
        if sits or (user is not None and req.player_name is not None):
            first = next((s for s in seats if s.kind == "human"), None)
            if first is not None:
                first.name = (
                    user.username if user is not None else clean_name(req.player_name or "")
                )
                first.token_hash = host_hash
                seat_no = first.position
        name = clean_name(req.name, 60) or f"{info.title} table"

        def make() -> Any:
            made = self.store.create_table(
                code=code,
                name=name,
                variant=info.name,
                options=options,
                turn_timer=float(req.turn_timer),
                listed=req.listed,
                host_hash=host_hash,
                seats=seats,
            )
            if self.settings.cluster:
                self.store.take_lease(made.id, self.node, self.settings.lease_ttl)
            if user is not None and seat_no is not None:
                self.store.link_tokens(user.id, [host_hash])
            return made

        rec = await self.persist(make)
        table = table_from_record(rec)
        self.tables[code] = table
        async with table.lock:
            await self._maybe_start(table)
        self._changed(table)
        return {
            "code": code,
            "url": f"/t/{code}",
            "host_token": host_token,
            "seat": seat_no,
            "token": host_token if seat_no is not None else None,
        }

    async def join(
        self,
        code: str,
        name: str,
        seat: int | None = None,
        host_token: str | None = None,
        user: UserRecord | None = None,
    ) -> dict[str, Any]:
        """Take a seat; ``user`` (logged in) sits under their username, and the seat's token
        becomes their account's."""
        table = await self.get(code)
        async with table.lock:
            return await self._join(table, name, seat, host_token, user)

    async def _join(
        self,
        table: Table,
        name: str,
        seat: int | None,
        host_token: str | None,
        user: UserRecord | None = None,
    ) -> dict[str, Any]:
        self._usable(table)
        display = user.username if user is not None else clean_name(name)
        if user is None and display:
            await self._not_an_account(display)
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
        if user is not None:
            account = user.id
            await self.persist(lambda: self.store.link_tokens(account, [hash_token(token)]))
        await self.update_seat(
            table, chosen.position, name=display, token_hash=hash_token(token), away=False, net=0
        )
        await self._maybe_start(table)
        self._changed(table)
        return {"code": table.code, "seat": chosen.position, "token": token}

    async def _not_an_account(self, name: str) -> None:
        """A guest may not sit under an account's username (nobody passes for someone else)."""
        from sabacc.apps.server.names import check_guest_name
        from sabacc.services.community.accounts import name_key

        await check_guest_name(self, name)  # nor under a look-alike of one, or of a bot's

        key = name_key(name)
        if len(key) <= 20 and await self.read(lambda: self.store.user_by_key(key)) is not None:
            raise ServerError(
                "name_taken",
                f"{name!r} is a player's account name: log in as them, or choose another name",
                status=409,
            )

    def seat_for_token(self, table: Table, token: str) -> int:
        seat = table.seat_of(hash_token(token))
        if seat is None:
            raise ServerError("bad_token", "that token holds no seat at this table", status=403)
        return seat

    async def leave(self, table: Table, seat: int) -> None:
        async with table.lock:
            self._usable(table)
            if table.status == "playing" and table.game is not None and not table.game.is_over:
                # played automatically; the seat is freed when the game ends
                await self.update_seat(table, seat, away=True)
            else:
                await self.update_seat(table, seat, name=None, token_hash=None, away=False, net=0)
        self._changed(table)

    async def start(self, table: Table, conn_host: bool) -> None:
        """The host starts now: empty human seats are removed, the others play."""
        async with table.lock:
            await self._start_now(table, conn_host)
        self._changed(table)

    async def _start_now(self, table: Table, conn_host: bool) -> None:
        self._usable(table)
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
            renumbered = [replace(s, position=i) for i, s in enumerate(taken)]
            await self.persist(lambda: self.store.replace_seats(table.id, renumbered))
            table.seats = renumbered
        await self._start_game(table)

    async def new_game(self, table: Table, seat: int | None, host: bool) -> None:
        async with table.lock:
            await self._new_game(table, seat, host)
        self._changed(table)

    async def _new_game(self, table: Table, seat: int | None, host: bool) -> None:
        self._usable(table)
        if table.status != "finished":
            raise ServerError("game_running", "the game is not over yet")
        if seat is None and not host:
            raise ServerError("not_seated", "only a seated player can start a new game")
        connected = {conn.seat for conn in table.conns}
        for rec in list(table.seats):
            if rec.kind != "human" or not rec.away:
                continue
            if rec.position in connected:  # still at the table: the seat stays theirs
                await self.update_seat(table, rec.position, away=False)
            else:  # they left during the game: free the seat
                await self.update_seat(
                    table, rec.position, name=None, token_hash=None, away=False, net=0
                )
        table.missed.clear()
        await self.persist(lambda: self.store.set_status(table.id, "waiting"))
        table.status = "waiting"
        await self._maybe_start(table)

    # ------------------------------------------------------------------ connections
    def connect(self, table: Table, client: str = "?") -> Connection:
        """A new WebSocket client of ``table`` (it joins the table when it says hello)."""
        return Connection(self.settings, table, client)

    async def hello(self, conn: Connection, token: str | None) -> None:
        """Who ``conn`` is: a seat, the host, or a spectator (at most ``max_spectators``).

        A spectator coming or going changes only the spectator count, so the others are told
        together a moment later (``announce_delay``): 300 people opening a table cost each
        connection a few state messages, not 300.
        """
        table = conn.table
        token_hash = hash_token(token) if token else None
        seat = table.seat_of(token_hash)
        watching = seat is None and not same_hash(token_hash, table.host_hash)
        cap = self.settings.max_spectators
        full = cap > 0 and sum(1 for c in table.conns if c.watching) >= cap
        if watching and conn not in table.conns and full:
            raise ServerError(
                "too_many_spectators",
                f"{cap} people are watching this table already: try again later",
                status=429,
            )
        conn.token_hash = token_hash
        conn.ready = True
        conn.game_no = -1
        conn.base = None  # a whole state follows every hello
        table.conns.add(conn)
        if token and watching:
            conn.error("bad_token", "that token holds no seat at this table: you are watching")
        if seat is not None:
            await self._back_at_table(table, seat)
        conn.push(messages.welcome(table, seat, conn.host, conn.deltas))
        for entry in table.chat:
            conn.push(entry)
        if watching:
            table.touch()
            conn.mark_dirty()
            self._announce_soon(table)
        else:
            self._changed(table)

    def _announce_soon(self, table: Table) -> None:
        """Tell every connection of ``table`` about a spectator change, once, shortly."""
        loop = self.clock.loop
        if loop is None:
            self._changed(table)
        elif table.announce is None:
            table.announce = loop.call_later(self.settings.announce_delay, self._announce, table)

    @staticmethod
    def _announce(table: Table) -> None:
        table.announce = None
        table.touch()
        for conn in table.conns:
            conn.mark_dirty()

    async def _back_at_table(self, table: Table, seat: int) -> None:
        """A player who was away is connected again: their seat is theirs to play again
        (if the database is down, it stays away until the database is back)."""
        if not table.seats[seat].away:
            return
        async with table.lock:
            if table.seats[seat].away and table.status == "playing" and table.quarantine is None:
                try:
                    await self.update_seat(table, seat, away=False)
                except ServerError:
                    return
                table.missed.pop(seat, None)

    async def back(self, table: Table, seat: int | None) -> None:
        """The player of ``seat`` says they are at the screen: no longer away."""
        if seat is None:
            raise ServerError("not_seated", "you are not seated at this table")
        async with table.lock:
            self._usable(table)
            if table.seats[seat].away:
                await self.update_seat(table, seat, away=False)
            table.missed.pop(seat, None)
        self._changed(table)

    def chat(self, conn: Connection, text: str) -> None:
        """A chat line from ``conn``, to everyone at the table (spectators included)."""
        table = conn.table
        line = clean_name(text, MAX_CHAT)
        if not line:
            raise ServerError("bad_chat", "say something")
        if not conn.chat_bucket.allow():
            raise ServerError("chat_rate", "you are chatting too fast: wait a moment")
        seat = conn.seat
        name = table.seats[seat].name if seat is not None else None
        table.chat_no += 1
        entry = {"type": "chat", "id": table.chat_no, "seat": seat, "name": name, "text": line}
        table.chat.append(entry)
        for other in table.conns:
            other.push(entry)

    def disconnect(self, conn: Connection) -> None:
        conn.closed = True
        conn.wake.set()
        table = conn.table
        if conn in table.conns:
            table.conns.discard(conn)
            if conn.watching:
                table.touch()
                self._announce_soon(table)
            else:
                self._changed(table)

    # ------------------------------------------------------------------ play
    async def act(
        self,
        table: Table,
        seat: int | None,
        text: str | Action,
        *,
        auto: bool = False,
        version: int | None = None,
        key: tuple[int, int] | None = None,
        away: bool = False,
        marks: dict[str, float] | None = None,
    ) -> None:
        """Apply ``seat``'s action: validated, stored, then announced. Refusals change nothing.

        ``version`` (a client's) or ``key`` (a timer's or a bot's decision, ``(game number,
        version)``) must still be the table's, checked under the table's lock: else ``stale``.
        ``away`` also marks the seat away first (a player who let the timer play too often).
        ``marks`` (only when :mod:`~sabacc.apps.server.trace` is on) is given the times its
        steps ended.
        """
        async with table.lock:
            if marks is not None:
                marks["locked"] = trace.now()
            try:
                await self._act(table, seat, text, auto, version, key, away, marks)
            finally:
                table.saving = False
        self._changed(table)

    async def _act(
        self,
        table: Table,
        seat: int | None,
        text: str | Action,
        auto: bool,
        version: int | None,
        key: tuple[int, int] | None,
        away: bool,
        marks: dict[str, float] | None = None,
    ) -> None:
        stale = ServerError("stale", "the table moved on before your action arrived: look again")
        if version is not None and version != table.version:
            raise stale
        if key is not None and key != (table.games_played, table.version):
            raise stale
        game = table.game
        if game is None or table.status != "playing" or game.is_over:
            raise ServerError("no_game", "no game is being played at this table")
        if seat is None:
            raise ServerError("not_seated", "you are watching this table, not seated at it")
        actor = game.current_player
        if actor != seat:
            who = game.names[actor] if actor is not None else "nobody"
            raise ServerError("not_your_turn", f"it is not your turn: {who} is to act")
        if not self.storage_ok:
            raise ServerError("storage_error", STORAGE_DOWN, status=503)
        if away and not table.seats[seat].away:
            await self.update_seat(table, seat, away=True)
        hand = game.hand_no
        first_event = len(game.events)
        # Applied, stored, and only then announced: while the store call runs the table is
        # ``saving`` (no connection is sent its state), so nobody sees the action before it is
        # durable; if it cannot be stored it is undone first.
        table.saving = True
        try:
            game.apply(text, seat=seat)
        except IllegalActionError as exc:
            raise ServerError("illegal_action", str(exc)) from None
        if marks is not None:
            marks["applied"] = trace.now()
        idx = len(game.actions) - 1
        result: dict[str, Any] | None = None
        nets: dict[int, int] | None = None
        if game.is_over:
            outcome = game.outcome
            result = outcome.to_dict() if outcome else {}
            nets = {s: table.seats[s].net + pay for s, pay in enumerate(game.payoffs)}
        game_rec = table.game_rec
        assert game_rec is not None
        record = ActionRecord(idx, seat, game.actions[-1][1], hand, auto)
        write = ActionWrite(
            table.id, game_rec.id, record, list(game.stacks), game.hand_no, result, nets
        )
        try:
            await self.persist_action(write)
        except ServerError:
            table.game = undo_last(game)
            raise
        if marks is not None:
            marks["committed"] = trace.now()
        for s, net in (nets or {}).items():
            table.seats[s].net = net
        if auto:
            table.auto_events.add(first_event)  # its Acted event: shown as a timer move
        else:
            table.missed.pop(seat, None)
            if table.seats[seat].away:  # they played themselves: not away any more
                # the action is stored; if the flag cannot be, it clears with their next one
                with contextlib.suppress(ServerError):
                    await self.update_seat(table, seat, away=False)
        for i in range(len(game.events) - 1, table.hand_event_start, -1):
            if isinstance(game.events[i], HandStarted):
                table.hand_event_start = i
                break
        if game.is_over:
            table.status = "finished"
            await self._record_results(table, game_rec)

    async def _record_results(self, table: Table, rec: GameRecord) -> None:
        """The finished game's place in its players' stats and ratings (what cannot be
        stored now is logged: the game itself is stored already)."""
        game = table.game
        if game is None or not game.is_over:
            return
        tokens, bots, variant = list(rec.seat_tokens), list(rec.bots), table.variant
        try:
            summaries = summarise(game)
            linked, pairs = origins_of(self).linked(table.code), self.settings.rating_pair_games
            await self.read(
                lambda: self.store.record_results(
                    rec.id, variant, tokens, bots, summaries, linked=linked, pair_limit=pairs
                )
            )
        except Exception:
            # Not a reason to stop the server's writes (as a lost database is): the game is
            # stored; only its place in the stats is missing, and the log says so.
            log.exception("table %s: the game's stats could not be stored", table.code)

    # ------------------------------------------------------------------ the community layer
    def forget_names(self, hashes: set[str], name: str) -> None:
        """A deleted account's seats at the tables in memory show ``name`` from now on (the
        store has renamed them already)."""
        for table in self.tables.values():
            changed = False
            for seat in table.seats:
                if seat.token_hash in hashes:
                    seat.name = name
                    changed = True
            if changed:
                self._changed(table)

    def tables_of_users(self, users: set[int]) -> dict[int, dict[str, Any]]:
        """Where each of ``users`` is connected now: a listed table's code, name and link, or
        only ``{"private": True}`` (an unlisted table's code is its secret)."""
        out: dict[int, dict[str, Any]] = {}
        for table in self.tables.values():
            for conn in table.conns:
                if conn.user_id in users and not conn.closed:
                    if table.listed:
                        out[conn.user_id] = {
                            "code": table.code, "name": table.name, "url": f"/t/{table.code}",
                        }  # fmt: skip
                    else:
                        out.setdefault(conn.user_id, {"private": True})
        return out

    # ------------------------------------------------------------------ game lifecycle
    async def _maybe_start(self, table: Table) -> None:
        """Start the game once every human seat is taken (retried when the database is back,
        if it could not be stored). Call it holding ``table.lock``."""
        if table.status == "waiting" and table.human_seats_filled() and not table.quarantine:
            try:
                await self._start_game(table)
            except ServerError as exc:
                log.warning("table %s could not start its game: %s", table.code, exc.code)

    async def _start_game(self, table: Table) -> None:
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
        rec = await self.persist(
            lambda: self.store.start_game(
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
        )
        table.game = game
        table.game_rec = rec
        table.bots = make_bots(rec)
        table.games_played = number
        table.status = "playing"
        table.missed.clear()
        table.auto_events = set()
        table.hand_event_start = last_hand_start(game)

    # ------------------------------------------------------------------ after every change
    def _changed(self, table: Table) -> None:
        table.touch()
        for conn in table.conns:
            conn.mark_dirty()
        self.clock.schedule(table)


def storage_workers(settings: Settings, url: str) -> int:
    """How many threads talk to the database: ``settings.storage_workers``, or by default 1 for
    SQLite (one writer at a time anyway) and 4 for PostgreSQL."""
    if settings.storage_workers > 0:
        return settings.storage_workers
    return 1 if url.startswith("sqlite") else 4
