"""The compiled Coruscant Shift core
(``CoruscantCore`` in :mod:`sabacc.variants.coruscant_shift._coruscant_shift_core`)
against the reference engine (:class:`~sabacc.variants.coruscant_shift.rules.CoruscantGame`).

Both engines play the same random legal actions in lockstep; after every action everything is
compared: the state fields (Spike's and Coruscant's own: kept counts, target number and suit,
selection, the hand's ante), the legal actions (every Keep subset), every seat's observation
(and the spectator's), every seat's ``seat_view``; at the end the payoffs, outcome, hand results
and history. Then keeps named by value only, illegal actions, clone, determinize,
``from_game``, pickling, conservation and the front door. The golden histories replay on the
core in ``tests/test_golden.py``. Sized to run well under a minute; ``SABACC_CORE_EXAMPLES``
scales it.
"""

from __future__ import annotations

import copy
import gc
import os
import pickle
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
from sabacc.variants.coruscant_shift.actions import Keep
from sabacc.variants.coruscant_shift.rules import CoruscantGame, CoruscantOptions
from sabacc.variants.spike_family.actions import Discard, Gain, Swap
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
    "sabacc.variants.coruscant_shift._coruscant_shift_core", reason="the compiled core is not built"
)

if TYPE_CHECKING:
    from sabacc.variants.coruscant_shift._coruscant_shift_core import CoruscantCore
else:
    CoruscantCore = core_mod.CoruscantCore

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
    """Every state field both engines expose, Coruscant's own included."""
    return {
        **spike_state(g),
        "kept_n": list(g.kept_n),
        "target": g.target,
        "target_suit": g.target_suit,
        "selection": g.selection,
        "hand_ante": getattr(g, "hand_ante", g.options.ante),
        "rounds": g.rounds,
        "bet_unit": g.bet_unit,
        "hand_nets": list(g.hand_nets),
        "card_locations": ids(g.card_locations()),
    }


def assert_same(ref: CoruscantGame, core: CoruscantCore, where: str) -> None:
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


def check_conservation(core: CoruscantCore) -> None:
    conservation(core, DECK_IDS)


def choose(rng: random.Random, legal: Legal, passive: float) -> Action:
    options: list[Action] = list(legal.fixed)
    for kind, span in ((Bet, legal.bet), (Raise, legal.raise_)):
        if span is not None:
            lo, hi = span
            options.append(kind(hi if rng.random() < 0.1 else rng.randint(lo, min(hi, lo + 2))))
    calm = [a for a in options if a.kind in ("check", "call")]
    if calm and rng.random() < passive:
        return calm[0]
    act = rng.choice(options)
    if act.kind == "junk" and calm and rng.random() < 0.7:
        return calm[0]
    return act


def lockstep(ref: CoruscantGame, core: CoruscantCore, rng: random.Random, passive: float) -> None:
    """Play both engines with the same random legal actions to the end, comparing everything
    after every action (``tests.variants.lockstep.drive``)."""

    def compare(ref: CoruscantGame, core: CoruscantCore, where: str) -> None:
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
    "true_tie": st.sampled_from(["blind_draw", "split"]),
    "rising_ante": st.booleans(),
    "target": st.none() | st.sampled_from([0, 5, -5, 10, -10]),
    "target_suit": st.sampled_from(["roll", "circle", "triangle", "square"]),
    "game_end": st.sampled_from(["orbit", "last_standing", "hands:1", "hands:2", "hands:4"]),
    "max_hands": st.none() | st.integers(1, 5),
    "ante": st.integers(0, 5),
    "final_pot": st.sampled_from(["split", "house"]),
}


def test_every_option_has_a_strategy() -> None:
    names = {f.name for f in fields(CoruscantOptions)} - {"buy_in", "sabacc_ante"}
    assert names - set(CoruscantOptions.unused) == set(OPTION_STRATEGIES)


