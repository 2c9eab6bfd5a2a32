"""The compiled classic sabacc core (:mod:`sabacc.variants.classic._classic_core`)
against the reference engine.

The compiled core must reach exactly the states the pure-Python :class:`ClassicGame` reaches for
the same options, seed and actions. These tests play both engines in lockstep and compare every
piece of state after every action (stacks, pots, every card pile, the turn, orbit and calling
queue, legal actions, every seat's observation and RL view, the action log), then the payoffs,
outcome, hand results and history at the end. They also check illegal input (same message,
nothing changed), clone(), determinize(), from_game(), pickling, conservation of credits and
cards, the golden histories and the ``engine=`` front door.

Sized to run in well under a minute on two cores; raise ``SABACC_CORE_EXAMPLES`` (default 1 =
the normal sizes; 10 = ten times the Hypothesis examples) for a deeper search locally.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import os
import pickle
import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import sabacc
from sabacc.core import events as ev
from sabacc.core.actions import Action, Bet, Call, Check, Junk, Raise, Stand
from sabacc.core.errors import IllegalActionError, OptionError
from sabacc.engine.betting import Legal
from sabacc.variants import compiled
from sabacc.variants.classic.actions import CallHand
from sabacc.variants.classic.rules import CLASSIC_DECK, ClassicGame, ClassicOptions
from sabacc.variants.spike_family.actions import Discard, Gain, Swap
from tests.support import ids
from tests.test_golden import FILES as GOLDEN_FILES
from tests.test_golden import load as load_golden
from tests.test_golden import replay_and_compare
from tests.variants.lockstep import assert_end_equal, assert_stub_matches, drive
from tests.variants.lockstep import check_conservation as conservation

core_mod = pytest.importorskip(
    "sabacc.variants.classic._classic_core", reason="the compiled classic core is not built"
)

if TYPE_CHECKING:
    from sabacc.variants.classic._classic_core import ClassicCore

    Engine = ClassicGame | ClassicCore
else:
    ClassicCore = core_mod.ClassicCore
    Engine = Any

SCALE = int(os.environ.get("SABACC_CORE_EXAMPLES", "1"))
MAX_ACTIONS = 20000
DECK_IDS = sorted(c.id for c in CLASSIC_DECK.cards)


def hsettings(examples: int) -> settings:
    return settings(
        max_examples=examples * SCALE,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )


# ============================================================================================
# Helpers: state snapshots, a random player, lockstep play
# ============================================================================================
def state(g: Engine) -> dict[str, Any]:
    """Everything both classic engines expose about a state, for exact comparison."""
    return {
        "current_player": g.current_player,
        "to_act": g.to_act,
        "is_over": g.is_over,
        "phase": g.phase,
        "hand_no": g.hand_no,
        "dealer": g.dealer,
        "orbit_steps": g.orbit_steps,
        "stacks": list(g.stacks),
        "committed": list(g.committed),
        "round_bet": list(g.round_bet),
        "acted": list(g.acted),
        "in_hand": list(g.in_hand),
        "folded": list(g.folded),
        "out": list(g.out),
        "hand_start_stacks": list(g.hand_start_stacks),
        "cur_bet": g.cur_bet,
        "raises": g.raises,
        "dead": g.dead,
        "sabacc_pot": g.sabacc_pot,
        "carry": g.carry,
        "house": g.house,
        "hands": [ids(h) for h in g.hands],
        "public_ids": [sorted(p) for p in g.public_ids],
        "draw": ids(g.draw),
        "discards": ids(g.discards),
        "turn": g.turn,
        "orbit": g.orbit,
        "call_queue": list(g.call_queue),
        "caller": g.caller,
        "last_roll": g.last_roll,
        "last_shift": g.last_shift,
        "last_action": list(g.last_action),
        "pots": g.pots(),
        "pot_total": g.pot_total(),
        "total_credits": g.total_credits(),
        "payoffs": g.payoffs,
        "actions": list(g.actions),
        "legal": g.legal(),
        "legal_actions": g.legal_actions(),
        "bet_unit": g.bet_unit,
        "rounds": g.rounds,
    }


def core_fingerprint(core: ClassicCore) -> dict[str, Any]:
    """A core's state plus its action count (must not move on a refused action)."""
    return {
        **state(core),
        "action_count": core.action_count,
        "nets": list(core.hand_nets),
        "full": core.full_state(),
    }


