"""Game-size statistics of the research sub-games (docs/rl.md, "Game sizes").

Reduced games are enumerated exactly (depth first over every chance outcome and action):
histories (every node), terminal histories, chance and decision nodes, information sets per
player, the most legal actions at a decision. Full games are too large to enumerate: their
sizes are estimated with Knuth's estimator (the mean, over random root-to-leaf paths, of the
product of the branching factors along the path is the number of terminal histories; the
running products summed along the path estimate the number of decision nodes).

    PYTHONPATH=src python scripts/game_size.py                 # the reduced games, then estimates
    PYTHONPATH=src python scripts/game_size.py --paths 300     # more paths for the estimates
"""

from __future__ import annotations

import argparse
import math
import random
import time
from typing import Any

from sabacc.apps.rl.research import ResearchGame, ResearchState

#: The reduced Corellian Spike games of docs/rl.md (heads-up, one hand, five cards: +-1 and
#: +-2 of circle and one Sylop, one round, fixed betting without raises, fixed dice).
REDUCED: dict[str, dict[str, Any]] = {
    "tiny (no swaps)": dict(
        max_value=2,
        suits="c",
        sylops=1,
        rounds=1,
        betting="fixed",
        max_raises=0,
        bet_sizes=("min",),
        buy_in=10,
        rolls="fixed",
        swap_fee=100,
    ),
    "small (swaps)": dict(
        max_value=2,
        suits="c",
        sylops=1,
        rounds=1,
        betting="fixed",
        max_raises=0,
        bet_sizes=("min",),
        buy_in=10,
        rolls="fixed",
    ),
}

FULL = ("corellian_spike", "surabat_cycle", "classic", "coruscant_shift", "kessel")


def enumerate_game(rg: ResearchGame) -> dict[str, Any]:
    """Exact counts over the whole tree of ``rg``."""
    counts = {"histories": 0, "terminal": 0, "chance": 0, "decisions": 0, "max_actions": 0}
    infosets: list[set[str]] = [set() for _ in range(rg.n)]
    stack: list[ResearchState] = [rg.new_state()]
    while stack:
        state = stack.pop()
        counts["histories"] += 1
        if state.is_terminal():
            counts["terminal"] += 1
            continue
        if state.is_chance_node():
            counts["chance"] += 1
            for outcome, _ in state.chance_outcomes():
                child = state.clone()
                child.apply_chance(outcome)
                stack.append(child)
            continue
        counts["decisions"] += 1
        seat = state.current_player
        assert seat is not None
        infosets[seat].add(state.information_state_string(seat))
        legal = state.legal_indices()
        counts["max_actions"] = max(counts["max_actions"], len(legal))
        for index in legal:
            child = state.clone()
            child.apply_index(index)
            stack.append(child)
    return {**counts, "infosets": [len(s) for s in infosets]}


def estimate(rg: ResearchGame, paths: int, seed: int) -> dict[str, float]:
    """Knuth's estimates of the terminal histories and decision nodes of ``rg``."""
    rng = random.Random(seed)
    leaves = 0.0
    decisions = 0.0
    length = 0
    for _ in range(paths):
        state = rg.new_state()
        weight = 1.0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                weight *= len(outcomes)
                state.apply_chance(rng.choice(outcomes)[0])
            else:
                decisions += weight
                legal = state.legal_indices()
                weight *= len(legal)
                state.apply_index(rng.choice(legal))
            length += 1
        leaves += weight
    return {
        "terminal": leaves / paths,
        "decisions": decisions / paths,
        "mean_length": length / paths,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--paths", type=int, default=100, help="random paths per estimate")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-reduced", action="store_true")
    args = parser.parse_args()
    if not args.skip_reduced:
        print(
            "| reduced game | histories | terminal | chance nodes | decisions | "
            "information sets (p0, p1) | most legal actions | seconds |"
        )
        print("|---|---|---|---|---|---|---|---|")
        for name, kw in REDUCED.items():
            t = time.process_time()
            c = enumerate_game(ResearchGame("corellian_spike", 2, **kw))
            print(
                f"| {name} | {c['histories']:,} | {c['terminal']:,} | {c['chance']:,} | "
                f"{c['decisions']:,} | {c['infosets'][0]:,}, {c['infosets'][1]:,} | "
                f"{c['max_actions']} | {time.process_time() - t:.0f} |"
            )
    print()
    print(
        f"| full game, heads-up, one hand | terminal histories (est.) | decision nodes (est.) "
        f"| mean path length | actions (table) | ({args.paths} paths) |"
    )
    print("|---|---|---|---|---|---|")
    for variant in FULL:
        rg = ResearchGame(variant, 2)
        e = estimate(rg, args.paths, args.seed)
        leaves, nodes = math.log10(e["terminal"]), math.log10(e["decisions"])
        print(
            f"| {variant} | 10^{leaves:.1f} | 10^{nodes:.1f} "
            f"| {e['mean_length']:.0f} | {rg.num_actions} | |"
        )


if __name__ == "__main__":
    main()
