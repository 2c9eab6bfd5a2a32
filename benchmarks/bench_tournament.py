"""``sabacc tournament simulate`` speed: whole events of bots per second, table hands per
second and series games per second, per format and variant.

    python benchmarks/bench_tournament.py                       # every format, Spike
    python benchmarks/bench_tournament.py --variants all --players 12 --seeds 3 --json

Each figure is over ``--seeds`` events played one after another in this process (CPU time,
``--clock cpu``, counts a shared machine's load less). Freezeout tables (cantina, Sit & Go,
multi-table) play on the reference engine, the only one playing given stacks and seat
changes; series games (Swiss, Arena) play on the variant's compiled core where it is built.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import sabacc
from sabacc.services.tournament import FORMATS, EventConfig
from sabacc.services.tournament.simulate import EventSpec, simulate_event


def bench(fmt: str, variant: str, players: int, seeds: int, bots: str, clock: Any) -> dict:
    config = EventConfig(
        format=fmt,
        variant=variant,
        seats=players if fmt in ("sng", "cantina") else None,
        duration_hands=120,
    ).resolved()
    spec = EventSpec(config, players, tuple(bots.split(",")))
    t0 = clock()
    table_hands = games = 0
    for seed in range(seeds):
        report = simulate_event(spec, seed)
        table_hands += report["table_hands"]
        games += sum(1 for e in report["log"] if e["type"] == "game")
    seconds = clock() - t0
    return {
        "format": fmt,
        "variant": variant,
        "players": players,
        "events": seeds,
        "seconds": round(seconds, 2),
        "events_per_s": round(seeds / seconds, 3),
        "table_hands_per_s": round(table_hands / seconds, 1),
        "games_per_s": round(games / seconds, 2) if games else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--formats", default=",".join(FORMATS))
    parser.add_argument("--variants", default="corellian_spike", help="comma list, or all")
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--bots", default="easy")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    variants = sabacc.variant_names() if args.variants == "all" else args.variants.split(",")
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    rows = []
    for variant in variants:
        top = sabacc.variant(variant).info.max_players
        for fmt in args.formats.split(","):
            players = min(args.players, top) if fmt == "cantina" else args.players
            rows.append(bench(fmt, variant, players, args.seeds, args.bots, clock))
            if not args.json:
                r = rows[-1]
                games = f", {r['games_per_s']} games/s" if r["games_per_s"] else ""
                print(
                    f"{variant:16} {fmt:8} {r['players']:3} players: {r['events_per_s']:.3f} "
                    f"events/s, {r['table_hands_per_s']:.0f} table hands/s{games}",
                    flush=True,
                )
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
