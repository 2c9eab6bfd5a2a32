"""CPU to build the state messages of tables after each action, without any network.

    PYTHONPATH=src python benchmarks/bench_server_views.py [--deltas]       # this tree
    PYTHONPATH=/path/to/old/src python benchmarks/bench_server_views.py     # another, to compare

``--tables`` Corellian Spike tables (20) of six seated connections each, played in turns as
``load_server.py``'s clients play (the same choice of action, a seed per table) for
``--actions`` actions each (100); after every action each connection is sent the state
(``sabacc.apps.server.messages.state``). Prints the CPU time (``time.process_time``) per
action for the six messages, best of ``--repeat`` runs (3; the server's memo of rendered runs,
if the tree has one, emptied before each), and their bytes. ``--deltas``: the connections
asked for deltas (after the first whole state, only what changed; a tree without them ignores
the flag and says so).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from pathlib import Path
from typing import Any

import sabacc
from sabacc.apps.server import messages
from sabacc.apps.server.auth import hash_token
from sabacc.apps.server.connection import Connection
from sabacc.apps.server.settings import Settings
from sabacc.apps.server.table import Table
from sabacc.services.store import SeatRecord

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_server import choose  # the load clients' choice of action

SEATS = 6


def make_table(t: int, deltas: bool) -> tuple[Table, list[Connection]]:
    tokens = [f"t{t}-{i}" for i in range(SEATS)]
    seats = [
        SeatRecord(position=i, kind="human", name=f"p{i}", token_hash=hash_token(tokens[i]))
        for i in range(SEATS)
    ]
    table = Table(
        id=t, code=f"BENCH{t}", name="bench", variant="corellian_spike", options={},
        turn_timer=0.0, listed=False, host_hash=hash_token(tokens[0]), status="playing",
        games_played=1, created_at=0.0, seats=seats,
    )  # fmt: skip
    table.game = sabacc.new_game(
        "corellian_spike",
        players=[f"p{i}" for i in range(SEATS)],
        seed=t,
        game_end="hands:1000",
        buy_in=100_000,  # as load_server.py's tables
    )
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
    return table, conns


async def one_run(deltas: bool, tables: int, actions: int) -> tuple[float, float]:
    memo: Any = getattr(messages, "RUNS", None)
    if memo is not None:  # rendered runs are remembered across tables: start with none
        memo.runs.clear()
    made = [make_table(t, deltas) for t in range(tables)]
    rngs = [random.Random(t) for t in range(tables)]
    for _table, conns in made:  # each connection's first (whole) state
        for conn in conns:
            messages.state(conn, 0.0)
    spent, n, size = 0.0, 0, 0
    for _ in range(actions):
        for (table, conns), rng in zip(made, rngs, strict=True):
            game = table.game
            assert game is not None
            if game.is_over:
                continue
            legal = game.observation(game.current_player)["legal"]
            game.apply(choose(legal, rng))  # type: ignore[arg-type]
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
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--actions", type=int, default=100, help="actions per table")
    ap.add_argument("--repeat", type=int, default=3, help="runs (the best is printed)")
    args = ap.parse_args()
    deltas = args.deltas and hasattr(Connection(Settings(), _empty()), "deltas")
    if args.deltas and not deltas:
        print("(this tree has no deltas: whole states)")
    best, size = min(
        asyncio.run(one_run(deltas, args.tables, args.actions)) for _ in range(args.repeat)
    )
    kind = "delta" if deltas else "state"
    print(f"{best * 1000:.3f} ms of CPU per action for {SEATS} {kind} messages, {size:.0f} bytes")


def _empty() -> Table:
    return Table(
        id=0, code="X", name="", variant="corellian_spike", options={}, turn_timer=0.0,
        listed=False, host_hash="", status="waiting", games_played=0, created_at=0.0, seats=[],
    )  # fmt: skip


if __name__ == "__main__":
    main()