def assert_same_state(ref: ClassicGame, core: ClassicCore, where: str = "") -> None:
    a, b = state(ref), state(core)
    if a != b:
        diff = {k: (a[k], b[k]) for k in a if a[k] != b[k]}
        raise AssertionError(f"state differs {where}: {diff}")
    assert core.action_count == len(ref.actions)
    assert len(core.hand_nets) == len(ref.hand_results)


def assert_same_views(ref: ClassicGame, core: ClassicCore, where: str = "") -> None:
    """Every seat's observation (and a spectator's), key for key and in the same key order,
    and every seat's RL view."""
    for seat in [None, *range(ref.n)]:
        a, b = ref.observation(seat), core.observation(seat)
        if a != b:
            diff = {k: (a.get(k), b.get(k)) for k in {*a, *b} if a.get(k) != b.get(k)}
            raise AssertionError(f"observation({seat}) differs {where}: {diff}")
        assert list(a) == list(b)
        if seat is not None:
            assert core.seat_view(seat) == ref.seat_view(seat), (seat, where)
    assert core.full_state() == ref.full_state()


def check_conservation(core: ClassicCore) -> None:
    conservation(core, DECK_IDS)


@dataclass(frozen=True)
class Style:
    """How the random player plays: how often passively, how often it calls the hand."""

    passive: float = 0.6
    allin: float = 0.1
    junk: float = 0.3  # chance a drawn junk is kept (else it checks/calls instead)
    call_hand: float = 0.15  # chance to call the hand when it may


def choose(rng: random.Random, legal: Legal, style: Style) -> Action:
    """A random legal action from the compact legal set (same set for both engines)."""
    options: list[Action] = list(legal.fixed)
    if CallHand() in options:
        return CallHand() if rng.random() < style.call_hand else Stand()
    for kind, rng_range in ((Bet, legal.bet), (Raise, legal.raise_)):
        if rng_range is not None:
            lo, hi = rng_range
            size = hi if rng.random() < style.allin else rng.randint(lo, min(hi, lo + 2))
            options.append(kind(size))
    passive = [a for a in options if type(a) in (Check, Call)]
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

    def classic_options(self) -> ClassicOptions:
        return ClassicOptions(**self.options)


def make_pair(setup: Setup, *, log: bool = False) -> tuple[ClassicGame, ClassicCore]:
    opts = setup.classic_options()
    ref = ClassicGame(opts, seed=setup.seed, players=setup.players, log=log)
    core = ClassicCore(opts, seed=setup.seed, players=setup.players)
    return ref, core


def lockstep(
    ref: ClassicGame,
    core: ClassicCore,
    rng: random.Random,
    style: Style,
    *,
    between: Callable[[ClassicGame, ClassicCore], None] | None = None,
    views: bool = True,
    replayable: bool = True,
) -> int:
    """Play both engines with the same random legal actions to the end, comparing everything
    after every action (``tests.variants.lockstep.drive``); returns the number of actions."""
    hands = 0

    def compare(ref: ClassicGame, core: ClassicCore, where: str) -> None:
        nonlocal hands
        assert_same_state(ref, core, where)
        if views:
            assert_same_views(ref, core, where)
        if len(ref.hand_results) != hands:
            hands = len(ref.hand_results)
            assert core.hand_results == ref.hand_results
        check_conservation(core)
        if between is not None:
            between(ref, core)

    steps = drive(
        ref, core, lambda g: choose(rng, g.legal(), style), compare, max_actions=MAX_ACTIONS
    )
    assert_end_equal(ref, core, replayable=replayable)
    return steps


# ============================================================================================
# 1. Lockstep equivalence with the reference engine
# ============================================================================================
OPTION_STRATEGIES: dict[str, st.SearchStrategy[Any]] = {
    "ante": st.integers(0, 3),
    "sabacc_ante": st.sampled_from(["if_empty", "always"]),
    "sabacc_ante_amount": st.integers(0, 2),
    "bet_limit": st.integers(1, 6),
    "max_raises": st.integers(0, 4),
    "fold_fee": st.integers(0, 3),
    "shift_chance": st.sampled_from(["0", "1/6", "1/3", "1/2", "2/3", "5/6", "1"]),
    "min_turns_before_call": st.integers(0, 3),
    "max_orbits": st.integers(1, 12),
    "allow_exchange_at_two": st.booleans(),
    "scoring": st.sampled_from(["signed", "absolute"]),
    "game_end": st.sampled_from(["orbit", "last_standing", "hands:1", "hands:2", "hands:4"]),
    "max_hands": st.none() | st.integers(1, 6),
    "final_pot": st.sampled_from(["split", "house"]),
}
STYLES = st.builds(
    Style,
    passive=st.sampled_from([0.6, 0.9, 0.2]),
    allin=st.sampled_from([0.1, 0.0, 0.4]),
    junk=st.sampled_from([0.2, 0.5]),
    call_hand=st.sampled_from([0.0, 0.1, 0.5]),
)


