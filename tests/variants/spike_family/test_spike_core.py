"""The compiled Corellian Spike core
(:mod:`sabacc.variants.corellian_spike._corellian_spike_core`) against the reference engine.

The compiled core must reach exactly the states the pure-Python :class:`SpikeGame` reaches for
the same options, seed and actions. These tests play both engines in lockstep and compare every
piece of state after every action (stacks, pots, every card pile, legal actions, the action log),
then the payoffs, outcome and history at the end. They also check the pieces the core ports on
its own: the Mersenne Twister, the packed hand strength, the illegal-input messages, clone(),
conservation of credits and cards, and the ``engine=`` front door.

Sized to run in well under a minute on two cores; raise ``SABACC_CORE_EXAMPLES`` (default 1 =
the normal sizes; 10 = ten times the Hypothesis examples) for a deeper search locally.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import sabacc
from sabacc.core import events as ev
from sabacc.core.actions import Action, Bet, Call, Check, Junk, Raise, Stand
from sabacc.core.errors import IllegalActionError, OptionError
from sabacc.engine.betting import Legal
from sabacc.variants.classic.actions import CallHand
from sabacc.variants.corellian_spike.rules import SPIKE_DECK, SpikeGame, SpikeOptions
from sabacc.variants.spike_family.actions import Discard, Gain, Swap
from sabacc.variants.spike_family.hands import SPIKE_KEY_BITS, evaluate_spike, spike_table
from tests.support import ids, variant_without_core
from tests.support import spike_state as state
from tests.variants.lockstep import assert_end_equal, drive
from tests.variants.lockstep import check_conservation as conservation

core_mod = pytest.importorskip(
    "sabacc.variants.corellian_spike._corellian_spike_core", reason="the compiled core is not built"
)

if TYPE_CHECKING:
    from sabacc.variants.corellian_spike._corellian_spike_core import SpikeCore

    Engine = SpikeGame | SpikeCore
else:
    SpikeCore = core_mod.SpikeCore
    Engine = Any

rng_sample: Callable[[int, int], list[float | int]] = core_mod.rng_sample
spike_strength: Callable[[Any], int] = core_mod.spike_strength

SCALE = int(os.environ.get("SABACC_CORE_EXAMPLES", "1"))
MAX_ACTIONS = 6000
DECK_IDS = sorted(c.id for c in SPIKE_DECK.cards)


def hsettings(examples: int) -> settings:
    return settings(
        max_examples=examples * SCALE,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )


# ============================================================================================
# Helpers: state snapshots, a random player, lockstep play
# ============================================================================================
def core_fingerprint(core: SpikeCore) -> dict[str, Any]:
    """A core's state plus its action count (must not move on a refused action)."""
    return {**state(core), "action_count": core.action_count, "nets": list(core.hand_nets)}


def assert_same_state(ref: SpikeGame, core: SpikeCore, where: str = "") -> None:
    a, b = state(ref), state(core)
    if a != b:
        diff = {k: (a[k], b[k]) for k in a if a[k] != b[k]}
        raise AssertionError(f"state differs {where}: {diff}")
    assert core.action_count == len(ref.actions)
    assert len(core.hand_nets) == len(ref.hand_results)


def sign(x: Any, y: Any) -> int:
    return int((x > y) - (x < y))


def assert_same_strengths(ref: SpikeGame, core: SpikeCore) -> None:
    """``hand_strength`` orders the seats' hands exactly as ``evaluate_spike`` does."""
    seats = [s for s in range(ref.n) if ref.hands[s]]
    for s in range(ref.n):
        if not ref.hands[s]:
            assert core.hand_strength(s) is None
    ref_values = {s: evaluate_spike([c.value for c in ref.hands[s]]) for s in seats}
    core_values = {s: core.hand_strength(s) for s in seats}
    for s in seats:
        assert core_values[s] == spike_strength([c.value for c in ref.hands[s]])
    for s, t in itertools.combinations(seats, 2):
        assert sign(core_values[s], core_values[t]) == sign(ref_values[s], ref_values[t]), (
            [c.code for c in ref.hands[s]],
            [c.code for c in ref.hands[t]],
        )


def check_conservation(core: SpikeCore) -> None:
    conservation(core, DECK_IDS)


@dataclass(frozen=True)
class Style:
    """How the random player plays: how often passively, how often it shoves."""

    passive: float = 0.6
    allin: float = 0.1
    junk: float = 0.3  # chance a drawn junk is kept (else it checks/calls instead)


def choose(rng: random.Random, legal: Legal, style: Style) -> Action:
    """A random legal action from the compact legal set (same set for both engines)."""
    options: list[Action] = list(legal.fixed)
    for kind, rng_range in ((Bet, legal.bet), (Raise, legal.raise_)):
        if rng_range is not None:
            lo, hi = rng_range
            size = hi if rng.random() < style.allin else rng.randint(lo, min(hi, lo + 2))
            options.append(kind(size))
    passive = [a for a in options if type(a) in (Check, Call, Stand)]
    if passive and rng.random() < style.passive:
        return passive[0]
    act = rng.choice(options)
    if type(act) is Junk and passive and rng.random() >= style.junk:
        return passive[0]
    return act


