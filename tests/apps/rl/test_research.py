"""The research-grade environment (``sabacc.apps.rl.research``): tensors, masks, resampling.

A resampled state has the same information state (string and tensor) for the player it is
drawn for, keeps every card that player knows where it is, and puts no such card anywhere
else; the solver sub-game is zero-sum; the public/private blocks cover the tensors.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from sabacc.apps.rl.research import ResearchGame, ResearchState, deck_subset
from sabacc.core.cards import Card
from sabacc.engine.game import Game
from sabacc.variants.registry import lookup

from .conftest import VARIANTS

_GAMES: dict[tuple[str, int], ResearchGame] = {}


def _game(variant: str, players: int) -> ResearchGame:
    key = (variant, players)
    if key not in _GAMES:
        _GAMES[key] = ResearchGame(variant, players)
    return _GAMES[key]


def _play(rg: ResearchGame, rng: random.Random, decisions: int) -> ResearchState:
    state = rg.new_state()
    made = 0
    while not state.is_terminal() and made < decisions:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            weights = [float(p) for _, p in outcomes]
            state.apply_chance(rng.choices([o for o, _ in outcomes], weights)[0])
        else:
            state.apply_index(rng.choice(state.legal_indices()))
            made += 1
    while state.is_chance_node():
        state.apply_chance(rng.choice(state.chance_outcomes())[0])
    return state


def _known(game: Game, viewer: int) -> dict[int, tuple[str, int]]:
    """Every card ``viewer`` can see, by id: (where, index)."""
    spots: dict[int, tuple[str, int]] = {}
    for i, c in enumerate(game.hands[viewer]):
        spots[c.id] = ("hand", i)
    for s in range(game.n):
        if s != viewer:
            for c in game._known_cards(viewer, s):
                spots[c.id] = (f"seat{s}", 0)
    hidden = {id(pile) for pile, _ in game._hidden_slots(viewer)}
    for name in game.piles:
        pile: list[Card] = getattr(game, name)
        if id(pile) in hidden:
            continue
        for i, c in enumerate(pile):
            spots[c.id] = (name, i)
    return spots


def _places(game: Game) -> dict[int, str]:
    where = {c.id: f"hand{s}" for s, h in enumerate(game.hands) for c in h}
    for name in game.piles:
        for c in getattr(game, name):
            where[c.id] = name
    return where


@pytest.mark.parametrize("variant", VARIANTS)
@settings(
    max_examples=6,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**32), decisions=st.integers(0, 12), players=st.integers(2, 3))
def test_resample_keeps_the_information_state(
    variant: str, seed: int, decisions: int, players: int
) -> None:
    rg = _game(variant, players)
    rng = random.Random(seed)
    state = _play(rg, rng, decisions)
    game = state.cg.game
    assert game is not None
    for viewer in range(players):
        known = _known(game, viewer)
        new = state.resample_from_infostate(viewer, random.Random(seed + viewer))
        assert new.information_state_string(viewer) == state.information_state_string(viewer)
        assert np.array_equal(
            new.information_state_tensor(viewer), state.information_state_tensor(viewer)
        )
        assert np.array_equal(new.observation_tensor(viewer), state.observation_tensor(viewer))
        if viewer == state.current_player:  # its own choices depend on its own cards only
            assert np.array_equal(new.legal_mask(), state.legal_mask())
        other = new.cg.game
        assert other is not None
        # Every card the viewer knows is where it was, and nowhere else.
        where_new = _places(other)
        where_old = _places(game)
        for cid in known:
            assert where_new[cid] == where_old[cid]
        assert sorted(c.id for c in other.card_locations()) == sorted(
            c.id for c in game.card_locations()
        )
        # The resampled state plays on.
        if not new.is_terminal() and not new.is_chance_node():
            new.apply_index(new.legal_indices()[0])


def test_resampling_does_re_deal_what_is_hidden() -> None:
    rg = _game("corellian_spike", 2)
    state = _play(rg, random.Random(1), 1)
    game = state.cg.game
    assert game is not None
    differs = 0
    for k in range(10):
        other = state.resample_from_infostate(0, random.Random(k)).cg.game
        assert other is not None
        differs += [c.id for c in other.hands[1]] != [c.id for c in game.hands[1]]
    assert differs >= 8


@pytest.mark.parametrize("variant", VARIANTS)
def test_tensors_blocks_and_masks(variant: str) -> None:
    rg = _game(variant, 2)
    state = _play(rg, random.Random(2), 3)
    for player in range(2):
        obs = state.observation_tensor(player)
        info = state.information_state_tensor(player)
        assert obs.shape == (rg.observation_size,)
        assert info.shape == (rg.information_state_size,)
        assert np.array_equal(info[: rg.observation_size], obs)
    for recall in (False, True):
        blocks = rg.blocks(recall)
        size = rg.information_state_size if recall else rg.observation_size
        assert sum(width for _, _, width, _ in blocks) == size
        assert {part for *_, part in blocks} == {"public", "private"}
        assert rg.private_mask(recall).any()
    if not state.is_terminal():
        mask = state.legal_mask()
        assert mask.shape == (rg.num_actions,)
        assert list(np.flatnonzero(mask)) == state.legal_indices()


def test_a_private_block_is_what_differs_between_two_deals() -> None:
    rg = _game("corellian_spike", 2)
    a = _play(rg, random.Random(5), 0)
    b = _play(rg, random.Random(6), 0)
    private = rg.private_mask()
    va, vb = a.observation_tensor(0), b.observation_tensor(0)
    assert not np.array_equal(va[private], vb[private])  # own cards differ


@pytest.mark.parametrize(
    "variant", ["corellian_spike", "surabat_cycle", "classic", "coruscant_shift"]
)
def test_the_solver_sub_game_is_zero_sum(variant: str) -> None:
    rg = _game(variant, 2)
    assert rg.zero_sum
    rng = random.Random(4)
    for _ in range(5):
        state = _play(rg, rng, 10_000)
        assert state.is_terminal()
        assert sum(state.returns()) == 0


def test_kessel_is_not_zero_sum_and_says_so() -> None:
    assert not _game("kessel", 2).zero_sum


def test_deck_subset_and_reduced_games() -> None:
    deck = lookup("corellian_spike").deck.cards
    cards = deck_subset(deck, max_value=2, suits="c", sylops=1)
    assert sorted(c.code for c in cards) == ["+1c", "+2c", "-1c", "-2c", "0"]
    rg = ResearchGame("corellian_spike", 2, max_value=2, suits="c", sylops=1, rounds=1)
    assert len(rg.deck) == 5
    state = _play(rg, random.Random(0), 10_000)
    game = state.cg.game
    assert game is not None
    assert {c.id for c in game.card_locations()} == {c.id for c in cards}


def test_collapsed_chance_is_the_exact_expectation() -> None:
    kw: dict[str, Any] = dict(
        max_value=2, suits="c", sylops=1, rounds=1, betting="fixed", max_raises=0
    )
    exact = ResearchGame("corellian_spike", 2, collapse_chance=True, **kw)
    full = ResearchGame("corellian_spike", 2, **kw)
    rng = random.Random(9)
    state = exact.new_state()
    twin = full.new_state()
    while not state.is_terminal():
        if state.is_chance_node():
            o = rng.choice(state.chance_outcomes())[0]
            state.apply_chance(o)
            twin.apply_chance(o)
        else:
            i = state.legal_indices()[0]
            state.apply_index(i)
            twin.apply_index(i)
    # Enumerate the rest of the uncollapsed game: its expected returns are the collapsed ones.
    total = [0.0, 0.0]
    stack = [(twin, 1.0)]
    while stack:
        s, p = stack.pop()
        if s.is_terminal():
            total = [t + p * r for t, r in zip(total, s.returns(), strict=True)]
            continue
        assert s.is_chance_node()  # no decision is left
        for o, q in s.chance_outcomes():
            c = s.clone()
            c.apply_chance(o)
            stack.append((c, p * float(q)))
    assert state.returns() == pytest.approx(total)


def test_the_adapter_says_what_to_install_without_open_spiel() -> None:
    import os
    import subprocess
    import sys

    code = (
        "import sys\n"
        "sys.modules['pyspiel'] = None\n"
        "try:\n"
        "    import sabacc.apps.rl.openspiel\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=dict(os.environ)
    )
    assert "pip install 'sabacc[research]'" in out.stdout, out.stderr
