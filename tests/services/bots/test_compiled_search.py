"""Search bots sample and play out Corellian Spike worlds on the compiled core.

``sampler_for`` (used by ``decide``) copies a reference Spike game into the compiled core once
per decision (:meth:`SpikeCore.from_game`) and samples worlds there
(:meth:`SpikeCore.determinize`). That must change nothing but speed: the copied state is the
game's, every sampled world is the one the reference engine would sample from the same RNG, and
the search bot makes the same decisions with the same statistics.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import sabacc
from sabacc.core.errors import OptionError
from sabacc.engine.game import Game
from sabacc.services.bots import make_bot, sampler_for
from tests.support import spike_state as state

core = pytest.importorskip(
    "sabacc.variants.corellian_spike._corellian_spike_core", reason="the compiled core is not built"
)


def positions(games: int, every: float = 0.3) -> list[Game]:
    """Reference Spike games at random decision points (2-6 seats, some options)."""
    out: list[Game] = []
    options: list[dict[str, Any]] = [
        {},
        {"gain_fee": 1, "swap_fee": 1},
        {"game_end": "last_standing", "buy_in": 30},
        {"hand_cap": 8, "betting": "pot_limit"},
    ]
    for seed in range(games):
        g = sabacc.new_game("spike", players=2 + seed % 5, seed=seed, **options[seed % 4])
        rng = random.Random(seed)
        while not g.is_over:
            if rng.random() < every:
                out.append(g.clone())
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
    return out


def test_from_game_copies_the_state_and_goes_on_identically() -> None:
    for i, g in enumerate(positions(20)):
        c = core.SpikeCore.from_game(g)
        assert state(c) == state(g)
        assert c.actions == g.actions
        assert [n[3] for n in c.hand_nets] == [r.net for r in g.hand_results]
        rng = random.Random(i)  # and both play on alike, RNG included (shifts, reshuffles)
        while not g.is_over:
            legal = g.legal_actions()
            action = legal[rng.randrange(len(legal))]
            g.apply(action)
            c.apply(action)
            assert state(c) == state(g)
        assert c.payoffs == g.payoffs


def test_sampled_worlds_are_the_reference_worlds() -> None:
    for i, g in enumerate(positions(20)):
        seat = g.current_player
        assert seat is not None
        reference = sampler_for(g, seat, engine="python")
        compiled = sampler_for(g, seat, engine="compiled")
        for k in range(3):
            a = reference(random.Random(1000 * i + k))
            b = compiled(random.Random(1000 * i + k))
            assert isinstance(a, Game) and isinstance(b, core.SpikeCore)
            assert state(b) == state(a)
            assert b.clone(reseed=5).legal_actions() == a.clone(reseed=5).legal_actions()


def test_search_decides_the_same_on_both_engines() -> None:
    decisions = 0
    for i, g in enumerate(positions(8, every=0.25)):
        seat = g.current_player
        assert seat is not None
        obs, legal = g.observation(seat), g.legal_actions()
        if len(legal) == 1:
            continue
        slow, fast = make_bot("ismcts:40", seed=i), make_bot("ismcts:40", seed=i)
        a = slow.act(obs, legal, sampler=sampler_for(g, seat, engine="python"))  # type: ignore[call-arg]
        b = fast.act(obs, legal, sampler=sampler_for(g, seat, engine="compiled"))  # type: ignore[call-arg]
        assert a == b
        assert slow.last_stats == fast.last_stats  # type: ignore[attr-defined]
        decisions += 1
    assert decisions >= 20


def test_default_sampler_uses_the_compiled_core_where_there_is_one() -> None:
    spike = sabacc.new_game("spike", players=3, seed=1)
    assert isinstance(sampler_for(spike, 1)(random.Random(0)), core.SpikeCore)
    surabat = sabacc.new_game("surabat", players=3, seed=1)
    seat = surabat.current_player
    assert seat is not None
    surabat_core = pytest.importorskip("sabacc.variants.surabat_cycle._surabat_cycle_core")
    assert type(sampler_for(surabat, seat)(random.Random(0))) is surabat_core.SurabatCore
    classic = sabacc.new_game("classic", players=3, seed=1)
    assert not isinstance(sampler_for(classic, 0)(random.Random(0)), Game)
    kessel = sabacc.new_game("kessel", players=3, seed=1)
    seat = kessel.current_player
    assert seat is not None
    assert not isinstance(sampler_for(kessel, seat)(random.Random(0)), Game)  # its own worlds
    kessel_core = pytest.importorskip("sabacc.variants.kessel._kessel_core")
    world = sampler_for(kessel, seat, engine="compiled")(random.Random(0))
    assert type(world) is kessel_core.KesselCore
    with pytest.raises(OptionError, match="engine='warp'"):
        sampler_for(spike, 1, engine="warp")


@pytest.mark.parametrize("size", [0, 1, 2, 3, 17, 55, 62, 500])
def test_compiled_shuffle_draws_like_random_shuffle(size: int) -> None:
    for seed in (0, 1, 2**40 + 7):
        a, b = random.Random(seed), random.Random(seed)
        a.random()
        b.random()  # not at the start of the state
        x, y = list(range(size)), list(range(size))
        a.shuffle(x)
        core.shuffle_sample(b, y)
        assert x == y
        assert a.getstate() == b.getstate()
