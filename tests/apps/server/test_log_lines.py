"""The web log's lines come from the one renderer: a classic caller who loses sees the payment."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.apps.server.helpers import Client, ServerProcess, passive, seat_table


def _caller_first(legal: dict[str, Any]) -> str:
    """Call the hand as soon as the calls open; until then, the passive choice."""
    return "call hand" if "call hand" in legal["actions"] else passive(legal)


def test_the_losing_callers_payment_is_in_the_web_log(server: ServerProcess) -> None:
    async def main() -> None:
        code, clients = await seat_table(
            server,
            ["human", "human", "human"],
            variant="classic",
            options={"game_end": "hands:1"},
            turn_timer=0,
        )
        watcher = Client(server, code)
        await watcher.open()
        caller = clients[0]  # P0, the host: calls the hand whenever it may
        for game_no in range(1, 16):
            events: dict[int, list[dict[str, Any]]] = {id(c): [] for c in [*clients, watcher]}

            async def run(
                c: Client,
                choose: Any,
                game_no: int = game_no,
                events: dict[int, list[dict[str, Any]]] = events,
            ) -> None:
                acted: tuple[int, int] | None = None
                while True:
                    st = c.state
                    if st is not None and st["game_no"] == game_no:
                        if st["table"]["status"] == "finished":
                            return
                        if c.my_turn and st["table"]["status"] == "playing":
                            key = (st["game_no"], st["version"])
                            if key != acted:
                                acted = key
                                action = choose(st["game"]["legal"])
                                msg = {"type": "action", "action": action, "version": key[1]}
                                await c.send(msg)
                    msg = await c.recv(20)
                    if msg["type"] == "state" and msg["game_no"] == game_no:
                        events[id(c)].extend(msg["events"])

            players = [run(caller, _caller_first)] + [run(c, passive) for c in clients[1:]]
            await asyncio.wait_for(asyncio.gather(*players, run(watcher, passive)), 60)
            paid = [
                e
                for e in events[id(caller)]
                if e["type"] == "paid" and e["reason"] == "caller did not win"
            ]
            if paid:
                amount = paid[0]["amount"]
                assert paid[0]["text"]["en"] == (
                    f"You pay {amount} to the sabacc pot: you called the hand and did not win"
                )
                assert paid[0]["text"]["ja"].startswith(f"あなたは {amount} をサバックポットに払う")
                seen = [e for e in events[id(watcher)] if e["type"] == "paid"]
                assert any(
                    e["text"]["en"] == f"P0 pays {amount} to the sabacc pot: called the hand and "
                    "did not win"
                    for e in seen
                )
                break
            await caller.send({"type": "new_game"})
        else:  # pragma: no cover - fifteen games without a losing caller
            raise AssertionError("the caller never lost")
        for c in [*clients, watcher]:
            await c.close()

    asyncio.run(main())
