"""Idle tables leave the server's memory and come back, exactly as they were, when opened."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

from tests.apps.server.helpers import Client, ServerProcess, finished, play


def _in_memory(srv: ServerProcess) -> int:
    return int(srv.get("/healthz").json()["tables"])


def test_idle_table_is_evicted_then_reloaded_where_it_was(tmp_path: Path) -> None:
    srv = ServerProcess(tmp_path / "evict.db", extra=["--idle-evict", "1"]).start()
    try:
        created = srv.create(
            seats=["human", "human"],
            player_name="Ann",
            turn_timer=0,
            options={"game_end": "hands:2"},
        )
        code = created["code"]
        tokens = [created["token"], srv.join(code, "Ben")["token"]]
        # A table somebody keeps watching: never idle, so never evicted.
        watched = srv.create(seats=["human", "human"], player_name="Solo")["code"]

        async def before() -> list[dict[str, Any]]:
            clients = [Client(srv, code, t) for t in tokens]
            for c in clients:
                await c.open()
            await play(
                clients, random.Random(3), until=lambda st: st is not None and st["version"] >= 4
            )
            for c in clients:
                await c.drain(0.3)
                await c.close()
            return [c.state for c in clients if c.state is not None]

        async def wait_for_eviction() -> list[dict[str, Any]]:
            watcher = Client(srv, watched)
            await watcher.open()
            states = await before()
            assert _in_memory(srv) == 2
            deadline = time.monotonic() + 15
            while _in_memory(srv) != 1:  # the idle table goes; the watched one stays
                assert time.monotonic() < deadline, "the idle table was not evicted"
                await watcher.drain(0.2)
            await watcher.close()
            return states

        states = asyncio.run(wait_for_eviction())
        assert len(states) == 2 and not states[0]["game"]["is_over"]
        assert srv.get(f"/api/tables/{watched}").json()["status"] == "waiting"

        # Opening the evicted table reloads it from the database, exactly where it was.
        info = srv.get(f"/api/tables/{code}").json()
        assert info["status"] == "playing" and [s["name"] for s in info["seats"]] == [
            "Ann",
            "Ben",
        ]
        assert _in_memory(srv) == 2

        async def after() -> None:
            clients = [Client(srv, code, t) for t in tokens]
            for c in clients:
                await c.open()
            for c, old in zip(clients, states, strict=True):
                assert c.state is not None
                assert c.state["version"] == old["version"]
                assert c.state["game"] == old["game"]
                assert c.state["you"] == old["you"]
            await play(clients, random.Random(4))
            assert all(finished(c.state) for c in clients)
            for c in clients:
                await c.close()

        asyncio.run(after())
        # An unknown code is still a 404, not a crash.
        assert srv.get("/api/tables/NOSUCH").status_code == 404
    finally:
        srv.stop()