@dataclass(frozen=True)
class Setup:
    players: int
    seed: int
    options: dict[str, Any]
    play_seed: int = 0
    style: Style = field(default_factory=Style)

    def spike_options(self) -> SpikeOptions:
        return SpikeOptions(**self.options)


def make_pair(setup: Setup, *, log: bool = False) -> tuple[SpikeGame, SpikeCore]:
    opts = setup.spike_options()
    ref = SpikeGame(opts, seed=setup.seed, players=setup.players, log=log)
    core = SpikeCore(opts, seed=setup.seed, players=setup.players)
    return ref, core


def lockstep(
    ref: SpikeGame,
    core: SpikeCore,
    rng: random.Random,
    style: Style,
    *,
    between: Callable[[SpikeGame, SpikeCore], None] | None = None,
    strengths: bool = True,
    replayable: bool = True,
) -> int:
    """Play both engines with the same random legal actions to the end, comparing everything
    after every action (``tests.variants.lockstep.drive``); returns the number of actions."""

    def compare(ref: SpikeGame, core: SpikeCore, where: str) -> None:
        assert_same_state(ref, core, where)
        if strengths:
            assert_same_strengths(ref, core)
        check_conservation(core)
        if between is not None:
            between(ref, core)

    steps = drive(
        ref, core, lambda g: choose(rng, g.legal(), style), compare, max_actions=MAX_ACTIONS
    )
    assert_end_equal(ref, core, replayable=replayable)
    return steps


# ============================================================================================
# 1. RNG
# ============================================================================================
RNG_SEEDS = [0, 1, 5, 42, 2**31 - 1, 2**32 - 1, 2**32, 2**63 - 1, 2**64, 2**100, -1, -5, -(2**63)]


def python_sample(seed: int, draws: int) -> list[float | int]:
    r = random.Random(seed)
    out: list[float | int] = []
    for _ in range(draws):
        out.append(r.random())
        out.append(r.randrange(6) + 1)
    return out


class TestRng:
    @pytest.mark.parametrize("seed", RNG_SEEDS)
    def test_sample_equals_cpython(self, seed: int) -> None:
        # 700 draws use well over 624 words: the state is regenerated at least twice.
        assert rng_sample(seed, 700) == python_sample(seed, 700)

    def test_negative_seed_is_its_absolute_value(self) -> None:
        assert rng_sample(-12345, 50) == rng_sample(12345, 50) == python_sample(12345, 50)

    def test_seeds_differ(self) -> None:
        assert rng_sample(1, 5) != rng_sample(2, 5)

    @hsettings(40)
    @given(st.integers(-(2**300), 2**300), st.integers(0, 400))
    def test_any_seed(self, seed: int, draws: int) -> None:
        assert rng_sample(seed, draws) == python_sample(seed, draws)

    def test_game_draws_like_the_reference(self) -> None:
        for seed in (0, 2**63 - 1, 2**100, -7):
            ref, core = make_pair(Setup(4, seed, {}))
            assert_same_state(ref, core, f"seed {seed}")


# ============================================================================================
# 2. Hand strength
# ============================================================================================
def decode(key: int) -> list[int]:
    """The values of the hand whose multiset key
    (``sabacc.variants.spike_family.hands.spike_key``) is ``key``."""
    field_mask = (1 << SPIKE_KEY_BITS) - 1
    return [i - 10 for i in range(21) for _ in range((key >> (SPIKE_KEY_BITS * i)) & field_mask)]


def assert_same_order(hands: list[list[int]]) -> None:
    """Sorting by ``evaluate_spike`` and by ``spike_strength`` agree, ties included."""
    pairs = sorted(((evaluate_spike(h).key, spike_strength(h)) for h in hands), key=lambda p: p[0])
    for (k1, s1), (k2, s2) in itertools.pairwise(pairs):
        if k1 == k2:
            assert s1 == s2, (k1, s1, s2)
        else:
            assert s1 < s2, (k1, k2, s1, s2)


DECK_VALUES = [c.value for c in SPIKE_DECK.cards]


