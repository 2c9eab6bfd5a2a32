"""Kessel search on the compiled core against the old ``KesselWorld``: speed and strength.

Issue 39 moved Kessel's search worlds from ``KesselWorld`` (a Python copy of the round in
``variants/kessel/search.py``) onto the compiled core (``KesselSearchWorld``). This compares
the two in one run. The old search is loaded from git (``git show REV:src/sabacc/variants/
kessel/search.py``, REV ``b3ade8c`` by default: the last commit with ``KesselWorld``); both
read the same heuristic (``variants/kessel/bot.py``) and share its caches.

``speed``: the same positions (random legal play of reference games, decisions with a choice)
and the same bot seeds, each decided by the search bot on old and new worlds, alternately
first, each decision timed ``--repeats`` times (interleaved; its median kept), after one
untimed pass over every position with both (the heuristic's caches, which both share, are warm,
as they are a few decisions into a game); CPU time of the process per decision
(``time.process_time``, sampler included), medians and p95, over all decisions and over those
searched (several candidates); how many decisions agree (they differ only where the RNG
streams do: the old worlds rolled dice and reshuffled with their own SplitMix64, the new ones
with ``random.Random(seed)`` as the engine does).

``match``: heads-up duplicate deals: each deal is two one-round games with the same seed, the
old search in seat 0 then in seat 1, each bot with the same seed in both; the chip difference
per round (new - old, paired over the deal) with its 95% interval over deals.

    taskset -c 1 python benchmarks/ab_kessel_search.py speed --decisions 40 --players 2,4
    taskset -c 1 python benchmarks/ab_kessel_search.py match --deals 400 --seed 1
    options: [--bot ismcts:200] [--old REV] [--json FILE]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import sabacc
from sabacc.services.bots import make_bot
from sabacc.variants.kessel import search as new_search

ROOT = Path(__file__).resolve().parent.parent
OLD_REV = "b3ade8c"


def load_old(rev: str) -> ModuleType:
    """The old ``search.py`` (with ``KesselWorld``) from git, as a module of its own."""
    source = subprocess.run(
        ["git", "show", f"{rev}:src/sabacc/variants/kessel/search.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    path = Path(tempfile.mkdtemp()) / "old_kessel_search.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("old_kessel_search", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert hasattr(module, "KesselWorld"), f"{rev} has no KesselWorld"
    return module


def positions(count: int, players: int, seed: int) -> list[Any]:
    """Reference games at ``count`` decisions with a choice, from random legal play."""
    rng = random.Random(seed)
    out: list[Any] = []
    while len(out) < count:
        game = sabacc.new_game("kessel", players=players, seed=rng.randrange(10**9))
        while not game.is_over and len(out) < count:
            if len(game.legal_actions()) > 1 and rng.random() < 0.3:
                out.append(game.clone())
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def decide(spec: str, seed: int, module: ModuleType, game: Any) -> tuple[Any, float, bool]:
    """The bot's action at ``game`` on ``module``'s worlds, its CPU seconds, whether searched."""
    seat = game.current_player
    obs, legal = game.observation(seat), game.legal_actions()
    bot: Any = make_bot(spec, seed=seed)
    t0 = time.process_time()
    sampler = module.search_sampler(game, seat)
    action = bot.act(obs, legal, sampler=sampler)
    took = time.process_time() - t0
    return action, took, bool(bot.last_stats.get("playouts"))


def speed(args: argparse.Namespace, old: ModuleType) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for players in [int(p) for p in args.players.split(",")]:
        games = positions(args.decisions, players, args.seed + players)
        for i, game in enumerate(games):  # warm the heuristic's caches (shared by both)
            decide(args.bot, i, old, game)
            decide(args.bot, i, new_search, game)
        times: dict[str, list[float]] = {"old": [], "new": []}
        searched: dict[str, list[float]] = {"old": [], "new": []}
        same = 0
        for i, game in enumerate(games):
            order = [("old", old), ("new", new_search)]
            if i % 2:
                order.reverse()
            chosen = {}
            runs: dict[str, list[float]] = {"old": [], "new": []}
            hit = False
            for _ in range(args.repeats):
                for name, module in order:
                    chosen[name], cpu, flag = decide(args.bot, i, module, game)
                    runs[name].append(cpu)
                    hit = hit or flag
            took = {name: statistics.median(r) for name, r in runs.items()}
            for name in times:
                times[name].append(took[name] * 1000.0)
            if hit:
                for name in times:
                    searched[name].append(took[name] * 1000.0)
            same += chosen["old"] == chosen["new"]
        row = {
            name: {
                "median_ms": statistics.median(t),
                "p95_ms": pct(t, 0.95),
                "searched_median_ms": statistics.median(searched[name]) if searched[name] else None,
            }
            for name, t in times.items()
        }
        ratios = [o / n for o, n in zip(times["old"], times["new"], strict=True) if n > 0]
        row["old_over_new_median"] = statistics.median(ratios)
        row["searched"] = len(searched["old"])
        row["same_action"] = f"{same}/{len(games)}"
        out[f"{players}p"] = row
        print(
            f"{players} seats, {args.bot}, {len(games)} decisions ({row['searched']} searched), "
            f"CPU ms: KesselWorld median {row['old']['median_ms']:.1f} "
            f"(p95 {row['old']['p95_ms']:.1f}, searched {row['old']['searched_median_ms']:.1f}); "
            f"core median {row['new']['median_ms']:.1f} (p95 {row['new']['p95_ms']:.1f}, "
            f"searched {row['new']['searched_median_ms']:.1f}); old/new per decision "
            f"x{row['old_over_new_median']:.2f}; same action {row['same_action']}",
            flush=True,
        )
    return out


def play_round(spec: str, seed: int, modules: list[ModuleType], bot_seeds: list[int]) -> list[int]:
    """One round of a heads-up game (``rounds:1``): each seat's net chips."""
    game = sabacc.new_game("kessel", players=2, seed=seed, engine="python", game_end="rounds:1")
    bots = [make_bot(spec, seed=s) for s in bot_seeds]
    start = list(game.stacks)
    while not game.is_over:
        seat = game.current_player
        legal = game.legal_actions()
        if len(legal) == 1:
            game.apply(legal[0])
            continue
        sampler = modules[seat].search_sampler(game, seat)
        game.apply(bots[seat].act(game.observation(seat), legal, sampler=sampler))
    return [game.stacks[s] - start[s] for s in range(2)]


