"""Search-bot speed: the default ``ismcts`` deciding on reference worlds vs compiled worlds.

``decide`` hands search bots a sampler of worlds; for Corellian Spike it samples them on the
compiled core when it is built (``sampler_for(..., engine="auto")``), where the bot's rollouts
then run too. This times the same decisions (same positions, same bot seeds) both ways, one
after the other, on one core, and checks that every decision and its statistics are identical:

    python benchmarks/bench_search.py [--decisions 120] [--bot ismcts] [--json FILE]

Prints the median and p95 decision time of each engine and the median of the per-decision
ratio. Positions come from random legal play of 2- and 4-seat games.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

import sabacc
from sabacc.services.bots import make_bot, sampler_for


def positions(count: int, players: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    out: list[Any] = []
    while len(out) < count:
        game = sabacc.new_game("spike", players=players, seed=rng.randrange(10**9))
        while not game.is_over and len(out) < count:
            if len(game.legal_actions()) > 1 and rng.random() < 0.3:
                out.append(game.clone())
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=120, help="positions per seat count")
    parser.add_argument("--bot", default="ismcts", help="search bot spec (default: ismcts)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    results: dict[str, Any] = {"bot": args.bot}
    for players in (2, 4):
        times: dict[str, list[float]] = {"python": [], "compiled": []}
        ratios: list[float] = []
        same = 0
        for i, game in enumerate(positions(args.decisions, players, args.seed + players)):
            seat = game.current_player
            obs, legal = game.observation(seat), game.legal_actions()
            chosen = []
            took: dict[str, float] = {}
            for engine in ("python", "compiled"):
                bot: Any = make_bot(args.bot, seed=i)
                t0 = time.perf_counter()
                action = bot.act(obs, legal, sampler=sampler_for(game, seat, engine=engine))
                took[engine] = time.perf_counter() - t0
                times[engine].append(took[engine] * 1000.0)
                chosen.append((action, bot.last_stats))
            same += chosen[0] == chosen[1]
            ratios.append(took["python"] / took["compiled"])
        row = {
            engine: {"median_ms": statistics.median(t), "p95_ms": pct(t, 0.95)}
            for engine, t in times.items()
        }
        row["speedup_median"] = statistics.median(ratios)
        row["identical_decisions"] = f"{same}/{len(ratios)}"
        results[f"{players}p"] = row
        print(
            f"{args.bot}, {players} seats: python worlds median "
            f"{row['python']['median_ms']:.0f} ms (p95 {row['python']['p95_ms']:.0f}), "
            "compiled worlds median "
            f"{row['compiled']['median_ms']:.0f} ms (p95 {row['compiled']['p95_ms']:.0f}); "
            f"x{row['speedup_median']:.2f} per decision; identical decisions {same}/{len(ratios)}"
        )
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=1)


if __name__ == "__main__":
    main()
