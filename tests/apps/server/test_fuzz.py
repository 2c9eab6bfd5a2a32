"""Malformed input: thousands of bad messages get error replies; the server keeps serving."""

from __future__ import annotations

import asyncio
import json
import random
import string
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.apps.server.helpers import Client, ServerProcess, seat_table

VOCAB = ["stand", "gain", "swap", "discard", "draw", "moon", "bet", "raise", "call", "junk", "hand"]


def _bad_messages(rng: random.Random, n: int) -> list[str | bytes]:
    """Messages each of which must be refused with exactly one error."""
    out: list[str | bytes] = []
    makers: list[Any] = [
        lambda: "".join(rng.choice(string.printable) for _ in range(rng.randint(1, 80))),
        lambda: json.dumps(rng.choice([[], [1, 2], 3, "text", None, True, 1.5])),
        lambda: json.dumps({"no_type": 1}),
        lambda: json.dumps({"type": rng.choice(["", "Action", "shout", "hello2", "x" * 30])}),
        lambda: json.dumps({"type": rng.choice([1, None, [], {}, True])}),
        lambda: json.dumps({"type": "action"}),
        lambda: json.dumps({"type": "action", "action": rng.choice([5, None, [], {}, 1.5])}),
        lambda: json.dumps({"type": "action", "action": "x" * rng.randint(41, 500)}),
        lambda: json.dumps({"type": "action", "action": "stand", "seat": rng.choice(["0", -1])}),
        lambda: json.dumps({"type": "action", "action": "stand", "version": rng.choice([-1, 0.5])}),
        lambda: json.dumps({"type": "action", "action": "stand", "extra": 1}),
        lambda: json.dumps({"type": "ping", "id": rng.choice(["1", -5, 2.5])}),
        lambda: json.dumps({"type": "hello", "token": rng.choice([5, [], "t" * 200])}),
        lambda: json.dumps({"type": "start", "now": True}),
        lambda: "[" * 1500 + "]" * 1500,  # deep nesting
        lambda: '{"type": "ping", "id": NaN}',
        lambda: "x" * rng.randint(4097, 20000),  # too large
        lambda: json.dumps({"type": "action", "action": "a" * 5000}),
        lambda: bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 64))),  # binary frame
        lambda: json.dumps(
            {
                "type": "action",
                "action": f"{rng.choice(VOCAB)} {rng.choice(['%', 'zz', '99999999', '+77'])}",
            }
        ),
    ]
    for _ in range(n):
        out.append(rng.choice(makers)())
    return out


def test_fuzzing_thousands_of_messages(server: ServerProcess) -> None:
    async def main() -> None:
        code, (a, b) = await seat_table(server, ["human", "human"], turn_timer=0)
        for c in (a, b):
            await c.drain()
        version = a.state["version"] if a.state else None
        actor = a if a.my_turn else b
        spectator = Client(server, code)
        await spectator.open()
        rng = random.Random(2024)

        async def fuzz(client: Client, n: int) -> None:
            messages = _bad_messages(rng, n)
            before = len(client.errors)
            for m in messages:
                assert client.ws is not None
                await client.ws.send(m)
            await client.send({"type": "ping", "id": 424242})
            await client.wait_for(lambda m: m["type"] == "pong" and m["id"] == 424242, 60)
            errors = client.errors[before:]
            assert len(errors) == n, (len(errors), n)
            assert not [e for e in errors if e["code"] == "internal"]
            codes = {e["code"] for e in errors}
            assert {"bad_json", "bad_message", "unknown_type", "too_large"} <= codes

        await asyncio.gather(
            fuzz(actor, 1500), fuzz(spectator, 1000), fuzz(b if actor is a else a, 500)
        )
        # Nothing changed, and the table still plays.
        await actor.send({"type": "sync"})
        st = await actor.wait_for(lambda m: m["type"] == "state")
        assert st["version"] == version
        legal = st["game"]["legal"]["actions"]
        await actor.send({"type": "action", "action": legal[0]})
        await actor.wait_for(lambda m: m["type"] == "state" and m["version"] == version + 1)
        # A frame over the transport limit (64 KiB) closes that connection only.
        big = Client(server, code)
        await big.open()
        assert big.ws is not None
        await big.ws.send("y" * 200_000)
        with pytest.raises(ConnectionClosed):
            for _ in range(10):
                await big.recv(5)
        assert httpx.get(f"{server.base}/healthz").json()["ok"]
        # A message before hello is refused politely.
        early = Client(server, code)
        await early.open(hello=False)
        await early.send({"type": "sync"})
        err = await early.wait_for(lambda m: m["type"] == "error")
        assert err["code"] == "hello_first"
        for c in (a, b, spectator, early):
            await c.close()
        # An unknown table.
        ghost = Client(server, "NOSUCH")
        await ghost.open(hello=False)
        err = await ghost.wait_for(lambda m: m["type"] == "error")
        assert err["code"] == "no_table"
        await ghost.close()

    asyncio.run(main())


def test_rate_limit(tmp_path: Path) -> None:
    srv = ServerProcess(tmp_path / "rate.db", extra=["--rate", "5", "--burst", "10"]).start()
    try:

        async def main() -> None:
            code = srv.create(seats=["human", "human"])["code"]
            c = Client(srv, code)
            await c.open()
            for i in range(40):
                await c.send({"type": "ping", "id": i})
            await c.drain(0.3)
            pongs = [m for m in c.messages if m["type"] == "pong"]
            limited = [e for e in c.errors if e["code"] == "rate_limited"]
            assert 5 <= len(pongs) < 40 and limited
            await asyncio.sleep(1.0)
            await c.send({"type": "ping", "id": 99})
            await c.wait_for(lambda m: m["type"] == "pong" and m["id"] == 99)
            # Flooding on and on closes the connection (policy violation), not the server.
            assert c.ws is not None
            with pytest.raises(ConnectionClosed):
                for _ in range(2000):
                    await c.ws.send('{"type":"ping"}')
                for _ in range(2000):
                    await c.recv(5)
            assert httpx.get(f"{srv.base}/healthz").status_code == 200

        asyncio.run(main())
    finally:
        srv.stop()
