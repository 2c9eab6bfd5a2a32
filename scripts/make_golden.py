"""Write the golden hand histories in tests/golden/ (see tests/test_golden.py).

Each golden file is one seeded game, played to its end by fixed bots or seeded random legal
play: its hand history (seed, options, players, every action, the result), the deal of every
hand, every hand's result, the final stacks, and a digest of the state after every action. The
test replays each through :func:`sabacc.replay` and compares all of it, so a change to
shuffling, dealing or any rule that would change a stored game fails it.

Regenerate only on purpose (a deliberate rule or RNG change, noted in the changelog)::

    PYTHONPATH=src python scripts/make_golden.py
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import sabacc
from sabacc.engine.protocol import GameProtocol
from sabacc.services.bots import decide, make_bot

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"
FORMAT = "sabacc-golden"
VERSION = 1

#: (file name, variant, players, seed, options, who plays: "random" or a bot name).
CASES: list[tuple[str, str, int, int, dict[str, Any], str]] = [
    ("spike-2p-random", "corellian_spike", 2, 101, {"buy_in": 80}, "random"),
    ("spike-4p-heuristic", "corellian_spike", 4, 102, {"buy_in": 30}, "heuristic"),
    (
        "spike-3p-fees-pot-limit",
        "corellian_spike",
        3,
        103,
        {"gain_fee": 1, "swap_fee": 2, "betting": "pot_limit", "rounds": 2, "buy_in": 80},
        "random",
    ),
    (
        "spike-6p-fixed-split-last-standing",
        "corellian_spike",
        6,
        104,
        {
            "betting": "fixed",
            "min_bet": 2,
            "true_tie": "split",
            "hand_cap": 3,
            "game_end": "last_standing",
            "max_hands": 8,
            "buy_in": 40,
        },
        "random",
    ),
    ("classic-2p-random", "classic", 2, 201, {"buy_in": 60}, "random"),
    ("classic-4p-heuristic", "classic", 4, 202, {"buy_in": 40}, "heuristic"),
    (
        "classic-5p-absolute-always",
        "classic",
        5,
        203,
        {
            "scoring": "absolute",
            "sabacc_ante": "always",
            "shift_chance": "1/3",
            "bet_limit": 5,
            "game_end": "hands:4",
            "buy_in": 40,
        },
        "random",
    ),
    ("surabat-2p-random", "surabat_cycle", 2, 301, {"buy_in": 400}, "random"),
    ("surabat-4p-heuristic", "surabat_cycle", 4, 302, {"buy_in": 80}, "heuristic"),
    (
        "surabat-6p-rounds-house",
        "surabat_cycle",
        6,
        303,
        {"rounds": 2, "final_pot": "house", "game_end": "hands:3", "buy_in": 300},
        "random",
    ),
    ("kessel-2p-random", "kessel", 2, 401, {"chips": 6, "game_end": "rounds:5"}, "random"),
    ("kessel-4p-heuristic", "kessel", 4, 402, {"game_end": "rounds:4"}, "heuristic"),
    (
        "kessel-6p-token-list",
        "kessel",
        6,
        403,
        {
            "shift_tokens": "free_draw,embezzlement,general_audit,direct_transaction,prime_sabacc",
            "impostors": 2,
            "turns": 2,
            "game_end": "rounds:3",
        },
        "random",
    ),
    ("coruscant-2p-random", "coruscant_shift", 2, 401, {}, "random"),
    ("coruscant-4p-heuristic", "coruscant_shift", 4, 402, {"buy_in": 40}, "heuristic"),
    (
        "coruscant-5p-rising-split-fixed",
        "coruscant_shift",
        5,
        403,
        {"rising_ante": True, "true_tie": "split", "betting": "fixed", "game_end": "hands:6"},
        "random",
    ),
]
MAX_ACTIONS = 3000


def state_key(game: GameProtocol) -> dict[str, Any]:
    """The state the digests cover, read through the public protocol only (so the digests do
    not depend on the observation's JSON layout): every card's place in order, the money, the
    decision."""
    return {
        "cards": [c.code for c in game.card_locations()],
        "hands": [len(h) for h in game.hands],
        "public": [sorted(p) for p in game.public_ids],
        "stacks": list(game.stacks),
        "committed": list(game.committed),
        "pot": game.pot_total(),
        "sabacc": game.sabacc_pot,
        "hand": game.hand_no,
        "dealer": game.dealer,
        "phase": game.phase,
        "to_act": game.to_act,
        "over": game.is_over,
    }


def digest(game: GameProtocol) -> str:
    """A short stable hash of :func:`state_key`."""
    text = json.dumps(state_key(game), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def deal_record(game: GameProtocol) -> dict[str, Any]:
    """The cards of every hand as the hand's first decision finds them (its deal)."""
    return {"hand": game.hand_no, "hands": [[c.code for c in h] for h in game.hands]}


def record(game: GameProtocol) -> dict[str, Any]:
    """Everything the golden test compares, for a game played to its end (or replayed)."""
    return {
        "hands": [r.to_dict() for r in game.hand_results],
        "final_stacks": list(game.stacks),
        "outcome": game.outcome.to_dict() if game.outcome else None,
    }


def walk(game: GameProtocol, actions: list[tuple[int, str]]) -> dict[str, Any]:
    """Apply ``actions`` to ``game``, collecting the deals and the digest after each action."""
    deals = [deal_record(game)]
    digests = []
    for seat, action in actions:
        game.apply(action, seat=seat)
        digests.append(digest(game))
        if not game.is_over and game.hand_no != deals[-1]["hand"]:
            deals.append(deal_record(game))
    return {"deals": deals, "digests": digests, **record(game)}


def play(variant: str, players: int, seed: int, options: dict[str, Any], who: str) -> GameProtocol:
    game = sabacc.new_game(variant, players=players, seed=seed, **options)
    rng = random.Random(seed)
    bots = [make_bot(who, seed * 10 + s) for s in range(players)] if who != "random" else []
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            return game
        seat = game.current_player
        assert seat is not None
        if bots:
            action = decide(bots[seat], game)
        else:  # a kind of action, then one of that kind; rarely junk, so hands go on
            legal = game.legal_actions()
            calm = [a for a in legal if a.kind != "junk"]
            pool = calm if calm and rng.random() < 0.92 else legal
            kind = rng.choice(sorted({a.kind for a in pool}))
            action = rng.choice([a for a in pool if a.kind == kind])
        game.apply(action)
    raise SystemExit(f"{variant} seed {seed}: no end after {MAX_ACTIONS} actions")


def build(case: tuple[str, str, int, int, dict[str, Any], str]) -> dict[str, Any]:
    name, variant, players, seed, options, who = case
    played = play(variant, players, seed, options, who)
    history = played.history()
    fresh = sabacc.new_game(variant, players=players, seed=seed, **options)
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": name,
        "played_by": who,
        "history": history,
        **walk(fresh, [(a["seat"], a["action"]) for a in history["actions"]]),
    }


def main() -> int:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        doc = build(case)
        path = GOLDEN / f"{case[0]}.json"
        path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        print(f"{path.name}: {len(doc['digests'])} actions, {len(doc['hands'])} hands")
    return 0


if __name__ == "__main__":
    sys.exit(main())
