"""Per-client limits: API rate (429), tables created per hour, sockets held, WebSocket messages
over all of a client's sockets, and long codes for unlisted tables.

Every test client comes from 127.0.0.1; the server trusts ``X-Forwarded-For`` from there
(``--trusted-proxy 127.0.0.1``, a reverse proxy on the same host), which lets one test be
several clients.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests.apps.server.helpers import ServerProcess


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    extra = [
        "--http-rate", "0.5", "--http-burst", "6", "--tables-per-hour", "2",
        "--sockets-per-client", "3", "--client-rate", "5", "--client-burst", "10",
        "--rate", "1000", "--burst", "1000", "--trusted-proxy", "127.0.0.1",
    ]  # fmt: skip
    srv = ServerProcess(tmp_path_factory.mktemp("limits") / "limits.db", extra=extra).start()
    yield srv
    srv.stop()


def _as(ip: str) -> dict[str, str]:
    return {"X-Forwarded-For": ip}


def test_api_rate_limit_per_client(strict: ServerProcess) -> None:
    start = time.monotonic()
    replies = [strict.get("/api/tables", headers=_as("10.0.1.1")) for _ in range(12)]
    allowed = sum(r.status_code == 200 for r in replies)
    assert 6 <= allowed <= 6 + 0.5 * (time.monotonic() - start) + 1
    refused = [r for r in replies if r.status_code != 200]
    assert refused and all(r.status_code == 429 for r in refused)
    assert refused[0].json()["error"]["code"] == "rate_limited"
    assert refused[0].headers["retry-after"] == "1"
    assert strict.get("/api/tables", headers=_as("10.0.1.2")).status_code == 200  # another
    assert strict.get("/healthz").status_code == 200  # health checks are never limited
    time.sleep(2.2)  # one token back at 0.5/s
    assert strict.get("/api/tables", headers=_as("10.0.1.1")).status_code == 200


def test_tables_created_per_client(strict: ServerProcess) -> None:
    def create(ip: str) -> httpx.Response:
        return httpx.post(
            f"{strict.base}/api/tables", json={"seats": ["human", "human"]}, headers=_as(ip)
        )

    assert [create("10.0.2.1").status_code for _ in range(2)] == [201, 201]
    third = create("10.0.2.1")
    assert third.status_code == 429
    assert third.json()["error"]["code"] == "too_many_tables_created"
    assert create("10.0.2.2").status_code == 201


async def _open(srv: ServerProcess, code: str, ip: str) -> tuple[ClientConnection, dict[str, Any]]:
    ws = await connect(f"{srv.ws_base}/ws/{code}", additional_headers=_as(ip))
    with contextlib.suppress(ConnectionClosed):  # a refused socket is closed at once
        await ws.send(json.dumps({"type": "hello"}))
    first = json.loads(await asyncio.wait_for(ws.recv(), 5))
    return ws, first


def test_sockets_held_per_client(strict: ServerProcess) -> None:
    code = httpx.post(
        f"{strict.base}/api/tables", json={"seats": ["human", "human"]}, headers=_as("10.0.3.9")
    ).json()["code"]

    async def main() -> None:
        held = []
        for _ in range(3):
            ws, first = await _open(strict, code, "10.0.3.1")
            assert first["type"] == "welcome"
            held.append(ws)
        ws, first = await _open(strict, code, "10.0.3.1")
        assert first["type"] == "error" and first["code"] == "too_many_connections"
        await ws.close()
        other, first = await _open(strict, code, "10.0.3.2")  # another client is let in
        assert first["type"] == "welcome"
        await other.close()
        await held.pop().close()
        await asyncio.sleep(0.2)
        again, first = await _open(strict, code, "10.0.3.1")  # a socket was given back
        assert first["type"] == "welcome"
        for w in [*held, again]:
            await w.close()

    asyncio.run(main())


def test_messages_counted_over_all_sockets_of_a_client(strict: ServerProcess) -> None:
    code = httpx.post(
        f"{strict.base}/api/tables", json={"seats": ["human", "human"]}, headers=_as("10.0.4.9")
    ).json()["code"]

    async def main() -> None:
        a, _ = await _open(strict, code, "10.0.4.1")
        b, _ = await _open(strict, code, "10.0.4.1")
        for i in range(15):
            await a.send(json.dumps({"type": "ping", "id": i}))
            await b.send(json.dumps({"type": "ping", "id": i}))
        replies: list[dict[str, Any]] = []
        for ws in (a, b):
            while True:
                try:
                    replies.append(json.loads(await asyncio.wait_for(ws.recv(), 0.5)))
                except TimeoutError:
                    break
        pongs = [m for m in replies if m["type"] == "pong"]
        limited = [m for m in replies if m["type"] == "error" and m["code"] == "rate_limited"]
        # Each socket alone is far under its own limit (1000/s): the client's total is not.
        assert 8 <= len(pongs) < 30 and limited
        await a.close()
        await b.close()

    asyncio.run(main())


def test_unlisted_tables_get_long_codes(strict: ServerProcess) -> None:
    def create(listed: bool, ip: str) -> str:
        r = httpx.post(
            f"{strict.base}/api/tables",
            json={"seats": ["human", "human"], "listed": listed},
            headers=_as(ip),
        )
        assert r.status_code == 201, r.text
        return str(r.json()["code"])

    listed, unlisted = create(True, "10.0.5.1"), create(False, "10.0.5.2")
    assert len(listed) == 6 and len(unlisted) == 12
    info = strict.get(f"/api/tables/{unlisted.lower()}", headers=_as("10.0.5.3")).json()
    assert info["code"] == unlisted
    lobby = strict.get("/api/tables", headers=_as("10.0.5.3")).json()["tables"]
    assert unlisted not in {t["code"] for t in lobby}
