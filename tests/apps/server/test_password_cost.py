"""What password hashing may cost the server (issue 31, S4): sign-ups and log-ins are
throttled per address and site-wide, and hashes run in a bounded pool that refuses, rather than
queues, what it cannot take."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.passwords import HashPool, PasswordGate
from sabacc.apps.server.settings import Settings
from sabacc.services.community.accounts import hash_password
from tests.apps.server.helpers import UNLIMITED, ServerProcess

PASSWORD = "correct horse battery"


class Browser:
    """One browser (cookies kept), optionally behind the trusted proxy as ``address``."""

    def __init__(self, server: ServerProcess, address: str | None = None) -> None:
        headers = {"X-Forwarded-For": address} if address else {}
        self.http = httpx.Client(base_url=server.base, timeout=30, headers=headers)
        self.csrf = self.http.get("/api/me").json()["csrf"]

    def post(self, path: str, body: dict[str, str]) -> int:
        r = self.http.post(path, json=body, headers={"X-CSRF-Token": self.csrf})
        return r.status_code


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """Default password limits (10 sign-ups an hour, 20 log-ins a minute per address); the
    API rate lifted so that only they count."""
    srv = ServerProcess(tmp_path / "p.db", extra=list(UNLIMITED)).start()
    yield srv
    srv.stop()


def test_signups_from_one_address_are_throttled(server: ServerProcess) -> None:
    b = Browser(server)
    got = Counter(b.post("/api/account/signup", {"username": f"flood{i}", "password": PASSWORD})
                  for i in range(15))  # fmt: skip
    assert got == {201: 10, 429: 5}


def test_log_ins_from_one_address_are_throttled_good_ones_too(server: ServerProcess) -> None:
    b = Browser(server)
    assert b.post("/api/account/signup", {"username": "lando", "password": PASSWORD}) == 201
    t0 = time.monotonic()
    body = {"username": "lando", "password": PASSWORD}
    got = Counter(b.post("/api/account/login", body) for _ in range(25))
    # 20 at once, then one every 3 s (20 a minute) while the attempts went on
    refilled = int((time.monotonic() - t0) / 3.0)
    assert set(got) == {200, 429}
    assert 20 <= got[200] <= 20 + refilled, (got, refilled)


def test_the_site_wide_hashing_rate_holds_over_many_addresses(tmp_path: Path) -> None:
    extra = [*UNLIMITED, "--trusted-proxy", "127.0.0.1", "--auth-rate", "0.001"]
    srv = ServerProcess(tmp_path / "s.db", extra=[*extra, "--auth-burst", "6"]).start()
    try:
        got = Counter(
            Browser(srv, f"198.51.100.{i}").post(
                "/api/account/signup", {"username": f"many{i}", "password": PASSWORD}
            )
            for i in range(12)
        )
        assert got == {201: 6, 503: 6}
    finally:
        srv.stop()


def test_the_hash_pool_runs_at_most_its_workers_and_refuses_past_its_queue() -> None:
    pool = HashPool(workers=2, queue=3)

    async def flood() -> list[str | BaseException]:
        calls = [pool.run(hash_password, PASSWORD) for _ in range(12)]
        return await asyncio.gather(*calls, return_exceptions=True)

    try:
        out = asyncio.run(flood())
    finally:
        pool.close()
    refused = [r for r in out if isinstance(r, ServerError)]
    assert len(refused) == 12 - (2 + 3)
    assert all(r.status == 503 and r.code == "auth_busy" for r in refused)
    assert sum(isinstance(r, str) and r.startswith("$argon2") for r in out) == 5
    assert pool.peak == 2  # the workers were all busy, and never more than them
    assert pool.refused == 7 and pool.admitted == 0


def test_the_gate_counts_per_address_and_forgets_nobody_early() -> None:
    gate = PasswordGate(Settings(signups_per_hour=2, auth_rate=0))
    try:
        gate.signup("a")
        gate.signup("a")
        with pytest.raises(ServerError) as refused:
            gate.signup("a")
        assert refused.value.status == 429
        gate.signup("b")  # another address has its own budget
        t0 = time.monotonic()
        assert gate.signups["a"].tokens < 1 and time.monotonic() - t0 < 1
    finally:
        gate.pool.close()
