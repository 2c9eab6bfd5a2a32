"""Forwarded client addresses are believed only from configured proxies (issue 31, S2).

Per-client limits key on the client's address. A reverse proxy names the client in
``X-Forwarded-For`` / ``X-Real-IP``; a client talking to the server directly could name anyone
there, so those headers count only on a connection from a ``--trusted-proxy`` (none by
default, not even loopback)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from sabacc.apps.server.proxies import TrustedProxies, parse_networks
from tests.apps.server.helpers import ServerProcess

#: A tiny API budget: five calls, then (almost) nothing.
TIGHT = ("--http-rate", "0.001", "--http-burst", "5", "--tables-per-hour", "0")


def statuses(server: ServerProcess, headers: list[dict[str, str]]) -> list[int]:
    with httpx.Client(base_url=server.base, timeout=10) as http:
        return [http.get("/api/tables", headers=h).status_code for h in headers]


@pytest.fixture(scope="module")
def direct(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server trusting no proxy (the default)."""
    srv = ServerProcess(tmp_path_factory.mktemp("fwd") / "d.db", extra=list(TIGHT)).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server behind a proxy on loopback (``--trusted-proxy 127.0.0.0/8``)."""
    path = tmp_path_factory.mktemp("fwd") / "p.db"
    srv = ServerProcess(path, extra=[*TIGHT, "--trusted-proxy", "127.0.0.0/8"]).start()
    yield srv
    srv.stop()


def test_a_direct_clients_forged_address_is_ignored(direct: ServerProcess) -> None:
    # Every call claims another address; the server counts them all against the real one.
    forged = [{"X-Forwarded-For" if i % 2 else "X-Real-IP": f"203.0.113.{i}"} for i in range(1, 9)]
    got = statuses(direct, forged)
    assert got[:5] == [200] * 5
    assert got[5:] == [429] * 3, got


def test_a_trusted_proxys_forwarded_address_names_the_client(proxied: ServerProcess) -> None:
    # Eight clients behind the proxy: each has its own budget.
    many = [{"X-Forwarded-For": f"198.51.100.{i}"} for i in range(1, 9)]
    assert statuses(proxied, many) == [200] * 8
    # One client behind the proxy, named by X-Real-IP: its own budget runs out.
    one = [{"X-Real-IP": "198.51.100.200"}] * 7
    assert statuses(proxied, one) == [200] * 5 + [429] * 2
    # A chain: the client named by the proxy is the last address that is not a proxy's, so a
    # client cannot get a fresh budget by putting addresses of its own in front.
    chain = [{"X-Forwarded-For": f"192.0.2.{i}, 198.51.100.77"} for i in range(1, 8)]
    assert statuses(proxied, chain) == [200] * 5 + [429] * 2


def test_no_proxy_is_trusted_by_default() -> None:
    nobody = TrustedProxies()
    assert not nobody
    assert nobody.client("127.0.0.1", "203.0.113.9", "203.0.113.8") == "127.0.0.1"


def test_the_client_is_the_last_address_no_trusted_proxy_added() -> None:
    proxies = TrustedProxies(["10.0.0.0/8", "::1"])
    assert proxies.client("10.1.2.3", "192.0.2.1, 198.51.100.7", None) == "198.51.100.7"
    # Two proxies in a row: the address the outer proxy saw.
    assert proxies.client("10.1.2.3", "192.0.2.1, 198.51.100.7, 10.9.9.9", None) == "198.51.100.7"
    assert proxies.client("::1", None, "2001:db8::5") == "2001:db8::5"
    assert proxies.client("::ffff:10.0.0.1", "[2001:db8::6]:4711", None) == "2001:db8::6"
    # Garbage from a trusted proxy names nobody: the proxy's own address stays.
    assert proxies.client("10.1.2.3", "not-an-address", None) == "10.1.2.3"
    assert proxies.client("10.1.2.3", None, None) == "10.1.2.3"
    # A peer outside the trusted networks is itself the client, whatever it sends.
    assert proxies.client("192.0.2.50", "198.51.100.7", "198.51.100.8") == "192.0.2.50"


def test_a_bad_proxy_entry_is_refused() -> None:
    assert len(parse_networks(["127.0.0.1, 10.0.0.0/8", "*"])) == 4
    with pytest.raises(ValueError, match=r"10\.0\.0\.0/33"):
        parse_networks(["10.0.0.0/33"])
