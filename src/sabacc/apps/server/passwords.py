"""What password hashing may cost the server (issue 31, S4).

Every sign-up, log-in, password change and account deletion runs argon2 (about 0.1 s of CPU
and 64 MiB of memory per hash with argon2-cffi's defaults). Left to the API rate alone, one
client flooding sign-ups took the server from 97 to 500 MB and another table's median action
from 4 to 86 ms. :class:`PasswordGate` bounds that cost three ways:

* **per address**: sign-ups per hour and log-in attempts per minute (token buckets, the
  address as :mod:`sabacc.apps.server.limits` keys it); past them, 429;
* **site-wide**: hashing requests per second over all clients (a token bucket); past it, 503,
  so a flood from many addresses cannot take the CPU from the tables either;
* **a bounded pool**: hashes run in ``hash_workers`` threads of their own, with at most
  ``hash_queue`` more waiting; a request beyond that is refused at once with 503 instead of
  queueing without end (memory stays at about ``hash_workers`` x 64 MiB).

Numbers: :class:`~sabacc.apps.server.settings.Settings`; 0 lifts a limit.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.limits import TokenBucket
from sabacc.apps.server.settings import Settings

T = TypeVar("T")

#: Buckets kept before quiet ones (full again) are forgotten.
SWEEP_AT = 10_000


def busy() -> ServerError:
    return ServerError(
        "auth_busy",
        "the server is busy with sign-ups and log-ins: try again in a few seconds",
        status=503,
    )


class HashPool:
    """``workers`` threads that hash, and at most ``queue`` calls waiting for one (0: any).

    :meth:`run` refuses a call beyond the bound with :func:`busy` before it costs anything.
    ``peak`` is the most hashes that ever ran at once (never more than ``workers``)."""

    def __init__(self, workers: int, queue: int) -> None:
        self.workers = max(1, workers)
        self.queue = queue
        self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="sabacc-hash")
        self.admitted = 0  # running or waiting
        self.refused = 0
        self.running = 0
        self.peak = 0
        self._lock = threading.Lock()

    def _counted(self, fn: Callable[..., T], *args: object) -> T:
        with self._lock:
            self.running += 1
            self.peak = max(self.peak, self.running)
        try:
            return fn(*args)
        finally:
            with self._lock:
                self.running -= 1

    async def run(self, fn: Callable[..., T], *args: object) -> T:
        if self.queue > 0 and self.admitted >= self.workers + self.queue:
            self.refused += 1
            raise busy()
        self.admitted += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._pool, self._counted, fn, *args)
        finally:
            self.admitted -= 1

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


class PasswordGate:
    """The per-address and site-wide throttles of sign-up and log-in, and the hashing pool."""

    def __init__(self, settings: Settings) -> None:
        s = settings
        self.settings = s
        self.pool = HashPool(s.hash_workers, s.hash_queue)
        self.site = TokenBucket(s.auth_rate, s.auth_burst) if s.auth_rate > 0 else None
        self.signups: dict[str, TokenBucket] = {}
        self.logins: dict[str, TokenBucket] = {}

    def _per_address(
        self, buckets: dict[str, TokenBucket], client: str, rate: float, burst: int
    ) -> bool:
        if burst <= 0:
            return True
        bucket = buckets.get(client)
        if bucket is None:
            if len(buckets) >= SWEEP_AT:
                now = time.monotonic()
                for key in [k for k, b in buckets.items() if b.full(now)]:
                    del buckets[key]
            bucket = buckets[client] = TokenBucket(rate, burst)
        return bucket.allow()

    def _site(self) -> None:
        if self.site is not None and not self.site.allow():
            raise busy()

    def signup(self, client: str) -> None:
        """A sign-up from ``client``: refused with 429 past its sign-ups per hour, 503 past
        the site's hashing rate."""
        n = self.settings.signups_per_hour
        if not self._per_address(self.signups, client, n / 3600.0, n):
            raise ServerError(
                "too_many_signups",
                "too many accounts made from this address: try again later",
                status=429,
            )
        self._site()

    def login(self, client: str) -> None:
        """A log-in attempt from ``client`` (good or bad): 429 past its attempts per minute,
        503 past the site's hashing rate."""
        n = self.settings.logins_per_minute
        if not self._per_address(self.logins, client, n / 60.0, n):
            raise ServerError(
                "too_many_attempts",
                "too many log-ins from this address: wait a minute and try again",
                status=429,
            )
        self._site()

    def other(self) -> None:
        """A hash for a logged-in account (a password change, a deletion): the site's rate."""
        self._site()

    async def run(self, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` (a hash or a check) in the bounded pool."""
        return await self.pool.run(fn, *args)
