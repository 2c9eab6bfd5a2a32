"""What the routes of one application share: its settings, the per-client limits, the
community layer, the history frames' cache, the password gate (throttles and the bounded
hashing pool) and, once the app has started, its table manager.
Kept on ``app.state.site``; the routes reach it through their request or WebSocket."""

from __future__ import annotations

from dataclasses import dataclass

from starlette.requests import HTTPConnection

from sabacc.apps.server.community import Community
from sabacc.apps.server.history import FrameCache
from sabacc.apps.server.limits import ClientLimits
from sabacc.apps.server.manager import TableManager
from sabacc.apps.server.passwords import PasswordGate
from sabacc.apps.server.settings import Settings
from sabacc.apps.server.shared_state import SiteState


@dataclass
class Site:
    """The state of one application (see the module's docstring)."""

    settings: Settings
    limits: ClientLimits
    community: Community
    frames: FrameCache
    passwords: PasswordGate
    #: Tickets, presence, invitations and site-wide counters: in memory, or under
    #: ``--cluster`` in PostgreSQL once the app has started (:mod:`.shared_state`).
    shared: SiteState
    manager: TableManager | None = None

    @property
    def tables(self) -> TableManager:
        """The table manager (set when the app starts)."""
        assert self.manager is not None, "the app has not started"
        return self.manager


def site_of(conn: HTTPConnection) -> Site:
    """The :class:`Site` of the app serving ``conn`` (a request or a WebSocket)."""
    found: Site = conn.app.state.site
    return found