def test_every_option_has_a_strategy() -> None:
    """A new ClassicOptions field must be added to the lockstep tests (buy_in is drawn apart)."""
    fields = {f.name for f in dataclasses.fields(ClassicOptions)} - set(ClassicOptions.unused)
    assert fields - {"buy_in"} == set(OPTION_STRATEGIES)


@st.composite
def option_dicts(draw: st.DrawFn) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for name, strategy in OPTION_STRATEGIES.items():
        if draw(st.booleans()):
            options[name] = draw(strategy)
    per_hand = options.get("ante", 1) + options.get("sabacc_ante_amount", 1)
    # Small buy-ins: all-ins, side pots and eliminations happen, and games stay short. Now and
    # then one too small to cover the antes (both engines must refuse it the same way).
    if draw(st.integers(0, 19)) == 7:
        options["buy_in"] = draw(st.integers(1, 3))
    else:
        options["buy_in"] = max(1, per_hand) * draw(st.integers(2, 12)) + draw(st.integers(0, 3))
    if options.get("game_end") == "last_standing" and options.get("max_hands") is None:
        options["buy_in"] = max(1, per_hand) * draw(st.integers(1, 4))
    return options


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    options = draw(option_dicts())
    try:
        ClassicOptions(**options)
    except OptionError:
        assume(False)
    return Setup(
        players=draw(st.integers(2, 8)),
        seed=draw(st.integers(-(2**70), 2**70)),
        options=options,
        play_seed=draw(st.integers(0, 10**6)),
        style=draw(STYLES),
    )


def make_pair_or_same_error(setup: Setup) -> tuple[ClassicGame, ClassicCore] | None:
    """Both engines, or None when both refuse the setup with the same OptionError."""
    try:
        pair = make_pair(setup)
    except OptionError as exc:
        with pytest.raises(OptionError) as core_exc:
            ClassicCore(setup.classic_options(), seed=setup.seed, players=setup.players)
        assert str(core_exc.value) == str(exc)
        return None
    return pair


class TestLockstep:
    @hsettings(40)
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
            Setup(3, 1, {"buy_in": 4, "ante": 3, "sabacc_ante_amount": 2}),
            Setup(3, 1, {"buy_in": 2, "ante": 2, "sabacc_ante": "always"}),
        ]
        for setup in bad:
            assert make_pair_or_same_error(setup) is None, setup

    @pytest.mark.parametrize("seed", [0, 1, 2**32, 2**63 - 1, 2**100, -7])
    def test_game_draws_like_the_reference(self, seed: int) -> None:
        ref, core = make_pair(Setup(4, seed, {}))
        assert_same_state(ref, core, f"seed {seed}")
        assert_same_views(ref, core)


#: The deterministic sweep: option sets x table sizes, chosen to hit every option and the rare
#: events (shifts, sudden demise, split ties, side pots, bomb-outs, eliminations...).
SWEEP_OPTIONS: list[dict[str, Any]] = [
    {"buy_in": 12},
    {"buy_in": 8, "scoring": "absolute"},
    {"buy_in": 10, "sabacc_ante": "always", "fold_fee": 2},
    {"buy_in": 9, "bet_limit": 5, "max_raises": 1, "shift_chance": "1"},
    {"buy_in": 20, "min_turns_before_call": 0, "max_orbits": 2, "shift_chance": "0"},
    {"buy_in": 6, "game_end": "last_standing", "max_hands": 12, "allow_exchange_at_two": True},
    {"buy_in": 5, "game_end": "last_standing", "ante": 2, "sabacc_ante_amount": 0},
    {"buy_in": 15, "game_end": "hands:5", "final_pot": "house", "max_raises": 0},
    {"buy_in": 30, "max_orbits": 12, "min_turns_before_call": 3, "game_end": "hands:2"},
    {"buy_in": 7, "ante": 0, "sabacc_ante": "always", "sabacc_ante_amount": 1},
    {"buy_in": 11, "fold_fee": 0, "bet_limit": 1, "shift_chance": "5/6"},
]
SWEEP_PLAYERS = [2, 3, 4, 5, 6, 7, 8]
SWEEP_STYLES = [
    Style(0.6, 0.1, 0.3, 0.15),
    Style(0.85, 0.3, 0.1, 0.05),
    Style(0.3, 0.05, 0.5, 0.4),
    Style(0.95, 0.0, 0.0, 0.0),  # nobody calls: hands run to the forced call
]
#: Long hands of many small cards drawn, always checked down: ties and sudden demise.
TIE_HUNT = [
    Setup(
        p,
        7000 + p,
        {"buy_in": 200, "game_end": "hands:30", "max_orbits": 1, "shift_chance": "0"},
        p,
        Style(1.0, 0.0, 0.0, 0.0),
    )
    for p in (2, 3, 5)
]
#: Long hands at full tables drawing a lot: the deck runs out (no card for sudden demise).
DECK_HUNT = [
    Setup(
        8,
        7100 + i,
        {"buy_in": 30, "max_orbits": 40, "min_turns_before_call": 40, "game_end": "hands:2"},
        i,
        Style(0.9, 0.0, 0.05, 0.0),
    )
    for i in range(1)
]
SWEEP_GAMES = 44