@st.composite
def setups(draw: st.DrawFn) -> tuple[int, int, dict[str, Any], int, float]:
    options: dict[str, Any] = {}
    for name, strategy in OPTION_STRATEGIES.items():
        if draw(st.booleans()):
            options[name] = draw(strategy)
    per_hand = options.get("ante", 2) + (12 if options.get("rising_ante") else 0)
    options["buy_in"] = max(1, per_hand) * draw(st.integers(2, 12)) + draw(st.integers(0, 3))
    if options.get("game_end") == "last_standing" and options.get("max_hands") is None:
        options["max_hands"] = draw(st.integers(1, 4))
    try:
        CoruscantOptions(**options)
    except OptionError:
        assume(False)
    return (
        draw(st.integers(2, 8)),
        draw(st.integers(-(2**70), 2**70)),
        options,
        draw(st.integers(0, 10**6)),
        draw(st.sampled_from([0.2, 0.6, 0.9])),
    )


@hsettings(50)
@given(setups())
def test_lockstep_random_games(setup: tuple[int, int, dict[str, Any], int, float]) -> None:
    players, seed, options, play_seed, passive = setup
    opts = CoruscantOptions(**options)
    ref = CoruscantGame(opts, seed=seed, players=players, log=False)
    core = CoruscantCore(opts, seed=seed, players=players)
    lockstep(ref, core, random.Random(play_seed), passive)


def test_hand_strength_orders_hands_as_the_target_value() -> None:
    for seed in range(30):
        core = CoruscantCore(seed=seed, players=6)
        values = {s: core.evaluate(core.hands[s]) for s in range(6)}
        strengths = {s: core.hand_strength(s) for s in range(6)}
        for a in range(6):
            for b in range(6):
                assert (values[a] < values[b]) == (strengths[a] < strengths[b])  # type: ignore[operator]
                assert (values[a] == values[b]) == (strengths[a] == strengths[b])


@pytest.mark.parametrize("players", range(2, 9))
def test_lockstep_defaults_every_table_size(players: int) -> None:
    ref = CoruscantGame(CoruscantOptions(max_hands=2), seed=players, players=players, log=False)
    core = CoruscantCore(CoruscantOptions(max_hands=2), seed=players, players=players)
    lockstep(ref, core, random.Random(players), 0.6)


def test_both_selections_shift_and_reshuffle_happen() -> None:
    """The rarer paths are reached: both selections, a reshuffle of the muck at the draw-up,
    the rising ante."""
    phases: set[str] = set()
    selections: set[int] = set()
    reshuffled = rose = False
    for seed in range(10):
        opts = CoruscantOptions(rising_ante=True, buy_in=200, max_hands=4, target=0)
        ref = CoruscantGame(opts, seed=seed, players=8, log=False)
        core = CoruscantCore(opts, seed=seed, players=8)
        rng = random.Random(seed)
        while not ref.is_over:
            phases.add(core.phase)
            selections.add(core.selection)
            before = len(core.draw)
            act = choose(rng, ref.legal(), 0.9)
            ref.apply(act)
            core.apply(act)
            reshuffled = reshuffled or len(core.draw) > before
            rose = rose or core.hand_ante > opts.ante
            assert state(ref) == state(core)
    assert {"selection", "betting"} <= phases and {1, 2} <= selections
    assert reshuffled and rose


@pytest.mark.parametrize("seed", [21, 162])
def test_true_ties_split_and_blind_draw(seed: int) -> None:
    """Deals where two kept sets tie exactly (found by search): split, and the blind draw."""
    for true_tie in ("split", "blind_draw"):
        opts = CoruscantOptions(true_tie=true_tie, target=0, max_hands=6)
        ref = CoruscantGame(opts, seed=seed, players=6, log=False)
        core = CoruscantCore(opts, seed=seed, players=6)
        rng = random.Random(seed)
        while not ref.is_over:
            legal = ref.legal_actions()
            calm = [a for a in legal if a.kind in ("check", "call")]
            act = calm[0] if calm else rng.choice(legal)
            ref.apply(act)
            core.apply(act)
            assert state(ref) == state(core)
        assert core.hand_results == ref.hand_results
        if true_tie == "split":
            assert any(len(p.winners) > 1 for r in core.hand_results for p in r.pots)


