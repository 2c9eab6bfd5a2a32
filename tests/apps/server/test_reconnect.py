"""Dropping out and coming back; the turn timer playing for an absent player."""

from __future__ import annotations

import asyncio
import random

from tests.apps.server.helpers import Client, ServerProcess, finished, passive, play, seat_table


def test_reconnect_gets_the_same_view_and_plays_on(server: ServerProcess) -> None:
    async def main() -> None:
        code, (a, b) = await seat_table(
            server, ["human", "human"], turn_timer=0, options={"game_end": "hands:2"}
        )
        rng = random.Random(3)
        await play([a, b], rng, until=lambda st: st is not None and st["version"] >= 5)
        await a.drain()
        await b.drain()
        seen = a.state
        assert seen is not None
        await a.close()  # the connection drops mid-hand
        b_view = await b.wait_for(lambda m: m["type"] == "state")
        assert not b_view["table"]["seats"][0]["connected"]
        again = Client(server, code, a.token)
        await again.open()
        assert again.welcome is not None and again.welcome["seat"] == 0
        assert again.state is not None
        assert again.state["version"] == seen["version"]
        assert again.state["game"] == seen["game"]
        # The current hand's events come again, so the log can be rebuilt.
        assert again.state["events"][0]["type"] == "hand_started"
        await b.wait_for(lambda m: m["type"] == "state" and m["table"]["seats"][0]["connected"])
        await play([again, b], rng)
        assert finished(again.state) and finished(b.state)
        await again.close()
        await b.close()

    asyncio.run(main())


def test_turn_timer_acts_for_an_absent_player(server: ServerProcess) -> None:
    async def main() -> None:
        code, (a, b) = await seat_table(
            server, ["human", "human"], turn_timer=0.3, options={"game_end": "hands:1"}
        )
        await b.close()  # b never comes back: the timer plays b's turns
        await play([a], random.Random(1), choose=lambda legal, rng: passive(legal), timeout=120)
        assert finished(a.state)
        assert a.state is not None and a.state["table"]["seats"][1]["away"]
        # The timer's moves are marked as such in the hand history.
        hand = server.get(f"/api/tables/{code}/games/1/hands/1").json()
        autos = [f["action"] for f in hand["frames"][1:] if f["action"]["auto"]]
        assert autos and all(x["seat"] == 1 for x in autos)
        await a.close()

    asyncio.run(main())


def test_deadline_is_sent(server: ServerProcess) -> None:
    async def main() -> None:
        code, (a, b) = await seat_table(server, ["human", "human"], turn_timer=30)
        for c in (a, b):
            await c.drain()
        st = a.state
        assert st is not None and st["turn"] is not None
        assert st["turn"]["timer"] == 30
        assert 0 < st["turn"]["deadline_ms"] <= 30_000
        await a.close()
        await b.close()
        del code

    asyncio.run(main())
