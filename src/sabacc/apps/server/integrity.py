"""Rating integrity (issue 31 S5): who took each seat from where, so that accounts the server
can link do not move each other's ratings.

When a seat is taken over HTTP (a table created with its first seat, a seat joined) the
server notes the request's *origin*: the client's address (:func:`~sabacc.apps.server.limits.
client_key`, an IPv6 /64) unless it is in ``Settings.shared_addresses`` (a NAT many people
share), and the browser's device, the hash of its ``sabacc_csrf`` cookie (set once per browser
and kept across log-ins). Two seats with an origin in common are *linked*; a finished game
where two different accounts hold linked seats is not rated (its stats still count), see
:meth:`~sabacc.services.store.community.CommunityStore.record_results`, which also refuses a
rating to a pair of accounts who had ``Settings.rating_pair_games`` rated games together in the
last day. The origins live in this server's memory (at most :data:`MAX_TABLES` tables, the
oldest forgotten first): a game that finishes after a restart is judged by the pair rule only.
"""

from __future__ import annotations

import hashlib
import ipaddress
import weakref
from collections import OrderedDict
from itertools import combinations
from typing import TYPE_CHECKING

from fastapi import Request

from sabacc.apps.server.limits import client_key

if TYPE_CHECKING:
    from sabacc.apps.server.manager import TableManager

#: The tables whose seats' origins are kept.
MAX_TABLES = 50_000
#: A seat's origins kept (one seat taken again and again, by the host and others).
MAX_PER_SEAT = 8
DEVICE_COOKIE = "sabacc_csrf"


class SeatOrigins:
    """The origins of the seats of one server's tables."""

    def __init__(self, shared: tuple[str, ...] = ()) -> None:
        self.shared = [ipaddress.ip_network(n, strict=False) for n in shared]
        self.tables: OrderedDict[str, dict[int, set[str]]] = OrderedDict()

    def origins(self, request: Request) -> set[str]:
        """The request's address (unless shared) and device, as opaque strings."""
        out: set[str] = set()
        host = request.client.host if request.client else None
        if host:
            try:
                shared = any(ipaddress.ip_address(host) in net for net in self.shared)
            except ValueError:
                shared = False
            if not shared:
                out.add("a:" + client_key(host))
        device = request.cookies.get(DEVICE_COOKIE, "")
        if device:
            out.add("d:" + hashlib.sha256(device.encode()).hexdigest()[:32])
        return out

    def seat_taken(self, code: str, seat: int, request: Request) -> None:
        seats = self.tables.pop(code, {})
        self.tables[code] = seats  # the most recently used last
        kept = seats.setdefault(seat, set())
        if len(kept) < MAX_PER_SEAT:
            kept.update(self.origins(request))
        while len(self.tables) > MAX_TABLES:
            self.tables.popitem(last=False)

    def linked(self, code: str) -> list[tuple[int, int]]:
        """The pairs of seats of the table ``code`` taken from one address or device."""
        seats = self.tables.get(code, {})
        return [(a, b) for a, b in combinations(sorted(seats), 2) if seats[a] & seats[b]]


_ORIGINS: weakref.WeakKeyDictionary[TableManager, SeatOrigins] = weakref.WeakKeyDictionary()


def origins_of(manager: TableManager) -> SeatOrigins:
    found = _ORIGINS.get(manager)
    if found is None:
        found = _ORIGINS[manager] = SeatOrigins(manager.settings.shared_addresses)
    return found


def seat_taken(manager: TableManager, answer: dict[str, object], request: Request) -> None:
    """Note the origin of a seat just taken (``answer``: the create or join reply)."""
    code, seat = answer.get("code"), answer.get("seat")
    if isinstance(code, str) and isinstance(seat, int):
        origins_of(manager).seat_taken(code, seat, request)
