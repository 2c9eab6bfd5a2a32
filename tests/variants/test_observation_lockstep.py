"""Both engines export the same observation snapshot, and the one builder makes the same
observations from it, for every variant, 2-6 seats, every seat and a spectator.

Random legal play (Hypothesis draws the variant, the table size, the seed and the choices) runs
the reference game and the compiled core in lockstep; after every action the two
:meth:`observation_snapshot` records must be equal, field by field, and so must every viewer's
observation (as dicts and as JSON text, so the key order too) and :meth:`observations`.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sabacc
from sabacc.engine.observe import ObservationSnapshot
from sabacc.variants.compiled import available

VARIANTS = ("corellian_spike", "surabat_cycle", "coruscant_shift", "kessel", "classic")
#: Actions per drawn game (a game's first hands: every phase of each variant comes round).
ACTIONS = 160

pytestmark = pytest.mark.skipif(
    not all(available(v) for v in VARIANTS), reason="the compiled cores are not built"
)


def assert_same_snapshot(ref: Any, core: Any, where: str) -> ObservationSnapshot:
    a, b = ref.observation_snapshot(), core.observation_snapshot()
    assert isinstance(a, ObservationSnapshot) and isinstance(b, ObservationSnapshot)
    for field in ObservationSnapshot._fields:
        assert getattr(a, field) == getattr(b, field), f"{where}: {field}"
    return a


def assert_same_observations(ref: Any, core: Any, where: str) -> None:
    viewers: list[int | None] = [None, *range(ref.n)]
    many_ref = ref.observations(viewers)
    many_core = core.observations(viewers)
    for viewer in viewers:
        a, b = ref.observation(viewer), core.observation(viewer)
        assert a == b, f"{where}, viewer {viewer}"
        assert json.dumps(a) == json.dumps(b), f"{where}, viewer {viewer}: key order"
        assert many_ref[viewer] == a and many_core[viewer] == b, f"{where}, viewer {viewer}"


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    variant=st.sampled_from(VARIANTS),
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32 - 1),
    choices=st.integers(0, 2**32 - 1),
)
def test_both_engines_give_equal_snapshots_and_observations(
    variant: str, players: int, seed: int, choices: int
) -> None:
    ref = sabacc.new_game(variant, players=players, seed=seed)
    core = sabacc.new_game(variant, players=players, seed=seed, engine="compiled")
    rng = random.Random(choices)
    for step in range(ACTIONS):
        where = f"{variant}, {players} seats, seed {seed}, after {step} actions"
        snap = assert_same_snapshot(ref, core, where)
        assert snap.variant == ref.variant and len(snap.hands) == players
        assert_same_observations(ref, core, where)
        if ref.is_over:
            break
        legal = ref.legal_actions()
        action = legal[rng.randrange(len(legal))]
        ref.apply(action)
        core.apply(action)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_snapshot_is_plain_and_immutable(variant: str) -> None:
    for engine in ("python", "compiled"):
        game = sabacc.new_game(variant, players=3, seed=5, engine=engine)
        snap = game.observation_snapshot()
        with pytest.raises(AttributeError):
            snap.phase = "over"  # type: ignore[misc]
        for field in ("stacks", "committed", "round_bet", "status", "hands", "public", "part"):
            assert isinstance(getattr(snap, field), tuple), (engine, field)
        assert all(isinstance(h, tuple) for h in snap.hands)
        # what the engine shows changes nothing in it: the next action makes a new snapshot
        before = tuple(snap.stacks)
        game.apply(game.legal_actions()[0])
        assert snap.stacks == before


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_viewer_not_at_the_table_is_refused_alike(variant: str) -> None:
    for engine in ("python", "compiled"):
        game = sabacc.new_game(variant, players=3, seed=1, engine=engine)
        bad: Any
        for bad in (3, -1, True, "0", 1.0):
            with pytest.raises(IndexError, match="no seat"):
                game.observation(bad)
            with pytest.raises(IndexError, match="no seat"):
                game.observations([0, bad])