# ============================================================================================
# Illegal actions, clone, determinize, from_game, pickling
# ============================================================================================
ODD_ACTIONS: list[Any] = [
    Keep(()),
    Keep(("+11c",)),
    Keep(("0", "0", "0")),
    Gain(),
    Discard(3),
    Swap("draw", 1),
    Stand(),
    Bet(1),
    Bet(2.5),  # type: ignore[arg-type]
    Raise(1),
    "keep",
    "keep +99",
    "keep 0 0 0",
    "keep +1 +1 +1 +1",
    "keep +1",
    "keep -1",
    "keep 0",
    "keep +5c",
    "nonsense",
    "call",
    "check",
]


def test_illegal_actions_same_error_and_no_change() -> None:
    rng = random.Random(5)
    for seed in range(4):
        opts = CoruscantOptions(max_hands=2)
        ref = CoruscantGame(opts, seed=seed, players=3, log=False)
        core = CoruscantCore(opts, seed=seed, players=3)
        check_illegal_inputs(ref, core, state, ODD_ACTIONS, rng)


def test_clone_continues_identically_and_independently() -> None:
    core = CoruscantCore(CoruscantOptions(max_hands=3), seed=3, players=4)
    check_clone_and_copies(core, state)


def test_determinize_equals_the_reference() -> None:
    rng = random.Random(4)
    for seed in range(4):
        opts = CoruscantOptions(max_hands=2)
        ref = CoruscantGame(opts, seed=seed, players=4, log=False)
        core = CoruscantCore(opts, seed=seed, players=4)
        check_determinize(ref, core, state, seed, 40, rng)


def test_from_game_goes_on_exactly_as_the_reference() -> None:
    rng = random.Random(8)
    for seed in range(5):
        ref = CoruscantGame(CoruscantOptions(max_hands=3), seed=seed, players=3, log=False)
        play_some(ref, rng, rng.randint(0, 60))
        core = CoruscantCore.from_game(ref)
        assert_same(ref, core, f"seed {seed}, from_game")
        lockstep(ref, core, random.Random(seed), 0.6)
    with pytest.raises(OptionError):
        CoruscantCore.from_game(sabacc.new_game("spike", players=3, seed=1))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        CoruscantCore(seed=1, players=3).snapshot()


# ============================================================================================
# Front door and a planted-bug check
# ============================================================================================
def test_front_door_and_options() -> None:
    game = sabacc.new_game("coruscant", players=3, seed=2, engine="compiled", ante=2)
    assert type(game) is CoruscantCore and game.variant == "coruscant_shift"
    ref = sabacc.new_game("coruscant", players=3, seed=2, ante=2)
    assert game.legal_actions() == ref.legal_actions()
    assert game.info is ref.info
    with pytest.raises(OptionError, match="CoruscantCore takes CoruscantOptions"):
        CoruscantCore(sabacc.variant("spike").options, seed=1, players=3)  # type: ignore[arg-type]
    with pytest.raises(OptionError) as c:
        CoruscantCore({"target": 3}, seed=1, players=3)
    with pytest.raises(OptionError) as r:
        CoruscantOptions.from_mapping({"target": 3})
    assert str(c.value) == str(r.value)
    with pytest.raises(OptionError):
        CoruscantCore(seed=1, players=9)


def test_a_changed_rule_is_caught() -> None:
    """The comparison can fail: a reference game whose shift sets nothing aside (a planted
    difference) diverges from the core somewhere in these games."""

    class Hoarder(CoruscantGame):
        def _set_aside(self, seat: int, reason: str) -> None:
            pass

    with pytest.raises(AssertionError):
        for seed in range(10):
            opts = CoruscantOptions(max_hands=3)
            ref = Hoarder(opts, seed=seed, players=4, log=False)
            core = CoruscantCore(opts, seed=seed, players=4)
            lockstep(ref, core, random.Random(seed), 0.6)


