"""Engine speed: random legal play (games/s, hands/s) and hand evaluation (hands/s).

Run it in its own environment, which also holds the reference library (pokerkit):

    bash benchmarks/engine.sh            # makes .bench-venv with sabacc + pokerkit, then runs this
    python benchmarks/bench_engine.py    # in any environment; the reference is skipped if absent

Every figure is the median of ``--repeats`` timed runs on one core. "Full checks" means every
action is validated by ``apply`` (legality, state untouched on error): the engine exactly as a
user gets it. The reference engine (``engine="python"``, the default) also logs every event;
each compiled core (``engine="compiled"``: every variant whose ``VariantInfo.compiled`` is
set) reaches the same states for the same seed and actions, validates the same way and keeps
the action log, without per-event objects.
Each game starts with ``sabacc.new_game`` inside the timing. Random play picks uniformly among
``legal_actions()`` (every bet size listed), like pokerkit's random player below.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import sabacc
from sabacc.variants import compiled
from sabacc.variants.spike_family.hands import (
    SPIKE_PAD,
    evaluate_spike,
    evaluate_spike_batch,
    evaluate_spike_key,
    spike_key,
)

#: The clock rates are measured on: wall-clock time, or (``--clock cpu``) the process's CPU time,
#: which on a shared, loaded machine counts the other processes' load less.
CLOCK: Callable[[], float] = time.perf_counter


def timed(fn: Callable[[], int], repeats: int) -> float:
    """Median rate (units per second) of ``fn``, which returns how many units it did."""
    rates = []
    for _ in range(repeats):
        start = CLOCK()
        units = fn()
        rates.append(units / (CLOCK() - start))
    return statistics.median(rates)


def random_games(
    variant: str, players: int, games: int, engine: str = "python", **options: Any
) -> tuple[int, int]:
    """Play ``games`` whole games with uniformly random legal actions; returns (games, hands)."""
    rng = random.Random(1)
    hands = 0
    for seed in range(games):
        game = sabacc.new_game(variant, players=players, seed=seed, engine=engine, **options)
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        hands += game.hand_no
    return games, hands


def bench_play(
    variant: str, players: int, games: int, repeats: int, engine: str = "python"
) -> dict[str, float]:
    ratio: list[float] = []

    def run() -> int:
        g, h = random_games(variant, players, games, engine)
        ratio.append(h / g)
        return g

    rate = timed(run, repeats)
    hands_per_game = statistics.mean(ratio)
    return {"games_per_s": rate, "hands_per_s": rate * hands_per_game}


def bench_eval(count: int, repeats: int) -> dict[str, float]:
    rng = random.Random(2)
    deck = [c.value for c in sabacc.variant("spike").deck.cards]
    hands = [rng.sample(deck, rng.randint(2, 5)) for _ in range(count)]
    keys = [spike_key(h) for h in hands]
    evaluate_spike(hands[0])  # build the table outside the timing

    def by_values() -> int:
        for h in hands:
            evaluate_spike(h)
        return count

    def by_key() -> int:
        for k in keys:
            evaluate_spike_key(k)
        return count

    out = {
        "evaluate_spike_per_s": timed(by_values, repeats),
        "by_key_per_s": timed(by_key, repeats),
    }
    try:
        import numpy as np
    except ImportError:
        return out
    batch = np.full((count, 5), SPIKE_PAD, dtype=np.int64)
    for i, h in enumerate(hands):
        batch[i, : len(h)] = h
    evaluate_spike_batch(batch[:1])  # build the dense table outside the timing

    def batched() -> int:
        evaluate_spike_batch(batch)
        return count

    out["batch_per_s"] = timed(batched, repeats)
    return out


def bench_pokerkit(hands: int, repeats: int) -> float | None:
    """Hands/s of pokerkit's no-limit hold'em, 2 players, random actions (reference)."""
    try:
        from pokerkit import Automation, NoLimitTexasHoldem
    except ImportError:
        return None
    rng = random.Random(3)

    def run() -> int:
        for _ in range(hands):
            state = NoLimitTexasHoldem.create_state(
                tuple(Automation), True, 0, (1, 2), 2, (200, 200), 2
            )
            while state.status:
                choices = []
                if state.can_fold():
                    choices.append("f")
                if state.can_check_or_call():
                    choices.append("c")
                if state.can_complete_bet_or_raise_to():
                    choices.append("r")
                pick = rng.choice(choices)
                if pick == "f":
                    state.fold()
                elif pick == "c":
                    state.check_or_call()
                else:
                    lo = state.min_completion_betting_or_raising_to_amount
                    hi = state.max_completion_betting_or_raising_to_amount
                    assert lo is not None and hi is not None
                    state.complete_bet_or_raise_to(rng.randint(lo, hi))
        return hands

    return timed(run, repeats)


#: Random-play targets of the compiled cores (games/s on one core, issue #20), by table size.
COMPILED_TARGETS = {2: 20_000, 6: 6_000}


def bench_compiled(variant: str, games: int, repeats: int, results: dict[str, Any]) -> None:
    """The rows of ``variant``'s compiled core (``VariantInfo.compiled``), if it has one: 2, 4
    and 6 players (up to its maximum), more games per run than the reference rows."""
    info = sabacc.variant(variant).info
    if info.compiled is None:
        return
    if not compiled.available(info.name):
        print(f"{info.name} (compiled): not built, rows skipped")
        return
    for players in (p for p in (2, 4, 6) if p <= info.max_players):
        n = max(1, games * 10 // {2: 1, 4: 2, 6: 4}[players])
        r = bench_play(info.name, players, n, repeats, engine="compiled")
        results[f"{info.name}_compiled_{players}p"] = r
        target = COMPILED_TARGETS.get(players)
        label = f"{info.name} (compiled)"
        print(
            f"{label:>27} {players} players: {r['games_per_s']:>9,.0f} games/s "
            f"{r['hands_per_s']:>9,.0f} hands/s"
            + (f"   (target {target:,} games/s)" if target else "")
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--games", type=int, default=2000, help="games per timed run")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    parser.add_argument(
        "--variants",
        help="comma list: random play of these variants only (their compiled cores too, if "
        "built; no evaluation or reference rows), e.g. --variants kessel",
    )
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="time by the wall clock (default) or by this process's CPU time",
    )
    args = parser.parse_args()
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    results: dict[str, Any] = {"repeats": args.repeats, "clock": args.clock}
    if args.variants:
        for name in args.variants.split(","):
            info = sabacc.variant(name.strip()).info
            bench_compiled(info.name, args.games, args.repeats, results)
            for players in (p for p in (2, 4, 6) if p <= info.max_players):
                n = max(1, args.games // {2: 1, 4: 2, 6: 4}[players])
                r = bench_play(info.name, players, n, args.repeats)
                results[f"{info.name}_{players}p"] = r
                print(
                    f"{info.name:>27} {players} players: {r['games_per_s']:>9,.0f} games/s "
                    f"{r['hands_per_s']:>9,.0f} hands/s"
                )
        if args.json:
            with open(args.json, "w") as fh:
                json.dump(results, fh, indent=1)
        return
    for variant in sabacc.variant_names():
        bench_compiled(variant, args.games, args.repeats, results)
    for variant in sabacc.variant_names():
        most = sabacc.variant(variant).info.max_players
        for players in (p for p in (2, 4, 6) if p <= most):
            n = max(1, args.games // {2: 1, 4: 2, 6: 4}[players])
            r = bench_play(variant, players, n, args.repeats)
            results[f"{variant}_{players}p"] = r
            print(
                f"{variant:>27} {players} players: {r['games_per_s']:>9,.0f} games/s "
                f"{r['hands_per_s']:>9,.0f} hands/s"
            )
    ev = bench_eval(1_000_000, args.repeats)
    results["eval"] = ev
    print(
        f"{'hand evaluation':>16}: {ev['evaluate_spike_per_s']:>11,.0f} hands/s (values), "
        f"{ev['by_key_per_s']:,.0f} hands/s (precomputed key)"
    )
    if "batch_per_s" in ev:
        print(
            f"{'hand evaluation':>16}: {ev['batch_per_s']:>11,.0f} hands/s "
            "(evaluate_spike_batch, NumPy; target 4,000,000)"
        )
    ref = bench_pokerkit(max(200, args.games // 4), args.repeats)
    results["pokerkit_nlhe_2p_hands_per_s"] = ref
    if ref is None:
        print("reference: pokerkit not installed (bash benchmarks/engine.sh installs it)")
    else:
        spike = results["corellian_spike_2p"]["hands_per_s"]
        print(f"{'pokerkit NLHE':>16} 2 players: {ref:>9,.0f} hands/s (reference)")
        print(f"ratio: Corellian Spike hands/s ÷ pokerkit hands/s = {spike / ref:.1f}x (python)")
        results["spike_to_pokerkit_ratio"] = spike / ref
        if "corellian_spike_compiled_2p" in results:
            fast = results["corellian_spike_compiled_2p"]["hands_per_s"]
            print(f"ratio: compiled Corellian Spike hands/s ÷ pokerkit hands/s = {fast / ref:.1f}x")
            results["spike_compiled_to_pokerkit_ratio"] = fast / ref
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=1)


if __name__ == "__main__":
    main()
