"""Another table's action latency during a sign-up flood (issue 31, S4).

    python benchmarks/signup_flood.py --flooders 16 --rate 2 --seconds 15

Starts ``sabacc serve`` twice on loopback, one after the other: **unbounded** (the password
limits lifted, hashing in 6 threads with no queue bound: what asyncio's default threads gave
before S4) and **bounded** (the defaults: per-address and site-wide throttles, one hashing
thread, 8 waiting). Each time, two people play a table (passive moves, send to the state that
holds the move) first alone for ``--seconds``, then while ``--flooders`` clients post sign-ups,
``--rate`` a second each (the same offered load for both servers), each from its own address
(``X-Forwarded-For`` through a trusted proxy on loopback: the worst case for per-address
limits). Reports each phase's p50/p99, the flood's answers by status, the server's peak memory,
and the bounded/unbounded ratio of the flood's p50 and p99. Reads the test suite's helpers (run
it from the repository root).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.apps.server.helpers import UNLIMITED, ServerProcess, seat_table, timed_passive_moves

COMMON = [*UNLIMITED, "--rate", "1000", "--burst", "1000", "--trusted-proxy", "127.0.0.1"]
UNBOUNDED = [
    "--signups-per-hour", "0", "--logins-per-minute", "0", "--auth-rate", "0",
    "--hash-workers", "6", "--hash-queue", "0",
]  # fmt: skip
OPTIONS = {"game_end": "hands:100000", "buy_in": "100000"}


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000 if xs else float("nan")


async def flood(
    server: ServerProcess, n: int, rate: float, stop: asyncio.Event, got: Counter[int]
) -> None:
    """``n`` clients posting sign-ups, each at most ``rate`` a second (0: back to back), so
    both servers are offered the same load however fast they answer."""
    names = itertools.count()

    async def one(k: int) -> None:
        async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:
            csrf = (await http.get("/api/me")).json()["csrf"]
            due = time.monotonic()
            while not stop.is_set():
                if rate > 0:
                    due += 1.0 / rate
                    await asyncio.sleep(max(0.0, due - time.monotonic()))
                i = next(names)
                address = f"10.{k}.{i // 250}.{i % 250}"
                r = await http.post(
                    "/api/account/signup",
                    json={"username": f"flood{i}", "password": "correct horse battery"},
                    headers={"X-CSRF-Token": csrf, "X-Forwarded-For": address},
                )
                got[r.status_code] += 1

    await asyncio.gather(*(one(k) for k in range(n)))


async def measure(server: ServerProcess, args: argparse.Namespace) -> dict[str, Any]:
    assert server.proc is not None
    pid = server.proc.pid
    _, clients = await seat_table(server, ["human", "human"], options=OPTIONS, turn_timer=0)
    quiet = await timed_passive_moves(args.seconds, clients, timeout=30)
    stop = asyncio.Event()
    got: Counter[int] = Counter()
    peak = [rss_mb(pid)]

    async def sample() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], rss_mb(pid))
            await asyncio.sleep(0.2)

    flooding = asyncio.gather(flood(server, args.flooders, args.rate, stop, got), sample())
    await asyncio.sleep(1.0)  # the flood under way
    busy = await timed_passive_moves(args.seconds, clients, timeout=30)
    stop.set()
    await flooding
    for c in clients:
        await c.close()
    return {
        "quiet_ms": {"p50": round(pct(quiet, 0.5), 1), "p99": round(pct(quiet, 0.99), 1),
                     "n": len(quiet)},
        "flood_ms": {"p50": round(pct(busy, 0.5), 1), "p99": round(pct(busy, 0.99), 1),
                     "n": len(busy)},
        "signups": dict(sorted(got.items())),
        "peak_rss_mb": round(peak[0], 1),
        "median_ms": round(statistics.median(busy) * 1000, 1) if busy else None,
    }  # fmt: skip


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--flooders", type=int, default=16, help="clients posting sign-ups at once")
    ap.add_argument(
        "--rate", type=float, default=2.0, help="sign-ups a second per flooder (0: back to back)"
    )
    ap.add_argument("--seconds", type=float, default=15.0, help="seconds of play per phase")
    args = ap.parse_args(argv)
    report: dict[str, Any] = {
        "flooders": args.flooders,
        "rate_per_flooder": args.rate,
        "seconds": args.seconds,
    }
    with tempfile.TemporaryDirectory() as tmp:
        for name, extra in (("unbounded", [*COMMON, *UNBOUNDED]), ("bounded", COMMON)):
            server = ServerProcess(Path(tmp) / f"{name}.db", extra=extra).start()
            try:
                report[name] = asyncio.run(measure(server, args))
            finally:
                server.stop()
    u, b = report["unbounded"]["flood_ms"], report["bounded"]["flood_ms"]
    report["bounded_over_unbounded"] = {
        "p50": round(b["p50"] / u["p50"], 3),
        "p99": round(b["p99"] / u["p99"], 3),
    }
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
