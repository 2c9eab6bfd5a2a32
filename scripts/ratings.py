"""The difficulty levels' published ratings, from the measured ladder.

Reads the ladder of ``benchmarks/results/bench_bots_expert.json`` (``python
benchmarks/bench_bots.py --parts matrix,ladder --candidate wily --game-hands 10 ...``, its
commands are in the report: each pair of adjacent levels played heads-up in 10-hand duplicate
games) and computes an Elo-scale rating per level: ``easy`` is fixed at 1000, and each harder
level adds ``400 * log10(s / (1 - s))``, where ``s`` is its share of duplicate games finished
ahead of the level below (a tie counts half). Prints the table for docs/bots.md
(``scripts/bot_tables.py --write`` puts it there); ``--check`` exits 1 if
``sabacc.services.bots.levels.LEVELS`` does not carry these numbers.

    PYTHONPATH=src python scripts/ratings.py            # the table
    PYTHONPATH=src python scripts/ratings.py --check    # do the published ratings match?
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parents[1] / "benchmarks" / "results" / "bench_bots_expert.json"
BASE = 1000


def ratings(ladder: list[dict[str, Any]], base: int = BASE) -> dict[str, int]:
    """Level name -> rating, from the ladder's adjacent pairs (easiest pair first)."""
    out: dict[str, float] = {}
    for step in ladder:
        high, low = step["levels"]
        out.setdefault(low, float(base))
        s = min(0.99, max(0.01, float(step["deal_score"])))
        out[high] = out[low] + 400.0 * math.log10(s / (1.0 - s))
    return {name: round(r) for name, r in out.items()}


def ahead_label(runs: list[dict[str, Any]]) -> str:
    """The column name of a report's share ahead: a duplicate "deal" of a multi-hand game is
    the whole game, dealt alike in every rotation."""
    return "games ahead" if runs[0].get("game_hands", 1) > 1 else "deals ahead"


def table(ladder: list[dict[str, Any]]) -> str:
    rated = ratings(ladder)
    lines = [
        "| level | bot | rating | against the level below: credits/hand (95% CI) | "
        f"{ahead_label(ladder)} | hands |",
        "|---|---|---:|---|---:|---:|",
    ]
    first = ladder[0]
    lines.append(
        f"| {first['levels'][1]} | `{first['lineup'][1]}` | {rated[first['levels'][1]]} | | | |"
    )
    for step in ladder:
        me = step["bots"][0]
        lo, hi = me["ci95"]
        lines.append(
            f"| {step['levels'][0]} | `{step['lineup'][0]}` | {rated[step['levels'][0]]} | "
            f"{me['per_hand']:+.2f} [{lo:+.2f}, {hi:+.2f}] | {step['deal_score']:.1%} | "
            f"{me['hands']} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--results", default=str(RESULTS))
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    ladder = json.loads(Path(args.results).read_text()).get("ladder") or []
    if not ladder:
        print(f"no ladder in {args.results}: run benchmarks/bench_bots.py --parts ladder")
        return 1
    print(table(ladder))
    if args.check:
        from sabacc.services.bots.levels import LEVELS

        rated = ratings(ladder)
        wrong = {
            n: (lv.rating, rated.get(n)) for n, lv in LEVELS.items() if lv.rating != rated.get(n)
        }
        if wrong:
            print(f"published ratings differ (published, measured): {wrong}")
            return 1
        print("published ratings match the measured ladder")
    return 0


if __name__ == "__main__":
    sys.exit(main())
