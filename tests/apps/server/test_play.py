"""Whole games over real WebSockets: every variant, 2-6 humans, bots mixed in."""

from __future__ import annotations

import asyncio
import random

import pytest

import sabacc
from sabacc.services import hand_history
from tests.apps.server.helpers import Client, ServerProcess, finished, play, seat_table

CASES = [
    *[
        (name, ["human", "human", "bot:heuristic"], {"game_end": "hands:2"})
        for name in sabacc.variant_names()
    ],
    ("corellian_spike", ["human", "human"], {"game_end": "hands:3"}),
    (
        "corellian_spike",
        ["human"] * 3 + ["bot:heuristic", "bot:random", "bot:heuristic"],
        {"game_end": "hands:2"},
    ),
    ("corellian_spike", ["human"] * 6, {"game_end": "hands:1"}),
    ("surabat_cycle", ["human"] * 4 + ["bot:random"], {"game_end": "hands:1"}),
    ("classic", ["human"] * 5, {"game_end": "hands:1", "max_orbits": "3"}),
]


@pytest.mark.parametrize(("variant", "seats", "options"), CASES)
def test_full_game(
    server: ServerProcess, variant: str, seats: list[str], options: dict[str, str]
) -> None:
    async def main() -> None:
        code, clients = await seat_table(
            server, seats, variant=variant, options=options, turn_timer=0
        )
        watcher = Client(server, code)
        await watcher.open()
        rng = random.Random(hash((variant, len(seats))) & 0xFFFF)
        await play([*clients, watcher], rng)
        for c in clients:
            assert not [e for e in c.errors if e["code"] != "stale"], c.errors
        final = clients[0].state
        assert final is not None and final["game"]["is_over"]
        outcome = final["game"]["outcome"]
        n = len(seats)
        buy_in = sabacc.variant(variant, **options).options.starting_stack
        # Every seat saw the same public outcome, and the stored history replays to it.
        assert all(c.state and c.state["game"]["outcome"] == outcome for c in clients)
        doc = server.get(f"/api/tables/{code}/games/1/history").json()
        assert hand_history.validate(doc) == [] and doc["meta"]["table"] == code
        replayed = sabacc.replay(doc)
        assert replayed.is_over and list(replayed.stacks) == outcome["stacks"]
        # No credit is created or lost by the server: final stacks plus what the rules make
        # leave the game (the house: Kessel's lost pots and penalties; 0 where final pots are
        # split) are the buy-ins.
        assert sum(outcome["stacks"]) + replayed.house == n * buy_in
        assert len(doc["actions"]) == final["version"]
        games = server.get(f"/api/tables/{code}/games").json()["games"]
        assert games[0]["result"]["stacks"] == outcome["stacks"]
        # A finished hand step by step, seen by seat 0 and by a spectator.
        hand = server.get(
            f"/api/tables/{code}/games/1/hands/1", headers={"X-Seat-Token": clients[0].token}
        ).json()
        assert hand["viewer"] == 0 and "you" in hand["frames"][0]["game"]
        spectator = server.get(f"/api/tables/{code}/games/1/hands/1").json()
        assert spectator["viewer"] is None and "you" not in spectator["frames"][0]["game"]
        assert len(hand["frames"]) == len(spectator["frames"]) >= 2
        # Another game at the same table, same seats.
        await clients[-1].send({"type": "new_game"})
        for c in clients:
            await c.wait_for(lambda m: m["type"] == "state" and m["game_no"] == 2)
            assert c.state is not None and c.state["table"]["status"] == "playing"
        for c in [*clients, watcher]:
            await c.close()

    asyncio.run(main())


def test_bot_only_table_plays_itself(server: ServerProcess) -> None:
    async def main() -> None:
        created = server.create(
            seats=["bot:random", "bot:heuristic", "bot:random"], options={"game_end": "hands:2"}
        )
        watcher = Client(server, created["code"])
        await watcher.open()
        await watcher.wait_for(lambda m: m["type"] == "state" and finished(m), timeout=60)
        assert watcher.state is not None and watcher.state["you"]["seat"] is None
        await watcher.close()

    asyncio.run(main())


def test_host_starts_early_with_the_seats_taken(server: ServerProcess) -> None:
    async def main() -> None:
        created = server.create(
            seats=["human", "human", "human", "bot:heuristic"],
            player_name="Hana",
            turn_timer=0,
            options={"game_end": "hands:1"},
        )
        code = created["code"]
        host = Client(server, code, created["token"])
        await host.open()
        guest_token = server.join(code, "Guest", seat=2)["token"]
        guest = Client(server, code, guest_token)
        await guest.open()
        assert guest.state is not None and guest.state["table"]["status"] == "waiting"
        err = await guest.error_reply({"type": "start"})
        assert err["code"] == "not_host"
        await host.send({"type": "start"})
        st = await guest.wait_for(lambda m: m["type"] == "state" and m["game"] is not None)
        assert st["table"]["status"] == "playing"
        # The empty seat was removed: three players, the guest now sits at seat 1.
        assert [s["name"] for s in st["game"]["seats"]] == ["Hana", "Guest", "K-2SO"]
        assert st["you"]["seat"] == 1
        join = server.get(f"/api/tables/{code}")
        assert join.json()["status"] == "playing"
        r = __import__("httpx").post(
            f"{server.base}/api/tables/{code}/join", json={"name": "Late"}, timeout=10
        )
        assert r.status_code == 409 and r.json()["error"]["code"] == "game_running"
        await host.close()
        await guest.close()

    asyncio.run(main())
