"""Search-bot speed: the default ``ismcts`` deciding on reference worlds vs fast worlds.

``decide`` hands search bots a sampler of worlds (``sampler_for(..., engine="auto")``): for
Corellian Spike it samples them on the compiled core when it is built, for a variant whose bot
model has its own search worlds (Kessel's ``KesselSearchWorld``, on its compiled core) on those;
the bot's rollouts then run there too. This times the same decisions (same positions, same bot
seeds) both ways, one after the other, on one core: reference worlds (``engine="python"``:
cloned games, the observation-built heuristic in rollouts) and the fast ones. For Spike it also
checks that every decision and its statistics are identical (the core makes the same RNG
calls); Kessel's search worlds sample with their own RNG calls, so there it counts the
decisions that agree.
Where such a variant also has a built compiled core, its worlds (``engine="compiled"``) are
timed as a third column, with the decisions identical to the reference worlds counted:

    python benchmarks/bench_search.py [--variant spike] [--decisions 120] [--bot ismcts]
                                      [--players 2,4] [--json FILE]

Prints the median and p95 decision time of each engine and the median of the per-decision
ratio. Positions come from random legal play of 2- and 4-seat games (decisions with a choice).
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
from sabacc.variants import compiled


def positions(count: int, players: int, seed: int, variant: str = "spike") -> list[Any]:
    rng = random.Random(seed)
    out: list[Any] = []
    while len(out) < count:
        game = sabacc.new_game(variant, players=players, seed=rng.randrange(10**9))
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
    parser.add_argument("--variant", default="spike")
    parser.add_argument("--players", default="2,4", help="comma list of seat counts")
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    results: dict[str, Any] = {"bot": args.bot, "variant": args.variant}
    for players in [int(p) for p in args.players.split(",")]:
        fast = "compiled" if args.variant == "spike" else "compact"
        engines = ["python", fast]
        if fast != "compiled" and compiled.available(args.variant):
            engines.append("compiled")  # the core's own worlds too, for comparison
        times: dict[str, list[float]] = {e: [] for e in engines}
        ratios: list[float] = []
        searched: dict[str, list[float]] = {e: [] for e in engines}
        same = 0
        same_core = 0
        games = positions(args.decisions, players, args.seed + players, args.variant)
        for i, game in enumerate(games):
            seat = game.current_player
            obs, legal = game.observation(seat), game.legal_actions()
            chosen = []
            took: dict[str, float] = {}
            for engine in engines:
                bot: Any = make_bot(args.bot, seed=i)
                t0 = time.perf_counter()
                mode = engine if engine in ("python", "compiled") else "auto"
                sampler = sampler_for(game, seat, engine=mode)
                action = bot.act(obs, legal, sampler=sampler)
                took[engine] = time.perf_counter() - t0
                times[engine].append(took[engine] * 1000.0)
                chosen.append((action, bot.last_stats))
            if args.variant == "spike":
                same += chosen[0] == chosen[1]
            else:
                same += chosen[0][0] == chosen[1][0]
            if len(chosen) > 2:
                same_core += chosen[0] == chosen[2]
            ratios.append(took["python"] / took[fast])
            if chosen[0][1].get("playouts"):  # a decision with several candidates, searched
                for engine in times:
                    searched[engine].append(took[engine] * 1000.0)
        row: dict[str, Any] = {
            engine: {"median_ms": statistics.median(t), "p95_ms": pct(t, 0.95)}
            for engine, t in times.items()
        }
        row["speedup_median"] = statistics.median(ratios)
        row["searched"] = {
            engine: statistics.median(t) if t else None for engine, t in searched.items()
        }
        row["searched_count"] = len(searched["python"])
        row["identical_decisions"] = f"{same}/{len(ratios)}"
        results[f"{players}p"] = row
        print(
            f"{args.variant}, {args.bot}, {players} seats: python worlds median "
            f"{row['python']['median_ms']:.0f} ms (p95 {row['python']['p95_ms']:.0f}), "
            f"{fast} worlds median "
            f"{row[fast]['median_ms']:.0f} ms (p95 {row[fast]['p95_ms']:.0f}); "
            f"x{row['speedup_median']:.2f} per decision; "
            + ("identical decisions" if args.variant == "spike" else "same action")
            + f" {same}/{len(ratios)}"
        )
        if "compiled" in times and fast != "compiled":
            row["identical_decisions_compiled"] = f"{same_core}/{len(ratios)}"
            print(
                f"  compiled-core worlds median {row['compiled']['median_ms']:.0f} ms "
                f"(p95 {row['compiled']['p95_ms']:.0f}); identical decisions to python worlds "
                f"{same_core}/{len(ratios)}"
            )
        if searched["python"]:
            print(
                f"  the {len(searched['python'])} decisions searched (several candidates): "
                f"python median {row['searched']['python']:.0f} ms, "
                f"{fast} median {row['searched'][fast]:.0f} ms"
            )
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=1)


if __name__ == "__main__":
    main()
