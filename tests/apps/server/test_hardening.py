"""Hostile-client basics: security headers, a cap on request bodies, out-of-range path numbers,
and no secret (seat token, database password) in what the server prints."""

from __future__ import annotations

import asyncio
import random
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.apps.server.helpers import Client, ServerProcess, finished, play


def test_security_headers(server: ServerProcess) -> None:
    for path in ("/", "/t/ABCDEF", "/static/app.js", "/api/tables", "/api/tables/NOPE"):
        r = server.get(path)
        assert r.headers["x-content-type-options"] == "nosniff", path
        assert r.headers["referrer-policy"] == "no-referrer", path
        csp = r.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp, path
        assert "default-src 'self'" in csp and "object-src 'none'" in csp
    csp = server.get("/").headers["content-security-policy"]
    assert f"ws://127.0.0.1:{server.port}" in csp  # the page may open its own socket
    docs = server.get("/api/docs")
    assert docs.status_code == 200 and "content-security-policy" not in docs.headers


def test_request_bodies_are_capped(server: ServerProcess) -> None:
    big = b'{"name": "' + b"x" * 200_000 + b'"}'
    r = httpx.post(
        f"{server.base}/api/tables", content=big, headers={"content-type": "application/json"}
    )
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"

    def chunks() -> Iterator[bytes]:
        yield b'{"name": "'
        for _ in range(100):
            yield b"y" * 10_000
        yield b'"}'

    r = httpx.post(
        f"{server.base}/api/tables", content=chunks(), headers={"content-type": "application/json"}
    )
    assert r.status_code == 413
    small = httpx.post(f"{server.base}/api/tables", json={"seats": ["human", "human"]})
    assert small.status_code == 201  # an ordinary body still passes


def test_huge_path_numbers_are_refused_not_a_crash(server: ServerProcess) -> None:
    code = server.create(seats=["human", "human"])["code"]
    for number in (2**63, 2**63 - 1, 2**64 + 5, 2**31):
        for path in (
            f"/api/tables/{code}/games/{number}/history",
            f"/api/tables/{code}/games/{number}/hands/1",
            f"/api/tables/{code}/games/1/hands/{number}",
        ):
            r = server.get(path)
            assert r.status_code in (404, 422), (path, r.status_code, r.text)
    assert server.get(f"/api/tables/{code}/games/7/history").status_code == 404


def test_no_seat_token_in_the_log(tmp_path: Path) -> None:
    srv = ServerProcess(tmp_path / "quiet.db", extra=["--log-level", "debug"]).start()
    try:
        created = srv.create(
            seats=["human", "human"], player_name="Ann", options={"game_end": "hands:1"}
        )
        code = created["code"]
        tokens = [created["token"], srv.join(code, "Ben")["token"]]

        async def main() -> None:
            clients = [Client(srv, code, t) for t in tokens]
            for c in clients:
                await c.open()
            await play(clients, random.Random(2))
            assert all(finished(c.state) for c in clients)
            await clients[0].error_reply({"type": "hello", "token": tokens[0][::-1]})
            await clients[0].error_reply('{"type": "hello", "token": ' + '"' + tokens[1] + "x")
            for c in clients:
                await c.close()

        asyncio.run(main())
        srv.get(f"/api/tables/{code}/games/1/hands/1", headers={"X-Seat-Token": tokens[0]})
    finally:
        srv.stop()
    log = srv.log_path.read_text()
    for token in tokens:
        assert token not in log and token[::-1] not in log


def test_no_database_password_printed(tmp_path: Path, pg_url: str | None) -> None:
    if pg_url is None:
        pytest.skip("PostgreSQL is not available (needs psycopg and initdb)")
    secret = "Pw-s3cret-9"
    url = pg_url.replace("postgres@", f"postgres:{secret}@", 1)
    assert secret in url
    srv = ServerProcess(tmp_path / "pw", db_url=url, extra=["--log-level", "info"]).start()
    try:
        assert srv.get("/healthz").json()["ok"]
    finally:
        srv.stop()
    log = srv.log_path.read_text()
    assert "serving on" in log and "***" in log
    assert secret not in log


def test_slow_headers_are_cut_off(tmp_path: Path) -> None:
    """A client trickling its request headers (slowloris) is disconnected after
    ``--header-timeout``; an ordinary request and a WebSocket are not."""
    srv = ServerProcess(tmp_path / "slow.db", extra=["--header-timeout", "1.5"]).start()
    try:
        with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as s:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
            started = time.monotonic()
            closed = False
            while time.monotonic() - started < 8:
                try:
                    s.sendall(b"X-Slow: 1\r\n")  # never the blank line that ends headers
                    s.settimeout(0.4)
                    if s.recv(1024) == b"":
                        closed = True
                        break
                except TimeoutError:
                    continue
                except OSError:
                    closed = True
                    break
            assert closed and time.monotonic() - started < 5
        code = srv.create(seats=["human", "human"])["code"]

        async def watch() -> None:
            async with Client(srv, code) as c:
                await asyncio.sleep(2.5)  # longer than the header deadline
                await c.send({"type": "ping", "id": 1})
                await c.wait_for(lambda m: m["type"] == "pong")

        asyncio.run(watch())
        assert srv.get("/healthz").status_code == 200
    finally:
        srv.stop()
