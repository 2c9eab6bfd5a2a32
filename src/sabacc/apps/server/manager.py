"""The table manager: the lifecycle of every web table (create, seat, start, play, leave,
new game) and the list of tables of one server process.

The server holds the only game state. Every change of a table runs under that table's lock
(validate, apply, store, wake the connections), so two changes of one table never interleave;
the store call itself runs in a bounded pool of worker threads (``storage_workers``), never on
the event loop, so a slow or locked database holds up only the tables waiting for it. Every
change is stored before anyone sees it: a seat or a game is stored and then changed in memory;
an action is applied, stored and only then announced, and undone if it cannot be stored.

:class:`TableManager` is a facade over collaborators, one per reason to change, which share
its state (``tables``, ``storage_ok``, the store and the settings):

* :mod:`~sabacc.apps.server.registry`: the tables in memory (load, reload, evict, expire);
* :mod:`~sabacc.apps.server.seating`: create a table, join, leave, start, new game;
* :mod:`~sabacc.apps.server.play`: actions, and a finished game's results;
* :mod:`~sabacc.apps.server.presence`: connections (hello, back, disconnect), where accounts are;
* :mod:`~sabacc.apps.server.chat`: table chat;
* :mod:`~sabacc.apps.server.persistence`: store calls, group commit, a lost database;
* :mod:`~sabacc.apps.server.cluster`: table leases and the heartbeat (``--cluster``), health;
* :mod:`~sabacc.apps.server.lobby`: the listed tables.

Timers and automatic moves are in :mod:`~sabacc.apps.server.clock`, the messages in
:mod:`~sabacc.apps.server.messages`, the rebuilding from the store in
:mod:`~sabacc.apps.server.recovery`.
"""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sabacc.apps.server import chat
from sabacc.apps.server.clock import TurnClock
from sabacc.apps.server.cluster import Cluster
from sabacc.apps.server.connection import Connection
from sabacc.apps.server.lobby import Lobby
from sabacc.apps.server.persistence import Persistence, storage_workers
from sabacc.apps.server.play import Play
from sabacc.apps.server.presence import Presence
from sabacc.apps.server.protocol import CreateTable
from sabacc.apps.server.registry import TableRegistry
from sabacc.apps.server.seating import BOT_NAMES, Seating
from sabacc.apps.server.settings import Settings
from sabacc.apps.server.table import Table
from sabacc.core.actions import Action
from sabacc.services.store import ActionWrite, SeatRecord, Store, UserRecord

__all__ = ["BOT_NAMES", "TableManager", "storage_workers"]

T = TypeVar("T")


