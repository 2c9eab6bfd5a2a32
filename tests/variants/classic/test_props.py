"""Classic sabacc: exact reference figures and Hypothesis playout invariants (docs/rules.md §1)."""

from __future__ import annotations

import json
import random
import time
from fractions import Fraction
from itertools import combinations
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sabacc
from sabacc.variants.classic.rules import (
    BOMB_OUT,
    CLASSIC_DECK,
    IDIOTS_ARRAY,
    ClassicGame,
    evaluate_classic,
)
from tests.support import check_cards, check_credits, check_no_leak, choose, playout, snapshot
from tests.variants.classic.test_rules import check_no_leak_hand

# ---------------------------------------------------------------------------------------------
# docs/rules.md reference figures, by exact enumeration of the 76-card deck
# ---------------------------------------------------------------------------------------------

VALUES = [c.value for c in CLASSIC_DECK.cards]


def test_two_card_reference_figures() -> None:
    pairs = list(combinations(VALUES, 2))
    assert len(pairs) == 2850
    plus23 = sum(1 for a, b in pairs if a + b == 23)
    zero = sum(1 for a, b in pairs if a + b == 0)
    assert Fraction(plus23, len(pairs)) == Fraction(64, 2850)
    assert Fraction(zero, len(pairs)) == Fraction(49, 2850)
    # and through the evaluator: every +23 is a Pure Sabacc, every 0 a bomb out
    named = [evaluate_classic(p).name for p in pairs]
    assert named.count("Pure Sabacc") == 64
    assert named.count("Bomb out (zero)") == 49


def test_three_card_idiots_array_figure() -> None:
    triples = list(combinations(VALUES, 3))
    assert len(triples) == 70300
    arrays = sum(1 for t in triples if evaluate_classic(t).rank == IDIOTS_ARRAY)
    assert Fraction(arrays, len(triples)) == Fraction(32, 70300)


# ---------------------------------------------------------------------------------------------
# evaluator properties
# ---------------------------------------------------------------------------------------------

hands_st = st.lists(st.sampled_from(VALUES), min_size=1, max_size=8)


@given(hands_st, hands_st, st.sampled_from(["signed", "absolute"]))
def test_evaluator_is_a_total_order_consistent_with_the_rules(
    a: list[int], b: list[int], scoring: str
) -> None:
    va, vb = evaluate_classic(a, scoring), evaluate_classic(b, scoring)
    assert (va > vb) + (va < vb) + (va == vb) == 1
    assert evaluate_classic(list(reversed(a)), scoring) == va  # order does not matter
    for hand, v in ((a, va), (b, vb)):
        total = sum(hand)
        assert v.total == total and v.size == len(hand)
        bomb = total > 23 or total < -23 or total == 0
        idiot = sorted(hand) == [0, 2, 3]
        assert (v.rank == BOMB_OUT) == (bomb and not idiot)
        assert (v.rank == IDIOTS_ARRAY) == idiot
    if va.rank == vb.rank == 3:  # ordinary hands
        ta, tb = va.total, vb.total
        if scoring == "signed":
            assert (va > vb) == (ta > tb)
        else:
            assert (va > vb) == ((abs(ta), ta > 0) > (abs(tb), tb > 0))


# ---------------------------------------------------------------------------------------------
# playouts
# ---------------------------------------------------------------------------------------------

options_st = st.fixed_dictionaries(
    {},
    optional={
        "sabacc_ante": st.sampled_from(["if_empty", "always"]),
        "sabacc_ante_amount": st.integers(0, 3),
        "ante": st.integers(1, 3),
        "buy_in": st.integers(6, 60),  # at least the largest antes (3 + 3): smaller is refused
        "bet_limit": st.integers(1, 5),
        "max_raises": st.integers(0, 4),
        "fold_fee": st.integers(0, 3),
        "shift_chance": st.sampled_from(["0", "1/6", "1/2", "5/6", "1"]),
        "min_turns_before_call": st.integers(0, 3),
        "max_orbits": st.integers(1, 6),
        "allow_exchange_at_two": st.booleans(),
        "scoring": st.sampled_from(["signed", "absolute"]),
        "game_end": st.sampled_from(["orbit", "last_standing", "hands:3"]),
        "final_pot": st.sampled_from(["split", "house"]),
    },
).map(lambda o: {**o, "max_hands": 12})


