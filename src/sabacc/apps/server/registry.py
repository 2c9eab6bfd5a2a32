"""The tables of one server process: loaded at start-up or when asked for, dropped from memory
when idle, deleted when abandoned for ``expire_days``.

At start-up every table is rebuilt from the store by replaying its game's seed and actions
(see :meth:`TableRegistry.load`); in a cluster a table is loaded when it is asked for, once
this server holds its lease.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING

from sabacc.apps.server.auth import normalise_code
from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.persistence import storage_down
from sabacc.apps.server.recovery import idle_codes, table_from_store
from sabacc.apps.server.table import Table
from sabacc.services.store import redact_url

if TYPE_CHECKING:
    from sabacc.apps.server.manager import TableManager

log = logging.getLogger("sabacc.apps.server")


class TableRegistry:
    """Which tables a :class:`~sabacc.apps.server.manager.TableManager` holds in memory (its
    ``tables``): load, reload, evict and expire."""

    def __init__(self, manager: TableManager) -> None:
        self.m = manager
        self.store = manager.store
        self.settings = manager.settings

    def load(self) -> None:
        """Rebuild every stored table; a game in progress is replayed from seed and actions.
        (In a cluster, tables are loaded when they are asked for or their owner died.)"""
        if self.settings.cluster:
            log.info("cluster node %s on %s", self.m.node, redact_url(self.store.url))
            return
        for rec in self.store.load_tables():
            table = table_from_store(rec)
            self.m.tables[table.code] = table
        log.info("loaded %d table(s) from %s", len(self.m.tables), redact_url(self.store.url))

    def resume(self, loop: asyncio.AbstractEventLoop) -> None:
        """Restart timers and bots of the loaded tables (call once the loop runs)."""
        self.m.clock.loop = loop
        for table in self.m.tables.values():
            self.m.changed(table)

    async def get(self, code: str) -> Table:
        """The table called ``code``: in memory, or reloaded from the store if it was evicted
        (read and replayed in the worker pool)."""
        norm = normalise_code(code)
        table = self.m.tables.get(norm)
        if table is None:
            if not norm:
                raise ServerError("no_table", f"there is no table {code!r}", status=404)
            loaded = await self._load(norm)
            if loaded is None:
                raise ServerError("no_table", f"there is no table {code!r}", status=404)
            table = self.m.tables.setdefault(loaded.code, loaded)  # another call may have won
            self.m.clock.schedule(table)
        return table

    async def _load(self, code: str) -> Table | None:
        """Read and replay the table ``code`` from the store (None: no such table). In a
        cluster, its lease is taken first: if another live server owns it, that server is
        asked to hand it over and this waits a little (a client routed here, e.g. after the
        table was created elsewhere), then refuses with ``table_elsewhere`` (503)."""
        if not self.m.storage_ok:
            raise storage_down()
        deadline = time.monotonic() + self.settings.lease_ttl + 2.0
        while True:
            try:
                got = await self.m.read(partial(self._read_table, code))
            except Exception as exc:
                self.m.persistence.storage_lost(exc)
                raise storage_down() from None
            if not isinstance(got, str):
                return got
            if time.monotonic() > deadline:
                raise ServerError(
                    "table_elsewhere",
                    "this table is being moved between servers: try again in a moment",
                    status=503,
                )
            await asyncio.sleep(0.2)

    def _read_table(self, code: str) -> Table | str | None:
        """In a worker thread: the table ``code`` rebuilt (None: no such table), or in a
        cluster the name of the live server that holds its lease."""
        if self.settings.cluster:
            table_id = self.store.table_id(code)
            if table_id is None:
                return None
            owner = self.store.take_lease(table_id, self.m.node, self.settings.lease_ttl)
            if owner != self.m.node:
                return owner
        records = self.store.load_tables(code)
        return table_from_store(records[0]) if records else None

    def evict_idle(self, now: float | None = None) -> list[str]:
        """Drop the tables idle for ``settings.idle_evict`` seconds from memory (nobody
        connected, no turn timer or move pending); :meth:`get` reloads them from the store.
        Returns the codes dropped."""
        limit = self.settings.idle_evict
        if limit <= 0:
            return []
        tables = self.m.tables
        idle = idle_codes(tables, limit, time.monotonic() if now is None else now)
        for code in idle:
            table = tables.pop(code)
            if self.settings.cluster:  # let another server have it
                self.m.pool.submit(self.store.release_lease, table.id, self.m.node)
        if idle:
            log.info("evicted %d idle table(s); %d in memory", len(idle), len(tables))
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
        if window <= 0 or not self.m.storage_ok:
            return []
        before = datetime.now(UTC) - timedelta(seconds=window)
        try:
            candidates = await self.m.read(partial(self.store.unused_since, before))
        except Exception as exc:
            self.m.persistence.storage_lost(exc)
            return []
        gone: list[str] = []
        for table_id, code in candidates:
            table = self.m.tables.get(code)
            if table is not None and self._kept(table, window):
                continue
            try:
                await self.m.persist(partial(self.store.delete_table, table_id))
            except ServerError:
                break
            if table is not None and self.m.tables.get(code) is table:
                self.m.clock.stop(table)
                del self.m.tables[code]
            gone.append(code)
        if gone:
            log.info("expired %d table(s) unused for %g days", len(gone), self.settings.expire_days)
        return gone

    @staticmethod
    def _kept(table: Table, window: float) -> bool:
        """Whether a table in memory is kept from expiring: in use, used within ``window``
        seconds, quarantined, or being changed."""
        in_use = table.conns or table.timer is not None or table.pending is not None
        recent = time.monotonic() - table.last_active < window
        return bool(in_use or recent or table.quarantine is not None or table.lock.locked())

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
