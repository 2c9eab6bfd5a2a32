"""The database goes away mid-game: an action that cannot be stored is refused, nobody sees it,
the table says the database is down, and play resumes by itself when the database is back.
After a restart of the server the game rebuilds exactly, with no action or credit lost."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import sabacc
from tests.apps.server.helpers import Client, PgCluster, ServerProcess, finished, passive, play


@pytest.fixture
def cluster() -> Iterator[PgCluster]:
    """A PostgreSQL of this test's own: it is stopped and started again mid-game."""
    pg = PgCluster.create()
    if pg is None:
        pytest.skip("PostgreSQL is not available (needs psycopg and initdb)")
    try:
        yield pg
    finally:
        pg.remove()


def _credits(obs: dict[str, Any]) -> int:
    return sum(s["stack"] for s in obs["seats"]) + obs["pots"]["main"] + obs["pots"]["sabacc"]


def test_postgresql_stops_mid_game_and_comes_back(tmp_path: Path, cluster: PgCluster) -> None:
    def start() -> ServerProcess:
        return ServerProcess(
            tmp_path / "pg", extra=["--bot-delay", "0.02"], db_url=cluster.url
        ).start()

    srv = start()
    again: ServerProcess | None = None
    try:
        created = srv.create(
            seats=["human", "human", "bot:heuristic"],
            player_name="Ann",
            turn_timer=0,
            options={"game_end": "hands:2"},
        )
        code = created["code"]
        tokens = [created["token"], srv.join(code, "Ben")["token"]]

        async def main() -> tuple[int, list[int]]:
            clients = [Client(srv, code, t) for t in tokens]
            for c in clients:
                await c.open()
            watcher = Client(srv, code)
            await watcher.open()

            def a_person_to_act(st: dict[str, Any] | None) -> bool:
                return bool(
                    st and st["version"] >= 4 and st["turn"] and st["turn"]["seat"] in (0, 1)
                )

            await play(clients, random.Random(3), until=a_person_to_act)
            for c in [*clients, watcher]:
                await c.drain(0.3)
            assert clients[0].state is not None
            before = clients[0].state
            actor = next(c for c in clients if c.my_turn)
            assert actor.state is not None
            mine = actor.state
            credits = _credits(before["game"])

            cluster.stop()
            action = passive(mine["game"]["legal"])
            reply = await actor.error_reply(
                {"type": "action", "action": action, "version": mine["version"]}
            )
            assert reply["code"] == "storage_error" and "database" in reply["message"]
            # Nothing changed, for anyone; the table says why it is paused.
            for c in [*clients, watcher]:
                await c.send({"type": "sync"})
                await c.wait_for(lambda m: m["type"] == "state")
                assert c.state is not None
                assert c.state["version"] == before["version"]
                assert c.state["table"]["problem"]
            assert actor.state["game"] == mine["game"]
            assert srv.get("/healthz").json()["storage"] == "down"
            retry = await actor.error_reply({"type": "action", "action": action})
            assert retry["code"] == "storage_error"

            cluster.start()
            await watcher.wait_for(
                lambda m: m["type"] == "state" and m["table"]["problem"] is None, timeout=20
            )
            assert srv.get("/healthz").json()["storage"] == "ok"
            await actor.send({"type": "action", "action": action, "version": mine["version"]})
            await actor.wait_for(
                lambda m: m["type"] == "state" and m["version"] > mine["version"], timeout=10
            )
            await play(clients, random.Random(4))
            final = clients[0].state
            assert final is not None and finished(final)
            assert sum(final["game"]["outcome"]["stacks"]) == 3 * 100 == credits
            for c in [*clients, watcher]:
                await c.close()
            return final["version"], final["game"]["outcome"]["stacks"]

        version, stacks = asyncio.run(main())
        srv.stop()
        again = start()  # every action was stored: the game rebuilds
        doc = httpx.get(f"{again.base}/api/tables/{code}/games/1/history", timeout=10).json()
        game = sabacc.replay(doc)
        assert len(game.actions) == version and list(game.stacks) == stacks
    finally:
        srv.kill()
        if again is not None:
            again.stop()


def test_bots_and_turn_timers_wait_for_the_database(tmp_path: Path, cluster: PgCluster) -> None:
    """Automatic moves (bots, the turn timer of an absent player) do not happen while nothing
    can be stored, and carry on by themselves when the database is back."""
    srv = ServerProcess(tmp_path / "auto", extra=["--bot-delay", "0.05"], db_url=cluster.url)
    srv.start()
    try:
        bots = srv.create(seats=["bot:random", "bot:heuristic"], options={"game_end": "hands:3"})[
            "code"
        ]
        timed = srv.create(seats=["human", "bot:random"], player_name="Ann", turn_timer=1)
        # Ann never connects: the timer plays for her, then her seat counts as away.

        async def main() -> None:
            async with Client(srv, bots) as w1, Client(srv, timed["code"]) as w2:
                await w1.wait_for(lambda m: m["type"] == "state" and m["version"] >= 3)
                cluster.stop()
                # The first automatic move that cannot be stored pauses every table.
                await w1.wait_for(
                    lambda m: m["type"] == "state" and m["table"]["problem"], timeout=20
                )
                await w2.wait_for(
                    lambda m: m["type"] == "state" and m["table"]["problem"], timeout=20
                )
                frozen = (w1.state, w2.state)
                await asyncio.sleep(2.5)  # longer than the turn timer and many bot moves
                await w1.drain(0.2)
                await w2.drain(0.2)
                assert w1.state is not None and w2.state is not None
                assert frozen[0] is not None and frozen[1] is not None
                assert w1.state["version"] == frozen[0]["version"]
                assert w2.state["version"] == frozen[1]["version"]
                cluster.start()
                for w, old in ((w1, frozen[0]), (w2, frozen[1])):
                    await w.wait_for(
                        lambda m, v=old["version"]: m["type"] == "state" and m["version"] > v,
                        timeout=30,
                    )
                    assert w.state is not None and w.state["table"]["problem"] is None
                while not finished(w1.state):
                    await w1.recv(30)

        asyncio.run(main())
        # What was stored replays to what was played: nothing lost on either table.
        for code in (bots, timed["code"]):
            doc = srv.get(f"/api/tables/{code}/games").json()["games"][0]
            assert doc["actions"] > 0
        history = srv.get(f"/api/tables/{bots}/games/1/history").json()
        game = sabacc.replay(history)
        assert game.is_over and game.total_credits() == 2 * game.options.starting_stack
    finally:
        srv.stop()
