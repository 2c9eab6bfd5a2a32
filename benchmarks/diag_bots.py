"""Where do the chips go? An instrumented duplicate-deal match (benchmarks/bots-lab.md,
"Finding the leak").

Plays the same deals as ``sabacc simulate`` (``sabacc.services.sim``: the same game and bot
seeds, every rotation of the line-up) and records, per bot name:

* each hand's net split by how the hand ended: at a showdown (won / lost / split) or by
  junking (who junked, in which betting round), and by the size of the final pot;
* every betting decision: its round, whether the bot faced a bet, its own hand quality ``q``
  (the variant model's unnarrowed chance to beat one opponent, from its own observation) in
  five buckets, and what it did (check, bet, call, raise, junk);
* card play: swaps, gains and stands, the final ``|total|`` at showdowns and the Sabacc rate.

    PYTHONPATH=src python benchmarks/diag_bots.py sharp,ismcts:32 1000 4242 out.json
    PYTHONPATH=src python benchmarks/diag_bots.py sharp,ismcts:32 1000 4242 out.json 10

(the optional last argument: hands per game; the bots keep what they learnt across a game)

Only for analysis: it recomputes ``q`` at each decision (the bots do not see it).
"""

from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict
from typing import Any

import sabacc.lab  # noqa: F401  (registers the lab's bots)
from sabacc.core.actions import Bet, Call, Check, Junk, Raise
from sabacc.services.bots import decide, make_bot
from sabacc.services.bots.policy import _model, view_from_observation
from sabacc.services.sim import SimSpec, derive_seed, new_deal_game

BETS = {Bet: "bet", Raise: "raise", Call: "call", Check: "check", Junk: "junk"}


def bucket(q: float) -> str:
    for hi, name in ((0.2, "q<.2"), (0.4, "q<.4"), (0.6, "q<.6"), (0.8, "q<.8")):
        if q < hi:
            return name
    return "q>=.8"


def pot_size(total: int) -> str:
    for hi, name in ((10, "pot<10"), (30, "pot<30"), (80, "pot<80")):
        if total < hi:
            return name
    return "pot>=80"


def main(argv: list[str]) -> int:
    lineup = tuple(argv[0].split(","))
    hands, seed, out = int(argv[1]), int(argv[2]), argv[3]
    game_hands = int(argv[4]) if len(argv) > 4 else 1
    spec = SimSpec("corellian_spike", lineup, hands, seed, game_hands=game_hands)
    n = spec.players
    decisions: dict[str, Counter[str]] = defaultdict(Counter)
    ends: dict[str, Counter[str]] = defaultdict(Counter)
    end_net: dict[str, Counter[str]] = defaultdict(Counter)
    cards: dict[str, Counter[str]] = defaultdict(Counter)
    deal_nets: list[list[int]] = []
    names = spec.names
    for deal in range(spec.deals):
        dnet = [0] * len(names)
        for rotation in range(n):
            seats = spec.lineup(rotation)
            game = new_deal_game(spec, deal, rotation)
            bots = [
                make_bot(seats[s], derive_seed(spec.seed, "bot", deal, rotation, s))
                for s in range(n)
            ]
            junked: dict[tuple[int, int], int] = {}  # (hand, seat) -> the round it junked
            while not game.is_over:
                seat = game.current_player
                assert seat is not None
                legal = game.legal_actions()
                obs = game.observation(seat)
                action = decide(bots[seat], game, seat)
                name = seats[seat]
                if len(legal) > 1:
                    view = view_from_observation(obs, legal)
                    kind = BETS.get(type(action))
                    if kind is not None:
                        q = _model(view.variant).win_chance(view)
                        facing = "facing" if view.to_call > 0 else "open"
                        key = f"r{view.round} {facing} {bucket(q)}"
                        decisions[name][f"{key} {kind}"] += 1
                        decisions[name][f"{key} *"] += 1
                        if kind == "junk":
                            junked[(game.hand_no, seat)] = view.round
                    else:
                        cards[name][type(action).__name__] += 1
                game.apply(action, seat=seat)
            for hand_no, hr in enumerate(game.hand_results, 1):
                out_of = {s: r for (h, s), r in junked.items() if h == hand_no}
                total = sum(p.amount for p in hr.pots if p.pot != "final")
                size = pot_size(total)
                for s in range(n):
                    name = seats[s]
                    net = hr.net[s]
                    if s in out_of:
                        how = f"junked r{out_of[s]}"
                    elif hr.reason == "showdown" and s in hr.hands:
                        how = "showdown won" if net > 0 else "showdown lost"
                        value = hr.hands[s][1]
                        if value is not None:
                            d = value.to_dict()
                            t = d.get("total")
                            if isinstance(t, int):
                                cards[name][f"final |total| {min(abs(t), 6)}"] += 1
                    else:
                        folders = sorted({out_of[o] for o in out_of if o != s})
                        how = f"others junked r{folders[-1] if folders else '?'}"
                    ends[name][how] += 1
                    end_net[name][how] += net
                    ends[name][size] += 1
                    end_net[name][size] += net
                    if any(p.pot == "sabacc" and s in p.winners for p in hr.pots):
                        cards[name]["sabacc pot"] += 1
            for s, payoff in enumerate(game.payoffs):
                dnet[names.index(seats[s])] += payoff
        deal_nets.append(dnet)
    data = {
        "lineup": lineup,
        "hands": spec.deals * spec.hands_per_deal,
        "game_hands": game_hands,
        "seed": seed,
        "deal_nets": deal_nets,
        "decisions": decisions,
        "ends": ends,
        "end_net": end_net,
        "cards": cards,
    }
    with open(out, "w") as fh:
        json.dump(data, fh, indent=1)
    report(data)
    return 0


def report(data: dict[str, Any]) -> None:
    for name in data["ends"]:
        hands = sum(v for k, v in data["ends"][name].items() if not k.startswith("pot"))
        net = sum(v for k, v in data["end_net"][name].items() if not k.startswith("pot"))
        print(f"== {name}: {hands} hands, hand nets {net:+d} (sabacc pots carried excluded)")
        for k in sorted(data["ends"][name]):
            c = data["ends"][name][k]
            print(f"  {k:<22} {c:>6} ({c / hands:5.1%})  net {data['end_net'][name][k]:+7d}")
        for k in sorted(data["cards"][name]):
            print(f"  card {k:<22} {data['cards'][name][k]:>6}")
        dec = data["decisions"][name]
        rows = sorted({k.rsplit(" ", 1)[0] for k in dec})
        for r in rows:
            tot = dec[f"{r} *"]
            parts = " ".join(
                f"{a} {dec.get(f'{r} {a}', 0) / tot:4.0%}"
                for a in ("check", "bet", "call", "raise", "junk")
                if dec.get(f"{r} {a}", 0)
            )
            print(f"  {r:<22} n={tot:<5} {parts}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