# ------------------------------------------------------------------ the shared Keep pool
def test_pooled_keeps_are_the_references_whether_built_or_rewritten() -> None:
    """The Keeps of a decision are the reference's whether the pool is empty (every Keep
    built) or holds Keeps nobody else refers to (every one rewritten in place): equal values,
    the same order, plain Keeps that copy and pickle."""
    for seed in range(6):
        ref = CoruscantGame(CoruscantOptions(), seed=seed, players=3, log=False)
        core_mod.keep_cache_clear()
        cold = CoruscantCore(CoruscantOptions(), seed=seed + 100, players=3)
        first = cold.legal_actions()
        _slots, filled, reused, built = core_mod.keep_cache_info()
        assert built == filled == len(first) and reused == 0
        first_ids = {id(k) for k in first}
        del first, cold  # nothing holds those Keeps now but the pool: they get rewritten
        warm = CoruscantCore(CoruscantOptions(), seed=seed, players=3)
        second = warm.legal_actions()
        _slots, _filled, reused, built = core_mod.keep_cache_info()
        assert reused >= len(second) - 1 and built <= len(first_ids) + 1  # (one Sylop pair)
        assert second == ref.legal_actions()
        assert [str(k) for k in second] == [str(k) for k in ref.legal_actions()]
        assert sum(id(k) in first_ids for k in second) >= len(second) - 1
        assert all(type(k) is Keep for k in second)
        for k in second:
            assert isinstance(k, Keep)
            assert copy.copy(k) == k and pickle.loads(pickle.dumps(k)) == k
            assert hash(k) == hash(Keep(tuple(k.cards)))


def test_a_held_keep_or_codes_tuple_never_changes() -> None:
    """The pool rewrites only Keeps (and codes tuples) that nothing else refers to: Keeps a
    caller holds, their ``cards`` tuples held alone, the action log's and another game's keep
    their values however many decisions reuse the pool after them."""
    core_mod.keep_cache_clear()
    rng = random.Random(8)
    held: list[tuple[Keep, str]] = []
    tuples: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    games = []
    for seed in range(60 * SCALE):
        game = CoruscantCore(CoruscantOptions(), seed=seed, players=3)
        while not game.is_over:
            legal = game.legal_actions()
            keeps = [a for a in legal if isinstance(a, Keep)]
            if keeps:
                if rng.random() < 0.3:
                    k = keeps[rng.randrange(len(keeps))]
                    held.append((k, str(k)))
                if rng.random() < 0.3:
                    t = keeps[rng.randrange(len(keeps))].cards
                    tuples.append((t, tuple(list(t))))  # the tuple alone, and a copy
            game.apply(legal[rng.randrange(len(legal))])
            del legal, keeps
        if seed % 10 == 0:
            games.append((game, game.actions))
    reused = core_mod.keep_cache_info()[2]
    assert reused > 1000  # the pool was rewritten many times after those were taken
    assert held and tuples
    assert all(str(k) == text for k, text in held)
    assert all(t == copy for t, copy in tuples)
    for game, actions in games:  # every game's log still names the Keeps it played
        assert game.actions == actions


def test_games_sharing_the_pool_stay_independent() -> None:
    """Two games of the same seed list equal Keeps (not the same objects: each game holds its
    list); playing one leaves the other where it was, and both go on as the reference."""
    a = CoruscantCore(CoruscantOptions(max_hands=2), seed=11, players=2)
    b = CoruscantCore(CoruscantOptions(max_hands=2), seed=11, players=2)
    ref = CoruscantGame(CoruscantOptions(max_hands=2), seed=11, players=2, log=False)
    listed = a.legal_actions()
    other = b.legal_actions()
    assert listed == other and not any(x is y for x, y in zip(listed, other, strict=True))
    before = state(b)
    a.apply(listed[-1])
    assert state(b) == before
    b.apply(listed[0])  # a's object, equal to b's first: taken by its cards
    ref.apply(ref.legal_actions()[0])
    assert state(b) == state(ref)
    rng = random.Random(5)
    while not ref.is_over:
        legal = ref.legal_actions()
        assert b.legal_actions() == legal
        pick = rng.randrange(len(legal))
        b.apply(b.legal_actions()[pick])
        ref.apply(legal[pick])
        assert state(b) == state(ref)