def sweep_setups() -> Iterator[Setup]:
    k = len(SWEEP_OPTIONS)
    for i in range(SWEEP_GAMES - len(TIE_HUNT) - len(DECK_HUNT)):
        yield Setup(
            players=SWEEP_PLAYERS[(i + i // k) % len(SWEEP_PLAYERS)],
            seed=1000 + i,
            options=SWEEP_OPTIONS[i % k],
            play_seed=i,
            style=SWEEP_STYLES[i % len(SWEEP_STYLES)],
        )
    yield from TIE_HUNT
    yield from DECK_HUNT


def count_features(ref: ClassicGame) -> Counter[str]:
    seen: Counter[str] = Counter()
    for e in ref.events:
        if isinstance(e, ev.DiceRolled) and e.shift:
            seen["shift"] += 1
        elif isinstance(e, ev.Eliminated):
            seen["eliminated"] += 1
        elif isinstance(e, ev.Paid) and e.reason in ("bomb out", "caller did not win"):
            seen[e.reason] += 1
        elif isinstance(e, ev.Dealt) and e.reason == "sudden_demise":
            seen["sudden_demise"] += 1
        elif isinstance(e, ev.PotCarried) and e.pot == "main":
            seen["main_carried"] += 1
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
    for _, text in ref.actions:
        seen[text.split()[0] if not text.startswith("call hand") else "call hand"] += 1
    return seen


def test_deterministic_sweep() -> None:
    """Fixed games in lockstep, so a regression is caught without Hypothesis luck; the
    reference's events show every rare rule was played."""
    seen: Counter[str] = Counter()
    for i, setup in enumerate(sweep_setups()):
        ref, core = make_pair(setup, log=True)
        lockstep(ref, core, random.Random(setup.play_seed), setup.style, views=i % 4 == 0)
        seen += count_features(ref)
    needed = [
        "shift",
        "eliminated",
        "bomb out",
        "caller did not win",
        "sudden_demise",
        "main_carried",
        "side_pot",
        "sabacc_pot_won",
        "split_pot",
        "hand_called",
        "hand_forced_call",
        "hand_all_junked",
        "all_in",
        "gain",
        "swap",
        "bet",
        "raise",
        "junk",
        "call hand",
    ]
    missing = [name for name in needed if not seen[name]]
    assert not missing, (missing, seen)


def cards_of(values: list[int], taken: set[int]) -> list[sabacc.Card]:
    """Deck cards of these values, none already in ``taken`` (which they join)."""
    out = []
    for v in values:
        card = next(c for c in CLASSIC_DECK.cards if c.value == v and c.id not in taken)
        taken.add(card.id)
        out.append(card)
    return out


#: Showdowns set up by hand: (hands by seat, the deck's top cards, last first, or None for an
#: empty deck; scoring). The rare ends of a sudden demise and of the pots.
SHOWDOWNS: list[tuple[list[list[int]], list[int] | None, str]] = [
    ([[10, 9], [11, 8]], None, "signed"),  # tie, no card left: split
    ([[10, 9], [11, 8]], [15, 14], "signed"),  # tie, both bomb out in sudden demise: split
    ([[10, 9], [11, 8]], [1, 1], "signed"),  # tie, still tied: split
    ([[10, 9], [11, 8]], [2, 1], "signed"),  # tie, sudden demise won
    ([[10, 9], [11, 8], [12, 7]], [1], "signed"),  # a three-way tie, one card for three
    ([[10, 9], [11, 8], [15, 15]], [3, 2], "signed"),  # a bomb out pays; the tie goes on
    ([[0, 2, 3], [12, 11], [5, 6]], [1], "signed"),  # Idiot's Array takes the sabacc pot
    ([[12, 11], [-15, -8], [5, 6]], [1], "absolute"),  # Pure Sabacc +23 beats -23
    ([[-15, -8], [-13, -11], [5, 6]], [4, 1], "absolute"),  # two -23s tie
    ([[-11, -8], [12, 7], [5, 6]], [4, 1], "absolute"),  # |-19| beats 19? no: +19 wins
    ([[15, 15], [14, 14], [13, 12]], [1], "signed"),  # nobody valid: the pot carries
]


@pytest.mark.parametrize("hands,top,scoring", SHOWDOWNS)
@pytest.mark.parametrize("caller_seat", [0, 1])
def test_showdowns_set_up_by_hand(
    hands: list[list[int]], top: list[int] | None, scoring: str, caller_seat: int
) -> None:
    """A reference game in its calling phase is given these hands and deck top (the rest of
    the deck out of play), copied to the core by from_game, and the hand is called: both reach
    the same state and the same hand result."""
    n = len(hands)
    opts = ClassicOptions.from_mapping(
        {"min_turns_before_call": 0, "shift_chance": "0", "scoring": scoring}
    )
    ref = ClassicGame(opts, seed=11, players=n, log=False)
    while ref.phase == "betting":
        ref.apply("check")
    assert ref.phase == "calling"
    if ref.to_act != caller_seat:
        ref.apply("stand")
    taken: set[int] = set()
    for s, values in enumerate(hands):
        ref.hands[s] = cards_of(values, taken)
    deck = [] if top is None else cards_of(top, taken)[::-1]
    ref.draw = deck
    ref.discards = [c for c in CLASSIC_DECK.cards if c.id not in taken]
    core = ClassicCore.from_game(ref)
    assert_same_state(ref, core)
    if ref.phase != "calling":  # the seat to call has already passed: nothing to set up
        return
    ref.apply("call hand")
    core.apply("call hand")
    assert_same_state(ref, core)
    assert_same_views(ref, core)
    assert core.hand_results == ref.hand_results
    check_conservation(core)


# ============================================================================================
# 2. Illegal input
# ============================================================================================
def illegal_candidates(ref: ClassicGame) -> list[tuple[Any, int | None]]:
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
        "swap discard +3",
        "swap moon +3",
        "swap draw +16",
        "swap draw -18",
        "swap draw x",
        "gain +3",
        "draw -2",
        "discard +4",
        "exchange +4",
        "call hand",
        "stand",
        "gain",
        "check",
        "call",
        "junk",
        "bet 1",
        "raise 1",
        f"bet {10**20}",
        f"raise {2**63}",
        42,
        None,
        3.5,
        Gain(3),
        Swap("moon", 1),
        Swap("discard", 1),
        Swap("draw", 99),
        Swap("draw", True),
        Bet(True),
        Bet(2.5),  # type: ignore[arg-type]
        Discard(1),
        CallHand(),
        Stand(),
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
        missing = [v for v in CLASSIC_DECK.values if v not in held]
        for v in missing[:3]:
            plain += [f"swap draw {v:+d}", Swap("draw", v)]
        for v in sorted(held)[:2]:
            plain += [f"swap draw {v:+d}", f"swap discard {v:+d}"]
    out: list[tuple[Any, int | None]] = [(x, None) for x in plain if not ref.is_legal(x)]
    some_legal = ref.legal_actions()[0] if seat is not None else "stand"
    for s in [*range(ref.n), -1, ref.n, 99]:
        if s != seat:
            out.append((some_legal, s))
    bogus: list[tuple[Any, Any]] = [(some_legal, True), (some_legal, "0"), (some_legal, 0.0)]
    out += [*bogus, ("dance", ref.n + 1)]
    return out


def assert_same_refusal(ref: ClassicGame, core: ClassicCore, action: Any, seat: Any) -> None:
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


def refusals(ref: ClassicGame, core: ClassicCore) -> None:
    for action, seat in illegal_candidates(ref):
        assert_same_refusal(ref, core, action, seat)
    assert_same_state(ref, core, "after refusals")


class TestIllegalInput:
    def test_messages_match_and_state_is_kept(self) -> None:
        """At every decision of a few games (betting, calling and drawing phases): every refused
        input gets the reference's message, the core is unchanged, and the game goes on."""
        cases = [
            Setup(3, 5, {"buy_in": 8, "game_end": "hands:3"}, 1, Style(0.5, 0.2, 0.3, 0.2)),
            Setup(2, 7, {"buy_in": 6, "allow_exchange_at_two": True, "max_orbits": 3}, 3),
            Setup(5, 8, {"max_raises": 1, "buy_in": 6, "game_end": "hands:2"}, 4),
        ]
        for setup in cases:
            ref, core = make_pair(setup)
            lockstep(ref, core, random.Random(setup.play_seed), setup.style, between=refusals)

    @hsettings(8)
    @given(setups())
    def test_random_games(self, setup: Setup) -> None:
        pair = make_pair_or_same_error(setup)
        if pair is None:
            return
        ref, core = pair

        def some_refusals(r: ClassicGame, c: ClassicCore) -> None:
            if len(r.actions) % 29 == 0 or r.is_over:
                refusals(r, c)

        lockstep(
            ref,
            core,
            random.Random(setup.play_seed),
            setup.style,
            between=some_refusals,
            views=False,
        )

    def test_after_game_over(self) -> None:
        ref, core = make_pair(Setup(2, 3, {"buy_in": 4, "game_end": "hands:1"}))
        lockstep(ref, core, random.Random(0), Style())
        assert core.is_over
        for action in ["stand", "check", "bet 1", "call hand", Gain(), Stand()]:
            assert_same_refusal(ref, core, action, None)
            assert_same_refusal(ref, core, action, 0)
        with pytest.raises(IllegalActionError, match="game is over"):
            core.apply("stand")
        assert_same_refusal(ref, core, "dance", None)

    def test_wrong_phase_actions(self) -> None:
        ref, core = make_pair(Setup(3, 21, {"min_turns_before_call": 0, "shift_chance": "0"}))
        assert core.phase == "betting"
        for action in ["stand", "gain", "swap draw +1", "call hand", "call", "raise 1"]:
            assert_same_refusal(ref, core, action, None)
        while ref.phase == "betting":
            ref.apply("check")
            core.apply("check")
        assert core.phase == "calling"
        for action in ["check", "bet 1", "gain", "junk", "swap draw +1"]:
            assert_same_refusal(ref, core, action, None)
        while ref.phase == "calling":
            ref.apply("stand")
            core.apply("stand")
        assert core.phase == "drawing"
        for action in ["check", "call hand", "bet 1", "junk", "swap draw +1"]:
            assert_same_refusal(ref, core, action, None)
        assert_same_state(ref, core)
        assert_same_views(ref, core)


# ============================================================================================
# 3. Conservation
# ============================================================================================
class TestConservation:
    @hsettings(60)
    @given(setups())
    def test_credits_and_cards(self, setup: Setup) -> None:
        try:
            core = ClassicCore(setup.classic_options(), seed=setup.seed, players=setup.players)
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
# 4. clone(), determinize(), from_game(), pickling
# ============================================================================================
def advance(ref: ClassicGame, core: ClassicCore, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if ref.is_over:
            return
        act = choose(rng, ref.legal(), Style())
        ref.apply(act)
        core.apply(act)
    assert_same_state(ref, core)


class TestClone:
    @hsettings(15)
    @given(setups(), st.integers(0, 80))
    def test_clone_continues_identically(self, setup: Setup, steps: int) -> None:
        pair = make_pair_or_same_error(setup)
        if pair is None:
            return
        ref, core = pair
        advance(ref, core, random.Random(setup.play_seed), steps)
        twin = core.clone()
        assert core_fingerprint(twin) == core_fingerprint(core)
        ref_twin = ref.clone()
        assert isinstance(ref_twin, ClassicGame)
        lockstep(ref_twin, twin, random.Random(steps), setup.style, views=False)
        lockstep(ref, core, random.Random(steps), setup.style, views=False)
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
        frozen = core_fingerprint(twin)
        while not core.is_over:
            core.apply(choose(rng, core.legal(), Style()))
        assert core_fingerprint(twin) == frozen
        core.stacks.append(5)
        core.hands[0].clear()
        twin.legal_actions().clear()
        assert core_fingerprint(twin) == frozen

    @pytest.mark.parametrize("reseed", [0, 3, -3, 2**100])
    def test_reseed_follows_a_reference_reseed(self, reseed: int) -> None:
        ref, core = make_pair(Setup(4, 123, {"game_end": "hands:4", "buy_in": 40}))
        advance(ref, core, random.Random(2), 5)
        fresh = core.clone(reseed=reseed)
        assert core_fingerprint(fresh) == core_fingerprint(core)
        ref_fresh = ref.clone(reseed=reseed)
        assert isinstance(ref_fresh, ClassicGame)
        lockstep(ref_fresh, fresh, random.Random(4), Style(), replayable=False)


class TestDeterminize:
    @hsettings(20)
    @given(setups(), st.integers(0, 120), st.integers(0, 2**64))
    def test_same_world_as_the_reference(self, setup: Setup, steps: int, seed: int) -> None:
        """The same RNG calls and the same world; both worlds then play on identically."""
        pair = make_pair_or_same_error(setup)
        if pair is None:
            return
        ref, core = pair
        advance(ref, core, random.Random(setup.play_seed), steps)
        for viewer in range(ref.n):
            r1, r2 = random.Random(seed + viewer), random.Random(seed + viewer)
            ref_world = ref.determinize(viewer, r1)
            core_world = core.determinize(viewer, r2)
            assert r1.getstate() == r2.getstate()
            assert isinstance(ref_world, ClassicGame)
            assert_same_state(ref_world, core_world, f"world of {viewer}")
            assert ids(core_world.hands[viewer]) == ids(core.hands[viewer])
            assert core_fingerprint(core) == core_fingerprint(core.clone())  # untouched
            if viewer == 0:
                lockstep(
                    ref_world,
                    core_world,
                    random.Random(seed),
                    setup.style,
                    views=False,
                    replayable=False,
                )

    def test_other_rngs_are_used_through_their_shuffle(self) -> None:
        ref, core = make_pair(Setup(3, 5, {}))
        advance(ref, core, random.Random(1), 6)

        class Recording(random.Random):
            pass

        a, b = Recording(8), Recording(8)
        assert_same_state(ref.determinize(1, a), core.determinize(1, b))  # type: ignore[arg-type]
        assert a.getstate() == b.getstate()

    def test_bad_viewer(self) -> None:
        core = ClassicCore(ClassicOptions(), seed=1, players=3)
        with pytest.raises(IndexError):
            core.determinize(3, random.Random(0))


class TestFromGame:
    @hsettings(15)
    @given(setups(), st.integers(0, 150))
    def test_goes_on_exactly_as_the_reference(self, setup: Setup, steps: int) -> None:
        pair = make_pair_or_same_error(setup)
        if pair is None:
            return
        ref, _ = pair
        rng = random.Random(setup.play_seed)
        for _ in range(steps):
            if ref.is_over:
                break
            ref.apply(choose(rng, ref.legal(), setup.style))
        core = ClassicCore.from_game(ref)
        assert core.hand_results == ref.hand_results
        lockstep(ref, core, random.Random(steps), setup.style, views=False)

    def test_refuses_other_games(self) -> None:
        with pytest.raises(OptionError):
            ClassicCore.from_game(sabacc.new_game("spike", players=2, seed=1))  # type: ignore[arg-type]


class TestPickle:
    def test_round_trip_mid_game_and_play_on(self) -> None:
        for seed in range(8):
            game = sabacc.new_game(
                "classic", players=2 + seed % 7, seed=seed, engine="compiled", buy_in=8
            )
            rng = random.Random(seed)
            for _ in range(rng.randrange(80)):
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
        game = sabacc.new_game("classic", players=2, seed=1, engine="compiled")
        reduced: Any = game.__reduce__()
        restore, args = reduced
        with pytest.raises(ValueError, match="another build"):
            restore(args[0][:-1], *args[1:])


# ============================================================================================
# 5. Golden histories, the API, the stub
# ============================================================================================
CLASSIC_GOLDEN = [p for p in GOLDEN_FILES if load_golden(p)["history"]["variant"] == "classic"]


@pytest.mark.parametrize("path", CLASSIC_GOLDEN, ids=[p.stem for p in CLASSIC_GOLDEN])
def test_golden_replays_on_the_compiled_core(path: Path) -> None:
    replay_and_compare(load_golden(path), "compiled")


class TestApi:
    def test_new_game_front_door(self) -> None:
        for g in (
            sabacc.new_game("classic", players=3, seed=9, engine="compiled", max_orbits=4),
            sabacc.variant("classic", max_orbits=4).new_game(3, 9, engine="compiled"),
        ):
            assert isinstance(g, ClassicCore)
            assert g.options == ClassicOptions(max_orbits=4)
            assert g.seed == 9 and g.names == ["Player 1", "Player 2", "Player 3"]
            assert g.variant == "classic" and g.info is ClassicGame.info
            ref = sabacc.new_game("classic", players=3, seed=9, max_orbits=4)
            assert isinstance(ref, ClassicGame)
            assert_same_state(ref, g)

    def test_auto_picks_the_core(self) -> None:
        assert compiled.available("classic")
        assert compiled.resolve_engine("auto", "classic") == "compiled"
        doc = sabacc.new_game("classic", players=2, seed=3).history()
        assert isinstance(sabacc.replay(doc, engine="compiled"), ClassicCore)

    def test_core_refuses_other_options(self) -> None:
        with pytest.raises(OptionError):
            ClassicCore(sabacc.variant("spike").options, seed=1, players=3)  # type: ignore[arg-type]
        with pytest.raises(OptionError):
            ClassicCore(ClassicOptions(), seed=1.5, players=3)  # type: ignore[arg-type]
        core = ClassicCore({"bet_limit": "4"}, seed=1, players=2)
        assert core.options == ClassicOptions(bet_limit=4)

    @pytest.mark.parametrize(
        "options",
        [
            {"buy_in": 2**41},
            {"bet_limit": 2**70},
            {"fold_fee": 2**50},
            {"max_raises": 2**31},
            {"max_orbits": 2**40},
            {"game_end": f"hands:{2**32}"},
        ],
    )
    def test_options_beyond_its_integers_are_refused(self, options: dict[str, Any]) -> None:
        """Options the C integers cannot hold are refused with an OptionError (the reference
        engine plays them), never played wrong."""
        opts = ClassicOptions(**options)
        ClassicGame(opts, seed=1, players=2)
        with pytest.raises(OptionError, match="engine='python'"):
            ClassicCore(opts, seed=1, players=2)
        with pytest.raises(OptionError, match="engine='python'"):
            sabacc.new_game("classic", players=2, seed=1, engine="compiled", **options)

    def test_the_largest_options_it_takes_play_like_the_reference(self) -> None:
        limits = {"bet_limit": core_mod.MAX_CREDITS, "max_raises": core_mod.MAX_COUNT}
        ref, core = make_pair(Setup(3, 3, {**limits, "buy_in": core_mod.MAX_CREDITS}))
        rng = random.Random(1)
        while not ref.is_over:  # legal_actions() would list 2**40 bets: the compact form only
            assert core.legal() == ref.legal()
            for seat in [None, *range(ref.n)]:
                assert core.observation(seat) == ref.observation(seat)
            act = choose(rng, ref.legal(), Style(0.2, 0.5, 0.3))
            ref.apply(act)
            core.apply(act)
        assert core.history() == ref.history() and core.hand_results == ref.hand_results

    def test_named_players(self) -> None:
        names = ["Han", "Lando", "Qi'ra"]
        core = ClassicCore(ClassicOptions(), seed=4, players=names)
        ref = ClassicGame(ClassicOptions(), seed=4, players=names, log=False)
        assert core.names == names and core.n == core.num_players == 3
        act = ref.legal_actions()[0]
        ref.apply(act)
        core.apply(act)
        assert_same_refusal(ref, core, core.legal_actions()[0], 0 if ref.to_act != 0 else 1)
        assert core.history() == ref.history()

    def test_unseeded_game_replays(self) -> None:
        core = sabacc.new_game("classic", players=4, engine="compiled", buy_in=8)
        assert isinstance(core.seed, int)
        rng = random.Random(0)
        while not core.is_over:
            core.apply(choose(rng, core.legal(), Style()))
        again = sabacc.replay(core.history())
        assert again.stacks == core.stacks and again.history() == core.history()
        assert json.dumps(core.history()) == json.dumps(again.history())

    def test_apply_returns_none_and_legal_lists_are_fresh(self) -> None:
        core = sabacc.new_game("classic", players=3, seed=2, engine="compiled")
        first = core.legal_actions()
        first.clear()
        assert core.legal_actions()
        assert core.apply("check") is None
        assert not core.is_legal("dance") and not core.is_legal(42)  # type: ignore[arg-type]


def test_stub_matches_the_built_core() -> None:
    """The type stub (what mypy checks GameProtocol against) lists exactly the public members
    the built ClassicCore has."""
    assert_stub_matches("classic/_classic_core.pyi", ClassicCore)
