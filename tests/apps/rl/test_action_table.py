"""The action table: the index <-> action mapping round-trips, and masks equal legality."""

from __future__ import annotations

import random

import numpy as np
import pytest

from sabacc.apps.rl import ActionTable, TableCore
from sabacc.core.actions import Bet, Raise
from sabacc.core.errors import OptionError
from sabacc.variants.registry import lookup
from tests.apps.rl.conftest import VARIANT_ENGINES, VARIANTS

EXPECTED_SIZES = {
    "corellian_spike": 57,
    "surabat_cycle": 77,
    "classic": 35,
    "kessel": 55,
    "coruscant_shift": 45,
}


@pytest.mark.parametrize("variant", VARIANTS)
def test_table_layout(variant: str) -> None:
    info = lookup(variant)
    table = ActionTable(info, info.options_type())
    assert len(table) == table.n == EXPECTED_SIZES[variant]
    kinds = [kind.name for kind in info.actions]
    passive = [k for k in ("stand", "check", "call", "junk") if k in kinds]
    assert table.labels[: len(passive)] == tuple(passive) and passive[0] == "stand"
    assert len(set(table.labels)) == table.n  # every index has its own name
    # The fixed part round-trips through the text form of actions (the variant's parser).
    parse = info.parse_action
    for i, action in enumerate(table.fixed):
        assert table.fixed_index[parse(table.labels[i])] == i
        assert parse(str(action)) == action
    if table.sizes:  # a variant with betting
        assert table.labels[table.bet_base].startswith("bet ")
        assert table.labels[table.raise_base].startswith("raise ")
    else:
        assert table.bet_base == table.raise_base == table.n
    assert table.describe()[0] == "0: stand"


def test_sizes() -> None:
    info = lookup("spike")
    table = ActionTable(info, info.options_type())
    assert table.sizes == ("min", 0.5, 1.0, 2.0, "max")
    # min, 1/2 pot, pot, 2x pot, max for a range [2, 50] and a pot of 12.
    assert [table.amount(j, 2, 50, 12) for j in range(5)] == [2, 6, 12, 24, 50]
    # Fractions are clipped into the range.
    assert [table.amount(j, 5, 8, 40) for j in range(5)] == [5, 8, 8, 8, 8]
    classic = lookup("classic")
    ct = ActionTable(classic, classic.options_type())
    assert ct.sizes == (1, 2, 3)
    assert [ct.amount(j, 1, 2, 9) for j in range(3)] == [1, 2, None]
    custom = ActionTable(info, info.options_type(), ["min", "0.33", 4, "all-in"])
    assert custom.sizes == ("min", 0.33, 4, "max")
    for bad in ([], ["huge"], [0], [-0.5], [True]):
        with pytest.raises(OptionError):
            ActionTable(info, info.options_type(), bad)


@pytest.mark.parametrize(("variant", "engine"), VARIANT_ENGINES)
@pytest.mark.parametrize("players", [2, 5])
def test_masks_equal_legality(variant: str, engine: str, players: int) -> None:
    """At every decision of random play: each index with mask 1 decodes to a legal action that
    applies without error; each fixed index with mask 0 is illegal; every legal fixed action
    has exactly its index; a bet/raise index is legal exactly when betting/raising is."""
    core = TableCore(variant, players, episode="game", engine=engine)
    table = core.table
    rng = random.Random(f"{variant}-{players}")
    core.reset(rng.getrandbits(32))
    for _ in range(250):
        if core.over:
            core.reset(rng.getrandbits(32))
        game = core.game
        current = core.current_seat()
        assert current is not None
        seat = current
        mask = core.mask(seat)
        legal, pot, to_call = core.situation()
        assert mask.dtype == np.int8 and mask.shape == (table.n,)
        for i in range(table.n):
            action = table.decode(i, legal, pot, to_call)
            assert (action is not None) == bool(mask[i]), (i, table.labels[i], legal)
            if action is not None:
                assert game.is_legal(action)
                game.clone(log=False).apply(action)  # applies without error
                assert i in table.encode(action, legal, pot, to_call)  # round trip
            elif i < table.keep_base:
                assert not game.is_legal(table.fixed[i])
        for action in legal.fixed:
            expected = [table.fixed_index_of(action, legal)]
            assert table.encode(action, legal, pot, to_call) == expected
        bets = mask[table.bet_base : table.raise_base]
        raises = mask[table.raise_base :]
        assert bool(bets.any()) == (legal.bet is not None)
        assert bool(raises.any()) == (legal.raise_ is not None)
        if legal.bet is not None:  # min and max are always there
            lo, hi = legal.bet
            amounts = {table.decode(table.bet_base + j, legal, pot, to_call) for j in range(5)}
            if variant != "classic":
                assert {Bet(lo), Bet(hi)} <= amounts
        if legal.raise_ is not None and variant != "classic":
            lo, hi = legal.raise_
            assert table.decode(table.raise_base, legal, pot, to_call) == Raise(lo)
        legal_idx = np.flatnonzero(mask)
        core.apply_index(int(legal_idx[rng.randrange(len(legal_idx))]))


@pytest.mark.parametrize("variant", VARIANTS)
def test_mask_from_observation_equals_env_mask(variant: str) -> None:
    core = TableCore(variant, 3, engine="python")  # the JSON observation is the reference's
    rng = random.Random(variant)
    core.reset(9)
    for _ in range(150):
        if core.over:
            core.reset(rng.getrandbits(32))
        game = core.game
        for seat in range(3):
            obs = game.observation(seat)
            np.testing.assert_array_equal(core.table.mask_from_observation(obs), core.mask(seat))
        current = core.current_seat()
        assert current is not None
        seat = current
        legal_idx = np.flatnonzero(core.mask(seat))
        core.apply_index(int(legal_idx[rng.randrange(len(legal_idx))]))


def test_out_of_range_index_is_illegal() -> None:
    info = lookup("spike")
    table = ActionTable(info, info.options_type())
    core = TableCore("spike", 2)
    core.reset(1)
    legal, pot, to_call = core.situation()
    assert table.decode(-1, legal, pot, to_call) is None
    assert table.decode(table.n, legal, pot, to_call) is None
    core.apply_index(10_000)  # falls back to the passive action
    assert core.illegal_count == 1
