"""Bots think outside the event loop, in a bounded pool: tables of search bots playing as fast
as they can do not slow another table's players down, and tables of bots only are limited."""

from __future__ import annotations

import asyncio
import statistics
import time
from pathlib import Path

import httpx
import pytest

from tests.apps.server.helpers import UNLIMITED, ServerProcess, passive, seat_table

BOT_TABLES = 8
ACTIONS = 30
#: Median and worst latency of a person's action (send to the state that holds it) while the
#: bots think; with bots thinking in threads of the server (the GIL) the median was 84 ms and
#: the worst 381 ms.
MEDIAN_BOUND = 0.04
WORST_BOUND = 0.3
OPTIONS = {"game_end": "hands:1000", "buy_in": "100000"}


@pytest.mark.timing
def test_search_bots_do_not_slow_other_tables(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "b.db", extra=[*UNLIMITED, "--bot-workers", "1"]).start()
    try:
        for _ in range(BOT_TABLES):
            server.create(seats=["bot:ismcts"] * 8, options=OPTIONS, turn_timer=0)

        async def main() -> list[float]:
            _, clients = await seat_table(server, ["human", "human"], options=OPTIONS, turn_timer=0)
            await asyncio.sleep(1.0)  # the bots are at it
            latencies: list[float] = []
            while len(latencies) < ACTIONS:
                for c in clients:
                    await c.drain(0.01)
                mover = next(c for c in clients if c.my_turn)
                assert mover.state is not None
                version = mover.state["version"]
                action = passive(mover.state["game"]["legal"])
                t0 = time.monotonic()
                await mover.send({"type": "action", "action": action, "version": version})
                await mover.wait_for(
                    lambda m, v=version: m["type"] == "state" and m["version"] > v, timeout=10
                )
                latencies.append(time.monotonic() - t0)
            for c in clients:
                await c.close()
            return latencies

        latencies = asyncio.run(main())
        # The bots were really playing meanwhile.
        tables = server.get("/api/tables").json()["tables"]
        assert sum(t["status"] != "waiting" for t in tables) >= BOT_TABLES
        median = statistics.median(latencies)
        worst = max(latencies)
        assert median < MEDIAN_BOUND, f"median {median * 1000:.0f} ms"
        assert worst < WORST_BOUND, f"worst {worst * 1000:.0f} ms"
    finally:
        server.stop()


def test_tables_of_bots_only_are_limited(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "c.db", extra=[*UNLIMITED, "--max-bot-tables", "2"]).start()
    try:
        for _ in range(2):
            server.create(seats=["bot:random", "bot:random"])
        r = httpx.post(
            f"{server.base}/api/tables", json={"seats": ["bot:random", "bot:random"]}, timeout=10
        )
        assert r.status_code == 429
        assert r.json()["error"]["code"] == "too_many_bot_tables"
        # A table with a person at it is still welcome.
        server.create(seats=["human", "bot:random"])
    finally:
        server.stop()
