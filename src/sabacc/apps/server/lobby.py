"""The lobby: the listed tables still to be played at, of this process or, in a cluster, of
every server (read from the shared database)."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from sabacc.apps.server import messages
from sabacc.apps.server.cluster import CLUSTER_READ, LOBBY_CACHE
from sabacc.core.errors import SabaccError
from sabacc.variants.registry import lookup

if TYPE_CHECKING:
    from sabacc.apps.server.manager import TableManager

log = logging.getLogger("sabacc.apps.server")


class Lobby:
    """The lobby of one :class:`~sabacc.apps.server.manager.TableManager`."""

    def __init__(self, manager: TableManager) -> None:
        self.m = manager
        self.settings = manager.settings
        #: The cluster's lobby as last read (monotonic time, value).
        self._lobby: tuple[float, list[dict[str, Any]]] | None = None

    def listed(self, now: float | None = None) -> list[dict[str, Any]]:
        """The lobby of this process: its listed tables in memory still to be played at, newest
        first. Finished tables leave it, and so do abandoned ones (nobody connected for
        ``settings.abandon_after``); a quarantined table stays, with its problem, so its players
        learn why it cannot be played."""
        now = time.monotonic() if now is None else now
        limit = self.settings.abandon_after
        tables = [
            t
            for t in self.m.tables.values()
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
            rows = await asyncio.wait_for(self.m.read(self.m.store.listed_tables), CLUSTER_READ)
        except Exception as exc:
            log.warning("could not read the cluster's lobby (%s)", type(exc).__name__)
            return [dict(t, server=self.m.node) for t in self.listed()]
        out = []
        for row in rows:
            here = self.m.tables.get(row["code"])
            if row["status"] == "finished" and (here is None or here.quarantine is None):
                continue  # as in :meth:`listed`: finished tables leave the lobby
            out.append(self._line(row, here.problem if here is not None else None))
        self._lobby = (now, out)
        return out

    @staticmethod
    def _line(row: dict[str, Any], problem: str | None) -> dict[str, Any]:
        """A table's line in the cluster's lobby, from its row in the shared database."""
        try:
            title = lookup(row["variant"]).title
        except SabaccError:
            title = row["variant"]
        return {
            "code": row["code"],
            "name": row["name"],
            "variant": row["variant"],
            "title": title,
            "status": row["status"],
            "problem": problem,
            "seats": row["seats"],
            "open_seats": row["open_seats"],
            "humans": row["humans"],
            "game_no": row["game_no"],
            "server": row["owner"],
        }
