"""Kill the server with SIGKILL mid-hand, start it again on the same database: every table
resumes exactly where it was, with no credit lost."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import sabacc
from sabacc.services.store import Store
from tests.apps.server.helpers import Client, ServerProcess, empty_schema, finished, play


def _credits(obs: dict[str, Any]) -> int:
    return sum(s["stack"] for s in obs["seats"]) + obs["pots"]["main"] + obs["pots"]["sabacc"]


def test_sigkill_and_restart_resumes_every_table(tmp_path: Path) -> None:
    db = tmp_path / "recover.db"
    first = ServerProcess(db, extra=["--bot-delay", "0.05"]).start()
    second: ServerProcess | None = None
    try:
        # Table 1: three people and a bot, stopped mid-hand on a person's turn.
        created = first.create(
            seats=["human", "human", "bot:heuristic", "human"],
            player_name="Ann",
            turn_timer=0,
            options={"game_end": "hands:3"},
        )
        code = created["code"]
        tokens = [created["token"], first.join(code, "Ben")["token"]]
        tokens.append(first.join(code, "Cat")["token"])
        # Table 2: bots only, playing as fast as they can when the server dies.
        busy = first.create(
            seats=["bot:random", "bot:heuristic", "bot:random"],
            options={"game_end": "hands:500"},
        )["code"]
        # Table 3: still waiting for a second player.
        waiting = first.create(seats=["human", "human"], player_name="Solo")["code"]

        async def before() -> tuple[list[dict[str, Any]], dict[str, Any], int]:
            clients = [Client(first, code, t) for t in tokens]
            for c in clients:
                await c.open()
            rng = random.Random(11)
            await play(clients, rng, until=lambda st: st is not None and st["version"] >= 9)
            for c in clients:
                await c.drain(0.3)
            watcher = Client(first, busy)
            await watcher.open()
            await watcher.drain(0.3)
            assert watcher.state is not None
            seen_busy = watcher.state["version"]
            states = [c.state for c in clients]
            for c in [*clients, watcher]:
                await c.close()
            assert all(s is not None for s in states)
            assert states[0] is not None
            return [s for s in states if s], states[0]["table"], seen_busy

        states, table_before, busy_seen = asyncio.run(before())
        assert not states[0]["game"]["is_over"] and states[0]["turn"] is not None
        credits = _credits(states[0]["game"])
        first.kill()  # SIGKILL: no shutdown, no flush

        second = ServerProcess(db).start()
        srv = second

        async def after() -> None:
            clients = [Client(srv, code, t) for t in tokens]
            for c in clients:
                await c.open()
            for c, old in zip(clients, states, strict=True):
                assert c.state is not None
                assert c.state["version"] == old["version"]
                assert c.state["game"] == old["game"]  # exactly where it was, per seat
                assert c.state["you"] == old["you"]
                assert c.state["turn"]["seat"] == old["turn"]["seat"]
            assert clients[0].state is not None
            assert [s["name"] for s in clients[0].state["table"]["seats"]] == [
                s["name"] for s in table_before["seats"]
            ]
            assert _credits(clients[0].state["game"]) == credits
            # The bot table carries on from at least where it was seen.
            watcher = Client(srv, busy)
            await watcher.open()
            assert watcher.state is not None
            assert watcher.state["version"] >= busy_seen
            # The waiting table still waits, its seat still taken.
            lobby = Client(srv, waiting)
            await lobby.open()
            assert lobby.state is not None
            assert lobby.state["table"]["status"] == "waiting"
            assert lobby.state["table"]["seats"][0]["name"] == "Solo"
            # And the game plays on to its end.
            await play(clients, random.Random(12))
            assert all(finished(c.state) for c in clients)
            final = clients[0].state
            assert final is not None
            assert sum(final["game"]["outcome"]["stacks"]) == 4 * 100
            for c in [*clients, watcher, lobby]:
                await c.close()

        asyncio.run(after())
    finally:
        first.kill()
        if second is not None:
            second.stop()
    # What is stored replays exactly, and conserves credits, for every table.
    store = Store(f"sqlite:///{db}")
    try:
        for rec in store.load_tables():
            if rec.game is None:
                continue
            game = sabacc.replay(rec.game.history())
            assert game.total_credits() == game.n * game.options.starting_stack
            assert list(game.stacks) == rec.game.stacks
            assert len(game.actions) == rec.game.action_count
    finally:
        store.close()


def test_postgresql_server_plays_and_recovers(tmp_path: Path, pg_url: str | None) -> None:
    """The same server on PostgreSQL: play, SIGKILL mid-hand, restart, play on to the end."""
    if pg_url is None:
        import pytest

        pytest.skip("PostgreSQL is not available (needs psycopg and initdb)")
    empty_schema(pg_url)

    def server() -> ServerProcess:
        return ServerProcess(tmp_path / "pg", extra=["--bot-delay", "0.02"], db_url=pg_url).start()

    first = server()
    second: ServerProcess | None = None
    try:
        created = first.create(
            seats=["human", "human", "bot:heuristic"],
            player_name="Ann",
            turn_timer=0,
            options={"game_end": "hands:2"},
        )
        code = created["code"]
        tokens = [created["token"], first.join(code, "Ben")["token"]]

        async def before() -> list[dict[str, Any]]:
            clients = [Client(first, code, t) for t in tokens]
            for c in clients:
                await c.open()
            await play(
                clients, random.Random(4), until=lambda st: st is not None and st["version"] >= 6
            )
            for c in clients:
                await c.drain(0.3)
            states = [c.state for c in clients if c.state is not None]
            for c in clients:
                await c.close()
            return states

        states = asyncio.run(before())
        first.kill()
        second = server()
        srv = second

        async def after() -> None:
            clients = [Client(srv, code, t) for t in tokens]
            for c in clients:
                await c.open()
            for c, old in zip(clients, states, strict=True):
                assert c.state is not None
                assert (c.state["version"], c.state["game"]) == (old["version"], old["game"])
            await play(clients, random.Random(5))
            assert all(finished(c.state) for c in clients)
            for c in clients:
                await c.close()

        asyncio.run(after())
    finally:
        first.kill()
        if second is not None:
            second.stop()