def test_keep_pool_stays_bounded() -> None:
    """Many games meet far more subsets than the pool holds; it never holds more than its
    fixed number of Keeps, random play rewrites them instead of allocating, and every Keep
    listed is still the right one."""
    core_mod.keep_cache_clear()
    slots = core_mod.keep_cache_info()[0]
    rng = random.Random(3)
    for seed in range(400 * SCALE):
        game = CoruscantCore(CoruscantOptions(), seed=seed, players=4)
        # every 50th game in lockstep with the reference, on a pool of rewritten Keeps
        ref = CoruscantGame(CoruscantOptions(), seed=seed, players=4, log=False)
        checked = seed % 50 == 0
        while not game.is_over:
            legal = game.legal_actions()
            pick = rng.randrange(len(legal))
            if checked:
                assert legal == ref.legal_actions()
                ref.apply(legal[pick])
            game.apply(legal[pick])
        if checked:
            assert state(game) == state(ref)
        assert core_mod.keep_cache_info()[1] <= slots
    _slots, filled, reused, built = core_mod.keep_cache_info()
    assert filled <= slots and reused > 20 * built  # (built: the pool filling up, and the
    # Keeps the action logs took out of it)
    del legal, game, ref
    gc.collect()  # the Keeps alive in the process: the pool's and a few the test holds
    assert sum(type(o) is Keep for o in gc.get_objects()) <= slots + 100


def test_apply_takes_listed_keeps_after_clone_and_resolves_others() -> None:
    """A clone shares the decision's Keeps (applied by identity); an equal Keep that is not
    one of the listed objects, and a text keep, are applied the same way."""
    for seed in range(5):
        core = CoruscantCore(CoruscantOptions(), seed=seed, players=3)
        legal = core.legal_actions()
        pick = legal[len(legal) // 2]
        twins = [core.clone(), core.clone(), core.clone()]
        twins[0].apply(pick)
        assert isinstance(pick, Keep)
        twins[1].apply(Keep(tuple(pick.cards)))
        twins[2].apply(str(pick))
        core.apply(pick)
        for twin in twins:
            assert state(twin) == state(core)


def test_two_free_sylops_list_each_subset_once() -> None:
    """A hand with both Sylops among the cards it may still choose (the one case where two
    position masks are the same subset) lists each subset once, as the reference does, on
    decisions found by random play in lockstep."""
    rng = random.Random(4)
    found = 0
    for seed in range(400):
        ref = CoruscantGame(CoruscantOptions(max_hands=2), seed=seed, players=8, log=False)
        core = CoruscantCore(CoruscantOptions(max_hands=2), seed=seed, players=8)
        while not ref.is_over and found < 6:
            legal = ref.legal_actions()
            seat = ref.current_player
            if isinstance(legal[0], Keep):
                free = ref.hands[seat][ref.kept_n[seat] :]
                if sum(c.value == 0 for c in free) == 2:
                    found += 1
                    assert core.legal_actions() == legal
                    assert len(set(legal)) == len(legal)
            pick = legal[rng.randrange(len(legal))]
            ref.apply(pick)
            core.apply(pick)
        if found >= 6:
            break
    assert found >= 6


def test_a_caller_holding_every_keep_gets_the_small_ones_again() -> None:
    """A caller that keeps every list it is given (as the RL mask cache does) takes all of the
    pool's generations: one- and two-card Keeps then come from the small table (built once,
    given again: the same object for the same cards), the larger ones are built, and every
    decision still lists the reference's Keeps."""
    core_mod.keep_cache_clear()
    held: list[list[Action]] = []
    rng = random.Random(2)
    listed = 0
    for seed in range(30):
        ref = CoruscantGame(CoruscantOptions(max_hands=2), seed=seed, players=3, log=False)
        core = CoruscantCore(CoruscantOptions(max_hands=2), seed=seed, players=3)
        while not ref.is_over:
            legal = core.legal_actions()
            assert legal == ref.legal_actions()
            if isinstance(legal[0], Keep):
                listed += len(legal)
            held.append(legal)
            pick = rng.randrange(len(legal))
            core.apply(legal[pick])
            ref.apply(ref.legal_actions()[pick])
    _slots, _filled, reused, built = core_mod.keep_cache_info()
    assert reused + built == listed and reused > listed // 4
    seen: dict[int, int] = {}  # object id -> in how many held lists
    for legal in held:
        for k in {id(a): a for a in legal if isinstance(a, Keep)}.values():
            seen[id(k)] = seen.get(id(k), 0) + 1
            if seen[id(k)] > 1:  # only a small-table Keep is given again to this caller
                assert len(k.cards) <= 2
    assert max(seen.values()) > 1