def check_state(game: sabacc.Game) -> None:
    """Credits and cards conserved, plus classic's structural invariants."""
    check_credits(game)
    check_cards(game)
    assert isinstance(game, ClassicGame)
    if game.is_over:
        assert game.current_player is None
        assert game.sabacc_pot == 0 and game.carry == 0
        return
    opts = game.options
    seat = game.current_player
    assert seat is not None and game.in_hand[seat] and not game.folded[seat]
    assert game.legal_actions(), "a decision always has a legal action"
    for s in range(game.n):
        if game.in_hand[s] and not game.folded[s]:
            assert len(game.hands[s]) >= 2
        else:
            assert game.hands[s] == []
    assert game.raises <= opts.max_raises
    assert game.orbit < opts.max_orbits
    if game.phase == "calling":
        assert seat != game.turn and game.orbit >= opts.min_turns_before_call
    elif game.phase == "drawing":
        assert seat == game.turn and game.draw
    else:
        assert game.phase == "betting"
        if game.legal().bet is not None:
            assert seat == game.turn and game.legal().bet[1] <= opts.bet_limit


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 8),
    options=options_st,
    policy=st.integers(0, 2**16),
)
def test_random_playouts_keep_every_invariant(
    seed: int, players: int, options: dict[str, Any], policy: int
) -> None:
    game = sabacc.new_game("classic", players=players, seed=seed, **options)
    check_state(game)
    actions = playout(game, random.Random(policy), check=check_state, max_actions=50000)
    assert game.is_over and actions >= 0
    outcome = game.outcome
    assert outcome is not None
    assert sum(outcome.payoffs) == -game.house
    # same seed + same actions => same state, through a JSON round trip of the history
    again = sabacc.replay(json.loads(json.dumps(game.history())))
    assert snapshot(again) == snapshot(game)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 8), options=options_st)
def test_no_leaks_during_random_play(seed: int, players: int, options: dict[str, Any]) -> None:
    game = sabacc.new_game("classic", players=players, seed=seed, **options)
    rng = random.Random(seed)
    steps = 0
    while not game.is_over and steps < 250:
        check_no_leak_hand(game)
        game.apply(choose(rng, game))
        steps += 1


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 8))
def test_shared_leak_check_in_a_first_hand_without_shifts(seed: int, players: int) -> None:
    # Without shifts, cards only move deck -> hand -> out of play, so the shared helper applies
    # as is during the first hand.
    game = sabacc.new_game("classic", players=players, seed=seed, shift_chance="0")
    rng = random.Random(seed)
    while not game.is_over and game.hand_no == 1:
        check_no_leak(game)
        game.apply(choose(rng, game))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 8), cut=st.integers(0, 200))
def test_same_seed_and_actions_give_the_same_state_and_clones_are_independent(
    seed: int, players: int, cut: int
) -> None:
    a = sabacc.new_game("classic", players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(cut):
        if a.is_over:
            break
        a.apply(choose(rng, a))
    twin = a.clone()
    frozen = snapshot(a)
    b = sabacc.new_game("classic", players=players, seed=seed)
    random.seed(12345)  # disturbing the global RNG must change nothing
    for seat, text in a.actions:
        b.apply(text, seat=seat)
    assert snapshot(b) == snapshot(a)
    # play the original on; the clone keeps the old state, then follows the same actions
    start = len(a.actions)
    rng2 = random.Random(seed + 1)
    for _ in range(50):
        if a.is_over:
            break
        a.apply(choose(rng2, a))
    assert snapshot(twin) == frozen
    for seat, text in a.actions[start:]:
        twin.apply(text, seat=seat)
    assert snapshot(twin) == snapshot(a)


@pytest.mark.timing
def test_random_games_take_milliseconds() -> None:
    games = 200
    t0 = time.perf_counter()
    for seed in range(games):
        game = sabacc.new_game("classic", players=2 + seed % 7, seed=seed, log=False)
        playout(game, random.Random(seed))
    per_game = (time.perf_counter() - t0) / games
    assert per_game < 0.1, f"{per_game * 1000:.1f} ms per game"


def test_games_reach_every_ending() -> None:
    reasons: set[str] = set()
    sabacc_wins = 0
    for seed in range(300):
        game = sabacc.new_game(
            "classic", players=2 + seed % 7, seed=seed, min_turns_before_call=(0, 1, 10)[seed % 3]
        )
        playout(game, random.Random(seed))
        for result in game.hand_results:
            reasons.add(result.reason)
            sabacc_wins += any(p.pot == "sabacc" for p in result.pots)
    assert reasons == {"called", "forced_call", "all_junked"}
    assert sabacc_wins > 0