class TestHandStrength:
    def test_every_table_hand(self) -> None:
        table = spike_table()
        hands = [decode(key) for key in table]
        assert len(hands) == len(table) > 60_000
        for key, h in zip(table, hands, strict=True):
            assert evaluate_spike(h) == table[key]
        assert_same_order(hands)
        # Equal strengths <=> equal HandValues, over the whole table.
        by_strength: dict[int, set[tuple[int, ...]]] = {}
        for hv, h in zip(table.values(), hands, strict=True):
            by_strength.setdefault(spike_strength(h), set()).add(hv.key)
        assert all(len(keys) == 1 for keys in by_strength.values())
        assert len(by_strength) == len({hv.key for hv in table.values()})

    def test_order_of_cards_does_not_matter(self) -> None:
        rng = random.Random(3)
        for _ in range(300):
            h = rng.sample(DECK_VALUES, rng.randint(1, 8))
            shuffled = h[:]
            rng.shuffle(shuffled)
            assert spike_strength(h) == spike_strength(shuffled)

    @hsettings(60)
    @given(st.lists(st.permutations(DECK_VALUES), min_size=2, max_size=6), st.data())
    def test_random_big_hands(self, decks: list[list[int]], data: st.DataObject) -> None:
        hands = [d[: data.draw(st.integers(6, 8))] for d in decks]
        # Also every hand with one card swapped for the next deck card (near-ties).
        hands += [[*d[1 : len(h)], d[len(h)]] for d, h in zip(decks, hands, strict=True)]
        assert_same_order(hands)

    def test_extreme_hands(self) -> None:
        extremes = [
            [10, 10, 10, 9, 9, 9, 8, 8],
            [-10, -10, -10, -9, -9, -9, -8, -8],
            [10, 10, 10, 9, 9, 9, 8, 7],
            [-10, -10, -10, -9, -9, -9, -8, -7],
            [0, 0],
            [0, 0, 1, -1],
            [10, 10, -10, -10, 0],
            [1, 2, 3, 4, -10],
            [-1, -2, -3, -4, 10],
            [5, 5, 5, -5, -5, -5, 0, 0],
            [1, -1, 1, -1, 1, -1, 0, 0],
            [10, 10, 10, 9, 9, 9, 8, 8, 8, 7, 7, 7, 6, 6, 6, 5],  # 16 cards, total 125
            [10, 10, 10, 9, 9, 9, 8, 8, 8, 7, 7, 7, 6, 6, 6, 4],
            [-10, -10, -10, -9, -9, -9, -8, -8, -8, -7, -7, -7, -6, -6, -6, -5],
            [10],
            [-10],
        ]
        rng = random.Random(11)
        pool = extremes + [rng.sample(DECK_VALUES, rng.randint(1, 16)) for _ in range(400)]
        assert_same_order(pool)

    @pytest.mark.parametrize(
        "values",
        [[], [11], [-11], [3, 3, 3, 3], [0, 0, 0], list(range(1, 11)) * 2],
        ids=["empty", "eleven", "minus-eleven", "four-threes", "three-sylops", "twenty-cards"],
    )
    def test_invalid_hands_raise(self, values: list[int]) -> None:
        with pytest.raises(ValueError):
            spike_strength(values)


# ============================================================================================
# 3. Lockstep equivalence with the reference engine
# ============================================================================================
OPTION_STRATEGIES: dict[str, st.SearchStrategy[Any]] = {
    "betting": st.sampled_from(["no_limit", "pot_limit", "fixed"]),
    "min_bet": st.none() | st.integers(1, 4),
    "max_raises": st.none() | st.integers(0, 3),
    "gain_fee": st.integers(0, 2),
    "swap_fee": st.integers(0, 3),
    "hand_cap": st.integers(2, 8),
    "rounds": st.integers(1, 5),
    "true_tie": st.sampled_from(["blind_draw", "split"]),
    "game_end": st.sampled_from(["orbit", "last_standing", "hands:1", "hands:2", "hands:4"]),
    "max_hands": st.none() | st.integers(1, 6),
    "ante": st.integers(0, 3),
    "sabacc_ante": st.integers(0, 2),
    "final_pot": st.sampled_from(["split", "house"]),
}
STYLES = st.builds(
    Style,
    passive=st.sampled_from([0.6, 0.9, 0.2]),
    allin=st.sampled_from([0.1, 0.0, 0.4]),
    junk=st.sampled_from([0.2, 0.5]),
)


@st.composite
def option_dicts(draw: st.DrawFn) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for name, strategy in OPTION_STRATEGIES.items():
        if draw(st.booleans()):
            options[name] = draw(strategy)
    per_hand = options.get("ante", 1) + options.get("sabacc_ante", 1)
    # Small buy-ins: all-ins, side pots and eliminations happen, and games stay short. Now and
    # then one too small to cover the antes (both engines must refuse it the same way).
    if draw(st.integers(0, 19)) == 7:
        options["buy_in"] = draw(st.integers(1, 3))
    else:
        options["buy_in"] = max(1, per_hand) * draw(st.integers(2, 15)) + draw(st.integers(0, 3))
    if options.get("game_end") == "last_standing" and options.get("max_hands") is None:
        # Nothing else ends it: a few antes' worth, or a passive table plays for ever.
        options["buy_in"] = max(1, per_hand) * draw(st.integers(1, 4))
    return options


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    options = draw(option_dicts())
    try:
        SpikeOptions(**options)
    except OptionError:
        assume(False)
    return Setup(
        players=draw(st.integers(2, 8)),
        seed=draw(st.integers(-(2**70), 2**70)),
        options=options,
        play_seed=draw(st.integers(0, 10**6)),
        style=draw(STYLES),
    )


