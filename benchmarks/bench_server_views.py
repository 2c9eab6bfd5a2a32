"""CPU to build the state messages of one table after each action, without any network.

    PYTHONPATH=src python benchmarks/bench_server_views.py            # this tree
    PYTHONPATH=/path/to/old/src python benchmarks/bench_server_views.py   # another, to compare

Six seated connections of a Corellian Spike table are each sent the state
(``sabacc.apps.server.messages.state``) after every action of a seeded 400-action game;
prints the CPU time (``time.process_time``) per action for the six messages, best of three,
and their bytes. ``--deltas``: the connections asked for deltas (after the first whole state,
only what changed; a tree without them ignores the flag and says so).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time

import sabacc
from sabacc.apps.server import messages
from sabacc.apps.server.auth import hash_token
from sabacc.apps.server.connection import Connection
from sabacc.apps.server.settings import Settings
from sabacc.apps.server.table import Table
from sabacc.services.store import SeatRecord

SEATS = 6
ACTIONS = 400


async def one_run(deltas: bool) -> tuple[float, float]:
    tokens = [f"t{i}" for i in range(SEATS)]
    seats = [
        SeatRecord(position=i, kind="human", name=f"p{i}", token_hash=hash_token(tokens[i]))
        for i in range(SEATS)
    ]
    table = Table(
        id=1, code="BENCH1", name="bench", variant="corellian_spike", options={},
        turn_timer=0.0, listed=False, host_hash=hash_token(tokens[0]), status="playing",
        games_played=1, created_at=0.0, seats=seats,
    )  # fmt: skip
    game = sabacc.new_game(
        "corellian_spike", players=[f"p{i}" for i in range(SEATS)], seed=1, game_end="hands:1000"
    )
    table.game = game
    conns = []
    for token in tokens:
        conn = Connection(Settings(), table)
        conn.token_hash = hash_token(token)
        conn.ready = True
        conn.game_no = 1
        if deltas:
            conn.deltas = True
        conns.append(conn)
        table.conns.add(conn)
    rng = random.Random(3)
    spent, n, size = 0.0, 0, 0
    for _ in range(ACTIONS):
        if game.is_over:
            break
        choices = game.legal_actions()
        game.apply(choices[rng.randrange(len(choices))])
        table.touch()
        t0 = time.process_time()
        sent = [messages.state(conn, 0.0) for conn in conns]
        spent += time.process_time() - t0
        n += 1
        size += sum(len(m.encode()) for m in sent)
    return spent / n, size / n


def main() -> None:
    game = sabacc.new_game("corellian_spike", players=2, seed=0)
    game.observation(0)  # warm the hand tables (built on first use)
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deltas", action="store_true")
    args = ap.parse_args()
    deltas = args.deltas and hasattr(Connection(Settings(), _empty()), "deltas")
    if args.deltas and not deltas:
        print("(this tree has no deltas: whole states)")
    best, size = min(asyncio.run(one_run(deltas)) for _ in range(3))
    kind = "delta" if deltas else "state"
    print(f"{best * 1000:.3f} ms of CPU per action for {SEATS} {kind} messages, {size:.0f} bytes")


def _empty() -> Table:
    return Table(
        id=0, code="X", name="", variant="corellian_spike", options={}, turn_timer=0.0,
        listed=False, host_hash="", status="waiting", games_played=0, created_at=0.0, seats=[],
    )  # fmt: skip


if __name__ == "__main__":
    main()