def match(args: argparse.Namespace, old: ModuleType) -> dict[str, Any]:
    diffs: list[float] = []
    nets: dict[str, list[float]] = {"old": [], "new": []}
    t0 = time.process_time()
    for d in range(args.deals):
        seed = args.seed * 1_000_003 + d
        s_old, s_new = 2 * seed, 2 * seed + 1
        a = play_round(args.bot, seed, [old, new_search], [s_old, s_new])
        b = play_round(args.bot, seed, [new_search, old], [s_new, s_old])
        old_net, new_net = (a[0] + b[1]) / 2, (a[1] + b[0]) / 2
        nets["old"].append(old_net)
        nets["new"].append(new_net)
        diffs.append(new_net - old_net)
        if (d + 1) % 50 == 0:
            print(f"  {d + 1} deals: new - old {_ci(diffs)}", flush=True)
    result = {
        "bot": args.bot,
        "deals": args.deals,
        "rounds_each": 2 * args.deals,
        "seed": args.seed,
        "new_minus_old_per_round": _ci_dict(diffs),
        "old_per_round": _ci_dict(nets["old"]),
        "new_per_round": _ci_dict(nets["new"]),
        "deals_that_differ": sum(1 for x in diffs if x),
        "cpu_s": time.process_time() - t0,
    }
    print(
        f"heads-up {args.bot}, {args.deals} deals ({2 * args.deals} rounds per bot), seed "
        f"{args.seed}: old {_ci(nets['old'])}, new {_ci(nets['new'])} chips per round; "
        f"new - old {_ci(diffs)} (95%), {result['deals_that_differ']} deals differ",
        flush=True,
    )
    return result


def _ci_dict(xs: list[float]) -> dict[str, float]:
    mean = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("inf")
    return {"mean": mean, "lo": mean - half, "hi": mean + half}


def _ci(xs: list[float]) -> str:
    c = _ci_dict(xs)
    return f"{c['mean']:+.3f} [{c['lo']:+.3f}, {c['hi']:+.3f}]"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("speed", "match"))
    parser.add_argument("--bot", default="ismcts:200", help="search bot (default: expert's)")
    parser.add_argument("--old", default=OLD_REV, help="git revision of the old search.py")
    parser.add_argument("--decisions", type=int, default=40, help="speed: positions per seats")
    parser.add_argument("--players", default="2,4", help="speed: comma list of seat counts")
    parser.add_argument("--repeats", type=int, default=3, help="speed: timings per decision")
    parser.add_argument("--deals", type=int, default=400, help="match: duplicate deals")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    old = load_old(args.old)
    result = speed(args, old) if args.mode == "speed" else match(args, old)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
