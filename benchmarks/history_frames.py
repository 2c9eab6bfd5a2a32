"""History frames of a long game, before and after snapshots (issue 31, S9).

    python benchmarks/history_frames.py --actions 70000 --every 500 --repeats 5 --seconds 20
    python benchmarks/history_frames.py --pg    # the same on PostgreSQL

Builds one game of ``--actions`` actions (Corellian Spike, 3 seats, passive-ish small bets so
nobody goes broke) in a real server database, stored as the server stores it: actions in group
commits of up to 500, the game's snapshot with every ``--every``-th action
(:func:`sabacc.apps.server.snapshots.due`, what ``Play`` calls); SQLite, or PostgreSQL with
``--pg``. Then:

1. **frame time**: the frames of the game's last finished hand, in-process, on the server's
   code path (:func:`sabacc.apps.server.history.hand_frames`, no cache): from the game's start
   (``from_snapshots=False``, before) and from the nearest snapshot (after); median and range
   over ``--repeats``; and how many actions each replayed.
2. **another table's latency**: ``sabacc serve`` on loopback (once on the database with
   snapshots; once after deleting them, with ``--history-snapshot-every 0``: as before them),
   two people playing another table (passive moves, each one's send-to-state time) for
   ``--seconds`` alone, then for ``--seconds`` while 4 viewers step through the long game's
   hands (each asks for a hand not asked before, so the frame cache never answers, at most
   every ``--pace`` seconds: before snapshots each request takes seconds, so 4 replays are
   always running, as in the audit). Reports p50/p99 of both phases, and the frames served.

The long table is marked finished after it is built, so no timer plays its open seats during
the measurement. Reads the test suite's helpers (run it from the repository root).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import delete, update

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.apps.server.helpers import (
    UNLIMITED,
    PgCluster,
    ServerProcess,
    empty_schema,
    seat_table,
    timed_passive_moves,
)
from tests.support import choose_small

import sabacc
from sabacc.apps.server import snapshots
from sabacc.apps.server.history import hand_frames
from sabacc.apps.server.table import table_from_record
from sabacc.services.store import ActionRecord, ActionWrite, SeatRecord, Store
from sabacc.services.store.models import GameSnapshotRow, TableRow

PLAYERS = ["Ann", "Ben", "Cat"]
LONG = {"game_end": "hands:1000000", "buy_in": 1_000_000}  # nobody goes broke
OTHER = {"game_end": "hands:100000", "buy_in": 100000}
SERVE = [*UNLIMITED, "--rate", "1000", "--burst", "1000"]


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, int(q * len(xs)))] * 1000, 1) if xs else float("nan")


def build(url: str, actions: int, every: int, seed: int) -> tuple[str, int]:
    """The long game in the database at ``url``; returns its table's code and its last
    finished hand."""
    store = Store(url)
    try:
        table = store.create_table(
            code="LONG70", name="long", variant="corellian_spike", options=LONG,
            turn_timer=0.0, listed=True, host_hash="0" * 64,
            seats=[SeatRecord(i, "human", name=n) for i, n in enumerate(PLAYERS)],
        )  # fmt: skip
        game = sabacc.new_game("corellian_spike", players=PLAYERS, seed=seed, **LONG)
        rec = store.start_game(
            table.id, number=1, variant="corellian_spike", options=LONG, seed=seed,
            players=PLAYERS, seat_tokens=[None] * 3, bots=[None] * 3,
            stacks=list(game.stacks), hands=game.hand_no,
        )  # fmt: skip
        rng = random.Random(seed)
        batch: list[ActionWrite] = []
        while len(game.actions) < actions and not game.is_over:
            seat, hand = game.current_player, game.hand_no
            assert seat is not None
            game.apply(choose_small(rng, game), seat=seat)
            record = ActionRecord(len(game.actions) - 1, seat, game.actions[-1][1], hand)
            snap = snapshots.due(game, every)
            batch.append(
                ActionWrite(
                    table.id, rec.id, record, list(game.stacks), game.hand_no, snapshot=snap
                )
            )
            if len(batch) == 500:
                store.record_actions(batch)
                batch = []
        store.record_actions(batch)
        assert not game.is_over
        with store.session.begin() as s:  # nothing plays it while we measure
            s.execute(update(TableRow).where(TableRow.id == table.id).values(status="finished"))
        return table.code, game.hand_no - 1
    finally:
        store.close()


def frame_times(url: str, code: str, hand: int, repeats: int) -> dict[str, Any]:
    """The last hand's frames from the start and from the nearest snapshot, timed."""
    store = Store(url)
    try:
        (rec,) = store.load_tables(code)
        table = table_from_record(rec)
        out: dict[str, Any] = {}
        docs = []
        for name, use in (("before_full_replay", False), ("after_snapshots", True)):
            times, replayed = [], 0
            for _ in range(repeats):
                steps = [0]

                def count(_game: Any, _n: int, steps: list[int] = steps) -> None:
                    steps[0] += 1

                t = time.perf_counter()
                doc = hand_frames(store, table, 1, hand, None, on_step=count, from_snapshots=use)
                times.append(time.perf_counter() - t)
                replayed = steps[0] - 1
            docs.append(doc)
            out[name] = {
                "median_s": round(statistics.median(times), 4),
                "min_s": round(min(times), 4),
                "max_s": round(max(times), 4),
                "actions_applied": replayed,
                "frames": len(doc["frames"]),
            }
        assert docs[0] == docs[1], "the frames from a snapshot differ from a whole replay"
        out["speedup"] = round(
            out["before_full_replay"]["median_s"] / out["after_snapshots"]["median_s"], 1
        )
        return out
    finally:
        store.close()


