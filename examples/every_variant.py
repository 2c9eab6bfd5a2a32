"""Bots play one game of every variant; each game is saved as a hand history and validated.

    python examples/every_variant.py                 # histories in ./histories
    python examples/every_variant.py --out /tmp/h --seed 3

Needs nothing but sabacc (the engine has no dependencies). Each history replays exactly:
``sabacc replay histories/kessel.json`` tells it move by move, ``sabacc history validate``
checks it (docs/history-format.md).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import sabacc
from sabacc.services import hand_history
from sabacc.services.bots import decide, make_bot


def main(argv: list[str] | None = None) -> dict[str, list[int]]:
    """Play, save and validate one game per variant; returns each variant's payoffs."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", type=Path, default=Path("histories"), help="where to write")
    parser.add_argument("--seed", type=int, default=1, help="seed of every game")
    parser.add_argument("--players", type=int, default=3, help="seats per table")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    payoffs: dict[str, list[int]] = {}
    for name in sabacc.variant_names():
        game = sabacc.new_game(name, players=args.players, seed=args.seed)
        bots = [make_bot("heuristic", args.seed + seat) for seat in range(args.players)]
        while not game.is_over:
            seat = game.current_player
            assert seat is not None
            game.apply(decide(bots[seat], game, seat), seat=seat)
        path = args.out / f"{name}.json"
        hand_history.write(game, path)
        problems = hand_history.validate(hand_history.read(path))
        assert problems == [], problems
        payoffs[name] = list(game.payoffs)
        print(f"{game.info.title:16} {len(game.actions):4} actions  payoffs {game.payoffs}  {path}")
    return payoffs


if __name__ == "__main__":
    main()
