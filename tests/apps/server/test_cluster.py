"""Scale-out on real parts: two ``sabacc serve --cluster`` processes share one PostgreSQL behind
nginx (``deploy/nginx.conf``: a consistent hash of the table code). Tables are created and
played through the proxy; one server is killed with SIGKILL; its tables are taken over by the
other within seconds, exactly where they were (same version, same stacks), and every game is
played to its end with 0 actions and 0 credits lost."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text

import sabacc
from sabacc.services.store import normalise_url
from tests.apps.server.helpers import Client, cluster, finished, play, seat_table

TABLES = 6
OPTIONS = {"game_end": "hands:3"}
TAKEOVER_BOUND = 12.0  # seconds from the kill until every table of the dead server answers


def _owners(url: str) -> dict[str, str]:
    engine = create_engine(normalise_url(url))
    with engine.connect() as conn:
        rows = conn.execute(
            text("SELECT t.code, l.owner FROM leases l JOIN tables t ON t.id = l.table_id")
        ).all()
    engine.dispose()
    return {str(code): str(owner) for code, owner in rows}


def _money(state: dict[str, Any]) -> Any:
    """Every credit on the table: each seat's stack and stake, and the pots."""
    game = state["game"]
    return [(s["stack"], s["committed"]) for s in game["seats"]], game["pots"]


async def _reconnect(c: Client, deadline: float) -> None:
    await c.close()
    while True:
        try:
            await c.open()
            return
        except Exception:
            if time.monotonic() > deadline:
                raise
            await c.close()
            await asyncio.sleep(0.3)


def test_kill_9_one_of_two_servers_behind_nginx(tmp_path: Path, pg_url: str | None) -> None:
    with cluster(tmp_path, pg_url, lease_ttl=2) as (servers, proxy):
        assert pg_url is not None
        url = pg_url

        async def main() -> None:
            rng = random.Random(16)
            tables: dict[str, list[Client]] = {}
            for _ in range(TABLES):
                code, clients = await seat_table(
                    proxy, ["human", "human"], options=OPTIONS, turn_timer=0
                )
                tables[code] = clients
            await asyncio.gather(
                *(
                    play(cs, rng, until=lambda st: st is not None and st["version"] >= 6)
                    for cs in tables.values()
                )
            )
            for cs in tables.values():
                for c in cs:
                    await c.drain(0.2)
            owners = _owners(url)
            assert set(owners) == set(tables)
            assert set(owners.values()) <= {"a", "b"}, owners  # (the hash may favour one)
            victim = owners[next(iter(tables))]
            moved = [code for code, owner in owners.items() if owner == victim]
            before: dict[str, tuple[int, Any]] = {}
            for code in moved:
                st = tables[code][0].state
                assert st is not None
                before[code] = (st["version"], _money(st))

            servers[victim].kill()
            killed_at = time.monotonic()
            deadline = killed_at + TAKEOVER_BOUND
            for code in moved:
                for c in tables[code]:
                    await _reconnect(c, deadline)
            took = time.monotonic() - killed_at
            for code in moved:
                for c in tables[code]:
                    st = c.state
                    assert st is not None
                    assert (st["version"], _money(st)) == before[code]
            assert took < TAKEOVER_BOUND
            survivor = "b" if victim == "a" else "a"
            assert set(_owners(url).values()) == {survivor}

            await asyncio.gather(*(play(cs, rng) for cs in tables.values()))
            buy_in: int = sabacc.variant("spike", **OPTIONS).options.starting_stack
            for code, cs in tables.items():
                final: dict[str, Any] | None = cs[0].state
                assert finished(final) and final is not None
                stacks = final["game"]["outcome"]["stacks"]
                assert sum(stacks) == 2 * buy_in  # 0 credits lost
                doc = proxy.get(f"/api/tables/{code}/games/1/history").json()
                assert len(doc["actions"]) == final["version"]  # 0 actions lost
                assert list(sabacc.replay(doc).stacks) == stacks
                for c in cs:
                    assert not [e for e in c.errors if e["code"] != "stale"], c.errors
                    await c.close()

        asyncio.run(main())
