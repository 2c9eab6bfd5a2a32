"""MCCFR on a reduced Corellian Spike game through the OpenSpiel adapter, with exploitability.

    PYTHONPATH=src python scripts/mccfr.py                        # external sampling, tiny game
    PYTHONPATH=src python scripts/mccfr.py --solver outcome --checkpoints 50,100,200
    PYTHONPATH=src python scripts/mccfr.py --game small           # with swaps (about 4 min per
                                                                  # exploitability)

Needs ``pip install "sabacc[research]"``. Prints the exploitability (in credits) of the uniform
policy and of MCCFR's average policy after each checkpoint of iterations.
"""

from __future__ import annotations

import argparse
import time

import pyspiel
from open_spiel.python import policy
from open_spiel.python.algorithms import (
    exploitability,
    external_sampling_mccfr,
    outcome_sampling_mccfr,
)

import sabacc.apps.rl.openspiel  # noqa: F401 - registers python_sabacc_*

TINY = {
    "max_value": 2,
    "suits": "c",
    "sylops": 1,
    "rounds": 1,
    "betting": "fixed",
    "max_raises": 0,
    "bet_sizes": "min",
    "buy_in": 10,
    "rolls": "fixed",
    "options": "swap_fee=100",
}
SMALL = {**TINY, "options": ""}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=("tiny", "small"), default="tiny")
    parser.add_argument("--solver", choices=("external", "outcome"), default="external")
    parser.add_argument("--checkpoints", default="30,60,120", help="iterations, comma-separated")
    args = parser.parse_args()
    game = pyspiel.load_game("python_sabacc_spike", TINY if args.game == "tiny" else SMALL)
    if args.solver == "external":
        solver: object = external_sampling_mccfr.ExternalSamplingSolver(
            game, external_sampling_mccfr.AverageType.SIMPLE
        )
    else:
        solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    t = time.process_time()
    uniform = exploitability.exploitability(game, policy.UniformRandomPolicy(game))
    print(f"uniform policy: exploitability {uniform:.4f} ({time.process_time() - t:.0f}s)")
    done = 0
    for target in (int(x) for x in args.checkpoints.split(",")):
        t = time.process_time()
        while done < target:
            solver.iteration()  # type: ignore[attr-defined]
            done += 1
        spent = time.process_time() - t
        value = exploitability.exploitability(game, solver.average_policy())  # type: ignore[attr-defined]
        print(f"{done:6d} iterations: exploitability {value:.4f} (MCCFR {spent:.1f}s)")


if __name__ == "__main__":
    main()
