"""Storing a table's changes: the store calls in their worker pool, the group commit of
applied actions, and what the server does while its database is down.

Every change is stored before anyone sees it (see :mod:`~sabacc.apps.server.manager`). A store
call that takes too long fails by itself (the driver's busy, connect, statement and lock
timeouts, ``storage_timeout``): the server never abandons a write that might still commit
later. When the store fails, the change is refused (``storage_error``), nothing changes, every
table says the database is down, and the database is checked every ``settings.storage_retry``
seconds; when it answers, timers, bots and waiting tables carry on.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TYPE_CHECKING, TypeVar

from sabacc.apps.server import trace
from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.settings import Settings
from sabacc.services.store import ActionWrite, StoreBusy

if TYPE_CHECKING:
    from sabacc.apps.server.manager import TableManager

log = logging.getLogger("sabacc.apps.server")

T = TypeVar("T")

STORAGE_DOWN = (
    "the server cannot save right now (its database is unreachable): nothing was changed; "
    "play resumes by itself when the database is back"
)

#: At most this many actions in one group commit.
GROUP_COMMIT_MAX = 500


def storage_down() -> ServerError:
    """The refusal of any change while the database cannot be written (status 503)."""
    return ServerError("storage_error", STORAGE_DOWN, status=503)


def storage_workers(settings: Settings, url: str) -> int:
    """How many threads talk to the database: ``settings.storage_workers``, or by default 1 for
    SQLite (one writer at a time anyway) and 4 for PostgreSQL."""
    if settings.storage_workers > 0:
        return settings.storage_workers
    return 1 if url.startswith("sqlite") else 4


class Persistence:
    """The store calls of one :class:`~sabacc.apps.server.manager.TableManager`: run in a
    bounded pool of worker threads (never on the event loop), actions in group commits, and
    the watch over a lost database (the manager's ``storage_ok``)."""

    def __init__(self, manager: TableManager) -> None:
        self.m = manager
        self.store = manager.store
        self.settings = manager.settings
        self.pool = ThreadPoolExecutor(
            max_workers=storage_workers(self.settings, self.store.url),
            thread_name_prefix="sabacc-store",
        )
        self._watch: asyncio.Task[None] | None = None
        #: Applied actions waiting for the next group commit (see :meth:`persist_action`).
        self._writes: list[tuple[ActionWrite, asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None

    async def persist(self, write: Callable[[], T]) -> T:
        """Run one store call in the worker pool; on any failure refuse with ``storage_error``
        (status 503).

        Callers change memory only after this returns, so a refusal leaves memory as the store
        has it. While the database is down every write is refused at once.
        """
        if not self.m.storage_ok:
            raise storage_down()
        try:
            return await self.read(write)
        except Exception as exc:
            self.storage_lost(exc)
            raise storage_down() from None

    async def persist_action(self, write: ActionWrite) -> None:
        """Store one applied action, in the next group commit: every action applied meanwhile
        (one per table at most: each waits under its table's lock) is stored in one
        transaction, and each caller returns only once that transaction has committed, so
        the action is still durable before anyone sees it. While one commit runs, the next
        batch gathers. A failure refuses every action of the batch, as :meth:`persist` does.
        """
        if not self.m.storage_ok:
            raise storage_down()
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._writes.append((write, done))
        if self._flusher is None:
            self._flusher = asyncio.get_running_loop().create_task(self._flush_writes())
        try:
            await done
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.storage_lost(exc)
            raise storage_down() from None

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

    def storage_lost(self, exc: Exception) -> None:
        """A store call failed: refuse every change, tell every table, and watch for the
        database to answer again."""
        m = self.m
        if not m.storage_ok:
            return
        m.storage_ok = False
        # The exception's class only: a driver message may quote the connection string.
        log.error(
            "the database failed (%s): changes are refused until it answers", type(exc).__name__
        )
        for table in m.tables.values():
            table.storage_down = True
            m.changed(table)
        loop = m.clock.loop
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
        await self._storage_back()

    async def _storage_back(self) -> None:
        """The database answers again: the players back at their seats, the tables waiting
        for a game started, and everyone told."""
        m = self.m
        m.storage_ok = True
        log.warning("the database answers again: play resumes")
        for table in list(m.tables.values()):
            table.storage_down = False
            for conn in list(table.conns):
                seat = conn.seat
                if seat is not None:
                    await m.presence.back_at_table(table, seat)
            async with table.lock:
                await m.seating.maybe_start(table)
            m.changed(table)

    async def keep_claim(self) -> None:
        """Renew this server's claim on its database now and then (a PostgreSQL restart drops
        it even when no write fails); losing it to another server stops every change."""
        while True:
            await asyncio.sleep(self.settings.claim_renew)
            if not self.m.storage_ok:
                continue  # _wait_for_storage takes the claim again
            try:
                await asyncio.to_thread(self.store.claim)
            except Exception as exc:
                if isinstance(exc, StoreBusy):
                    log.error("%s", exc)
                self.storage_lost(exc)

    def close(self) -> None:
        """Stop watching the database and end the worker threads (their calls finish)."""
        if self._watch is not None:
            self._watch.cancel()
        self.pool.shutdown(wait=True)
