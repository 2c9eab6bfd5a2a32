"""The compiled Surabat Cycle core
(``SurabatCore`` in :mod:`sabacc.variants.surabat_cycle._surabat_cycle_core`)
against the reference engine (:class:`~sabacc.variants.surabat_cycle.rules.SurabatGame`).

Both engines play the same random legal actions in lockstep; after every action everything is
compared: the state fields (Spike's and Surabat's own: Sun, Moon and their owners, who saw what,
the seats dealt in, the starting player), the legal actions, every seat's observation (and the
spectator's), every seat's ``seat_view``; at the end the payoffs, outcome, hand results and
history. Then illegal actions, clone, determinize, ``from_game``, pickling, conservation and
the front door (``engine="compiled"`` / ``"auto"``). The golden histories replay on the core in
``tests/test_golden.py``. Sized to run well under a minute; ``SABACC_CORE_EXAMPLES`` scales it.
"""

from __future__ import annotations

import os
import random
from dataclasses import fields
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import sabacc
from sabacc.core.actions import Action, Bet, Raise, Stand
from sabacc.core.errors import OptionError
from sabacc.engine.betting import Legal
from sabacc.variants.corellian_spike.rules import SPIKE_DECK
from sabacc.variants.spike_family.actions import Discard, Gain, Swap
from sabacc.variants.surabat_cycle.rules import SurabatGame, SurabatOptions
from tests.support import ids, spike_state
from tests.variants.lockstep import (
    assert_end_equal,
    check_clone_and_copies,
    check_determinize,
    check_illegal_inputs,
    drive,
    play_some,
)
from tests.variants.lockstep import check_conservation as conservation

core_mod = pytest.importorskip(
    "sabacc.variants.surabat_cycle._surabat_cycle_core", reason="the compiled core is not built"
)

if TYPE_CHECKING:
    from sabacc.variants.surabat_cycle._surabat_cycle_core import SurabatCore
else:
    SurabatCore = core_mod.SurabatCore

SCALE = int(os.environ.get("SABACC_CORE_EXAMPLES", "1"))
MAX_ACTIONS = 6000
DECK_IDS = sorted(c.id for c in SPIKE_DECK.cards)


def hsettings(examples: int) -> settings:
    return settings(
        max_examples=examples * SCALE,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )


def state(g: Any) -> dict[str, Any]:
    """Every state field both engines expose, Surabat's own included."""
    return {
        **spike_state(g),
        "sun": ids(g.sun),
        "moon": ids(g.moon),
        "moon_owner": list(g.moon_owner),
        "seen": [sorted(k) for k in g.seen],
        "round_seats": list(g.round_seats),
        "starting_player": g.starting_player,
        "rounds": g.rounds,
        "bet_unit": g.bet_unit,
        "hand_nets": list(g.hand_nets),
        "card_locations": ids(g.card_locations()),
    }


def assert_same(ref: SurabatGame, core: SurabatCore, where: str) -> None:
    a, b = state(ref), state(core)
    if a != b:
        diff = {k: (a[k], b[k]) for k in a if a[k] != b[k]}
        raise AssertionError(f"state differs {where}: {diff}")
    for seat in [None, *range(ref.n)]:
        assert core.observation(seat) == ref.observation(seat), (where, seat)
    for seat in range(ref.n):
        view, rview = core.seat_view(seat), ref.seat_view(seat)
        assert (*view[:7], view[8]) == (*rview[:7], rview[8]), (where, seat)
        # ``last`` is the first word of the reference's text; the rest is equal.
        assert [(*r[:5], r[6]) for r in view[7]] == [(*r[:5], r[6]) for r in rview[7]]
        assert [r[5] for r in view[7]] == [
            None if r[5] is None else r[5].split(" ")[0] for r in rview[7]
        ]
    assert core.full_state() == ref.full_state()


def check_conservation(core: SurabatCore) -> None:
    conservation(core, DECK_IDS)


def choose(rng: random.Random, legal: Legal, passive: float) -> Action:
    options: list[Action] = list(legal.fixed)
    for kind, span in ((Bet, legal.bet), (Raise, legal.raise_)):
        if span is not None:
            lo, hi = span
            options.append(kind(hi if rng.random() < 0.1 else rng.randint(lo, min(hi, lo + 2))))
    calm = [a for a in options if a.kind in ("stand", "check", "call")]
    if calm and rng.random() < passive:
        return calm[0]
    act = rng.choice(options)
    if act.kind == "junk" and calm and rng.random() < 0.7:
        return calm[0]
    return act


