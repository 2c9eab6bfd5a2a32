"""The load benchmark's server trace (``SABACC_TRACE``) and the writer's wake-up."""

from __future__ import annotations

import asyncio
import gc
import json
from pathlib import Path

from sabacc.apps.server import trace
from sabacc.apps.server.connection import Wake


def test_trace_is_off_without_the_variable() -> None:
    # the test run does not set SABACC_TRACE: nothing is timed
    assert trace.TRACE is None


def test_trace_summarises_each_step(tmp_path: Path) -> None:
    out = tmp_path / "trace.json"
    t = trace.ActionTrace(str(out))
    try:
        for i in range(100):
            base = float(i)
            # recv, locked, applied, committed, built, sent: 1, 2, 3 + i/1000, 4, 5 ms apart
            steps = [0.0, 0.001, 0.003, 0.006 + i / 1e6, 0.010, 0.015]
            t.done({p: base + d for p, d in zip(trace.POINTS, steps, strict=True)})
        t.done({"recv": 0.0})  # an action refused before it was applied: not counted
        t.batches.extend([1, 3])
        t.write()
    finally:
        gc.callbacks.remove(t._gc)
    summary = json.loads(out.read_text())
    assert summary["actions"] == 100
    steps = summary["steps_ms"]
    assert abs(steps["recv->locked"]["p50"] - 1.0) < 1e-6
    assert abs(steps["built->sent"]["max"] - 5.0) < 1e-6
    assert 3.0 <= steps["applied->committed"]["p50"] <= 3.1
    assert abs(steps["recv->sent"]["p99"] - 15.0) < 1e-6
    assert summary["commit_batch"] == {"count": 2, "mean": 2.0, "max": 3}


def test_trace_times_the_collector(tmp_path: Path) -> None:
    t = trace.ActionTrace(str(tmp_path / "t.json"))
    try:
        gc.collect()
    finally:
        gc.callbacks.remove(t._gc)
    assert t.gc_by_generation[2] and all(p >= 0 for p in t.gc_pauses)


def test_wake_is_an_event_for_one_waiter() -> None:
    async def scenario() -> list[str]:
        seen: list[str] = []
        wake = Wake()
        wake.set()
        await wake.wait()  # already set: no wait
        seen.append("set before")
        wake.clear()
        assert not wake.is_set()

        async def waiter() -> None:
            await wake.wait()
            seen.append("woken")

        task = asyncio.create_task(waiter())
        await asyncio.sleep(0.01)
        assert seen == ["set before"]  # cleared: still waiting
        wake.set()
        await asyncio.wait_for(task, 1)
        wake.set()  # set again with nobody waiting: harmless
        return seen

    assert asyncio.run(scenario()) == ["set before", "woken"]


def test_a_cancelled_wait_leaves_the_wake_usable() -> None:
    async def scenario() -> bool:
        wake = Wake()
        task = asyncio.create_task(wake.wait())
        await asyncio.sleep(0)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        wake.set()  # no waiter left to wake
        await asyncio.wait_for(wake.wait(), 1)
        return wake.is_set()

    assert asyncio.run(scenario())
