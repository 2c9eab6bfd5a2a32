"""Every engine implements :class:`GameProtocol` (mypy checks the signatures in sabacc/api.py;
this checks the members at run time and that both Spike engines answer them alike)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import sabacc
from sabacc.engine.protocol import GameProtocol
from sabacc.variants import compiled

MEMBERS = sorted(
    name
    for name in vars(GameProtocol)
    if not name.startswith("_") and name not in ("register", "mro")
)
VARIANTS = ["corellian_spike", "classic", "surabat_cycle", "coruscant_shift"]


def games() -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = [(v, sabacc.new_game(v, players=3, seed=4)) for v in VARIANTS]
    for v in VARIANTS:  # and every compiled core that is built
        if compiled.available(v):
            out.append((f"{v}-compiled", sabacc.new_game(v, players=3, seed=4, engine="compiled")))
    return out


def test_the_protocol_lists_what_bots_and_rl_use() -> None:
    for name in ("legal", "apply", "observation", "clone", "determinize", "bet_unit", "rounds"):
        assert name in MEMBERS


@pytest.mark.parametrize("label,game", games(), ids=[label for label, _ in games()])
def test_every_member_is_there(label: str, game: Any) -> None:
    missing = [name for name in MEMBERS if not hasattr(game, name)]
    assert not missing, (label, missing)
    proto: GameProtocol = game
    assert isinstance(proto.clone(), type(game))
    assert isinstance(proto.determinize(0, random.Random(1)), type(game))


def test_public_bet_unit_and_rounds() -> None:
    spike = sabacc.new_game("spike", players=3, seed=1, rounds=2, ante=2)
    assert (spike.bet_unit, spike.rounds) == (2, 2)
    assert sabacc.new_game("spike", players=3, seed=1, min_bet=3).bet_unit == 3
    classic = sabacc.new_game("classic", players=3, seed=1)
    assert classic.rounds is None and classic.bet_unit == 1
    surabat = sabacc.new_game("surabat", players=3, seed=1)
    assert surabat.rounds == 3  # automatic: one round per player
    assert sabacc.new_game("surabat", players=2, seed=1).rounds == 4
    assert sabacc.new_game("surabat", players=5, seed=1, rounds=2).rounds == 2
    if compiled.available():
        core = sabacc.new_game("spike", players=3, seed=1, rounds=2, ante=2, engine="compiled")
        assert (core.bet_unit, core.rounds) == (2, 2)


def test_hand_nets_and_action_count_agree_across_engines() -> None:
    if not compiled.available():
        pytest.skip("the compiled core is not built")
    ref = sabacc.new_game("spike", players=4, seed=9, buy_in=12)
    core = sabacc.new_game("spike", players=4, seed=9, buy_in=12, engine="compiled")
    rng = random.Random(9)
    while not ref.is_over:
        legal = ref.legal_actions()
        action = legal[rng.randrange(len(legal))]
        ref.apply(action)
        core.apply(action)
        assert ref.action_count == core.action_count == len(ref.actions)
        assert ref.hand_nets == core.hand_nets
    assert ref.hand_nets == [(r.hand, r.dealer, r.reason, r.net) for r in ref.hand_results]


def test_root_exports_the_types_the_api_returns() -> None:
    game = sabacc.new_game("spike", players=2, seed=1)
    assert isinstance(game.legal(), sabacc.Legal)
    assert all(isinstance(p, sabacc.Pot) for p in game.pots())
    assert isinstance(game.options, sabacc.Options)
    assert isinstance(sabacc.variant("spike").info, sabacc.VariantInfo)
    assert isinstance(game.snapshot(), sabacc.SpikeSnapshot)  # type: ignore[attr-defined]
    assert sabacc.GameProtocol is GameProtocol
