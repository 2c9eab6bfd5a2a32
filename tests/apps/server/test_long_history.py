"""A long game's hand history is replayed off the event loop: while several viewers step
through late hands of a game of many thousand actions, the server keeps answering at once.
A finished hand's frames are computed once (cached) and stay the same."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

import sabacc
from sabacc.services.store import ActionRecord, SeatRecord, Store
from tests.apps.server.helpers import ServerProcess
from tests.support import choose_small

ACTIONS = 12_000
OPTIONS: dict[str, Any] = {"game_end": "hands:100000", "buy_in": 1_000_000}  # nobody goes broke


def _long_game(db: Path) -> tuple[str, int]:
    """A table whose game is ACTIONS actions long, stored as the server stores one."""
    store = Store(f"sqlite:///{db}")
    try:
        players = ["Ann", "Ben", "Cat"]
        table = store.create_table(
            code="LONG42",
            name="long",
            variant="corellian_spike",
            options=OPTIONS,
            turn_timer=0.0,
            listed=True,
            host_hash="0" * 64,
            seats=[SeatRecord(i, "human", name=n) for i, n in enumerate(players)],
        )
        game = sabacc.new_game("spike", players=players, seed=9, **OPTIONS)
        rec = store.start_game(
            table.id, number=1, variant="corellian_spike", options=OPTIONS,
            seed=9, players=players, seat_tokens=[None] * 3, bots=[None] * 3,
            stacks=list(game.stacks), hands=game.hand_no,
        )  # fmt: skip
        rng = random.Random(9)
        while len(game.actions) < ACTIONS and not game.is_over:
            seat, hand = game.current_player, game.hand_no
            assert seat is not None
            game.apply(choose_small(rng, game), seat=seat)
            store.record_action(
                table.id,
                rec.id,
                ActionRecord(len(game.actions) - 1, seat, game.actions[-1][1], hand),
                stacks=list(game.stacks),
                hands=game.hand_no,
            )
        assert not game.is_over and game.hand_no > 20
        return table.code, game.hand_no - 1
    finally:
        store.close()


@pytest.mark.timing
def test_long_replays_do_not_stall_the_server(tmp_path: Path) -> None:
    db = tmp_path / "long.db"
    code, last = _long_game(db)
    srv = ServerProcess(db).start()
    try:
        hands = [last, last - 1, last - 2, last - 3]

        async def main() -> tuple[float, float, list[dict[str, object]]]:
            async with httpx.AsyncClient(base_url=srv.base, timeout=60) as http:
                started = time.monotonic()
                frames = [
                    asyncio.create_task(http.get(f"/api/tables/{code}/games/1/hands/{h}"))
                    for h in hands
                ]
                worst = 0.0
                while not all(f.done() for f in frames):
                    t = time.monotonic()
                    assert (await http.get("/healthz")).status_code == 200
                    worst = max(worst, time.monotonic() - t)
                    await asyncio.sleep(0.02)
                took = time.monotonic() - started
                return worst, took, [(await f).json() for f in frames]

        worst, took, docs = asyncio.run(main())
        assert all(len(d["frames"]) >= 2 for d in docs)  # type: ignore[arg-type]
        # Four replays of the whole game took a while; /healthz never waited for them.
        assert worst < max(0.25, took / 4), (worst, took)
        again = srv.get(f"/api/tables/{code}/games/1/hands/{last}").json()
        assert again == docs[0]
    finally:
        srv.stop()
