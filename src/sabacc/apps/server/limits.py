"""Per-client limits: how fast one client may call the API, open sockets and send messages,
how many tables it may create and how many sockets it may hold.

A client is its address as uvicorn reports it (behind a reverse proxy, the forwarded address
of a trusted proxy), an IPv6 client its /64 network: one host gets many addresses there. Each
limit is a token bucket; a limit of 0 means none. Buckets of clients who went quiet are dropped
by :meth:`ClientLimits.sweep`, so memory stays bounded.
"""

from __future__ import annotations

import ipaddress
import time
from dataclasses import dataclass, field

from sabacc.apps.server.settings import Settings


class TokenBucket:
    """``rate`` events a second with bursts of ``burst``: :meth:`allow` says if one may pass."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def refill(self, now: float) -> None:
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def allow(self) -> bool:
        self.refill(time.monotonic())
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def full(self, now: float) -> bool:
        self.refill(now)
        return self.tokens >= self.burst


def client_key(host: str | None) -> str:
    """Who a request comes from: the IPv4 address, or the IPv6 /64 network."""
    if not host:
        return "?"
    try:
        addr = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if isinstance(addr, ipaddress.IPv6Address):
        if addr.ipv4_mapped is not None:
            return str(addr.ipv4_mapped)
        return str(ipaddress.ip_network(f"{addr}/64", strict=False))
    return str(addr)


@dataclass
class _Client:
    requests: TokenBucket | None
    messages: TokenBucket | None
    creates: TokenBucket | None
    sockets: int = 0
    last: float = field(default_factory=time.monotonic)


class ClientLimits:
    """The limits of every client of one server (see :class:`Settings` for the numbers)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.clients: dict[str, _Client] = {}

    def _client(self, key: str) -> _Client:
        c = self.clients.get(key)
        if c is None:
            s = self.settings
            c = _Client(
                requests=TokenBucket(s.http_rate, s.http_burst) if s.http_rate > 0 else None,
                messages=TokenBucket(s.client_rate, s.client_burst) if s.client_rate > 0 else None,
                creates=(
                    TokenBucket(s.tables_per_hour / 3600.0, s.tables_per_hour)
                    if s.tables_per_hour > 0
                    else None
                ),
            )
            self.clients[key] = c
        c.last = time.monotonic()
        return c

    def request(self, key: str) -> bool:
        """An API call or a socket opened: within the client's request rate?"""
        bucket = self._client(key).requests
        return bucket is None or bucket.allow()

    def message(self, key: str) -> bool:
        """A WebSocket message, counted over all the client's sockets."""
        bucket = self._client(key).messages
        return bucket is None or bucket.allow()

    def create(self, key: str) -> bool:
        """A table created: within the client's tables per hour?"""
        bucket = self._client(key).creates
        return bucket is None or bucket.allow()

    def open_socket(self, key: str) -> bool:
        """Hold one more socket, if the client holds fewer than its quota (then True)."""
        c = self._client(key)
        quota = self.settings.sockets_per_client
        if quota > 0 and c.sockets >= quota:
            return False
        c.sockets += 1
        return True

    def close_socket(self, key: str) -> None:
        c = self.clients.get(key)
        if c is not None and c.sockets > 0:
            c.sockets -= 1

    def sweep(self, now: float | None = None) -> int:
        """Forget clients holding no socket whose buckets are all full again; returns how many."""
        now = time.monotonic() if now is None else now
        quiet = [
            key
            for key, c in self.clients.items()
            if c.sockets == 0
            and all(b is None or b.full(now) for b in (c.requests, c.messages, c.creates))
        ]
        for key in quiet:
            del self.clients[key]
        return len(quiet)
