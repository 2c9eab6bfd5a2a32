"""Where an action's time goes in the server, for the load benchmark: off unless the
environment variable ``SABACC_TRACE`` names a file when the server starts.

When on, every client action is timed at six points (``time.perf_counter``):

- ``recv``: its WebSocket message handed to the endpoint's loop (parsed by uvicorn);
- ``locked``: its table's lock held (after the JSON and the schema checks, and any change of
  the same table before it);
- ``applied``: the engine has applied it;
- ``committed``: the group commit that stores it has committed (the answer back on the loop);
- ``built``: the acting connection's writer starts building its next message;
- ``sent``: that message handed to the socket.

and the event loop's lag (how late a 5 ms sleep wakes) and the garbage collector's pauses are
sampled all along. Every 2 s (and at exit) the percentiles of each step (and of the whole)
are written to the file as one JSON object (``benchmarks/load_server.py --trace`` reads it
back). When off, the cost is one ``is None`` test per action and per sent state.
"""

from __future__ import annotations

import asyncio
import atexit
import gc
import json
import os
import time
from typing import Any

#: The steps, in order (see the module's docstring).
POINTS = ("recv", "locked", "applied", "committed", "built", "sent")


class ActionTrace:
    """The timings of every traced action, written out at exit."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.rows: list[tuple[float, ...]] = []
        self.lags: list[float] = []
        self.gc_pauses: list[float] = []
        self.gc_by_generation: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self.gc_collected = [0, 0, 0]
        self.batches: list[int] = []
        self.commits: list[float] = []  # how long each group commit took (on its thread)
        self._gc_start = 0.0
        self._sampler: asyncio.Task[None] | None = None
        gc.callbacks.append(self._gc)
        atexit.register(self.write)

    def _gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_start = time.perf_counter()
        else:
            pause = time.perf_counter() - self._gc_start
            self.gc_pauses.append(pause)
            generation = int(info.get("generation", 0))
            self.gc_by_generation.setdefault(generation, []).append(pause)
            self.gc_collected[generation] += int(info.get("collected", 0))

    def start_sampler(self) -> None:
        """Sample the event loop's lag every 5 ms (started by the first traced action)."""
        if self._sampler is None:
            self._sampler = asyncio.get_running_loop().create_task(self._sample())

    async def _sample(self) -> None:
        written = time.perf_counter()
        while True:
            t = time.perf_counter()
            await asyncio.sleep(0.005)
            self.lags.append(time.perf_counter() - t - 0.005)
            if t - written > 2.0:  # the server may be stopped by a signal: no exit hook
                self.write()
                written = time.perf_counter()

    def done(self, marks: dict[str, float]) -> None:
        """One action's marks (every point of :data:`POINTS`)."""
        if all(p in marks for p in POINTS):
            self.rows.append(tuple(marks[p] for p in POINTS))

    def summary(self) -> dict[str, Any]:
        def pct(values: list[float]) -> dict[str, float]:
            if not values:
                return {}
            v = sorted(values)
            n = len(v) - 1
            return {f"p{q}": round(v[round(q / 100 * n)] * 1000, 3) for q in (50, 90, 99)} | {
                "max": round(v[-1] * 1000, 3),
                "mean": round(sum(v) / len(v) * 1000, 3),
            }

        steps: dict[str, Any] = {}
        for i in range(1, len(POINTS)):
            steps[f"{POINTS[i - 1]}->{POINTS[i]}"] = pct([r[i] - r[i - 1] for r in self.rows])
        steps["recv->sent"] = pct([r[-1] - r[0] for r in self.rows])
        # the slowest 1 %: which steps their time went to (mean ms per step)
        slow = sorted(self.rows, key=lambda r: r[-1] - r[0])[-max(1, len(self.rows) // 100) :]
        tail = (
            {
                f"{POINTS[i - 1]}->{POINTS[i]}": round(
                    sum(r[i] - r[i - 1] for r in slow) / len(slow) * 1000, 3
                )
                for i in range(1, len(POINTS))
            }
            if self.rows
            else {}
        )
        return {
            "actions": len(self.rows),
            "steps_ms": steps,
            "slowest_1pct_mean_ms": tail,
            "loop_lag_ms": pct(self.lags),
            "gc_pause_ms": pct(self.gc_pauses) | {"count": len(self.gc_pauses)},
            "gc_total_ms": round(sum(self.gc_pauses) * 1000, 1),
            "gc_by_generation": {
                str(g): {"count": len(p), "total_ms": round(sum(p) * 1000, 1)}
                | ({"max_ms": round(max(p) * 1000, 1)} if p else {})
                for g, p in self.gc_by_generation.items()
            },
            "gc_collected": self.gc_collected,
            "commit_ms": pct(self.commits),
            "commit_batch": {
                "count": len(self.batches),
                "mean": round(sum(self.batches) / len(self.batches), 1) if self.batches else 0,
                "max": max(self.batches, default=0),
            },
        }

    def write(self) -> None:
        try:
            with open(self.path, "w") as out:
                json.dump(self.summary(), out)
        except OSError:  # the benchmark's directory is gone: nobody reads it now
            pass


def _from_environment() -> ActionTrace | None:
    path = os.environ.get("SABACC_TRACE")
    return ActionTrace(path) if path else None


#: The server's trace, or None (the usual case: nothing is timed).
TRACE: ActionTrace | None = _from_environment()


def now() -> float:
    return time.perf_counter()
