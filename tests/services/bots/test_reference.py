"""The reference opponents behave as their one-line descriptions say, play only legal actions,
and refuse variants they were not written for."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sabacc
from sabacc.core.actions import Action, Bet, Call, Junk, Raise, Stand
from sabacc.core.errors import OptionError
from sabacc.lab import REFERENCE
from sabacc.services.bots import decide, make_bot
from sabacc.variants.spike_family.actions import Gain, Swap

SPIKE_FAMILY = ["corellian_spike", "surabat_cycle"]


def decisions(
    name: str, variant: str, seed: int, players: int = 2, others: str = "heuristic"
) -> Iterator[tuple[dict[str, Any], list[Action], Action]]:
    """Play one hand with ``name`` in seat 0 (``others`` elsewhere); yield seat 0's
    (observation, legal actions, choice) at each of its decisions."""
    game = sabacc.new_game(variant, players=players, seed=seed, log=False, game_end="hands:1")
    bots = [make_bot(name, seed)] + [make_bot(others, seed + s) for s in range(1, players)]
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        obs, legal = game.observation(seat), game.legal_actions()
        action = decide(bots[seat], game, seat)
        assert game.is_legal(action), (name, game.phase, action)
        if seat == 0 and len(legal) > 1:
            yield dict(obs), legal, action
        game.apply(action, seat=seat)


def many(name: str, variant: str = "corellian_spike", hands: int = 40, others: str = "heuristic"):
    out = []
    for seed in range(hands):
        out += list(decisions(name, variant, 1000 + seed, 2 + seed % 3, others))
    return out


def facing_bet(obs: dict[str, Any]) -> bool:
    return int(obs["betting"]["to_call"]) > 0


def test_every_reference_bot_plays_legal_actions_in_the_spike_family() -> None:
    for variant in SPIKE_FAMILY:
        for name in REFERENCE:
            assert many(name, variant, hands=6, others="random")


def test_the_station_never_folds_and_never_bets() -> None:
    seen_bets = 0
    for obs, _legal, action in many("ref-station", others="ref-maniac"):
        assert type(action) not in (Junk, Bet, Raise)
        seen_bets += facing_bet(obs)
    assert seen_bets > 10  # it was tested against bets, many times


def test_the_maniac_raises_whenever_it_can() -> None:
    raised = 0
    for _obs, legal, action in many("ref-maniac"):
        kinds = {type(a) for a in legal}
        if Raise in kinds:
            assert type(action) is Raise
            raised += 1
        elif Bet in kinds:
            assert type(action) is Bet
    assert raised > 5


def test_the_tight_folder_folds_to_bets_unless_near_zero() -> None:
    folds = calls = 0
    for obs, _legal, action in many("ref-tight", others="ref-maniac"):
        if facing_bet(obs):
            if abs(obs["you"]["total"]) <= 1:
                assert type(action) is Call
                calls += 1
            else:
                assert type(action) is Junk
                folds += 1
        elif type(action) is Bet:
            assert obs["you"]["total"] == 0
    assert folds > 5


def test_draw_to_zero_stands_at_zero_and_takes_a_discard_that_helps() -> None:
    took = 0
    for obs, legal, action in many("ref-zero"):
        if not any(type(a) in (Stand, Gain, Swap) for a in legal):
            continue
        total = obs["you"]["total"]
        if total == 0:
            assert type(action) is Stand
        top = obs.get("discard_top")
        if type(action) is Swap and action.source == "discard":
            assert top is not None
            new = total - action.value + int(top.rstrip("cts") or 0)
            assert abs(new) < abs(total)
            took += 1
    assert took > 3


def test_the_rule_bot_bets_zero_hands_and_junks_weak_hands_facing_big_bets() -> None:
    bets = folds = 0
    for obs, _legal, action in many("ref-rule", hands=80, others="ref-maniac"):
        total = obs["you"]["total"]
        if not any(k in obs["legal"]["actions"] for k in ("check", "call")):
            continue
        if total == 0:
            assert type(action) in (Bet, Raise) or obs["legal"]["bet"] is None
            bets += type(action) in (Bet, Raise)
        to_call = int(obs["betting"]["to_call"])
        if to_call > obs["pots"]["main"] // 2 and abs(total) > 2:
            assert type(action) is Junk
            folds += 1
    assert bets > 0 and folds > 5


def test_the_minimizer_picks_the_smallest_expected_distance() -> None:
    """Standing is never chosen when a known face-up card would reach zero."""
    for obs, legal, action in many("ref-minimizer"):
        top = obs.get("discard_top")
        if top is None or obs["you"]["total"] == 0:
            continue
        top_value = int(top.rstrip("cts") or 0)
        reach = [
            a
            for a in legal
            if type(a) is Swap
            and a.source == "discard"
            and obs["you"]["total"] - a.value + top_value == 0
        ]
        if reach:
            assert action != Stand()


@pytest.mark.parametrize("variant", ["classic", "kessel"])
def test_reference_bots_refuse_games_they_do_not_know(variant: str) -> None:
    game = sabacc.new_game(variant, players=2, seed=1, log=False, game_end="hands:1")
    bot = make_bot("ref-station", 1)
    with pytest.raises(OptionError, match="Spike family"):
        decide(bot, game)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4), variant=st.sampled_from(SPIKE_FAMILY))
def test_a_table_of_reference_bots_keeps_credits_zero_sum(
    seed: int, players: int, variant: str
) -> None:
    rng = random.Random(seed)
    names = rng.sample(sorted(REFERENCE), players)
    game = sabacc.new_game(variant, players=players, seed=seed, log=False, game_end="hands:2")
    bots = [make_bot(n, seed + i) for i, n in enumerate(names)]
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        action = decide(bots[seat], game, seat)
        assert game.is_legal(action)
        game.apply(action, seat=seat)
    assert sum(game.payoffs) + game.house == 0


def test_the_shover_moves_all_in_at_every_betting_decision() -> None:
    shoves = 0
    for _obs, legal, action in many("ref-shover", hands=30):
        sizes = [a.amount for a in legal if type(a) in (Bet, Raise) and hasattr(a, "amount")]
        if sizes:
            assert type(action) in (Bet, Raise) and getattr(action, "amount", None) == max(sizes)
            shoves += 1
        else:
            assert type(action) is not Junk
    assert shoves > 20


@pytest.mark.parametrize("variant", ["classic", "coruscant_shift", "kessel"])
def test_the_shover_plays_every_variant_and_shoves_where_there_is_betting(variant: str) -> None:
    shoves = 0
    for seed in range(6):
        for _obs, legal, action in decisions("ref-shover", variant, seed, others="heuristic"):
            assert type(action) is not Junk
            sizes = [a.amount for a in legal if type(a) in (Bet, Raise) and hasattr(a, "amount")]
            if sizes:
                assert getattr(action, "amount", None) == max(sizes)
                shoves += 1
    assert shoves > 0 or variant == "kessel"  # Kessel Sabacc has no betting
