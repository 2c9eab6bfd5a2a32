"""The public seam between the two Corellian Spike engines: :class:`SpikeSnapshot`.

Both engines export the same snapshot for the same state (checked after every action of
lockstep games), import each other's, and a game rebuilt from a snapshot goes on exactly as the
original: reference -> core -> reference reaches equal states. The reference rebuild sets every
attribute a dealt game has (nothing private is left for a copier to know about), and snapshots
no engine could hold are refused before anything is built.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

import sabacc
from sabacc.variants.corellian_spike.rules import SpikeGame, SpikeOptions
from sabacc.variants.spike_family.snapshot import SpikeSnapshot
from tests.support import spike_state as state
from tests.variants.spike_family.test_spike_core import (
    OPTION_STRATEGIES,
    Setup,
    Style,
    assert_same_state,
    choose,
    hsettings,
    lockstep,
    make_pair,
    make_pair_or_same_error,
    setups,
)

core_mod = pytest.importorskip(
    "sabacc.variants.corellian_spike._corellian_spike_core", reason="the compiled core is built"
)
SpikeCore = core_mod.SpikeCore


def round_trip(ref: SpikeGame) -> SpikeGame:
    """reference -> snapshot -> core -> snapshot -> reference."""
    core = SpikeCore.from_snapshot(ref.snapshot())
    return SpikeGame.from_snapshot(core.snapshot(), log=False)


def test_the_lockstep_strategies_cover_every_spike_option() -> None:
    """A new SpikeOptions field must get a Hypothesis strategy in the lockstep tests (buy_in is
    drawn by option_dicts itself, sized to the antes)."""
    missing = set(SpikeOptions.names()) - set(OPTION_STRATEGIES) - {"buy_in"}
    assert not missing, f"add {sorted(missing)} to OPTION_STRATEGIES in test_spike_core.py"
    unknown = set(OPTION_STRATEGIES) - set(SpikeOptions.names())
    assert not unknown, unknown


class TestBothEnginesExportTheSameSnapshot:
    @hsettings(40)
    @given(setups())
    def test_after_every_action(self, setup: Setup) -> None:
        pair = make_pair_or_same_error(setup)
        if pair is None:
            return
        ref, core = pair

        def same_snapshots(r: SpikeGame, c: Any) -> None:
            assert c.snapshot() == r.snapshot()

        lockstep(ref, core, random.Random(setup.play_seed), setup.style, between=same_snapshots)


class TestRoundTrips:
    @hsettings(40)
    @given(setups(), st.integers(0, 200))
    def test_reference_core_reference_goes_on_identically(self, setup: Setup, steps: int) -> None:
        pair = make_pair_or_same_error(setup)
        if pair is None:
            return
        ref, core = pair
        rng = random.Random(setup.play_seed)
        for _ in range(steps):
            if ref.is_over:
                break
            act = choose(rng, ref.legal(), setup.style)
            ref.apply(act)
            core.apply(act)
        back = round_trip(ref)
        assert state(back) == state(ref)
        assert back.snapshot() == ref.snapshot()
        assert back.hand_results == ref.hand_results and back.history() == ref.history()
        # Both rebuilt games go on exactly as the originals (cards to come included).
        rebuilt_core = SpikeCore.from_snapshot(ref.snapshot())
        assert_same_state(back, rebuilt_core)
        lockstep(back, rebuilt_core, random.Random(steps), setup.style, strengths=False)
        lockstep(ref, core, random.Random(steps), setup.style, strengths=False)
        assert back.history() == ref.history()

    def test_the_rebuilt_reference_has_every_attribute_of_a_dealt_game(self) -> None:
        ref, _ = make_pair(Setup(4, 3, {"buy_in": 20}))
        for _ in range(7):
            ref.apply(ref.legal_actions()[-1])
        back = SpikeGame.from_snapshot(ref.snapshot())
        assert set(vars(back)) == set(vars(ref))
        back.apply(back.legal_actions()[0])  # and it logs events from here on
        assert back.events

    def test_from_game_is_the_snapshot_import(self) -> None:
        ref = cast(SpikeGame, sabacc.new_game("spike", players=5, seed=44, gain_fee=1))
        rng = random.Random(2)
        for _ in range(25):
            ref.apply(choose(rng, ref.legal(), Style()))
        assert SpikeCore.from_game(ref).snapshot() == ref.snapshot()

    def test_a_core_rebuilt_from_its_own_snapshot_equals_a_clone(self) -> None:
        core = sabacc.new_game("spike", players=3, seed=8, engine="compiled", buy_in=9)
        assert isinstance(core, SpikeCore)
        rng = random.Random(8)
        while not core.is_over:
            core.apply(choose(rng, core.legal(), Style()))
            again = SpikeCore.from_snapshot(core.snapshot())
            assert again.full_state() == core.full_state()
            assert again.history() == core.history()
            assert state(again) == state(core)


class TestRefusals:
    def base(self) -> SpikeSnapshot:
        return cast(SpikeGame, sabacc.new_game("spike", players=3, seed=1)).snapshot()

    @pytest.mark.parametrize(
        "change",
        [
            {"version": 2},
            {"names": ("solo",)},
            {"names": tuple("abcdefghi")},
            {"stacks": (1, 2)},
            {"draw": ()},
            {"rng_state": (0,) * 10},
            {"rng_state": (0,) * 624 + (625,)},
            {"to_act": 7},
            {"phase": "dancing"},
            {"card_queue": (0, 1, 2, 0)},
            {"public_ids": (frozenset({61}), frozenset(), frozenset())},
        ],
        ids=repr,
    )
    def test_impossible_snapshots_are_refused_by_both(self, change: dict[str, Any]) -> None:
        snap = self.base()
        if "draw" in change:  # a card missing from the deck
            change = {"draw": snap.draw[1:]}
        if "public_ids" in change and 61 in snap.hands[0]:
            pytest.skip("card 61 happens to be in seat 0's hand")
        bad = dataclasses.replace(snap, **change)
        with pytest.raises(ValueError):
            SpikeGame.from_snapshot(bad)
        with pytest.raises(ValueError):
            SpikeCore.from_snapshot(bad)

    def test_duplicate_card_is_refused(self) -> None:
        snap = self.base()
        bad = dataclasses.replace(snap, draw=(*snap.draw[1:], snap.discard[0]))
        for engine in (SpikeGame, SpikeCore):
            with pytest.raises(ValueError, match="exactly one place"):
                engine.from_snapshot(bad)

    def test_surabat_has_no_spike_snapshot(self) -> None:
        game = sabacc.new_game("surabat", players=3, seed=1)
        with pytest.raises(TypeError):
            game.snapshot()  # type: ignore[attr-defined]

    def test_other_options_are_refused(self) -> None:
        snap = self.base()
        surabat = sabacc.variant("surabat").options
        bad = dataclasses.replace(snap, options=surabat)  # type: ignore[arg-type]
        for engine in (SpikeGame, SpikeCore):
            with pytest.raises(TypeError):
                engine.from_snapshot(bad)


class TestCoreOptions:
    def test_a_mapping_is_parsed_by_the_reference_code(self) -> None:
        core = SpikeCore({"rounds": "2", "gain_fee": 1}, seed=3, players=3)
        assert core.options == SpikeOptions.from_mapping({"rounds": "2", "gain_fee": 1})
        assert core.options == SpikeOptions(rounds=2, gain_fee=1)
        assert SpikeCore(None, seed=3, players=3).options == SpikeOptions()

    @pytest.mark.parametrize(
        "options", [{"rounds": 0}, {"betting": "wild"}, {"dance": 1}, {"hand_cap": 9}], ids=repr
    )
    def test_a_bad_mapping_gets_the_reference_message(self, options: dict[str, Any]) -> None:
        with pytest.raises(sabacc.OptionError) as ref:
            SpikeOptions.from_mapping(options)
        with pytest.raises(sabacc.OptionError) as core:
            SpikeCore(options, seed=1, players=3)
        assert str(core.value) == str(ref.value)

    def test_surabat_options_are_refused(self) -> None:
        with pytest.raises(sabacc.OptionError, match="Corellian Spike only"):
            SpikeCore(sabacc.variant("surabat").options, seed=1, players=3)


FIELDS = [f.name for f in dataclasses.fields(SpikeSnapshot) if f.name not in ("options", "version")]


@hsettings(60)
@given(st.sampled_from(FIELDS), st.data())
def test_a_corrupted_field_is_refused_or_gives_a_playable_game(field: str, data: Any) -> None:
    """Whatever one field of a snapshot says, importing it never crashes the core: both engines
    refuse it (ValueError), or both hold exactly the state it describes."""
    base = sabacc.new_game("spike", players=3, seed=2).snapshot()  # type: ignore[attr-defined]
    junk = data.draw(
        st.integers(-(2**70), 2**70)
        | st.tuples(st.integers(-3, 70), st.integers(-3, 70))
        | st.lists(st.integers(-3, 70), max_size=70).map(tuple)
        | st.none()
        | st.text(max_size=5)
    )
    bad = dataclasses.replace(base, **{field: junk})
    try:
        core = SpikeCore.from_snapshot(bad)
    except ValueError:
        with pytest.raises(ValueError):
            SpikeGame.from_snapshot(bad)
        return
    ref = SpikeGame.from_snapshot(bad, log=False)
    assert core.snapshot() == ref.snapshot() == bad