def lockstep(ref: SurabatGame, core: SurabatCore, rng: random.Random, passive: float) -> None:
    """Play both engines with the same random legal actions to the end, comparing everything
    after every action (``tests.variants.lockstep.drive``)."""

    def compare(ref: SurabatGame, core: SurabatCore, where: str) -> None:
        assert_same(ref, core, where)
        check_conservation(core)

    drive(ref, core, lambda g: choose(rng, g.legal(), passive), compare, max_actions=MAX_ACTIONS)
    assert_end_equal(ref, core)


# ============================================================================================
# Lockstep over every option and player count
# ============================================================================================
OPTION_STRATEGIES: dict[str, st.SearchStrategy[Any]] = {
    "betting": st.sampled_from(["no_limit", "pot_limit", "fixed"]),
    "min_bet": st.none() | st.integers(1, 4),
    "max_raises": st.none() | st.integers(0, 3),
    "gain_fee": st.integers(0, 2),
    "swap_fee": st.integers(0, 3),
    "hand_cap": st.integers(2, 8),
    "rounds": st.none() | st.integers(1, 5),
    "true_tie": st.sampled_from(["blind_draw", "split"]),
    "game_end": st.sampled_from(["orbit", "last_standing", "hands:1", "hands:2", "hands:4"]),
    "max_hands": st.none() | st.integers(1, 5),
    "ante": st.integers(0, 5),
    "sabacc_ante": st.integers(0, 5),
    "final_pot": st.sampled_from(["split", "house"]),
}


def test_every_option_has_a_strategy() -> None:
    names = {f.name for f in fields(SurabatOptions)} - {"buy_in"}
    assert names - set(SurabatOptions.unused) == set(OPTION_STRATEGIES)


@st.composite
def setups(draw: st.DrawFn) -> tuple[int, int, dict[str, Any], int, float]:
    options: dict[str, Any] = {}
    for name, strategy in OPTION_STRATEGIES.items():
        if draw(st.booleans()):
            options[name] = draw(strategy)
    per_hand = options.get("ante", 5) + options.get("sabacc_ante", 5)
    options["buy_in"] = max(1, per_hand) * draw(st.integers(2, 12)) + draw(st.integers(0, 3))
    if options.get("game_end") == "last_standing" and options.get("max_hands") is None:
        options["max_hands"] = draw(st.integers(1, 4))
    try:
        SurabatOptions(**options)
    except OptionError:
        assume(False)
    return (
        draw(st.integers(2, 8)),
        draw(st.integers(-(2**70), 2**70)),
        options,
        draw(st.integers(0, 10**6)),
        draw(st.sampled_from([0.2, 0.6, 0.9])),
    )


@hsettings(80)
@given(setups())
def test_lockstep_random_games(setup: tuple[int, int, dict[str, Any], int, float]) -> None:
    players, seed, options, play_seed, passive = setup
    opts = SurabatOptions(**options)
    ref = SurabatGame(opts, seed=seed, players=players, log=False)
    core = SurabatCore(opts, seed=seed, players=players)
    lockstep(ref, core, random.Random(play_seed), passive)


@pytest.mark.parametrize("players", range(2, 9))
def test_lockstep_defaults_every_table_size(players: int) -> None:
    ref = SurabatGame(SurabatOptions(max_hands=2), seed=players, players=players, log=False)
    core = SurabatCore(SurabatOptions(max_hands=2), seed=players, players=players)
    lockstep(ref, core, random.Random(players), 0.6)


