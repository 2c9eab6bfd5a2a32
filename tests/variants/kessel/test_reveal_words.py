"""What the table says of a Kessel hand at the reveal (issue 35): an Impostor whose dice are
rolled is valued among those dice only, by the observation and by the odds alike."""

from __future__ import annotations

import random
from typing import Any

import pytest

import sabacc
from sabacc.services.odds import hand_odds
from sabacc.variants import compiled

ENGINES = ["python"] + (["compiled"] if compiled.available("kessel") else [])


def _impostor_choices(engine: str, seeds: range) -> list[dict[str, Any]]:
    """The observations of seats choosing an Impostor's die, over random games."""
    found = []
    for seed in seeds:
        game: Any = sabacc.new_game("kessel", players=3, seed=seed, engine=engine)  # type: ignore[call-overload]
        rng = random.Random(seed)
        while not game.is_over:
            if game.phase == "impostor":
                found.append(game.observation(game.current_player))
            game.apply(rng.choice(list(game.legal_actions())))
    return found


@pytest.mark.parametrize("engine", ENGINES)
def test_a_rolled_impostor_is_valued_among_its_dice(engine: str) -> None:
    """N3: with ``2s Ib`` and the dice 5 and 4 the hand is "difference 2", not "Sabacc 2/2"
    (a pair the dice cannot make), and the odds compare that hand."""
    seen = 0
    for obs in _impostor_choices(engine, range(40)):
        cards = obs["you"]["cards"]
        plain = [c for c in cards if not c.startswith("I")]
        if len(plain) != 1 or plain[0].startswith("0"):
            continue  # two Impostors, or a Sylop copying the die: checked by the dice below
        value = int(plain[0][:-1])
        name = obs["you"]["hand"]["name"]
        if value in obs["dice"]:
            assert name.endswith(f"Sabacc {value}/{value}"), (cards, obs["dice"], name)
        else:
            best = min(abs(value - d) for d in obs["dice"])
            assert name == f"difference {best}", (cards, obs["dice"], name)
            odds = hand_odds(obs)
            assert odds is not None and odds.name == name
            seen += 1
    assert seen >= 3
