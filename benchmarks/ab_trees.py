"""Before/after speed of two source trees, interleaved on one pinned core.

    python benchmarks/ab_trees.py --before /path/to/old/src --after src [--rounds 5]
        [--benches engine,rl,server_views,vector,observation] [--cpu 1] [--json FILE]

Each round runs every benchmark once on the ``--before`` tree, then once on the ``--after`` tree
(each tree's own copy of the script, ``PYTHONPATH`` set to the tree, ``taskset -c CPU``
where it exists), timed by CPU time: the engine benchmark with ``--clock cpu``, the RL
benchmark's steps per CPU second, the server views' CPU per action, the batched environment's
steps per CPU second, the observations and seat views per CPU millisecond. Every figure is
printed as the median over rounds for each tree, with the median of the per-round ratios
(after / before, as speed: above 1 is faster) and their range, so a drift of the machine's
speed during the run cancels out pair by pair. A refactor "keeps speed"
when no row's median ratio is below 0.95.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path


def run(tree: str, script: str, args: list[str], cpu: str | None) -> str:
    """Run ``tree``'s own copy of a benchmark script (``<tree>/../benchmarks/<script>``: a script
    imports the modules of its own tree) and return its standard output."""
    src = Path(tree).resolve()
    env = {**os.environ, "PYTHONPATH": str(src)}
    cmd = [sys.executable, str(src.parent / "benchmarks" / script), *args]
    if cpu is not None and shutil.which("taskset"):
        cmd = ["taskset", "-c", cpu, *cmd]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed on {tree}:\n{done.stderr[-2000:]}")
    return done.stdout


def engine(tree: str, cpu: str | None, games: int) -> dict[str, float]:
    """Games per CPU second of random legal play, per variant, engine and table size."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "engine.json"
        run(
            tree,
            "bench_engine.py",
            ["--repeats", "1", "--games", str(games), "--clock", "cpu", "--json", str(out)],
            cpu,
        )
        data = json.loads(out.read_text())
    return {
        f"engine {key}": row["games_per_s"]
        for key, row in data.items()
        if isinstance(row, dict) and "games_per_s" in row
    }


def rl(tree: str, cpu: str | None, steps: int) -> dict[str, float]:
    """PettingZoo steps (and engine-only decisions) per CPU second, per variant and engine."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "rl.json"
        run(
            tree,
            "bench_rl.py",
            ["--repeats", "1", "--steps", str(steps), "--json", str(out)],
            cpu,
        )
        data = json.loads(out.read_text())
    return {
        f"rl {key}": row["steps_per_cpu_s"]
        for key, row in data.items()
        if isinstance(row, dict) and "steps_per_cpu_s" in row
    }


def server_views(tree: str, cpu: str | None, tables: int) -> dict[str, float]:
    """State messages: actions per CPU second (the inverse of the CPU per action printed)."""
    text = run(
        tree,
        "bench_server_views.py",
        ["--tables", str(tables), "--repeat", "1"],
        cpu,
    )
    found = re.search(r"([\d.]+) ms of CPU per action", text)
    if not found:
        raise SystemExit(f"bench_server_views printed no figure on {tree}:\n{text}")
    return {"server_views actions per CPU s": 1000.0 / float(found.group(1))}


def vector(tree: str, cpu: str | None, steps: int) -> dict[str, float]:
    """The batched environment (``VectorEnv``, heads-up Spike): steps per CPU second at one batch
    size (``steps`` batch steps of 1,024 games; pgx is not run)."""
    text = run(
        tree,
        "bench_vector.py",
        ["--no-pgx", "--repeats", "1", "--batch", "1024", "--steps", str(steps), "--json"],
        cpu,
    )
    data = json.loads(text[text.index("\n{") :])
    return {
        f"vector {key}": row["steps_per_s_cpu"]
        for key, row in data.items()
        if isinstance(row, dict) and "steps_per_s_cpu" in row
    }


def observation(tree: str, cpu: str | None, games: int) -> dict[str, float]:
    """``observation(viewer)`` and ``seat_view`` calls per CPU millisecond, per variant and
    engine (``bench_observation.py``, 4 seats, ``games`` games; it uses the public API only, so
    a copy of it serves an older tree that lacks it)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "observation.json"
        run(tree, "bench_observation.py", ["--games", str(games), "--json", str(out)], cpu)
        data = json.loads(out.read_text())
    return {
        f"observation {key} {metric.removesuffix('_us')} per CPU ms": 1000.0 / us
        for key, row in data.items()
        for metric, us in row.items()
    }


BENCHES = {
    "engine": engine,
    "rl": rl,
    "server_views": server_views,
    "vector": vector,
    "observation": observation,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, help="the old tree's src folder")
    parser.add_argument("--after", required=True, help="the new tree's src folder")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--benches", default="engine,rl,server_views")
    parser.add_argument("--cpu", default="1", help="the core to pin to ('' for none)")
    parser.add_argument("--games", type=int, default=300, help="engine: games per run")
    parser.add_argument("--steps", type=int, default=3000, help="rl: steps per run")
    parser.add_argument("--tables", type=int, default=20, help="server_views: tables")
    parser.add_argument(
        "--batch-steps", type=int, default=200, help="vector: batch steps (of 1,024 games) per run"
    )
    parser.add_argument(
        "--observation-games", type=int, default=6, help="observation: games per run"
    )
    parser.add_argument("--json", help="also write every figure as JSON")
    args = parser.parse_args()
    cpu = args.cpu or None
    sizes = {
        "engine": args.games,
        "rl": args.steps,
        "server_views": args.tables,
        "vector": args.batch_steps,
        "observation": args.observation_games,
    }
    names = [n for n in args.benches.split(",") if n]
    for name in names:
        if name not in BENCHES:
            parser.error(f"unknown benchmark {name!r}; known: {', '.join(BENCHES)}")
    runs: dict[str, dict[str, list[float]]] = {"before": {}, "after": {}}
    for r in range(args.rounds):
        for name in names:
            for side, tree in (("before", args.before), ("after", args.after)):
                for row, value in BENCHES[name](tree, cpu, sizes[name]).items():
                    runs[side].setdefault(row, []).append(value)
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr, flush=True)
    rows = sorted(set(runs["before"]) & set(runs["after"]))
    width = max(len(row) for row in rows)
    print(f"{'row':<{width}}  {'before':>10}  {'after':>10}  ratio (min-max)")
    worst = None
    for row in rows:
        before, after = runs["before"][row], runs["after"][row]
        ratios = [a / b for a, b in zip(after, before, strict=True) if b]
        ratio = statistics.median(ratios)
        worst = ratio if worst is None else min(worst, ratio)
        print(
            f"{row:<{width}}  {statistics.median(before):>10,.0f}  "
            f"{statistics.median(after):>10,.0f}  {ratio:.3f} ({min(ratios):.3f}-{max(ratios):.3f})"
        )
    if worst is not None:
        print(f"lowest median ratio: {worst:.3f} (below 0.950: more than 5% slower)")
    if args.json:
        Path(args.json).write_text(json.dumps(runs, indent=1))


if __name__ == "__main__":
    main()