async def viewers(
    server: ServerProcess,
    code: str,
    last: int,
    pace: float,
    stop: asyncio.Event,
    served: list[float],
) -> None:
    """4 viewers stepping back through the long game's hands, each asking for a hand never
    asked before at most every ``pace`` seconds (the next one as soon as its frames arrive if
    they took longer), until ``stop``: the same offered load for both servers."""
    hands = iter(range(last, 0, -1))

    async def one(http: httpx.AsyncClient) -> None:
        for hand in hands:
            if stop.is_set():
                return
            t = time.monotonic()
            r = await http.get(f"/api/tables/{code}/games/1/hands/{hand}")
            r.raise_for_status()
            served.append(time.monotonic() - t)
            await asyncio.sleep(max(0.0, t + pace - time.monotonic()))

    async with httpx.AsyncClient(base_url=server.base, timeout=300) as http:
        await asyncio.gather(*(one(http) for _ in range(4)))


async def measure(
    server: ServerProcess, code: str, last: int, seconds: float, pace: float
) -> dict[str, Any]:
    _, clients = await seat_table(server, ["human", "human"], options=OTHER, turn_timer=0)
    quiet = await timed_passive_moves(seconds, clients)
    stop = asyncio.Event()
    served: list[float] = []
    frames = asyncio.create_task(viewers(server, code, last, pace, stop, served))
    await asyncio.sleep(0.5)  # the requests under way
    busy = await timed_passive_moves(seconds, clients)
    stop.set()
    await frames
    for c in clients:
        await c.close()
    return {
        "alone_ms": {"p50": pct(quiet, 0.5), "p99": pct(quiet, 0.99), "n": len(quiet)},
        "with_4_viewers_ms": {"p50": pct(busy, 0.5), "p99": pct(busy, 0.99), "n": len(busy)},
        "frames_served": len(served),
        "frame_request_p50_ms": pct(served, 0.5),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--actions", type=int, default=70_000, help="actions of the long game")
    ap.add_argument("--every", type=int, default=500, help="snapshot interval (the server's)")
    ap.add_argument("--repeats", type=int, default=5, help="timings of each frame path")
    ap.add_argument("--seconds", type=float, default=20.0, help="seconds of play per phase")
    ap.add_argument(
        "--pace", type=float, default=1.0, help="seconds between one viewer's frame requests"
    )
    ap.add_argument(
        "--pg", action="store_true", help="on PostgreSQL ($SABACC_TEST_PG_URL or a throwaway one)"
    )
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--no-server", action="store_true", help="only the in-process frame times")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        url = f"sqlite:///{Path(tmp) / 'long.db'}"
        if args.pg:
            url = os.environ.get("SABACC_TEST_PG_URL") or _throwaway_pg(stack)
            empty_schema(url)
        report = run(args, url, Path(tmp) / "long.db")
    print(json.dumps(report, indent=2))
    return report


def _throwaway_pg(stack: ExitStack) -> str:
    cluster = PgCluster.create()
    if cluster is None:
        raise SystemExit("PostgreSQL cannot run here (no psycopg, or no initdb)")
    stack.callback(cluster.remove)
    return cluster.url


def run(args: argparse.Namespace, url: str, path: Path) -> dict[str, Any]:
    """Build, time the frames, then the server with snapshots, then without them (deleted)."""
    report: dict[str, Any] = {"actions": args.actions, "every": args.every}
    report["database"] = url.split(":", 1)[0]
    t = time.perf_counter()
    code, last = build(url, args.actions, args.every, args.seed)
    report["build_s"] = round(time.perf_counter() - t, 1)
    report["last_hand"] = last
    report["frame"] = frame_times(url, code, last, args.repeats)
    print(json.dumps(report["frame"], indent=2), file=sys.stderr)
    if args.no_server:
        return report
    for name, every in (("after", args.every), ("before", 0)):
        if name == "before":  # the server before snapshots: none stored, none taken
            store = Store(url)
            with store.session.begin() as s:
                s.execute(delete(GameSnapshotRow))
            store.close()
        extra = [*SERVE, "--history-snapshot-every", str(every)]
        server = ServerProcess(path, extra=extra, db_url=url).start(timeout=600)
        try:
            report[name] = asyncio.run(measure(server, code, last, args.seconds, args.pace))
        finally:
            server.stop()
        print(json.dumps({name: report[name]}), file=sys.stderr)
    return report


if __name__ == "__main__":
    main()
