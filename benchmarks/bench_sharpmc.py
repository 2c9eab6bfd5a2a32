"""Heads-up runs of ``sharpmc`` and its variants (benchmarks/bots-lab.md, "sharpmc: what was
measured").

``sharpmc`` takes keyword options the bot-name syntax cannot carry, so this script registers
the variants measured under names of their own and plays one line-up on one worker, writing
the simulation's JSON plus each deal's nets (``deal_nets``, for paired comparisons of two
runs on the same seed) and the share of deals the first bot finished ahead on:

* ``mch:N``: ``sharpmc:N`` with heuristic rollouts for its own seat too (``own_rollouts=False``);
* ``mccard:N``: ``sharpmc:N`` searching card play only, every bet left to sharp
  (``search_bets=False``);
* ``mcc2:N``: ``sharpmc:N`` leaving sharp's move only above two standard errors;
* ``mcs:N``: ``sharpmc:N`` whose rollout opponents bet by sharp's rules too
  (``sharp_opponents=True``);
* ``mcsw:N``: ``mcs:N`` trying 48 worlds (not 12) for opponents' hands that fit their bets,
  keeping the best-fitting one when none is accepted (``rejections=48``).

    PYTHONPATH=src python benchmarks/bench_sharpmc.py mccard:200,sharp 600 4244 out.json
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from sabacc.lab.sharpmc import SharpSearchBot, _sharpmc
from sabacc.services.bots.base import register_bot
from sabacc.services.sim import SimSpec, simulate


def variant(**options: Any) -> Callable[..., SharpSearchBot]:
    def factory(seed: int | None = None, arg: str | None = None, **params: Any) -> SharpSearchBot:
        params.update(options)
        return _sharpmc(seed, arg, **params)

    return factory


register_bot("mch", variant(own_rollouts=False))
register_bot("mccard", variant(search_bets=False))
register_bot("mcc2", variant(confidence=2.0))
register_bot("mcs", variant(sharp_opponents=True))
register_bot("mcsw", variant(sharp_opponents=True, rejections=48))


def main(argv: list[str]) -> int:
    lineup = tuple(argv[0].split(","))
    hands, seed, out = int(argv[1]), int(argv[2]), argv[3]
    result = simulate(SimSpec("corellian_spike", lineup, hands, seed), 1)
    data = result.to_dict()
    nets, _hands = result.deal_series()
    data["deal_nets"] = [list(x) for x in nets]
    data["deal_score"] = sum(1.0 if x[0] > 0 else 0.5 if x[0] == 0 else 0.0 for x in nets) / max(
        1, len(nets)
    )
    with open(out, "w") as fh:
        json.dump(data, fh, indent=1)
    print(f"deals ahead {data['deal_score']:.1%}")
    for b in data["bots"]:
        print(
            f"{b['name']:<14} {b['hands']} {b['per_hand']:+.3f} "
            f"[{b['ci95'][0]:+.3f}, {b['ci95'][1]:+.3f}] win {b['win_rate']:.1%} "
            f"ms {b['decision_ms']['median']:.1f}/{b['decision_ms']['p95']:.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
