"""CPU per observation and per seat view, per variant and engine, in random legal play.

    PYTHONPATH=src python benchmarks/bench_observation.py [--players 4] [--games 6] [--json F]
    PYTHONPATH=/path/to/old/src python benchmarks/bench_observation.py   # another tree

After each action of ``--games`` games of random legal play (up to 300 actions each) it asks
``observation(viewer)`` of a spectator and of every seat, one call each (what a bot or a
table's connections ask at one point of a game), and ``seat_view`` of the seat to act five
times; it prints the CPU time (``time.process_time``) per call in microseconds.
"""

from __future__ import annotations

import argparse
import json
import random
import time

import sabacc
from sabacc.variants.compiled import available

VARIANTS = ("corellian_spike", "surabat_cycle", "coruscant_shift", "classic", "kessel")


def measure(variant: str, engine: str, players: int, games: int) -> tuple[float, float]:
    """(microseconds per observation, microseconds per seat view)."""
    obs_time = view_time = 0.0
    obs_calls = view_calls = 0
    for seed in range(games):
        game = sabacc.new_game(variant, players=players, seed=seed, engine=engine)
        rng = random.Random(seed)
        viewers: list[int | None] = [None, *range(players)]
        for _ in range(300):
            if game.is_over:
                break
            t0 = time.process_time()
            for viewer in viewers:
                game.observation(viewer)
            t1 = time.process_time()
            seat = game.current_player
            assert seat is not None
            for _ in range(5):
                game.seat_view(seat)
            t2 = time.process_time()
            obs_time += t1 - t0
            view_time += t2 - t1
            obs_calls += len(viewers)
            view_calls += 5
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
    return obs_time / obs_calls * 1e6, view_time / view_calls * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--json", help="also write the results as JSON")
    args = ap.parse_args()
    game = sabacc.new_game("corellian_spike", players=2, seed=0)
    game.observation(0)  # warm the hand tables (built on first use)
    results: dict[str, dict[str, float]] = {}
    for variant in VARIANTS:
        for engine in ("python", "compiled"):
            if engine == "compiled" and not available(variant):
                continue
            obs, view = measure(variant, engine, args.players, args.games)
            results[f"{variant}_{engine}"] = {"observation_us": obs, "seat_view_us": view}
            print(f"{variant:16} {engine:9} observation {obs:7.2f} us   seat_view {view:6.2f} us")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
