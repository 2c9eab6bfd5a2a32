"""Chance mode (``sabacc.engine.chance``): explicit chance nodes for every variant.

The seeded game, played on a :class:`RecordingRandom`, is the seeded game (same states as a
plain seeded game), and the chance-mode game fed the outcomes it drew reaches the same states
after every step; every chance node is one the variant declares, with exact probabilities.
"""

from __future__ import annotations

import copy
import random
from fractions import Fraction

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from sabacc.core.errors import IllegalActionError, OptionError
from sabacc.engine.chance import ChanceGame, ChanceSource, play_recorded
from sabacc.engine.game import Game
from sabacc.variants.registry import lookup

from .conftest import VARIANTS


def _one_hand(variant: str) -> dict[str, object]:
    options = lookup(variant).options_type
    if "max_hands" in options.names() and "max_hands" not in getattr(options, "unused", ()):
        return {"max_hands": 1}
    return {"game_end": "hands:1"}


def _state(game: Game) -> object:
    return copy.deepcopy(
        (
            game.full_state(),
            list(game.stacks),
            list(game.committed),
            game.current_player,
            game.phase,
            [c.id for c in game.card_locations()],
        )
    )


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 3])
@settings(max_examples=3, deadline=None, phases=[Phase.explicit, Phase.generate])
@given(seed=st.integers(0, 2**32), choice=st.integers(0, 2**32))
def test_fed_the_seeded_outcomes_reaches_the_seeded_states(
    variant: str, players: int, seed: int, choice: int
) -> None:
    info = lookup(variant)
    opts = info.options_type.from_mapping({"game_end": "hands:2"})
    pick = random.Random(choice)
    states: list[object] = []

    def choose(game: Game) -> object:
        states.append(_state(game))
        return pick.choice(game.legal_actions())

    recorded, actions, outcomes = play_recorded(info, opts, players, seed, choose)  # type: ignore[arg-type]
    states.append(_state(recorded))
    # The recording RNG draws what the seeded RNG draws: the same game.
    plain = info.game_type(opts, seed=seed, players=players, log=False)
    for action in actions:
        plain.apply(action)
    assert _state(plain) == states[-1]
    # Fed those outcomes, the chance-mode game passes through the same states.
    cg = ChanceGame(info, opts, players)
    feed = iter(outcomes)
    seen = []
    for action in actions:
        while cg.is_chance_node():
            cg.apply_chance(next(feed))
        assert cg.game is not None
        seen.append(_state(cg.game))
        cg.apply(action)
    while cg.is_chance_node():
        cg.apply_chance(next(feed))
    assert cg.game is not None
    seen.append(_state(cg.game))
    assert next(feed, None) is None
    assert seen == states
    assert cg.is_over == recorded.is_over


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_chance_node_is_declared_and_exact(variant: str) -> None:
    info = lookup(variant)
    opts = info.options_type.from_mapping(_one_hand(variant))
    rng = random.Random(3)
    kinds = set()
    for _ in range(3):
        cg = ChanceGame(info, opts, 2)
        while not cg.is_over:
            if cg.is_chance_node():
                node = cg.node
                assert node is not None
                assert any(e.covers(node) for e in info.chance), node
                outcomes = cg.chance_outcomes()
                assert sum(p for _, p in outcomes) == 1
                assert all(p == Fraction(1, node.size) for _, p in outcomes)
                assert len(node.labels) == node.size
                kinds.add(node.kind)
                cg.apply_chance(rng.randrange(node.size))
            else:
                cg.apply(rng.choice(cg.legal_actions()))
    assert "shuffle" in kinds
    assert {e.kind for e in info.chance} >= kinds


def test_a_shuffle_deals_the_first_outcomes_first() -> None:
    info = lookup("corellian_spike")
    cg = ChanceGame(info, info.options_type.from_mapping({}), 2)
    first = cg.node
    assert first is not None and first.kind == "shuffle" and first.size == len(info.deck)
    label = first.labels[5]
    cg.apply_chance(5)
    # The top of the draw pile (dealt first) is the card chosen first.
    while cg.is_chance_node():
        cg.apply_chance(0)
    assert cg.game is not None
    dealt_first = cg.game.hands[1][0]  # seat 1 is left of the dealer: dealt first
    assert dealt_first.code == label


def test_chance_mode_refuses_what_it_cannot_do() -> None:
    info = lookup("corellian_spike")
    cg = ChanceGame(info, info.options_type.from_mapping({}), 2)
    with pytest.raises(IllegalActionError):
        cg.apply("stand")  # the deal is not complete
    with pytest.raises(IllegalActionError):
        cg.apply_chance(62)
    with pytest.raises(TypeError):
        ChanceSource().random()
    kessel = lookup("kessel")
    with pytest.raises(OptionError):
        kessel.game_type(
            kessel.options_type.from_mapping({}), seed=1, players=2, cards=kessel.deck.cards[:4]
        )
