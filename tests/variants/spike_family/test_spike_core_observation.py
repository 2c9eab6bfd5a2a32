"""The compiled core's ``observation(seat)``, ``full_state()`` and ``hand_results`` against the
reference engine.

Both engines play the same random games in lockstep (the helpers of
``tests/variants/spike_family/test_spike_core.py``)
and after every action the core's JSON observation of every seat and of a spectator must equal
the reference's (as dicts, and as JSON text: same key order), and so must its ``hand_results``
(the typed :class:`~sabacc.engine.game.HandResult` objects: pots, winners in odd-credit order,
shares, reasons, the revealed hands in order from the dealer's left with their hand values,
what was carried, the nets). A deterministic sweep covers 2-8 seats and a spread of options and
must meet side pots, blind-draw and split true ties, sabacc pots won and carried, hands won by
everyone else junking, and eliminations; Hypothesis adds random setups.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import given

import sabacc
from sabacc.core import events as ev
from sabacc.core.errors import OptionError
from sabacc.core.hands import HandValue
from sabacc.engine.game import Game, HandResult, PotResult
from sabacc.services.bots import decide, make_bot, sampler_for
from sabacc.variants.corellian_spike.rules import SpikeGame, SpikeOptions
from tests.variants.spike_family.test_spike_core import (
    MAX_ACTIONS,
    Setup,
    Style,
    choose,
    hsettings,
    make_pair,
    make_pair_or_same_error,
    setups,
)

core_mod = pytest.importorskip(
    "sabacc.variants.corellian_spike._corellian_spike_core", reason="the compiled core is not built"
)

if TYPE_CHECKING:
    from sabacc.variants.corellian_spike._corellian_spike_core import SpikeCore
else:
    SpikeCore = core_mod.SpikeCore


# ============================================================================================
# Helpers
# ============================================================================================
def assert_same_results(ref: Game, core: SpikeCore) -> None:
    """``hand_results`` equal, field by field, with the same ``hands`` order and JSON form."""
    a, b = ref.hand_results, core.hand_results
    assert len(b) == len(a) == len(core.hand_nets)
    for r, c in zip(a, b, strict=True):
        assert type(c) is HandResult
        assert c == r, (r, c)
        assert list(c.hands) == list(r.hands)  # seats from the dealer's left
        assert all(type(p) is PotResult for p in c.pots)
        for (_, cv), (_, rv) in zip(c.hands.values(), r.hands.values(), strict=True):
            assert type(cv) is HandValue and rv is not None and cv is not None
            assert (cv.key, cv.name, cv.total, cv.rank, cv.size) == (
                rv.key,
                rv.name,
                rv.total,
                rv.rank,
                rv.size,
            )
        assert json.dumps(c.to_dict()) == json.dumps(r.to_dict())
    assert [(r.hand, r.dealer, r.reason, r.net) for r in b] == list(core.hand_nets)


def assert_same_observations(ref: Game, core: SpikeCore, where: str = "") -> None:
    for seat in [None, *range(ref.n)]:
        a, b = ref.observation(seat), core.observation(seat)
        if a != b:
            diff = {k: (a.get(k), b.get(k)) for k in a.keys() | b.keys() if a.get(k) != b.get(k)}
            raise AssertionError(f"observation({seat}) differs {where}: {diff}")
        assert json.dumps(b) == json.dumps(a), (seat, where)  # same keys in the same order


def play_lockstep(ref: SpikeGame, core: SpikeCore, rng: random.Random, style: Style) -> int:
    """Random legal play on both engines, comparing observations and results after every
    action and at the end; returns the number of actions."""
    steps = 0
    while True:
        assert_same_observations(ref, core, f"after {steps} actions")
        assert_same_results(ref, core)
        if ref.is_over:
            break
        act = choose(rng, ref.legal(), style)
        ref.apply(act)
        core.apply(act)
        steps += 1
        assert steps < MAX_ACTIONS, "game did not terminate"
    assert core.is_over
    assert core.outcome == ref.outcome
    obs = core.observation(None)
    assert ref.outcome is not None and obs["outcome"] == ref.outcome.to_dict()
    assert core.full_state() == ref.full_state()
    return steps


def features(ref: SpikeGame) -> Counter[str]:
    """The rare situations a game met (from the reference's results and event log)."""
    seen: Counter[str] = Counter()
    for r in ref.hand_results:
        seen[f"hand_{r.reason}"] += 1
        if "sabacc" in r.carried:
            seen["sabacc_carried"] += 1
        for p in r.pots:
            if p.pot.startswith("side"):
                seen["side_pot"] += 1
            if p.pot == "sabacc":
                seen["sabacc_won"] += 1
            if len(p.winners) > 1:
                seen["split_pot"] += 1
            if len(set(p.shares)) > 1:
                seen["odd_credit"] += 1
        values = [v for _, v in r.hands.values()]
        if len(values) != len(set(values)):
            seen["equal_hands"] += 1
    for e in ref.events:
        if isinstance(e, ev.BlindDraw):
            seen["blind_draw"] += 1
        elif isinstance(e, ev.Eliminated):
            seen["eliminated"] += 1
    return seen


# ============================================================================================
# Lockstep: a deterministic sweep, then Hypothesis
# ============================================================================================
#: Option sets chosen to meet side pots (short stacks, all-ins), true ties (two-card hands,
#: blind draw and split), sabacc pots won and carried, everyone-else-junked hands, eliminations.
SWEEP_OPTIONS: list[dict[str, Any]] = [
    {"buy_in": 12},
    {"buy_in": 9, "game_end": "last_standing", "max_hands": 10},
    {"true_tie": "split", "buy_in": 10, "hand_cap": 2},
    {"betting": "pot_limit", "buy_in": 15, "sabacc_ante": 2},
    {"gain_fee": 1, "swap_fee": 2, "buy_in": 14, "final_pot": "house"},
    {"betting": "fixed", "min_bet": 2, "buy_in": 16, "game_end": "hands:4"},
    {"ante": 0, "sabacc_ante": 0, "buy_in": 7},
    {"rounds": 1, "hand_cap": 3, "max_hands": 3, "buy_in": 8, "ante": 3},
]
SWEEP_PLAYERS = [2, 3, 4, 5, 6, 7, 8]
SWEEP_STYLES = [Style(0.6, 0.1, 0.3), Style(0.85, 0.3, 0.1), Style(0.3, 0.05, 0.5)]
#: Two-card hands checked down: true ties, resolved by blind draw and by a split.
TIE_HUNT = [
    Setup(
        p,
        8000 + p,
        {"true_tie": tie, "rounds": 1, "hand_cap": 2, "buy_in": 100, "game_end": "hands:25"},
        p,
        Style(1.0, 0.0, 0.0),
    )
    for tie in ("split", "blind_draw")
    for p in (2, 3, 4)
]
SWEEP_GAMES = 84


def sweep_setups() -> Iterator[Setup]:
    k = len(SWEEP_OPTIONS)
    for i in range(SWEEP_GAMES - len(TIE_HUNT)):
        yield Setup(
            players=SWEEP_PLAYERS[(i + i // k) % len(SWEEP_PLAYERS)],
            seed=3000 + i,
            options=SWEEP_OPTIONS[i % k],
            play_seed=i,
            style=SWEEP_STYLES[i % len(SWEEP_STYLES)],
        )
    yield from TIE_HUNT


def test_lockstep_sweep() -> None:
    """Fixed games on 2-8 seats: observations and results equal after every action, and every
    rare situation met at least once."""
    seen: Counter[str] = Counter()
    players: set[int] = set()
    for setup in sweep_setups():
        ref, core = make_pair(setup, log=True)
        play_lockstep(ref, core, random.Random(setup.play_seed), setup.style)
        seen += features(ref)
        players.add(setup.players)
    assert players == set(range(2, 9))
    needed = [
        "hand_showdown",
        "hand_all_junked",
        "side_pot",
        "split_pot",
        "odd_credit",
        "equal_hands",
        "blind_draw",
        "sabacc_won",
        "sabacc_carried",
        "eliminated",
    ]
    missing = [name for name in needed if not seen[name]]
    assert not missing, (missing, seen)


@hsettings(60)
@given(setups())
def test_lockstep_random_setups(setup: Setup) -> None:
    pair = make_pair_or_same_error(setup)
    if pair is None:
        return
    ref, core = pair
    play_lockstep(ref, core, random.Random(setup.play_seed), setup.style)


# ============================================================================================
# hand_results: caching, copies, hand_nets
# ============================================================================================
def played(
    setup: Setup, actions: int | None = None, hands: int | None = None
) -> tuple[SpikeGame, SpikeCore]:
    """Both engines after ``actions`` random actions or ``hands`` finished hands (None: to the
    end)."""
    ref, core = make_pair(setup)
    rng = random.Random(setup.play_seed)
    k = 0
    while (
        not ref.is_over
        and (actions is None or k < actions)
        and (hands is None or len(ref.hand_results) < hands)
    ):
        act = choose(rng, ref.legal(), setup.style)
        ref.apply(act)
        core.apply(act)
        k += 1
    return ref, core


def test_hand_results_are_built_once_and_handed_out_as_new_lists() -> None:
    ref, core = played(Setup(4, 11, {"buy_in": 12}))
    first = core.hand_results
    assert first == ref.hand_results and len(first) > 1
    second = core.hand_results
    assert second is not first
    assert all(a is b for a, b in zip(first, second, strict=True))  # cached objects
    first.clear()  # the caller's list: the core's cache is untouched
    assert core.hand_results == ref.hand_results
    assert core.hand_nets == [(r.hand, r.dealer, r.reason, r.net) for r in ref.hand_results]


def test_hand_results_follow_clones_and_from_game() -> None:
    setup = Setup(3, 21, {"buy_in": 30, "game_end": "hands:6"})
    ref, core = played(setup, hands=2)
    assert len(ref.hand_results) == 2 and not ref.is_over
    copies = [core.clone(), SpikeCore.from_game(ref)]
    built = core.clone()
    built.hand_results  # noqa: B018 - built before cloning too
    copies.append(built.clone())
    rng = random.Random(5)
    twin = ref.clone()
    while not twin.is_over:
        act = choose(rng, twin.legal(), setup.style)
        twin.apply(act)
        for c in copies:
            c.apply(act)
            assert_same_observations(twin, c)
            assert_same_results(twin, c)
    assert_same_results(ref, core)  # the original moved on with none of them


# ============================================================================================
# observation: seats, copies, worlds, bots
# ============================================================================================
def test_observation_refuses_seats_not_at_the_table() -> None:
    core = SpikeCore(SpikeOptions(), seed=1, players=3)
    for bad in (3, -1, 99, True, "0", 1.0):
        with pytest.raises(IndexError):
            core.observation(bad)  # type: ignore[arg-type]
    assert core.observation(2)["seat"] == 2

    class Seat:  # any integer type (a NumPy integer...) is taken, as an int
        def __index__(self) -> int:
            return 1

    obs = core.observation(Seat())  # type: ignore[arg-type]
    assert obs["seat"] == 1 and type(obs["seat"]) is int
    assert obs == core.observation(1)


def test_observations_are_fresh_json_documents() -> None:
    ref, core = played(Setup(5, 31, {"buy_in": 12}), 150)
    assert core.hand_results
    obs = core.observation(1)
    json.loads(json.dumps(obs))
    expected = ref.observation(1)
    obs["last_hand"]["pots"].clear()  # a caller's edits do not reach the core
    obs["seats"][0]["known_cards"].append("x")
    obs["you"]["cards"].clear()
    assert core.observation(1) == expected


def test_determinized_worlds_look_alike() -> None:
    """A core's worlds (``determinize``) are the reference's worlds: same observations."""
    for seed in range(6):
        ref, core = played(Setup(2 + seed % 5, 40 + seed, {"buy_in": 14}), 20 + 9 * seed)
        seat = ref.current_player
        if seat is None:
            continue
        for k in range(2):
            a = ref.determinize(seat, random.Random(k))
            b = core.determinize(seat, random.Random(k))
            assert_same_observations(a, b)
            assert b.full_state() == a.full_state()
            assert b.hand_results == a.hand_results


@pytest.mark.parametrize("engine", ["auto", "compiled"])
def test_sampler_for_a_core_uses_its_determinize(engine: str) -> None:
    ref, core = played(Setup(4, 51, {}), 25)
    seat = core.current_player
    assert seat is not None
    world = sampler_for(core, seat, engine=engine)(random.Random(3))
    assert isinstance(world, SpikeCore)
    expected = sampler_for(ref, seat, engine="python")(random.Random(3))
    assert isinstance(expected, Game)
    assert world.full_state() == expected.full_state()
    with pytest.raises(OptionError, match="compiled core"):
        sampler_for(core, seat, engine="python")


def test_bots_play_the_same_game_on_both_engines() -> None:
    """``decide`` on a core gives the bots the same observation, legal actions and worlds."""
    decisions = 0
    for seed, names in enumerate([("heuristic", "random", "heuristic"), ("ismcts:15", "random")]):
        n = len(names)
        ref = sabacc.new_game("spike", players=n, seed=seed, game_end="hands:2")
        core = sabacc.new_game("spike", players=n, seed=seed, game_end="hands:2", engine="compiled")
        assert isinstance(core, SpikeCore)
        ref_bots = [make_bot(name, 10 + i) for i, name in enumerate(names)]
        core_bots = [make_bot(name, 10 + i) for i, name in enumerate(names)]
        while not ref.is_over:
            seat = ref.current_player
            assert seat is not None
            a = decide(ref_bots[seat], ref, seat)
            b = decide(core_bots[seat], core, seat)
            assert a == b
            ref.apply(a)
            core.apply(b)
            decisions += 1
        assert_same_observations(ref, core)
        assert_same_results(ref, core)
    assert decisions > 20
