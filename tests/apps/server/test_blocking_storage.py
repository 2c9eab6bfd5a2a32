"""A database that makes a write wait does not freeze the server: storage runs in a bounded
worker pool, never on the event loop. While another connection holds the SQLite file's write
lock, a table whose action is waiting to be stored shows nothing of it, and every other table
keeps answering at once; when the lock goes, the action is stored and then shown."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import httpx
import pytest

from tests.apps.server.helpers import UNLIMITED, ServerProcess, seat_table

LOCK_HELD = 3.0  # seconds; below the server's --storage-timeout, so the write then succeeds
BOUND = 0.5  # seconds another table may take to answer while the file is locked


@pytest.mark.timing
def test_locked_sqlite_file_does_not_freeze_other_tables(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    server = ServerProcess(db, extra=[*UNLIMITED, "--storage-timeout", "6"]).start()
    try:

        async def main() -> None:
            _, (a0, a1) = await seat_table(server, ["human", "human"], turn_timer=0)
            code_b, (b0, b1) = await seat_table(server, ["human", "human"], turn_timer=0)
            mover = a0 if a0.my_turn else a1
            assert mover.state is not None
            version = mover.state["version"]
            locker = sqlite3.connect(db, timeout=0, isolation_level=None)
            locker.execute("BEGIN IMMEDIATE")  # the write lock, held by someone else
            try:
                await mover.send({"type": "action", "action": "stand", "version": version})
                await asyncio.sleep(0.3)  # the action now waits for the lock in a worker
                worst = 0.0
                async with httpx.AsyncClient(base_url=server.base, timeout=5) as http:
                    for i in range(10):
                        t0 = time.monotonic()
                        await b0.send({"type": "ping", "id": i})
                        await b0.wait_for(lambda m: m["type"] == "pong", timeout=5)
                        assert (await http.get("/healthz")).status_code == 200
                        assert (await http.get(f"/api/tables/{code_b}")).status_code == 200
                        worst = max(worst, time.monotonic() - t0)
                        await asyncio.sleep(0.1)
                assert worst < BOUND, f"another table took {worst:.2f} s to answer"
                # Not stored yet, so nobody has seen it.
                for c in (a0, a1):
                    await c.drain(0.1)
                    assert c.state is not None and c.state["version"] == version
            finally:
                locker.execute("ROLLBACK")
                locker.close()
            for c in (a0, a1):
                await c.wait_for(
                    lambda m: m["type"] == "state" and m["version"] == version + 1, timeout=10
                )
            assert not [e for e in mover.errors if e["code"] != "stale"], mover.errors
            for c in (a0, a1, b0, b1):
                await c.close()

        asyncio.run(main())
        # Stored: a restart has the action too.
        server.kill()
        server.start()
        assert server.get("/healthz").status_code == 200
    finally:
        server.stop()


def test_write_waiting_past_the_timeout_is_refused(tmp_path: Path) -> None:
    """A write that waits longer than --storage-timeout is refused (storage_error), the state
    is unchanged, and play resumes once the file is free."""
    db = tmp_path / "t.db"
    server = ServerProcess(db, extra=[*UNLIMITED, "--storage-timeout", "1"]).start()
    try:

        async def main() -> None:
            _, (a0, a1) = await seat_table(server, ["human", "human"], turn_timer=0)
            mover = a0 if a0.my_turn else a1
            assert mover.state is not None
            version = mover.state["version"]
            locker = sqlite3.connect(db, timeout=0, isolation_level=None)
            locker.execute("BEGIN IMMEDIATE")
            try:
                err = await mover.error_reply(
                    {"type": "action", "action": "stand", "version": version}, timeout=10
                )
                assert err["code"] == "storage_error"
                assert mover.state is not None and mover.state["version"] == version
            finally:
                locker.execute("ROLLBACK")
                locker.close()
            # Back: the same action is accepted (retry until the server has noticed).
            deadline = time.monotonic() + 10
            while True:
                await mover.send({"type": "action", "action": "stand", "version": version})
                msg = await mover.wait_for(
                    lambda m: (
                        (m["type"] == "state" and m["version"] == version + 1)
                        or m["type"] == "error"
                    ),
                    timeout=10,
                )
                if msg["type"] == "state":
                    break
                assert msg["code"] == "storage_error" and time.monotonic() < deadline
                await asyncio.sleep(0.5)
            for c in (a0, a1):
                await c.close()

        asyncio.run(main())
    finally:
        server.stop()