def make_pair_or_same_error(setup: Setup) -> tuple[SpikeGame, SpikeCore] | None:
    """Both engines, or None when both refuse the setup with the same OptionError."""
    try:
        pair = make_pair(setup)
    except OptionError as exc:
        with pytest.raises(OptionError) as core_exc:
            SpikeCore(setup.spike_options(), seed=setup.seed, players=setup.players)
        assert str(core_exc.value) == str(exc)
        return None
    return pair


class TestLockstep:
    @hsettings(300)
    @given(setups())
    def test_random_games(self, setup: Setup) -> None:
        pair = make_pair_or_same_error(setup)
        if pair is None:
            return
        ref, core = pair
        lockstep(ref, core, random.Random(setup.play_seed), setup.style)

    def test_option_error_messages_match(self) -> None:
        bad = [
            Setup(9, 1, {}),
            Setup(1, 1, {}),
            Setup(3, 1, {"buy_in": 1}),
            Setup(3, 1, {"buy_in": 4, "ante": 3, "sabacc_ante": 2}),
        ]
        for setup in bad:
            assert make_pair_or_same_error(setup) is None, setup


#: The deterministic sweep: option sets x table sizes, chosen to hit every option and the rare
#: events (shifts, blind-draw ties, split ties, side pots, reshuffles, eliminations).
SWEEP_OPTIONS: list[dict[str, Any]] = [
    {"buy_in": 12},
    {"betting": "pot_limit", "buy_in": 20},
    {"betting": "fixed", "min_bet": 2, "buy_in": 16},
    {"true_tie": "split", "buy_in": 10, "hand_cap": 2},
    {"hand_cap": 2, "rounds": 4, "buy_in": 10},
    {"gain_fee": 1, "swap_fee": 2, "buy_in": 14},
    {"game_end": "last_standing", "buy_in": 6, "max_hands": 12},
    {"game_end": "last_standing", "buy_in": 5, "sabacc_ante": 0},
    {"game_end": "hands:5", "max_raises": 1, "buy_in": 15},
    {"hand_cap": 8, "rounds": 8, "buy_in": 30, "game_end": "hands:2"},
    {"ante": 0, "sabacc_ante": 0, "buy_in": 9},
    {"ante": 2, "sabacc_ante": 0, "buy_in": 13, "final_pot": "house"},
    {"final_pot": "house", "buy_in": 7, "game_end": "last_standing", "max_hands": 10},
    {"min_bet": 3, "max_raises": 0, "buy_in": 25, "betting": "pot_limit"},
    {"rounds": 1, "hand_cap": 3, "max_hands": 3, "buy_in": 8},
]
SWEEP_PLAYERS = [2, 3, 4, 5, 6, 7, 8]
SWEEP_STYLES = [Style(0.6, 0.1, 0.3), Style(0.85, 0.3, 0.1), Style(0.3, 0.05, 0.5)]
#: Long games of two-card hands, always checked down: true ties (split and blind draw).
TIE_HUNT = [
    Setup(
        p,
        7000 + p,
        {"true_tie": tie, "rounds": 1, "hand_cap": 2, "buy_in": 200, "game_end": "hands:60"},
        p,
        Style(1.0, 0.0, 0.0),
    )
    for tie in ("split", "blind_draw")
    for p in (2, 3)
]
#: Full tables of big hands over many rounds, drawing a lot: the draw pile runs out.
RESHUFFLE_HUNT = [
    Setup(
        8,
        7100 + i,
        {"hand_cap": 8, "rounds": 12, "buy_in": 30, "game_end": "hands:2"},
        i,
        Style(0.1, 0.0, 0.05 * (i % 4)),
    )
    for i in range(6)
]
SWEEP_GAMES = 200


