"""Same-seeds duplicate A/B: two bots against the same opponents on the same deals.

Plays ``A`` and then ``B`` in the first seat of the same line-up (``A,opp,...`` and
``B,opp,...``) with the same master seed, so both meet the same shuffles from every seat and
the opponents get the same bot seeds. Prints each one's credits per hand (95% CI over deals)
and the **paired difference** B - A per hand: its interval is computed over the per-deal
differences, so the luck of the cards, shared by both runs, cancels (benchmarks/bots-lab.md).

``sharpx:KEY=VALUE/KEY=VALUE`` names ``sharp`` with other :class:`Params` (for trials), e.g.
``sharpx:probe=0.5/value=0.6``.

    PYTHONPATH=src python benchmarks/ab_bots.py sharp sharpx:probe=0.5 ismcts:32 2000 4242
    PYTHONPATH=src python benchmarks/ab_bots.py sharp shark heuristic,heuristic,heuristic 800 7
    PYTHONPATH=src python benchmarks/ab_bots.py sharp shark ismcts:32 2000 7 --game-hands 10
"""

from __future__ import annotations

import sys
from typing import Any

from sabacc.core.errors import OptionError
from sabacc.lab import Params, SharpBot
from sabacc.services.bots.base import register_bot
from sabacc.services.sim import SimSpec, ratio_ci, simulate


def _sharpx(seed: int | None = None, arg: str | None = None, **params: Any) -> SharpBot:
    fields = dict(Params.__dataclass_fields__)
    for part in (arg or "").split("/"):
        if not part.strip():
            continue
        key, _, value = part.partition("=")
        key = key.strip()
        if key not in fields:
            raise OptionError(f"sharpx: unknown parameter {key!r}")
        params[key] = float(value)
    bot = SharpBot(seed, Params(**params))
    bot.name = f"sharpx:{arg}" if arg else "sharpx"
    return bot


register_bot("sharpx", _sharpx)


def run(
    first: str, opponents: tuple[str, ...], hands: int, seed: int, game_hands: int = 1
) -> dict[str, Any]:
    spec = SimSpec("corellian_spike", (first, *opponents), hands, seed, game_hands=game_hands)
    result = simulate(spec, 1)
    data = result.to_dict()
    nets, dhands = result.deal_series()
    data["deal_nets"] = [list(x) for x in nets]
    data["deal_hands"] = [list(x) for x in dhands]
    me = data["bots"][0]
    print(
        f"{first:<28} {me['hands']} {me['per_hand']:+.3f} "
        f"[{me['ci95'][0]:+.3f}, {me['ci95'][1]:+.3f}] ms "
        f"{me['decision_ms']['median']:.2f}/{me['decision_ms']['p95']:.2f}",
        flush=True,
    )
    return data


def paired(a: dict[str, Any], b: dict[str, Any]) -> tuple[float, float, float, int]:
    """B - A credits per hand of the first bot, mean and 95% CI over deals; deals that differ.

    A deal's difference is B's net minus A's over the deal (every rotation of one game), per
    hand the two played there on average (several-hand games can end early when a stack is
    lost); the interval is the ratio estimator's over deals (:func:`ratio_ci`), which with
    one-hand games is mean +- 1.96 standard errors of the per-deal differences per hand."""
    diffs = [y[0] - x[0] for x, y in zip(a["deal_nets"], b["deal_nets"], strict=True)]
    hands = [(x[0] + y[0]) / 2 for x, y in zip(a["deal_hands"], b["deal_hands"], strict=True)]
    mean, lo, hi = ratio_ci(diffs, hands)  # type: ignore[arg-type]
    return mean, lo, hi, sum(1 for d in diffs if d)


def main(argv: list[str]) -> int:
    """``A B [C ...] OPPONENTS HANDS SEED [--game-hands N]``: every bot after ``A`` is paired
    with ``A``; with ``--game-hands N`` each deal is a game of N hands (the bots keep what they
    learnt across its hands)."""
    game_hands = 1
    if "--game-hands" in argv:
        i = argv.index("--game-hands")
        game_hands = int(argv[i + 1])
        argv = argv[:i] + argv[i + 2 :]
    *bots, opp_text, hands_text, seed_text = argv
    opp = tuple(opp_text.split(","))
    hands, seed = int(hands_text), int(seed_text)
    clash = sorted(set(bots) & set(opp))
    if clash:
        # The simulator merges seats by bot name: the first seat's series would be the whole
        # table's (zero-sum), not a pairing. ``sharpx`` (no constants) plays exactly ``sharp``.
        raise SystemExit(
            f"ab_bots.py: {', '.join(clash)} is both a compared bot and an opponent; "
            "compare under another name (sharpx = sharp)"
        )
    base = run(bots[0], opp, hands, seed, game_hands)
    for other in bots[1:]:
        rb = run(other, opp, hands, seed, game_hands)
        mean, lo, hi, differ = paired(base, rb)
        print(
            f"paired {other} - {bots[0]} vs {opp_text}: {mean:+.3f} [{lo:+.3f}, {hi:+.3f}] "
            f"per hand ({differ} of {len(base['deal_nets'])} deals differ)",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
