"""The per-client quota of tables made (``Settings.tables_per_hour``), charged by every path
that can make a table: ``POST /api/tables`` and ``POST /api/match`` (a quick match with no wait
makes a bot table at once, one that waits makes it later), so no route makes tables past it.

The :class:`~sabacc.apps.server.limits.ClientLimits` of the app are its Site's ``limits``.
"""

from __future__ import annotations

from fastapi import Request

from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.limits import client_key
from sabacc.apps.server.site import site_of


async def charge_table(request: Request) -> None:
    """Count one table made by the request's client, or refuse (429) past its quota (the
    site's count under ``--cluster``: every process's tables, see :mod:`.shared_state`)."""
    site = site_of(request)
    limits = site.limits
    client = client_key(request.client.host if request.client else None)
    if not await site.shared.table_made(client):
        raise ServerError(
            "too_many_tables_created",
            f"one client may create {limits.settings.tables_per_hour} tables an hour "
            "(quick matches included): try again later",
            status=429,
        )
