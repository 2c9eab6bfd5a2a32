"""What one wake-up of an idle event loop costs in CPU time, by how long it slept.

    python benchmarks/wake_cost.py [--cpu 0] [--wakes 2000]

An asyncio (uvloop, as ``sabacc serve`` runs) loop sleeps N times for each duration and prints
the thread's CPU time (``time.thread_time``) per wake-up. On a quiet physical host that is a few
microseconds whatever the sleep; on a virtual machine it can grow with the sleep, when an idle
virtual CPU is descheduled and resumes cold. It matters for the server's CPU per action
(``load_server.py``): a server that goes idle between actions pays it once per wake-up (a
client's message, a timer, the storage thread's answer), a busy one rarely.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time

SLEEPS_MS = (0.0, 0.2, 0.5, 0.8, 1.0, 1.5, 2.0, 3.0, 10.0)


async def per_wake(seconds: float, wakes: int) -> float:
    t0 = time.thread_time()
    for _ in range(wakes):
        await asyncio.sleep(seconds)
    return (time.thread_time() - t0) / wakes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cpu", type=int, help="pin to this CPU (as load_server.py pins a server)")
    ap.add_argument("--wakes", type=int, default=1000)
    args = ap.parse_args()
    if args.cpu is not None:
        os.sched_setaffinity(0, {args.cpu})
    try:
        import uvloop

        run = uvloop.run
    except ImportError:  # pragma: no cover - uvloop is in uvicorn[standard]
        run = asyncio.run
    for ms in SLEEPS_MS:
        cost = run(per_wake(ms / 1000, args.wakes))
        print(f"sleep {ms:5.1f} ms: {cost * 1e6:7.1f} us of CPU per wake-up")


if __name__ == "__main__":
    main()
