"""Several servers on one PostgreSQL database (``--cluster``): each table is owned by one
server at a time, through a lease it renews on a thread of its own. A server hands a table
over when another asks for it, drops those whose lease it lost, and adopts the tables of
servers that stopped renewing (they resume there exactly where they were).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from functools import partial
from typing import TYPE_CHECKING, Any

from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.table import Table

if TYPE_CHECKING:
    from sabacc.apps.server.manager import TableManager

log = logging.getLogger("sabacc.apps.server")

#: Seconds the cluster's lobby and lease counts are reused before being read again, and the
#: longest a read of them may take.
LOBBY_CACHE = 1.0
CLUSTER_READ = 3.0


class Cluster:
    """The leases of one :class:`~sabacc.apps.server.manager.TableManager` (its ``node``)."""

    def __init__(self, manager: TableManager) -> None:
        self.m = manager
        self.store = manager.store
        self.settings = manager.settings
        self._beats: set[asyncio.Task[None]] = set()
        #: The leases' counts per server as last read (monotonic time, value).
        self._health: tuple[float, dict[str, int]] | None = None

    async def run_leases(self) -> None:
        """Renew this server's leases every third of ``lease_ttl``; hand over the tables
        another server asked for, drop those whose lease was lost, and adopt the tables of
        servers that stopped renewing.

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
            if not self.m.storage_ok:
                continue
            known = list(self.m.tables.values())  # a table loaded meanwhile has a fresh lease
            try:
                held, wanted = self.store.renew_leases(self.m.node, ttl)
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
        tables = self.m.tables
        for table in known:
            if tables.get(table.code) is not table:
                continue
            if table.id not in held:
                log.error("lost the lease of table %s: dropped here", table.code)
                self.drop(table)
            elif table.id in wanted:
                await self._hand_over(table)
        for code in orphans:
            if code not in tables:
                try:
                    await self.m.get(code)
                    log.warning("took over table %s from a server that stopped", code)
                except ServerError:
                    pass  # someone else took it, or the database is down

    async def _hand_over(self, table: Table) -> None:
        """Give ``table`` up to the server that asked for it (everything is stored already)."""
        async with table.lock:
            if self.m.tables.get(table.code) is not table:
                return
            self.drop(table)
            try:
                await self.m.read(partial(self.store.release_lease, table.id, self.m.node))
            except Exception as exc:  # the lease expires by itself
                log.warning("could not release table %s (%s)", table.code, type(exc).__name__)
        log.info("handed table %s over to another server", table.code)

    def drop(self, table: Table) -> None:
        """Forget ``table`` here: timers stopped, its sockets closed (clients reconnect, and
        the proxy sends them to the table's owner)."""
        self.m.clock.stop(table)
        if self.m.tables.get(table.code) is table:
            del self.m.tables[table.code]
        for conn in list(table.conns):
            conn.kick()

    async def release_all(self) -> None:
        """Shutting down in a cluster: give every table up at once (no wait for expiry)."""
        for table in list(self.m.tables.values()):
            try:
                await self.m.read(partial(self.store.release_lease, table.id, self.m.node))
            except Exception:
                return

    async def health(self) -> dict[str, Any]:
        """``/healthz``: this process (its tables in memory, its database), and in a cluster
        every server holding tables (from the live leases, at most once a second)."""
        out: dict[str, Any] = {
            "ok": True,
            "tables": len(self.m.tables),
            "storage": "ok" if self.m.storage_ok else "down",
        }
        if not self.settings.cluster:
            return out
        node = self.m.node
        out["node"] = node
        now = time.monotonic()
        cached = self._health
        if cached is None or now - cached[0] >= LOBBY_CACHE:
            try:
                counts = await asyncio.wait_for(self.m.read(self.store.lease_counts), CLUSTER_READ)
            except Exception as exc:
                log.warning("could not read the cluster's leases (%s)", type(exc).__name__)
                out["cluster"] = None
                return out
            cached = self._health = (now, counts)
        counts = dict(cached[1])
        counts.setdefault(node, 0)
        out["cluster"] = {
            "servers": [{"node": n, "tables": k} for n, k in sorted(counts.items())],
            "tables": sum(counts.values()),
        }
        return out