def sweep_setups() -> Iterator[Setup]:
    k = len(SWEEP_OPTIONS)
    for i in range(SWEEP_GAMES - len(TIE_HUNT) - len(RESHUFFLE_HUNT)):
        yield Setup(
            players=SWEEP_PLAYERS[(i + i // k) % len(SWEEP_PLAYERS)],
            seed=1000 + i,
            options=SWEEP_OPTIONS[i % k],
            play_seed=i,
            style=SWEEP_STYLES[i % len(SWEEP_STYLES)],
        )
    yield from TIE_HUNT
    yield from RESHUFFLE_HUNT


def count_features(ref: SpikeGame) -> Counter[str]:
    seen: Counter[str] = Counter()
    for e in ref.events:
        if isinstance(e, ev.DiceRolled) and e.shift:
            seen["shift"] += 1
        elif isinstance(e, ev.Reshuffled):
            seen["reshuffle"] += 1
        elif isinstance(e, ev.BlindDraw):
            seen["blind_draw"] += 1
        elif isinstance(e, ev.Eliminated):
            seen["eliminated"] += 1
        elif isinstance(e, ev.PotAwarded):
            if e.pot.startswith("side"):
                seen["side_pot"] += 1
            if e.pot == "sabacc":
                seen["sabacc_pot_won"] += 1
            if len(e.seats) > 1 and e.pot != "final":
                seen["split_pot"] += 1
        elif isinstance(e, ev.HandEnded):
            seen[f"hand_{e.reason}"] += 1
        elif isinstance(e, ev.Acted) and "all-in" in e.public:
            seen["all_in"] += 1
    for text in ref.actions:
        seen[text[1].split()[0]] += 1
    return seen


def test_deterministic_sweep() -> None:
    """200 fixed games in lockstep, so a regression is caught without Hypothesis luck."""
    seen: Counter[str] = Counter()
    for setup in sweep_setups():
        ref, core = make_pair(setup, log=True)
        lockstep(ref, core, random.Random(setup.play_seed), setup.style, strengths=False)
        seen += count_features(ref)
    needed = [
        "shift",
        "reshuffle",
        "blind_draw",
        "side_pot",
        "split_pot",
        "eliminated",
        "sabacc_pot_won",
        "all_in",
        "hand_showdown",
        "hand_all_junked",
        "gain",
        "swap",
        "bet",
        "raise",
        "junk",
    ]
    missing = [name for name in needed if not seen[name]]
    assert not missing, (missing, seen)


# ============================================================================================
# 4. Illegal input
# ============================================================================================
def illegal_candidates(ref: SpikeGame) -> list[tuple[Any, int | None]]:
    """Inputs to refuse now: malformed text, wrong-phase and out-of-range actions, wrong seats."""
    plain: list[Any] = [
        "",
        "   ",
        "dance",
        "bet",
        "bet x",
        "bet -1",
        "bet 0",
        "raise 0",
        "raise -3",
        "bet 1 2",
        "swap",
        "swap discard",
        "swap moon +3",
        "swap sideways +3",
        "swap draw +11",
        "swap discard -11",
        "swap draw x",
        "gain +3",
        "gain 3",
        "draw -2",
        "discard +4",
        "exchange +4",
        "call hand",
        "stand",
        "pass",
        "gain",
        "check",
        "call",
        "junk",
        "bet 1",
        "raise 1",
        42,
        None,
        3.5,
        Gain(3),
        Swap("moon", 1),
        Swap("draw", 99),
        Discard(1),
        CallHand(),
    ]
    legal = ref.legal()
    if legal.bet is not None:
        lo, hi = legal.bet
        plain += [f"bet {lo - 1}", f"bet {hi + 1}", Bet(hi + 1)]
    else:
        plain += ["bet 2", "bet 50"]
    if legal.raise_ is not None:
        lo, hi = legal.raise_
        plain += [f"raise {lo - 1}", f"raise {hi + 1}", Raise(hi + 1)]
    else:
        plain += ["raise 2", "raise 50"]
    seat = ref.current_player
    if seat is not None:
        held = {c.value for c in ref.hands[seat]}
        missing = [v for v in range(-10, 11) if v not in held]
        for v in missing[:3]:
            plain += [f"swap draw {v:+d}", f"swap discard {v:+d}", Swap("draw", v)]
        for v in sorted(held)[:2]:
            plain += [f"swap draw {v:+d}", f"swap discard {v:+d}"]
    out: list[tuple[Any, int | None]] = [(x, None) for x in plain if not ref.is_legal(x)]
    # Out-of-turn and bogus seats, with a legal action and with malformed text.
    some_legal = ref.legal_actions()[0] if seat is not None else "stand"
    for s in [*range(ref.n), -1, ref.n, 99]:
        if s != seat:
            out.append((some_legal, s))
    bogus: list[tuple[Any, Any]] = [(some_legal, True), (some_legal, "0"), (some_legal, 0.0)]
    out += [*bogus, ("dance", ref.n + 1)]
    return out


def assert_same_refusal(ref: SpikeGame, core: SpikeCore, action: Any, seat: int | None) -> None:
    before = core_fingerprint(core)
    with pytest.raises(IllegalActionError) as ref_exc:
        ref.apply(action, seat=seat)
    with pytest.raises(IllegalActionError) as core_exc:
        core.apply(action, seat=seat)
    assert str(core_exc.value) == str(ref_exc.value), (action, seat)
    if seat is None:
        assert core.is_legal(action) is False
    after = core_fingerprint(core)
    assert after == before, (action, seat)


def refusals(ref: SpikeGame, core: SpikeCore) -> None:
    for action, seat in illegal_candidates(ref):
        assert_same_refusal(ref, core, action, seat)
    assert_same_state(ref, core, "after refusals")


class TestIllegalInput:
    def test_messages_match_and_state_is_kept(self) -> None:
        """At every decision of a few games: every refused input gets the reference's message,
        the core is unchanged, and the game then goes on exactly as the reference's."""
        cases = [
            Setup(3, 5, {"buy_in": 12}, play_seed=1, style=Style(0.5, 0.2, 0.3)),
            Setup(5, 6, {"betting": "fixed", "min_bet": 2, "buy_in": 12, "gain_fee": 1}, 2),
            Setup(2, 7, {"betting": "pot_limit", "swap_fee": 2, "hand_cap": 3, "buy_in": 9}, 3),
            Setup(4, 8, {"max_raises": 1, "buy_in": 8, "game_end": "hands:2"}, 4),
        ]
        for setup in cases:
            ref, core = make_pair(setup)
            lockstep(ref, core, random.Random(setup.play_seed), setup.style, between=refusals)

    @hsettings(15)
    @given(setups())
    def test_random_games(self, setup: Setup) -> None:
        pair = make_pair_or_same_error(setup)
        if pair is None:
            return
        ref, core = pair

        def some_refusals(r: SpikeGame, c: SpikeCore) -> None:
            if len(r.actions) % 4 == 0 or r.is_over:
                refusals(r, c)

        lockstep(
            ref,
            core,
            random.Random(setup.play_seed),
            setup.style,
            between=some_refusals,
            strengths=False,
        )

    def test_after_game_over(self) -> None:
        ref, core = make_pair(Setup(2, 3, {"buy_in": 4, "game_end": "hands:1"}))
        lockstep(ref, core, random.Random(0), Style())
        assert core.is_over
        for action in ["stand", "check", "bet 1", Gain(), Stand()]:
            assert_same_refusal(ref, core, action, None)
            assert_same_refusal(ref, core, action, 0)
        with pytest.raises(IllegalActionError, match="game is over"):
            core.apply("stand")
        # Malformed text is refused as malformed, before the game-over check (as the reference).
        assert_same_refusal(ref, core, "dance", None)

    def test_wrong_phase_actions(self) -> None:
        ref, core = make_pair(Setup(3, 21, {}))
        assert core.phase == "card"
        for action in ["check", "call", "bet 1", "raise 1", "junk"]:
            assert_same_refusal(ref, core, action, None)
        while ref.phase == "card":
            ref.apply("stand")
            core.apply("stand")
        assert core.phase == "betting"
        for action in ["stand", "gain", "swap draw +1", "swap discard -1", "call", "raise 1"]:
            assert_same_refusal(ref, core, action, None)
        ref.apply("bet 1")
        core.apply("bet 1")
        for action in ["check", "bet 1", "stand"]:
            assert_same_refusal(ref, core, action, None)
        assert_same_state(ref, core)

    def test_huge_amounts_are_illegal_actions(self) -> None:
        """A bet or raise beyond 64 bits is an illegal action like any out-of-range amount.

        (Known core bug at the time of writing: it raised OverflowError from ``apply`` and
        ``is_legal`` instead.)
        """
        ref, core = make_pair(Setup(3, 1, {}))
        while ref.phase == "card":
            ref.apply("stand")
            core.apply("stand")
        huge = [f"bet {10**20}", f"bet {2**63}", Bet(2**64), f"raise {10**20}"]
        for action in huge:
            assert isinstance(action, str | Bet)
            assert core.is_legal(action) is False
            assert_same_refusal(ref, core, action, None)
        ref.apply("bet 1")
        core.apply("bet 1")
        for action in [f"raise {10**20}", Raise(2**63), f"bet {10**20}"]:
            assert isinstance(action, str | Raise)
            assert core.is_legal(action) is False
            assert_same_refusal(ref, core, action, None)
        lockstep(ref, core, random.Random(1), Style())


# ============================================================================================
# 5. Conservation
# ============================================================================================
class TestConservation:
    @hsettings(200)
    @given(setups())
    def test_credits_and_cards(self, setup: Setup) -> None:
        try:
            core = SpikeCore(setup.spike_options(), seed=setup.seed, players=setup.players)
        except OptionError:
            assume(False)
            return
        rng = random.Random(setup.play_seed)
        steps = 0
        check_conservation(core)
        while not core.is_over:
            core.apply(choose(rng, core.legal(), setup.style))
            check_conservation(core)
            steps += 1
            assert steps < MAX_ACTIONS
        assert sum(core.payoffs) == -core.house
        assert core.legal_actions() == [] and core.current_player is None


# ============================================================================================
# 6. clone()
# ============================================================================================
def advance(ref: SpikeGame, core: SpikeCore, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if ref.is_over:
            return
        act = choose(rng, ref.legal(), Style())
        ref.apply(act)
        core.apply(act)
    assert_same_state(ref, core)


def play_passive_until_next_hand(g: Engine) -> None:
    start = g.hand_no
    while not g.is_over and g.hand_no == start:
        legal = g.legal_actions()
        g.apply(next(a for a in legal if type(a) in (Stand, Check, Call)))


class TestClone:
    @hsettings(25)
    @given(setups(), st.integers(0, 60))
    def test_clone_continues_identically(self, setup: Setup, steps: int) -> None:
        pair = make_pair_or_same_error(setup)
        if pair is None:
            return
        ref, core = pair
        rng = random.Random(setup.play_seed)
        advance(ref, core, rng, steps)
        twin = core.clone()
        assert core_fingerprint(twin) == core_fingerprint(core)
        ref_twin = ref.clone()
        assert isinstance(ref_twin, SpikeGame)
        # The original and its clone both follow the reference with the same future actions.
        lockstep(ref_twin, twin, random.Random(steps), setup.style, strengths=False)
        lockstep(ref, core, random.Random(steps), setup.style, strengths=False)
        assert twin.history() == core.history()

    def test_mutating_one_does_not_touch_the_other(self) -> None:
        ref, core = make_pair(Setup(4, 77, {"buy_in": 10}))
        advance(ref, core, random.Random(5), 9)
        core.legal_actions()  # warm the caches before cloning
        twin = core.clone()
        original = core_fingerprint(core)
        rng = random.Random(9)
        for _ in range(40):
            if twin.is_over:
                break
            twin.apply(choose(rng, twin.legal(), Style(0.3, 0.3, 0.5)))
        assert core_fingerprint(core) == original
        # ... and the other way round.
        frozen = core_fingerprint(twin)
        while not core.is_over:
            core.apply(choose(rng, core.legal(), Style()))
        assert core_fingerprint(twin) == frozen
        # Returned lists are copies.
        core.stacks.append(5)
        core.hands[0].clear()
        twin.legal_actions().clear()
        assert core_fingerprint(twin) == frozen

    @pytest.mark.parametrize("reseed", [0, 3, -3, 2**100])
    def test_reseed_keeps_state_and_follows_a_reference_reseed(self, reseed: int) -> None:
        ref, core = make_pair(Setup(4, 123, {"game_end": "hands:4", "buy_in": 40}))
        advance(ref, core, random.Random(2), 5)
        fresh = core.clone(reseed=reseed)
        assert core_fingerprint(fresh) == core_fingerprint(core)
        assert fresh.history() == core.history()
        # Same future as the reference engine's clone reseeded the same way.
        ref_fresh = ref.clone(reseed=reseed)
        assert isinstance(ref_fresh, SpikeGame)
        lockstep(ref_fresh, fresh, random.Random(4), Style(), replayable=False)

    def test_reseed_changes_future_random_events(self) -> None:
        _, core = make_pair(Setup(4, 123, {"game_end": "hands:4", "buy_in": 40}))
        same = core.clone()
        fresh = core.clone(reseed=99)
        seen: dict[str, list[Any]] = {}
        for name, g in (("core", core), ("same", same), ("fresh", fresh)):
            play_passive_until_next_hand(g)
            seen[name] = [ids(g.draw), ids(g.discard), [ids(h) for h in g.hands], g.stacks]
        assert core.hand_no == same.hand_no == fresh.hand_no == 2
        assert seen["same"] == seen["core"]
        assert seen["fresh"][:3] != seen["core"][:3]


# ============================================================================================
# 7. API
# ============================================================================================
class TestApi:
    def test_compiled_engine_is_refused_for_a_variant_without_a_core(self) -> None:
        with variant_without_core() as name:
            with pytest.raises(OptionError, match="only, not Coreless Test"):
                sabacc.new_game(name, players=3, seed=1, engine="compiled")
            with pytest.raises(OptionError, match="only, not Coreless Test"):
                sabacc.variant(name).new_game(3, 1, engine="compiled")

    @pytest.mark.parametrize("name", ["spike", "classic"])
    def test_unknown_engine(self, name: str) -> None:
        with pytest.raises(OptionError, match="engine='turbo'"):
            sabacc.new_game(name, players=3, seed=1, engine="turbo")  # type: ignore[call-overload]
        with pytest.raises(OptionError, match="engine='turbo'"):
            sabacc.variant(name).new_game(3, 1, engine="turbo")  # type: ignore[call-overload]

    def test_core_refuses_other_options(self) -> None:
        with pytest.raises(OptionError):
            SpikeCore(sabacc.variant("classic").options, seed=1, players=3)  # type: ignore[arg-type]
        with pytest.raises(OptionError):
            SpikeCore(SpikeOptions(), seed=1.5, players=3)  # type: ignore[arg-type]

    def test_new_game_front_door(self) -> None:
        for g in (
            sabacc.new_game("spike", players=3, seed=9, engine="compiled", rounds=2, ante=2),
            sabacc.variant("corellian-spike", rounds=2, ante=2).new_game(3, 9, engine="compiled"),
        ):
            assert isinstance(g, SpikeCore)
            assert g.options == SpikeOptions(rounds=2, ante=2)
            assert g.seed == 9 and g.names == ["Player 1", "Player 2", "Player 3"]
            assert g.variant == "corellian_spike" and g.info is SpikeGame.info
            ref = sabacc.new_game("spike", players=3, seed=9, rounds=2, ante=2)
            assert isinstance(ref, SpikeGame)
            assert_same_state(ref, g)

    def test_named_players(self) -> None:
        names = ["Han", "Lando", "Qi'ra"]
        core = SpikeCore(SpikeOptions(), seed=4, players=names)
        ref = SpikeGame(SpikeOptions(), seed=4, players=names, log=False)
        assert core.names == names and core.n == core.num_players == 3
        ref.apply("stand")
        core.apply("stand")
        with pytest.raises(IllegalActionError) as exc:
            core.apply("stand", seat=0)
        assert "Han" in str(exc.value)
        assert_same_refusal(ref, core, "stand", 0)
        assert core.history() == ref.history()

    @pytest.mark.parametrize("players,seed", [(2, 0), (5, 31), (8, 2**64 + 5)])
    def test_history_document(self, players: int, seed: int) -> None:
        options = {"rounds": 2, "gain_fee": 1, "true_tie": "split", "buy_in": 11}
        ref, core = make_pair(Setup(players, seed, options))
        rng = random.Random(seed)
        for step in range(60):
            if ref.is_over:
                break
            doc, ref_doc = core.history(), ref.history()
            assert doc == ref_doc
            assert list(doc) == list(ref_doc)  # same keys, same order
            assert json.dumps(doc) == json.dumps(ref_doc)
            if step % 10 == 0:
                partial = sabacc.replay(json.loads(json.dumps(doc)))
                assert_same_state(partial, core)  # type: ignore[arg-type]
            act = choose(rng, ref.legal(), Style())
            ref.apply(act)
            core.apply(act)
        doc = core.history()
        assert doc["format"] == "sabacc-history" and doc["variant"] == "corellian_spike"
        assert doc["options"] == options and doc["seed"] == seed

    def test_unseeded_game_replays(self) -> None:
        core = sabacc.new_game("spike", players=4, engine="compiled", buy_in=8)
        assert isinstance(core.seed, int)
        rng = random.Random(0)
        while not core.is_over:
            core.apply(choose(rng, core.legal(), Style()))
        again = sabacc.replay(core.history())
        assert again.stacks == core.stacks and again.history() == core.history()

    def test_apply_returns_none_and_legal_lists_are_fresh(self) -> None:
        core = sabacc.new_game("spike", players=3, seed=2, engine="compiled")
        first = core.legal_actions()
        first.clear()
        assert core.legal_actions()
        assert core.apply("stand") is None
        assert core.is_legal("stand") and core.is_legal(Stand())
        assert not core.is_legal("dance") and not core.is_legal(42)  # type: ignore[arg-type]

    def test_hand_strength_refuses_bad_seats(self) -> None:
        """``hand_strength`` of a seat that does not exist raises (it must never read outside
        the table: at the time of writing seats -1 and n..7 returned None and seat 100 crashed
        the interpreter). Run in a subprocess so a crash fails the test, not the test run."""
        code = (
            "import sabacc\n"
            "g = sabacc.new_game('spike', players=3, seed=1, engine='compiled')\n"
            "bad = []\n"
            "for s in (-1, -100, 3, 7, 8, 100, 100000):\n"
            "    try:\n"
            "        r = g.hand_strength(s)\n"
            "    except (IndexError, ValueError, OverflowError):\n"
            "        continue\n"
            "    bad.append((s, r))\n"
            "assert g.hand_strength(0) is not None\n"
            "raise SystemExit(f'no error for {bad}' if bad else 0)\n"
        )
        proc = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
        )
        assert proc.returncode == 0, (proc.returncode, proc.stdout, proc.stderr)


class TestPickle:
    """A compiled game pickles (process pools, Ray, deepcopy) and goes on identically."""

    def test_round_trip_mid_game_and_play_on(self) -> None:
        import copy
        import pickle

        for seed in range(12):
            game = sabacc.new_game(
                "spike", players=2 + seed % 6, seed=seed, engine="compiled", hand_cap=4 + seed % 4
            )
            rng = random.Random(seed)
            for _ in range(rng.randrange(60)):
                if game.is_over:
                    break
                legal = game.legal_actions()
                game.apply(legal[rng.randrange(len(legal))])
            copies = [pickle.loads(pickle.dumps(game)), copy.deepcopy(game)]
            for other in copies:
                assert other.history() == game.history()
                assert other.hand_results == game.hand_results
                assert other.observation(None) == game.observation(None)
            while not game.is_over:
                legal = game.legal_actions()
                action = legal[rng.randrange(len(legal))]
                game.apply(action)
                for other in copies:
                    assert other.legal_actions() == legal
                    other.apply(action)
            for other in copies:
                assert other.payoffs == game.payoffs
                assert other.full_state() == game.full_state()

    def test_a_pickle_of_another_build_is_refused(self) -> None:
        game = sabacc.new_game("spike", players=2, seed=1, engine="compiled")
        reduced: Any = game.__reduce__()
        restore, args = reduced
        with pytest.raises(ValueError, match="another build"):
            restore(args[0][:-1], *args[1:])
