"""Vectorized environment speed: steps/s of many heads-up Corellian Spike games stepped at once.

    bash benchmarks/rl.sh --vector      # .bench-venv with sabacc[rl,bench] (pgx, jax CPU)
    python benchmarks/bench_vector.py   # in any environment; pgx is skipped if absent

What is measured: :class:`sabacc.apps.rl.vector.VectorEnv` (heads-up Corellian Spike, one hand
per episode, auto-reset, ``copy=False``) at each ``--batch`` size. A step is one
``env.step(actions)`` call over the whole batch: every game plays one action and gets its
observation (172 float32), mask (57 int8), player and rewards written, finished games are
re-dealt. It counts ``batch`` steps. The random legal actions are drawn by ``env.sample(rng)``
(one draw from the NumPy generator per batch, then a uniform legal index per game picked in C
from its mask), *outside* the timed part: only the environment step is timed ("step only");
"with sampler" times both, for reference.

Beside it, in the same run and on the same core, pgx's Leduc Hold'em (``pgx.make("leduc_holdem")``,
JAX on CPU, ``jax.jit(jax.vmap(auto_reset(env.step, env.init)))``) at the same batch sizes,
also timed on the step alone (its random legal actions are drawn by a separate jitted
function, outside the timing, and every step is waited for with ``block_until_ready``); and the
scalar compiled environment (:class:`sabacc.apps.rl.TableCore` on the compiled core, one game at
a time, with observation vectors and masks) as a reference for what the batching buys.

Every figure is the median of ``--repeats`` timed runs of ``--steps`` batch steps, the runs
interleaved so that a shared machine's load weighs on all alike; rates are given in wall-clock
time and in CPU time of the process (``time.process_time``, all its threads: JAX computes on
its own; on a shared machine, the other processes' load counts less in it). Run it pinned to
one core (``taskset -c 1``); JAX is told to use one thread.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

os.environ.setdefault(
    "XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
)
os.environ.setdefault("JAX_PLATFORMS", "cpu")

Timer = Callable[[], tuple[float, float]]  # one timed run: (wall seconds, cpu seconds)


def sabacc_runner(
    batch: int, steps: int, seed: int
) -> tuple[Callable[[], tuple[float, float]], Callable[[], tuple[float, float]]]:
    """(step only, with sampler) timers for the vectorized Spike environment."""
    from sabacc.apps.rl.vector import VectorEnv

    env = VectorEnv("spike", num_envs=batch, num_players=2, copy=False)
    env.reset(seeds=np.arange(seed, seed + batch, dtype=np.uint64))
    rng = np.random.default_rng(seed)
    for _ in range(20):  # warm up: the batch reaches its steady mix of fresh and old games
        env.step(env.sample(rng))

    def step_only() -> tuple[float, float]:
        wall = cpu = 0.0
        for _ in range(steps):
            actions = env.sample(rng)
            w, c = time.perf_counter(), time.process_time()
            env.step(actions)
            wall += time.perf_counter() - w
            cpu += time.process_time() - c
        return wall, cpu

    def with_sampler() -> tuple[float, float]:
        w, c = time.perf_counter(), time.process_time()
        for _ in range(steps):
            env.step(env.sample(rng))
        return time.perf_counter() - w, time.process_time() - c

    return step_only, with_sampler


def pgx_runner(batch: int, steps: int, seed: int) -> Callable[[], tuple[float, float]] | None:
    """The step-only timer of pgx's Leduc Hold'em, or None if pgx/jax are not installed."""
    try:
        import jax
        import jax.numpy as jnp
        import pgx
        from pgx.experimental import auto_reset
    except ImportError:
        return None
    env = pgx.make("leduc_holdem")
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))

    @jax.jit
    def act(key: Any, mask: Any) -> Any:
        logits = jnp.where(mask, 0.0, -jnp.inf)
        return jax.random.categorical(key, logits, axis=-1)

    key = jax.random.PRNGKey(seed)
    key, sub = jax.random.split(key)
    state = init(jax.random.split(sub, batch))
    box = [state, key]

    def one(state: Any, key: Any) -> tuple[Any, Any, Any]:
        key, k1, k2 = jax.random.split(key, 3)
        action = act(k1, state.legal_action_mask)
        return action, jax.random.split(k2, batch), key

    for _ in range(5):  # compile and warm up
        action, keys, key = one(box[0], box[1])
        box[0] = step(box[0], action, keys)
        box[1] = key
    jax.block_until_ready(box[0])

    def step_only() -> tuple[float, float]:
        wall = cpu = 0.0
        for _ in range(steps):
            action, keys, box[1] = one(box[0], box[1])
            jax.block_until_ready((action, keys))
            w, c = time.perf_counter(), time.process_time()
            box[0] = step(box[0], action, keys)
            jax.block_until_ready(box[0])
            wall += time.perf_counter() - w
            cpu += time.process_time() - c
        return wall, cpu

    return step_only


def scalar_runner(steps: int, seed: int) -> Callable[[], tuple[float, float]]:
    """The scalar compiled environment: TableCore decisions with vectors and masks."""
    import sabacc.apps.rl

    core = sabacc.apps.rl.TableCore("spike", 2, engine="compiled", rotate_seats=False)
    rng = random.Random(seed)
    core.reset(seed)

    def run() -> tuple[float, float]:
        w, c = time.perf_counter(), time.process_time()
        for _ in range(steps):
            if core.over:
                core.reset()
            seat = core.current_seat()
            assert seat is not None
            core.observe(seat)
            mask = core.mask(seat)
            legal = np.flatnonzero(mask)
            core.apply_index(int(legal[int(rng.random() * len(legal))]))
        return time.perf_counter() - w, time.process_time() - c

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--batch", type=int, nargs="+", default=[1024, 8192])
    parser.add_argument(
        "--steps",
        type=int,
        default=0,
        help="batch steps per timed run (default: about 1M game steps)",
    )
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-pgx", action="store_true", help="skip pgx even if installed")
    parser.add_argument("--json", action="store_true", help="print the results as JSON too")
    args = parser.parse_args()

    runs: dict[str, tuple[Timer, int]] = {}
    for b in args.batch:
        n = args.steps or max(1, 1_000_000 // b)
        only, sampled = sabacc_runner(b, n, args.seed)
        runs[f"sabacc VectorEnv spike 2p, batch {b}, step only"] = (only, n * b)
        runs[f"sabacc VectorEnv spike 2p, batch {b}, with sampler"] = (sampled, n * b)
        if not args.no_pgx:
            pgx_run = pgx_runner(b, n, args.seed)
            if pgx_run is not None:
                runs[f"pgx leduc_holdem, batch {b}, step only"] = (pgx_run, n * b)
    runs["sabacc TableCore spike 2p (scalar, compiled)"] = (
        scalar_runner(50_000, args.seed),
        50_000,
    )
    if args.no_pgx or not any(name.startswith("pgx") for name in runs):
        print("pgx not measured (pip install pgx 'jax[cpu]' to compare)")

    results: dict[str, list[tuple[float, float]]] = {name: [] for name in runs}
    for _ in range(args.repeats):  # interleaved
        for name, (run, _count) in runs.items():
            results[name].append(run())
    print(f"{'configuration':58} {'steps/s wall':>14} {'steps/s cpu':>14}")
    table = {}
    for name, (_run, count) in runs.items():
        wall = statistics.median(count / w for w, _ in results[name])
        cpu = statistics.median(count / c for _, c in results[name] if c > 0)
        table[name] = {"steps_per_s_wall": round(wall), "steps_per_s_cpu": round(cpu)}
        print(f"{name:58} {wall:14,.0f} {cpu:14,.0f}")
    if args.json:
        print(json.dumps(table, indent=2))


if __name__ == "__main__":
    main()
