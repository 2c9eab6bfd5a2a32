"""RL environment speed: PettingZoo AEC steps/s with random masked actions, per variant.

Run it in the benchmark environment, which also holds the reference (PettingZoo's
``texas_holdem_v4``, which needs ``rlcard``):

    bash benchmarks/rl.sh               # .bench-venv with sabacc[rl] + rlcard, then runs this
    python benchmarks/bench_rl.py       # in any environment; the reference is skipped if absent

A step is one ``env.step`` of the usual loop, ``env.last()`` (observation and mask of the agent
to act) included; the episode-end steps of dead agents count too, like in any AEC loop. The
action is drawn uniformly among the legal indices of the mask (with Python's ``random``, not
``action_space.sample(mask)``, which costs more than a step). Every figure is the median of
``--repeats`` timed runs of ``--steps`` steps on one core; ``reset`` is inside the timing. The
runs are interleaved (each configuration once, then each again...) so that a shared machine's
load weighs on all of them alike. Rates are given in wall-clock time and in CPU time of the
process (``time.process_time``: on a shared machine, the other processes' load counts less in
it).

Every variant with a compiled core (``VariantInfo.compiled``) is measured on both engines
(``engine="python"``, the reference, and ``engine="compiled"``, when it is built); the others
on the reference engine, the only one they have.

"engine only" is the same random play through :class:`sabacc.apps.rl.TableCore` without the
PettingZoo layer and without observations (the game engine plus the action table): what the
environment costs on top of the engine is the difference.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

VARIANTS = ("corellian_spike", "surabat_cycle", "coruscant_shift", "classic")


def run_aec(make_env: Callable[[], Any], steps: int, seed: int = 0) -> tuple[int, float, int]:
    """``steps`` steps of the AEC loop with random masked actions: (steps, seconds, episodes)."""
    env = make_env()
    rng = random.Random(seed)
    flatnonzero = np.flatnonzero
    episodes = 0
    done = 0
    env.reset(seed=seed)
    while done < steps:
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                action = None
            else:
                mask = obs["action_mask"] if isinstance(obs, dict) else _info["action_mask"]
                legal = flatnonzero(mask)
                action = int(legal[int(rng.random() * len(legal))])
            env.step(action)
            done += 1
            if done >= steps:
                break
        else:
            episodes += 1
            env.reset()
    return done, 0.0, episodes


def run_engine(
    variant: str, players: int, steps: int, seed: int = 0, engine: str = "auto"
) -> tuple[int, float, int]:
    """The same random play without PettingZoo and observations (decisions, 0, hands)."""
    import sabacc.apps.rl

    core = sabacc.apps.rl.TableCore(variant, players, engine=engine)
    rng = random.Random(seed)
    flatnonzero = np.flatnonzero
    hands = 0
    core.reset(seed)
    for _ in range(steps):
        if core.over:
            hands += 1
            core.reset()
        legal = flatnonzero(core.decision()[3])
        core.apply_index(int(legal[int(rng.random() * len(legal))]))
    return steps, 0.0, hands


Run = Callable[[int], tuple[int, float, int]]


def bench_all(runs: dict[str, Run], repeats: int) -> dict[str, dict[str, Any]]:
    """Median rates of ``repeats`` runs of each ``run(seed)``, wall-clock and CPU time.

    The runs are interleaved (every configuration once, then again...), so that the load of
    a shared machine weighs on every configuration alike.
    """
    wall: dict[str, list[float]] = {key: [] for key in runs}
    cpu: dict[str, list[float]] = {key: [] for key in runs}
    lengths: dict[str, list[float]] = {key: [] for key in runs}
    for r in range(repeats):
        for key, run in runs.items():
            w, c = time.perf_counter(), time.process_time()
            n, _, episodes = run(r)
            wall[key].append(n / (time.perf_counter() - w))
            cpu[key].append(n / (time.process_time() - c))
            if episodes:
                lengths[key].append(n / episodes)
    return {
        key: {
            "steps_per_s": statistics.median(wall[key]),
            "steps_per_cpu_s": statistics.median(cpu[key]),
            "steps_per_episode": statistics.mean(lengths[key]) if lengths[key] else float("nan"),
            "runs_steps_per_s": wall[key],
        }
        for key in runs
    }


def texas_holdem() -> Callable[[], Any] | None:
    try:
        from pettingzoo.classic import texas_holdem_v4
    except Exception:  # rlcard missing (DependencyNotInstalled) or any import failure
        return None
    return lambda: texas_holdem_v4.env(num_players=2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--steps", type=int, default=20_000, help="steps per timed run")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=VARIANTS)
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = parser.parse_args()

    import sabacc.apps.rl
    import sabacc.variants.compiled

    steps = args.steps
    engines = ["python"] + (["compiled"] if sabacc.variants.compiled.available() else [])
    # (variant, engine) pairs: each variant on the reference engine, and on its compiled core
    # when it has one and it is built.
    plays = [
        (v, e)
        for v in args.variants
        for e in ["python", "compiled"]
        if e == "python" or sabacc.variants.compiled.available(v)
    ]
    for variant, engine in plays:  # warm up: the Spike hand table is built on first use
        run_aec(lambda v=variant, e=engine: sabacc.apps.rl.env(v, 2, engine=e), 500)
    runs: dict[str, Run] = {}
    labels: dict[str, str] = {}
    for variant, engine in plays:
        for players in args.players:
            key = f"{variant}_{players}p_{engine}"
            runs[key] = lambda seed, v=variant, p=players, e=engine: run_aec(
                lambda: sabacc.apps.rl.env(v, p, engine=e), steps, seed
            )
            labels[key] = f"{variant} {players}p env ({engine})"
            runs[f"{key}_engine_only"] = lambda seed, v=variant, p=players, e=engine: run_engine(
                v, p, steps, seed, e
            )
            labels[f"{key}_engine_only"] = f"{variant} {players}p engine only ({engine})"
    ref = texas_holdem()
    if ref is not None:
        runs["texas_holdem_v4_2p"] = lambda seed: run_aec(ref, steps, seed)
        labels["texas_holdem_v4_2p"] = "texas_holdem_v4 2p env (reference)"
    measured = bench_all(runs, args.repeats)
    results: dict[str, Any] = {"repeats": args.repeats, "steps": steps, **measured}
    for key, r in measured.items():
        unit = "decisions" if key.endswith("_engine_only") else "steps"
        print(
            f"{labels[key]:>44}: {r['steps_per_s']:>9,.0f} {unit}/s "
            f"({r['steps_per_cpu_s']:>7,.0f} per CPU s; {r['steps_per_episode']:.1f} per hand)"
        )
    if ref is None:
        print("reference: texas_holdem_v4 unavailable (needs rlcard: bash benchmarks/rl.sh)")
        results["texas_holdem_v4_2p"] = None
    elif "corellian_spike" in args.variants:
        texas = measured["texas_holdem_v4_2p"]["steps_per_s"]
        for engine in engines:
            for players in args.players:
                spike = measured[f"corellian_spike_{players}p_{engine}"]["steps_per_s"]
                results[f"spike_{players}p_{engine}_to_texas_holdem_ratio"] = spike / texas
                print(
                    f"ratio: Corellian Spike {players}p env ({engine}) ÷ texas_holdem_v4 env "
                    f"= {spike / texas:.2f}x"
                )
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=1)


if __name__ == "__main__":
    main()
