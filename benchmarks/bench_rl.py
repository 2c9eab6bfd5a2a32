"""RL environment speed: PettingZoo AEC steps/s with random masked actions, per variant.

Run it in the benchmark environment, which also holds the reference (PettingZoo's
``texas_holdem_v4``, which needs ``rlcard``):

    bash benchmarks/rl.sh               # .bench-venv with sabacc[rl] + rlcard, then runs this
    python benchmarks/bench_rl.py       # in any environment; the reference is skipped if absent

A step is one ``env.step`` of the usual loop, ``env.last()`` (observation and mask of the agent
to act) included; the episode-end steps of dead agents count too, like in any AEC loop. The
action is drawn uniformly among the legal indices of the mask (with Python's ``random``, not
``action_space.sample(mask)``, which costs more than a step). Every figure is the median of
``--repeats`` timed runs of ``--steps`` steps on one core; ``reset`` is inside the timing.
Rates are given in wall-clock time and in CPU time of the process (``time.process_time``: on
a shared machine, the other processes' load counts less in it).

"engine only" is the same random play through :class:`sabacc.rl.TableCore` without the
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

VARIANTS = ("corellian_spike", "surabat_cycle", "classic")


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


def run_engine(variant: str, players: int, steps: int, seed: int = 0) -> tuple[int, float, int]:
    """The same random play without PettingZoo and observations (decisions, 0, hands)."""
    import sabacc.rl

    core = sabacc.rl.TableCore(variant, players)
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


def bench(run: Callable[[int], tuple[int, float, int]], repeats: int) -> dict[str, float]:
    """Median rates of ``repeats`` runs of ``run(seed)``, wall-clock and CPU time."""
    wall, cpu, lengths = [], [], []
    for r in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        n, _, episodes = run(r)
        wall.append(n / (time.perf_counter() - w))
        cpu.append(n / (time.process_time() - c))
        if episodes:
            lengths.append(n / episodes)
    return {
        "steps_per_s": statistics.median(wall),
        "steps_per_cpu_s": statistics.median(cpu),
        "steps_per_episode": statistics.mean(lengths) if lengths else float("nan"),
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
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = parser.parse_args()

    import sabacc.rl

    results: dict[str, Any] = {"repeats": args.repeats, "steps": args.steps}
    steps = args.steps
    for variant in VARIANTS:  # warm up: the Spike hand table is built on first use
        run_aec(lambda v=variant: sabacc.rl.env(v, 2), 500)

    def line(label: str, r: dict[str, float], unit: str = "steps") -> None:
        print(
            f"{label:>34}: {r['steps_per_s']:>9,.0f} {unit}/s "
            f"({r['steps_per_cpu_s']:>7,.0f} per CPU s; {r['steps_per_episode']:.1f} per hand)"
        )

    for variant in VARIANTS:
        for players in args.players:
            r = bench(
                lambda seed, v=variant, p=players: run_aec(
                    lambda: sabacc.rl.env(v, p), steps, seed
                ),
                args.repeats,
            )
            results[f"{variant}_{players}p"] = r
            line(f"{variant} {players}p env", r)
            e = bench(
                lambda seed, v=variant, p=players: run_engine(v, p, steps, seed), args.repeats
            )
            results[f"{variant}_{players}p_engine_only"] = e
            line(f"{variant} {players}p engine only", e, "decisions")
    ref = texas_holdem()
    if ref is None:
        print("reference: texas_holdem_v4 unavailable (needs rlcard: bash benchmarks/rl.sh)")
        results["texas_holdem_v4_2p"] = None
    else:
        r = bench(lambda seed: run_aec(ref, steps, seed), args.repeats)
        results["texas_holdem_v4_2p"] = r
        line("texas_holdem_v4 2p env (reference)", r)
        for players in args.players:
            spike = results[f"corellian_spike_{players}p"]
            ratio = spike["steps_per_s"] / r["steps_per_s"]
            results[f"spike_{players}p_to_texas_holdem_ratio"] = ratio
            print(f"ratio: Corellian Spike {players}p env ÷ texas_holdem_v4 env = {ratio:.2f}x")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=1)


if __name__ == "__main__":
    main()