class TableManager:
    """All the tables of one server process, backed by a :class:`~sabacc.services.store.Store`:
    the state its collaborators share, and the calls the routes, the clock and the community
    layer make (each handed to the collaborator that owns it)."""

    def __init__(self, store: Store, settings: Settings | None = None) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.tables: dict[str, Table] = {}
        #: This server's name in the table leases (``settings.cluster``).
        self.node = self.settings.node or f"{socket.gethostname()}-{os.getpid()}"
        #: False from a failed write until the database answers again (see :meth:`persist`).
        self.storage_ok = True
        self.persistence = Persistence(self)
        self.clock = TurnClock(self, self.settings)
        self.registry = TableRegistry(self)
        self.cluster = Cluster(self)
        self.lobby_view = Lobby(self)
        self.seating = Seating(self)
        self.playing = Play(self)
        self.presence = Presence(self)

    @property
    def pool(self) -> ThreadPoolExecutor:
        """The worker threads that talk to the database."""
        return self.persistence.pool

    def changed(self, table: Table) -> None:
        """After every change of ``table``: its connections are sent the new state, and its
        timers and bots look at it again."""
        table.touch()
        for conn in table.conns:
            conn.mark_dirty()
        self.clock.schedule(table)

    def shutdown(self) -> None:
        """Stop every timer, the bots and the database's worker threads."""
        for table in self.tables.values():
            self.clock.stop(table)
        self.clock.close()
        self.persistence.close()

    # ------------------------------------------------------------------ persistence
    async def persist(self, write: Callable[[], T]) -> T:
        """See :meth:`Persistence.persist`."""
        return await self.persistence.persist(write)

    async def persist_action(self, write: ActionWrite) -> None:
        """See :meth:`Persistence.persist_action`."""
        await self.persistence.persist_action(write)

    async def read(self, call: Callable[[], T]) -> T:
        """Run one store call in the worker pool (off the event loop)."""
        return await self.persistence.read(call)

    async def keep_claim(self) -> None:
        """See :meth:`Persistence.keep_claim`."""
        await self.persistence.keep_claim()

    async def update_seat(self, table: Table, position: int, **changes: Any) -> SeatRecord:
        """See :meth:`Seating.update_seat`."""
        return await self.seating.update_seat(table, position, **changes)

    # ------------------------------------------------------------------ tables
    def load(self) -> None:
        """See :meth:`TableRegistry.load`."""
        self.registry.load()

    def resume(self, loop: asyncio.AbstractEventLoop) -> None:
        """See :meth:`TableRegistry.resume`."""
        self.registry.resume(loop)

    async def get(self, code: str) -> Table:
        """See :meth:`TableRegistry.get`."""
        return await self.registry.get(code)

    def evict_idle(self, now: float | None = None) -> list[str]:
        """See :meth:`TableRegistry.evict_idle`."""
        return self.registry.evict_idle(now)

    async def run_evictions(self) -> None:
        """See :meth:`TableRegistry.run_evictions`."""
        await self.registry.run_evictions()

    async def expire(self) -> list[str]:
        """See :meth:`TableRegistry.expire`."""
        return await self.registry.expire()

    async def run_expiry(self) -> None:
        """See :meth:`TableRegistry.run_expiry`."""
        await self.registry.run_expiry()

    # ------------------------------------------------------------------ cluster, lobby
    async def run_leases(self) -> None:
        """See :meth:`Cluster.run_leases`."""
        await self.cluster.run_leases()

    async def release_all(self) -> None:
        """See :meth:`Cluster.release_all`."""
        await self.cluster.release_all()

    async def health(self) -> dict[str, Any]:
        """See :meth:`Cluster.health`."""
        return await self.cluster.health()

    def listed(self, now: float | None = None) -> list[dict[str, Any]]:
        """See :meth:`Lobby.listed`."""
        return self.lobby_view.listed(now)

    async def lobby(self) -> list[dict[str, Any]]:
        """See :meth:`Lobby.lobby`."""
        return await self.lobby_view.lobby()

    # ------------------------------------------------------------------ seating
    async def create(self, req: CreateTable, user: UserRecord | None = None) -> dict[str, Any]:
        """See :meth:`Seating.create`."""
        return await self.seating.create(req, user)

    async def join(
        self,
        code: str,
        name: str,
        seat: int | None = None,
        host_token: str | None = None,
        user: UserRecord | None = None,
    ) -> dict[str, Any]:
        """See :meth:`Seating.join`."""
        return await self.seating.join(code, name, seat, host_token, user)

    def seat_for_token(self, table: Table, token: str) -> int:
        """See :meth:`Seating.seat_for_token`."""
        return self.seating.seat_for_token(table, token)

    async def leave(self, table: Table, seat: int) -> None:
        """See :meth:`Seating.leave`."""
        await self.seating.leave(table, seat)

    async def start(self, table: Table, conn_host: bool) -> None:
        """See :meth:`Seating.start`."""
        await self.seating.start(table, conn_host)

    async def new_game(self, table: Table, seat: int | None, host: bool) -> None:
        """See :meth:`Seating.new_game`."""
        await self.seating.new_game(table, seat, host)

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
        """See :meth:`Play.act`."""
        await self.playing.act(
            table, seat, text, auto=auto, version=version, key=key, away=away, marks=marks
        )

    # ------------------------------------------------------------------ connections
    def connect(self, table: Table, client: str = "?") -> Connection:
        """See :meth:`Presence.connect`."""
        return self.presence.connect(table, client)

    async def hello(self, conn: Connection, token: str | None) -> None:
        """See :meth:`Presence.hello`."""
        await self.presence.hello(conn, token)

    async def back(self, table: Table, seat: int | None) -> None:
        """See :meth:`Presence.back`."""
        await self.presence.back(table, seat)

    def disconnect(self, conn: Connection) -> None:
        """See :meth:`Presence.disconnect`."""
        self.presence.disconnect(conn)

    def chat(self, conn: Connection, text: str) -> None:
        """See :func:`~sabacc.apps.server.chat.chat`."""
        chat.chat(conn, text)

    def forget_names(self, hashes: set[str], name: str) -> None:
        """See :meth:`Presence.forget_names`."""
        self.presence.forget_names(hashes, name)

    def tables_of_users(self, users: set[int]) -> dict[int, dict[str, Any]]:
        """See :meth:`Presence.tables_of_users`."""
        return self.presence.tables_of_users(users)