def test_forced_discard_and_reshuffle_happen() -> None:
    """The rarer paths are reached: the discard phase, the whole-stack reshuffle, Moon swaps
    that leave the placer knowing a card in another hand."""
    phases: set[str] = set()
    reshuffled = seen = False
    for seed in range(12):
        opts = SurabatOptions(hand_cap=2, max_hands=3)
        ref = SurabatGame(opts, seed=seed, players=6, log=False)
        core = SurabatCore(opts, seed=seed, players=6)
        rng = random.Random(seed)
        while not ref.is_over:
            phases.add(core.phase)
            seen = seen or any(core.seen)
            before = len(core.draw)
            act = choose(rng, ref.legal(), 0.1)
            ref.apply(act)
            core.apply(act)
            reshuffled = reshuffled or len(core.draw) > before
            assert state(ref) == state(core)
    assert {"card", "discard", "betting"} <= phases
    assert reshuffled and seen


# ============================================================================================
# Illegal actions, clone, determinize, from_game, pickling
# ============================================================================================
ODD_ACTIONS: list[Any] = [
    Gain(),
    Gain(11),
    Gain(True),
    Discard(3),
    Swap("draw", 1),
    Swap("discard", 1),
    Swap("moon", 11),
    Bet(1),
    Bet(2.5),  # type: ignore[arg-type]
    Raise(1),
    "gain +99",
    "swap moon",
    "discard 1",
    "nonsense",
    "call",
    "check",
    Stand(),
]


def test_illegal_actions_same_error_and_no_change() -> None:
    rng = random.Random(5)
    for seed in range(4):
        opts = SurabatOptions(hand_cap=3, gain_fee=1, max_hands=2)
        ref = SurabatGame(opts, seed=seed, players=3, log=False)
        core = SurabatCore(opts, seed=seed, players=3)
        check_illegal_inputs(ref, core, state, ODD_ACTIONS, rng)


def test_clone_continues_identically_and_independently() -> None:
    core = SurabatCore(SurabatOptions(max_hands=3), seed=3, players=4)
    check_clone_and_copies(core, state)


def test_determinize_equals_the_reference() -> None:
    rng = random.Random(4)
    for seed in range(6):
        opts = SurabatOptions(max_hands=2)
        ref = SurabatGame(opts, seed=seed, players=4, log=False)
        core = SurabatCore(opts, seed=seed, players=4)
        check_determinize(ref, core, state, seed, 60, rng)


def test_from_game_goes_on_exactly_as_the_reference() -> None:
    rng = random.Random(8)
    for seed in range(5):
        ref = SurabatGame(SurabatOptions(max_hands=3), seed=seed, players=3, log=False)
        play_some(ref, rng, rng.randint(0, 60))
        core = SurabatCore.from_game(ref)
        assert_same(ref, core, f"seed {seed}, from_game")
        lockstep(ref, core, random.Random(seed), 0.6)
    with pytest.raises(OptionError):
        SurabatCore.from_game(sabacc.new_game("spike", players=3, seed=1))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        SurabatCore(seed=1, players=3).snapshot()


# ============================================================================================
# Front door and a planted-bug check
# ============================================================================================
def test_front_door_and_options() -> None:
    game = sabacc.new_game("surabat", players=3, seed=2, engine="compiled", ante=2)
    assert type(game) is SurabatCore and game.variant == "surabat_cycle"
    ref = sabacc.new_game("surabat", players=3, seed=2, ante=2)
    assert game.legal_actions() == ref.legal_actions()
    assert game.info is ref.info
    with pytest.raises(OptionError, match="SurabatCore takes SurabatOptions"):
        SurabatCore(sabacc.variant("spike").options, seed=1, players=3)  # type: ignore[arg-type]
    with pytest.raises(OptionError) as c:
        SurabatCore({"hand_cap": 9}, seed=1, players=3)
    with pytest.raises(OptionError) as r:
        SurabatOptions.from_mapping({"hand_cap": 9})
    assert str(c.value) == str(r.value)
    with pytest.raises(OptionError):
        SurabatCore(seed=1, players=9)


def test_a_changed_rule_is_caught() -> None:
    """The comparison can fail: a reference game whose Moon swap forgets nothing (a planted
    difference) diverges from the core somewhere in these games."""

    class Forgetful(SurabatGame):
        def _forget(self, ids: set[int]) -> None:
            pass

    with pytest.raises(AssertionError):
        for seed in range(10):
            opts = SurabatOptions(max_hands=3)
            ref = Forgetful(opts, seed=seed, players=4, log=False)
            core = SurabatCore(opts, seed=seed, players=4)
            lockstep(ref, core, random.Random(seed), 0.3)
