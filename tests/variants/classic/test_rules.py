"""Classic sabacc (docs/rules.md §1): rules, options and scripted hands.

Scripted hands use :func:`rig` to stack the deck: it moves named cards into the seats' hands
and onto the top of the deck (cards are moved, never created, so the 76 cards stay conserved).
Most scripts play three seats with the dealer at seat 0, so turns go 1, 2, 0.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import pairwise
from typing import Any

import pytest

import sabacc
from sabacc import IllegalActionError, OptionError
from sabacc.core.cards import Card
from sabacc.core.events import Event
from sabacc.variants.classic.rules import (
    BOMB_OUT,
    CLASSIC_DECK,
    IDIOTS_ARRAY,
    ORDINARY,
    PURE_SABACC,
    CardSwapped,
    ClassicGame,
    ClassicOptions,
    evaluate_classic,
)
from tests.support import check_cards, check_credits, playout, snapshot

# ---------------------------------------------------------------------------------------------
# helpers (imported by the other test_classic_* modules)
# ---------------------------------------------------------------------------------------------


def new(players: int = 3, seed: int = 1, **options: Any) -> ClassicGame:
    game = sabacc.new_game("classic", players=players, seed=seed, **options)
    assert isinstance(game, ClassicGame)
    return game


def rig(game: ClassicGame, hands: dict[int, str], top: str = "", deck: str | None = None) -> None:
    """Give each listed seat exactly these cards and put ``top`` on the deck (first card drawn
    first). ``deck``, when given, replaces the whole deck (the other cards go out of play).

    Value-only tokens pick any free copy; all tokens are parsed together, so ``"0"`` twice means
    both Idiots.
    """
    seats = sorted(hands)
    tokens: list[str] = []
    spans: list[tuple[int, int]] = []
    for s in seats:
        part = hands[s].split()
        spans.append((len(tokens), len(tokens) + len(part)))
        tokens += part
    top_tokens = top.split()
    deck_tokens = deck.split() if deck is not None else []
    cards = CLASSIC_DECK.parse_cards(tokens + top_tokens + deck_tokens)
    chosen = {c.id for c in cards}
    assert not chosen & {c.id for c in game.discards}, "rig only moves cards still in play"
    pool: list[Card] = [c for h in game.hands for c in h] + game.draw
    for s in range(game.n):
        if s not in hands:
            game.hands[s] = [c for c in game.hands[s] if c.id not in chosen]
    for s, (a, b) in zip(seats, spans, strict=True):
        game.hands[s] = list(cards[a:b])
    kept = {c.id for h in game.hands for c in h}
    rest = [c for c in pool if c.id not in chosen and c.id not in kept]
    top_cards = cards[len(tokens) : len(tokens) + len(top_tokens)]
    if deck is not None:
        game.discards.extend(rest)
        game.draw = list(reversed(cards[len(tokens) + len(top_tokens) :]))
    else:
        game.draw = rest
    game.draw += list(reversed(top_cards))
    game._legal = None
    check_cards(game)


def set_stack(game: sabacc.Game, seat: int, amount: int) -> None:
    """Set a stack, keeping credits conserved (the difference goes to or comes from the house)."""
    game.house += game.stacks[seat] - amount
    game.stacks[seat] = amount
    game._legal = None


def play(game: sabacc.Game, *moves: str) -> list[Event]:
    """Apply moves written ``"<seat>: <action>"``, checking whose turn it is."""
    events: list[Event] = []
    for move in moves:
        seat, _, action = move.partition(":")
        assert game.current_player == int(seat), (move, game.current_player, game.phase)
        events += game.apply(action.strip(), seat=int(seat))
        check_credits(game)
        check_cards(game)
    return events


def hand_start_index(game: sabacc.Game) -> int:
    """Index in ``game.events`` of the current hand's ``hand_started`` event."""
    for i in range(len(game.events) - 1, -1, -1):
        if game.events[i].type == "hand_started":
            return i
    return 0


def check_no_leak_hand(game: sabacc.Game) -> None:
    """Like :func:`tests.support.check_no_leak`, for the current hand only: no observation, and
    no event about another seat, shows a viewer another seat's hidden cards.

    Differences from the shared helper, both needed once cards move between hands: earlier
    hands (``last_hand``, earlier reveals) are skipped, their cards being reshuffled into this
    hand's deck; and a viewer's own events are skipped, because a viewer rightly knows the card
    it lost in a shift even when that card went on to another seat.
    """
    if game.is_over:
        return
    since = hand_start_index(game)
    counts = Counter(c.code for c in CLASSIC_DECK.cards)
    for viewer in [*range(game.n), None]:
        obs = game.observation(viewer)
        obs["last_hand"] = None
        obs_text = json.dumps(obs)
        events = [
            e.to_dict()
            for e in game.events_for(viewer, since)
            if viewer is None or getattr(e, "seat", None) != viewer
        ]
        ev_text = json.dumps(events)
        for owner in range(game.n):
            if owner == viewer:
                continue
            for card in game.hands[owner]:
                if counts[card.code] == 1:
                    assert f'"{card.code}"' not in obs_text, (viewer, owner, card.code)
                    assert f'"{card.code}"' not in ev_text, (viewer, owner, card.code)


def of_type(events: list[Event], kind: str) -> list[Any]:
    return [e for e in events if e.type == kind]


def last_result(game: sabacc.Game) -> dict[str, Any]:
    return game.hand_results[-1].to_dict()


def pot(result: dict[str, Any], name: str) -> dict[str, Any] | None:
    return next((p for p in result["pots"] if p["pot"] == name), None)


NO_SHIFT: dict[str, Any] = {"shift_chance": "0", "min_turns_before_call": 0}


# ---------------------------------------------------------------------------------------------
# deck, registry, API
# ---------------------------------------------------------------------------------------------


def test_deck_has_76_cards_four_suits_and_eight_faces_twice() -> None:
    deck = CLASSIC_DECK
    assert len(deck) == 76
    suits = Counter(c.suit for c in deck.cards if c.suit)
    assert suits == {"s": 15, "t": 15, "f": 15, "c": 15}
    for suit in "stfc":
        assert sorted(c.value for c in deck.cards if c.suit == suit) == list(range(1, 16))
    faces = Counter(c.value for c in deck.cards if c.suit is None)
    assert faces == {v: 2 for v in (0, -2, -8, -11, -13, -14, -15, -17)}
    names = {c.value: c.name for c in deck.cards if c.suit is None}
    assert names[0] == "The Idiot"
    assert names[-2] == "Queen of Air and Darkness"
    assert names[-17] == "The Star"
    assert deck.parse_cards("12s")[0].name == "Commander of Sabres"
    assert deck.parse_cards("15c")[0].name == "Ace of Coins"


@pytest.mark.parametrize("name", ["classic", "traditional", "classic-sabacc", "Classic_Sabacc"])
def test_names_and_aliases(name: str) -> None:
    v = sabacc.variant(name)
    assert v.name == "classic"
    assert v.title == "Classic Sabacc"
    assert "Idiot's Array" in v.rules_text
    assert v.deck is CLASSIC_DECK
    game = sabacc.new_game(name, players=4, seed=1)
    assert game.variant == "classic"
    assert "classic" in sabacc.variant_names()


def test_variant_evaluate_idiots_array() -> None:
    assert sabacc.variant("classic").evaluate("0 2 3").name == "Idiot's Array"
    assert sabacc.variant("classic").evaluate("0 2c 3s").rank == IDIOTS_ARRAY
    assert sabacc.variant("classic", scoring="absolute").evaluate("-8 -15").name == (
        "Pure Sabacc (-23)"
    )


def test_options_defaults_and_help() -> None:
    o = ClassicOptions()
    assert (o.sabacc_ante, o.sabacc_ante_amount, o.bet_limit, o.max_raises, o.fold_fee) == (
        "if_empty",
        1,
        3,
        3,
        1,
    )
    assert (o.shift_chance, o.shift_faces, o.min_turns_before_call, o.max_orbits) == (
        "1/2",
        3,
        1,
        10,
    )
    assert o.allow_exchange_at_two is False
    assert o.scoring == "signed"
    for name in ClassicOptions.names():
        assert name in ClassicOptions.help, name
    with pytest.raises(AttributeError):
        o.bet_limit = 5  # type: ignore[misc]


@pytest.mark.parametrize(
    "options",
    [
        {"sabacc_ante": "never"},
        {"sabacc_ante": 1},
        {"sabacc_ante_amount": -1},
        {"bet_limit": 0},
        {"max_raises": -1},
        {"fold_fee": -1},
        {"shift_chance": "1/4"},
        {"shift_chance": "7/6"},
        {"shift_chance": "half"},
        {"min_turns_before_call": -1},
        {"max_orbits": 0},
        {"allow_exchange_at_two": "maybe"},
        {"scoring": "closest"},
        {"ante": -1},
        {"game_end": "last_standing", "ante": 0},
        {"no_such_option": 1},
    ],
)
def test_bad_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        sabacc.new_game("classic", players=3, seed=1, **options)


def test_options_from_text() -> None:
    o = ClassicOptions.from_mapping(
        {
            "shift-chance": "1/3",
            "allow_exchange_at_two": "true",
            "bet_limit": "5",
            "sabacc_ante": "always",
            "scoring": "absolute",
        }
    )
    assert o.shift_faces == 2
    assert o.allow_exchange_at_two is True
    assert o.bet_limit == 5
    assert o.sabacc_ante == "always"
    assert ClassicOptions(shift_chance="1").shift_faces == 6
    assert ClassicOptions(shift_chance="0").shift_faces == 0
    assert ClassicOptions(shift_chance="5/6").shift_faces == 5


# ---------------------------------------------------------------------------------------------
# hand evaluation
# ---------------------------------------------------------------------------------------------


def ev(text: str, scoring: str = "signed") -> sabacc.HandValue:
    return evaluate_classic([c.value for c in CLASSIC_DECK.parse_cards(text)], scoring)


def test_evaluation_names_and_ranks() -> None:
    assert ev("0 2 3").name == "Idiot's Array"
    assert ev("0 2 3").rank == IDIOTS_ARRAY
    assert ev("12 11").name == "Pure Sabacc"
    assert ev("12 11").rank == PURE_SABACC
    assert ev("15 9").name == "Bomb out (over 23)"
    assert ev("-17 -15").name == "Bomb out (under -23)"
    assert ev("5 -2 -2 -8 7").name == "Bomb out (zero)"
    assert ev("8 -8").name == "Bomb out (zero)"
    assert ev("0 0").name == "Bomb out (zero)"
    assert ev("15 6").name == "21"
    assert ev("-13 -8").name == "-21"
    assert ev("15 6").rank == ORDINARY
    assert ev("15 9").rank == BOMB_OUT
    v = ev("15 6 -2")
    assert (v.total, v.size) == (19, 3)


def test_idiots_array_needs_exactly_three_cards() -> None:
    assert ev("0 2 3 1").name == "6"
    assert ev("0 2 3 5").name == "10"
    assert ev("0 0 2 3").name == "5"
    assert ev("0 2 3 0").name == "5"
    assert ev("0 -2 3").name == "1"  # the Queen of Air and Darkness is not a 2
    assert ev("0 2 2").name == "4"


def test_signed_ordering() -> None:
    order = ["8 -8", "-15 -8", "-8 5", "1 1", "15 7", "11 12", "0 2 3"]
    values = [ev(t) for t in order]
    assert values[0].rank == BOMB_OUT
    for a, b in pairwise(values[1:]):
        assert a < b
    # -23 is the worst valid hand under signed scoring, but valid
    assert ev("-15 -8").rank == ORDINARY
    assert ev("-15 -8") > ev("15 9")
    # every bomb out ties with every other
    assert ev("15 9") == ev("8 -8") == ev("-17 -17")


def test_idiots_array_beats_pure_sabacc() -> None:
    assert ev("0 2 3") > ev("12 11")
    assert ev("0 2 3") > ev("12 11", "absolute")
    assert ev("0 2 3", "absolute") > ev("12 11", "absolute")


def test_absolute_scoring() -> None:
    a = "absolute"
    assert ev("-13 -8 1", a) > ev("15 4", a)  # |-20| beats 19
    assert ev("15 5", a) > ev("-13 -8 1", a)  # +20 beats -20
    assert ev("-15 -8", a).name == "Pure Sabacc (-23)"
    assert ev("-15 -8", a).rank == PURE_SABACC
    assert ev("12 11", a) > ev("-15 -8", a) > ev("15 7", a)
    assert ev("-15 -8") < ev("1 1")  # signed: -23 is just the lowest total
    assert ev("-15 -8").name == "-23"


def test_evaluator_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        evaluate_classic([])
    with pytest.raises(ValueError):
        evaluate_classic([16])
    with pytest.raises(ValueError):
        evaluate_classic([1, 2], "closest")
    with pytest.raises(sabacc.CardParseError):
        sabacc.variant("classic").evaluate("0 0 0")
    with pytest.raises(sabacc.CardParseError):
        sabacc.variant("classic").evaluate("16f")


# ---------------------------------------------------------------------------------------------
# hand setup: antes, deal, dealer
# ---------------------------------------------------------------------------------------------


def test_first_hand_antes_to_both_pots_and_deals_two_each() -> None:
    game = new(4)
    assert game.stacks == [98] * 4
    assert game.pot_total() == 4
    assert game.sabacc_pot == 4
    assert all(len(h) == 2 for h in game.hands)
    assert len(game.draw) == 76 - 8
    assert game.dealer == 0
    assert game.turn == 1 and game.current_player == 1 and game.phase == "betting"


def test_sabacc_ante_only_when_empty_by_default() -> None:
    game = new(3, **NO_SHIFT)
    rig(game, {0: "5f 6f", 1: "10f 11f", 2: "4f 4c"})
    play(game, "1: check", "2: check", "0: check", "2: call hand")
    assert game.hand_no == 2 and game.sabacc_pot > 0
    before = game.sabacc_pot
    anted = of_type(game.events[hand_start_index(game) :], "anted")
    assert [(e.main, e.sabacc) for e in anted] == [(1, 0)] * 3
    assert game.sabacc_pot == before


def test_sabacc_ante_always() -> None:
    game = new(3, sabacc_ante="always", sabacc_ante_amount=2, **NO_SHIFT)
    assert game.sabacc_pot == 6
    rig(game, {0: "5f 6f", 1: "10f 11f", 2: "4f 4c"})
    play(game, "1: check", "2: check", "0: check", "2: stand", "0: stand", "1: stand")
    play(game, "2: check", "0: check", "1: check", "0: call hand")
    sabacc_before = game.sabacc_pot
    anted = of_type(game.events[hand_start_index(game) :], "anted")
    assert [(e.main, e.sabacc) for e in anted] == [(1, 2)] * 3
    assert sabacc_before >= 6


def test_sabacc_ante_paid_again_once_the_sabacc_pot_is_won() -> None:
    game = new(3, **NO_SHIFT)
    rig(game, {0: "5f 6f", 1: "12f 11f", 2: "4f 4c"})
    play(game, "1: check", "2: check", "0: check", "2: call hand")
    result = game.hand_results[-1]
    assert any(p.pot == "sabacc" for p in result.pots)
    # the sabacc pot was emptied, so every seat antes to it again
    assert game.sabacc_pot == 3
    anted = of_type(game.events[hand_start_index(game) :], "anted")
    assert [(e.main, e.sabacc) for e in anted] == [(1, 1)] * 3


def test_dealer_rotates_and_first_turn_is_left_of_dealer() -> None:
    game = new(3, **NO_SHIFT)
    play(game, "1: check", "2: check", "0: check", "2: call hand")
    assert game.dealer == 1
    assert game.turn == 2 and game.current_player == 2


# ---------------------------------------------------------------------------------------------
# betting phase
# ---------------------------------------------------------------------------------------------


def test_turn_player_may_bet_1_to_bet_limit_or_check() -> None:
    game = new(3)
    legal = game.legal()
    assert set(map(str, legal.fixed)) == {"check", "junk"}
    assert legal.bet == (1, 3)
    assert legal.raise_ is None
    assert new(3, bet_limit=5).legal().bet == (1, 5)


def test_after_a_check_the_others_may_only_stay_or_fold_once_each() -> None:
    game = new(4, shift_chance="0")
    play(game, "1: check")
    for seat in (2, 3, 0):
        assert game.current_player == seat
        assert game.legal().bet is None and game.legal().raise_ is None
        assert {str(a) for a in game.legal_actions()} == {"check", "junk"}
        play(game, f"{seat}: check")
    # betting is over: first orbit, so no calling; the turn player draws
    assert game.phase == "drawing" and game.current_player == 1


def test_others_call_raise_or_fold_and_are_asked_again_only_after_a_raise() -> None:
    game = new(3, shift_chance="0")
    play(game, "1: bet 2")
    legal = game.legal()
    assert set(map(str, legal.fixed)) == {"call", "junk"}
    assert legal.raise_ == (1, 3) and legal.bet is None
    play(game, "2: call", "0: raise 3")
    # the raise reopens the action: the turn player and seat 2 must answer it
    play(game, "1: call", "2: call")
    assert game.phase == "drawing"
    assert game.committed == [1 + 5, 1 + 5, 1 + 5]
    assert game.pot_total() == 18


def test_at_most_max_raises_per_betting_phase() -> None:
    game = new(3, shift_chance="0")
    play(game, "1: bet 1", "2: raise 1", "0: raise 1", "1: raise 1")
    assert game.raises == 3
    assert game.current_player == 2
    assert game.legal().raise_ is None
    with pytest.raises(IllegalActionError):
        game.apply("raise 1")
    play(game, "2: call", "0: call")
    assert game.phase == "drawing"
    game2 = new(3, shift_chance="0", max_raises=0)
    play(game2, "1: bet 1")
    assert game2.legal().raise_ is None


def test_raise_is_limited_by_bet_limit_and_stack() -> None:
    game = new(3, shift_chance="0")
    play(game, "1: bet 3")
    with pytest.raises(IllegalActionError):
        game.apply("raise 4")
    set_stack(game, 2, 5)
    assert game.legal().raise_ == (1, 2)


def test_fold_costs_fold_fee_to_the_sabacc_pot_and_stake_stays() -> None:
    game = new(3, shift_chance="0")
    play(game, "1: bet 2", "2: junk")
    assert game.folded[2]
    assert game.stacks[2] == 97  # 2 antes + fold fee
    assert game.sabacc_pot == 3 + 1
    assert game.pot_total() == 3 + 2
    assert game.hands[2] == [] and len(game.discards) == 2
    play(game, "0: call")
    assert game.pot_total() == 3 + 2 + 2


def test_fold_fee_option_and_cap() -> None:
    game = new(3, shift_chance="0", fold_fee=4)
    set_stack(game, 2, 2)
    play(game, "1: check", "2: junk")
    assert game.stacks[2] == 0
    assert game.sabacc_pot == 3 + 2
    game = new(3, shift_chance="0", fold_fee=0)
    play(game, "1: check", "2: fold")
    assert game.stacks[2] == 98 and game.sabacc_pot == 3


def test_turn_player_may_fold_and_the_roll_still_happens() -> None:
    game = new(3, shift_chance="1", min_turns_before_call=0)
    rig(game, {0: "5f 6f", 1: "10f 11f", 2: "4f 4c"})
    events = play(game, "1: junk", "2: check", "0: check")
    rolls = of_type(events, "dice_rolled")
    assert len(rolls) == 1 and rolls[0].roller == 1 and rolls[0].shift
    swapped = of_type(events, "card_swapped")
    assert [e.seat for e in swapped] == [2, 0]  # the folded seat takes no part in the shift
    # calling: everyone else may call (the folded turn player is not asked)
    assert game.phase == "calling" and game.current_player == 2
    play(game, "2: stand", "0: stand")
    # no drawing for a folded turn player: next turn is seat 2's
    assert game.turn == 2 and game.phase == "betting"


def test_all_but_one_fold_takes_the_hand_pot_only() -> None:
    game = new(3, shift_chance="0")
    play(game, "1: bet 3", "2: junk", "0: junk")
    result = game.hand_results[-1]
    assert result.reason == "all_junked"
    # The uncalled bet of 3 goes back to seat 1; the hand pot is the three antes.
    assert [(p.pot, p.amount, p.winners) for p in result.pots] == [("main", 3, (1,))]
    assert game.sabacc_pot == 5  # antes 3 + two fold fees (carries over)
    assert result.net == (-3, 1, -3)
    assert game.hand_no == 2


def test_betting_with_only_all_in_opponents() -> None:
    game = new(3, shift_chance="0")
    set_stack(game, 2, 0)
    set_stack(game, 0, 0)
    # nobody can call a bet, so the turn player may only check or fold
    assert game.legal().bet is None
    play(game, "1: check")
    # players with nothing left are not asked
    assert game.phase == "drawing"


# ---------------------------------------------------------------------------------------------
# shifting phase
# ---------------------------------------------------------------------------------------------


def test_shift_swaps_one_card_per_active_player_and_hides_it() -> None:
    game = new(3, shift_chance="1", min_turns_before_call=0)
    rig(game, {0: "1f 2f", 1: "3f 4f", 2: "5f 6f"})
    before = {s: {c.code for c in game.hands[s]} for s in range(3)}
    events = play(game, "1: check", "2: check", "0: check")
    (roll,) = of_type(events, "dice_rolled")
    assert roll.shift and roll.roller == 1 and 1 <= roll.dice[0] <= 6
    swapped = of_type(events, "card_swapped")
    assert [e.seat for e in swapped] == [1, 2, 0]  # dealt back from the dealer's left
    lost = [e.lost for e in swapped]
    got = [e.got for e in swapped]
    assert sorted(lost) == sorted(got)
    for e in swapped:
        assert e.lost in before[e.seat]
        after = {c.code for c in game.hands[e.seat]}
        assert after == (before[e.seat] - {e.lost}) | {e.got}
        assert len(game.hands[e.seat]) == 2
        other = (e.seat + 1) % 3
        hidden = e.visible_to(other)
        assert isinstance(hidden, CardSwapped)
        assert hidden.lost is None and hidden.got is None
        assert e.visible_to(None).lost is None
        assert e.visible_to(e.seat) == e
    check_no_leak_hand(game)


def test_no_shift_on_4_to_6() -> None:
    game = new(3, shift_chance="0", min_turns_before_call=0)
    hands = [list(h) for h in game.hands]
    events = play(game, "1: check", "2: check", "0: check")
    (roll,) = of_type(events, "dice_rolled")
    assert not roll.shift
    assert game.hands == hands
    assert of_type(events, "card_swapped") == []


def test_shift_happens_on_1_to_3_with_default_chance() -> None:
    seen: dict[bool, set[int]] = {True: set(), False: set()}
    for seed in range(60):
        game = new(2, seed=seed, min_turns_before_call=0)
        events = play(game, "1: check", "0: check")
        (roll,) = of_type(events, "dice_rolled")
        seen[roll.shift].add(roll.dice[0])
    assert seen[True] == {1, 2, 3}
    assert seen[False] == {4, 5, 6}


def test_shift_can_give_a_player_their_own_card_back_or_another() -> None:
    # with two players the shuffled lost cards come back to their owners half the time
    own = other = 0
    for seed in range(40):
        game = new(2, seed=seed, shift_chance="1")
        events = play(game, "1: check", "0: check")
        swapped = of_type(events, "card_swapped")
        if all(e.lost == e.got for e in swapped):
            own += 1
        else:
            assert swapped[0].lost == swapped[1].got and swapped[1].lost == swapped[0].got
            other += 1
    assert own > 5 and other > 5


def test_shift_loses_each_card_position() -> None:
    lost_index: Counter[int] = Counter()
    for seed in range(60):
        game = new(2, seed=seed, shift_chance="1")
        hand = [c.code for c in game.hands[1]]
        events = play(game, "1: check", "0: check")
        e = next(e for e in of_type(events, "card_swapped") if e.seat == 1)
        lost_index[hand.index(e.lost)] += 1
    assert set(lost_index) == {0, 1}


# ---------------------------------------------------------------------------------------------
# calling phase
# ---------------------------------------------------------------------------------------------


def test_no_call_before_every_seat_completed_a_turn() -> None:
    game = new(3, shift_chance="0")
    for seat in (1, 2, 0):
        play(game, f"{seat}: check", f"{(seat + 1) % 3}: check", f"{(seat + 2) % 3}: check")
        # first orbit: no calling phase at all
        assert game.phase == "drawing" and game.current_player == seat
        assert game.observation(seat)["calls_open"] is False
        play(game, f"{seat}: stand")
    assert game.orbit == 1
    play(game, "1: check", "2: check", "0: check")
    assert game.phase == "calling" and game.current_player == 2
    assert {str(a) for a in game.legal_actions()} == {"call hand", "stand"}


def test_calling_order_starts_left_of_turn_player_and_skips_them() -> None:
    game = new(4, **NO_SHIFT)
    play(game, "1: check", "2: check", "3: check", "0: check")
    asked = []
    while game.phase == "calling":
        asked.append(game.current_player)
        game.apply("stand")
    assert asked == [2, 3, 0]
    assert game.phase == "drawing" and game.current_player == 1


def test_min_turns_before_call_orbits() -> None:
    game = new(2, shift_chance="0", min_turns_before_call=2)
    for _ in range(2):
        for seat in (1, 0):
            play(game, f"{seat}: check", f"{1 - seat}: check")
            assert game.phase == "drawing"
            play(game, f"{seat}: stand")
    assert game.orbit == 2
    play(game, "1: check", "0: check")
    assert game.phase == "calling"


def test_call_hand_is_illegal_outside_calling() -> None:
    game = new(3, **NO_SHIFT)
    before = snapshot(game)
    with pytest.raises(IllegalActionError):
        game.apply("call hand")
    assert snapshot(game) == before


# ---------------------------------------------------------------------------------------------
# drawing phase
# ---------------------------------------------------------------------------------------------


def test_drawing_gain_exchange_and_pass() -> None:
    game = new(2, shift_chance="0")
    rig(game, {0: "5f 6f", 1: "1f 2f"}, top="7c 8c 9c")
    play(game, "1: check", "0: check")
    assert game.phase == "drawing"
    assert {str(a) for a in game.legal_actions()} == {"stand", "gain"}  # no exchange at two
    with pytest.raises(IllegalActionError):
        game.apply("swap draw 1")
    events = play(game, "1: draw")
    assert [c.code for c in game.hands[1]] == ["1f", "2f", "7c"]
    taken = of_type(events, "card_taken")
    assert taken[0].card == "7c" and taken[0].visible_to(0).card is None
    play(game, "0: check", "1: check", "0: gain")
    play(game, "1: check", "0: check", "0: stand")
    assert {str(a) for a in game.legal_actions()} == {
        "stand",
        "gain",
        "swap draw +1",
        "swap draw +2",
        "swap draw +7",
    }
    events = play(game, "1: swap draw 2f")
    assert sorted(c.code for c in game.hands[1]) == ["1f", "7c", "9c"]
    assert [c.code for c in game.discards] == ["2f"]
    acted = of_type(events, "acted")[-1]
    assert acted.public == "exchange" and acted.visible_to(0).action is None
    assert game.observation(0)["seats"][1]["last_action"] == "exchange"
    swapped = of_type(events, "card_swapped")[0]
    assert (swapped.lost, swapped.got, swapped.reason) == ("2f", "9c", "exchange")
    assert swapped.visible_to(0).lost is None


def test_allow_exchange_at_two() -> None:
    game = new(2, shift_chance="0", allow_exchange_at_two=True)
    rig(game, {0: "5f 6f", 1: "1f 2f"}, top="7c")
    play(game, "1: check", "0: check")
    assert "swap draw +1" in {str(a) for a in game.legal_actions()}
    play(game, "1: exchange 1")
    assert sorted(c.code for c in game.hands[1]) == ["2f", "7c"]


def test_empty_deck_means_no_drawing() -> None:
    game = new(2, shift_chance="0")
    rig(game, {0: "5f 6f", 1: "1f 2f"}, deck="")
    assert game.draw == []
    play(game, "1: check", "0: check")
    # the drawing phase is skipped: seat 0's turn begins
    assert game.turn == 0 and game.phase == "betting"
    check_cards(game)


def test_draw_pile_running_out_mid_hand() -> None:
    game = new(2, shift_chance="0")
    rig(game, {0: "5f 6f", 1: "1f 2f"}, deck="3c")
    play(game, "1: check", "0: check", "1: gain")
    assert game.draw == []
    play(game, "0: check", "1: check")
    assert game.turn == 1 and game.phase == "betting"


# ---------------------------------------------------------------------------------------------
# showdown: scripted hands
# ---------------------------------------------------------------------------------------------


def test_call_bomb_out_penalty_and_losing_caller() -> None:
    game = new(3, **NO_SHIFT)
    rig(game, {0: "5f 6f", 1: "10f 11f", 2: "15f 15c"})
    events = play(game, "1: check", "2: check", "0: check", "2: stand", "0: call hand")
    result = last_result(game)
    assert result["reason"] == "called"
    assert pot(result, "main") == {
        "pot": "main",
        "amount": 3,
        "winners": [1],
        "shares": [3],
        "reason": "best hand: 21",
    }
    assert pot(result, "sabacc") is None
    paid = [(e.seat, e.amount, e.reason) for e in of_type(events, "paid") if e.pot == "sabacc"]
    assert paid == [(2, 3, "bomb out"), (0, 3, "caller did not win")]
    assert result["hands"]["2"]["name"] == "Bomb out (over 23)"
    # after the hand: stacks (antes 2 each) and the sabacc pot carried with the penalties
    assert game.hand_results[-1].net == (-5, 1, -5)
    assert result["carried"] == {"sabacc": 9}
    revealed = of_type(events, "revealed")
    assert [e.seat for e in revealed] == [1, 2, 0]


def test_winning_caller_pays_nothing() -> None:
    game = new(3, **NO_SHIFT)
    rig(game, {0: "10f 11f", 1: "5f 6f", 2: "4f 4c"})
    events = play(game, "1: check", "2: check", "0: check", "2: stand", "0: call hand")
    assert [e for e in of_type(events, "paid") if e.pot == "sabacc"] == []
    assert game.hand_results[-1].pots[0].winners == (0,)


def test_bombed_caller_pays_once() -> None:
    game = new(3, **NO_SHIFT)
    rig(game, {0: "8f -8", 1: "5f 6f", 2: "4f 4c"})
    events = play(game, "1: check", "2: check", "0: check", "2: stand", "0: call hand")
    paid = [(e.seat, e.amount, e.reason) for e in of_type(events, "paid") if e.pot == "sabacc"]
    assert paid == [(0, 3, "bomb out")]


def test_penalty_equals_the_hand_pot_at_the_call_and_is_capped() -> None:
    game = new(3, **NO_SHIFT)
    rig(game, {0: "5f 6f", 1: "10f 11f", 2: "15f 15c"})
    play(game, "1: bet 3", "2: call", "0: raise 2", "1: call", "2: call")
    assert game.pot_total() == 18
    set_stack(game, 2, 7)  # less than the pot: pays what it has
    set_stack(game, 0, 30)
    events = play(game, "2: stand", "0: call hand")
    paid = [(e.seat, e.amount, e.reason) for e in of_type(events, "paid") if e.pot == "sabacc"]
    assert paid == [(2, 7, "bomb out"), (0, 18, "caller did not win")]
    assert game.stacks[2] == 0 or game.out[2]


def test_idiots_array_beats_pure_sabacc_and_takes_both_pots() -> None:
    game = new(3, **NO_SHIFT)
    rig(game, {0: "5f 6f", 1: "0 2f 3f", 2: "12f 11f"})
    sabacc_pot = game.sabacc_pot
    play(game, "1: check", "2: check", "0: check", "2: stand", "0: call hand")
    result = last_result(game)
    assert pot(result, "main")["winners"] == [1]
    sab = pot(result, "sabacc")
    assert sab is not None and sab["winners"] == [1]
    # the losing caller's penalty went into the sabacc pot before it was won
    assert sab["amount"] == sabacc_pot + 3
    assert result["hands"]["1"]["name"] == "Idiot's Array"
    assert result["hands"]["2"]["name"] == "Pure Sabacc"


def test_pure_sabacc_takes_the_sabacc_pot() -> None:
    game = new(3, **NO_SHIFT)
    rig(game, {0: "5f 6f", 1: "15f 8f", 2: "4f 4c"})
    play(game, "1: check", "2: check", "0: check", "2: stand", "0: call hand")
    result = last_result(game)
    assert pot(result, "sabacc")["winners"] == [1]


def test_negative_pure_sabacc_only_with_absolute_scoring() -> None:
    for scoring, wins_sabacc in (("signed", False), ("absolute", True)):
        game = new(3, scoring=scoring, **NO_SHIFT)
        rig(game, {0: "5f 6f", 1: "-15 -8", 2: "4f 4c"})
        play(game, "1: check", "2: check", "0: check", "2: stand", "0: call hand")
        result = last_result(game)
        winners = pot(result, "main")["winners"]
        assert winners == ([1] if wins_sabacc else [0])
        assert (pot(result, "sabacc") is not None) == wins_sabacc


def test_nobody_valid_carries_the_hand_pot() -> None:
    game = new(3, **NO_SHIFT)
    rig(game, {0: "0 0", 1: "15f 15c", 2: "-17 -15"})
    events = play(game, "1: bet 1", "2: call", "0: call", "2: stand", "0: call hand")
    result = last_result(game)
    assert result["pots"] == []
    assert result["carried"] == {"main": 6, "sabacc": 3 + 3 * 6}
    assert of_type(events, "pot_carried")[0].pot == "main"
    # next hand: the carried pot is in the hand pot; the sabacc pot is not empty, so no ante
    assert game.hand_no == 2
    assert game.pot_total() == 6 + 3
    assert game.sabacc_pot == 21
    check_credits(game)
    # and the next winner takes it
    rig(game, {0: "5f 6f", 1: "10f 11f", 2: "4f 4c"})
    play(game, "2: check", "0: check", "1: check", "0: stand", "1: call hand")
    assert pot(last_result(game), "main")["amount"] == 9


def test_sudden_demise_breaks_a_tie() -> None:
    game = new(3, **NO_SHIFT)
    rig(game, {0: "5f 6f", 1: "10f 10c", 2: "10s 10t"}, top="1c 2c")
    events = play(game, "1: check", "2: check", "0: check", "2: stand", "0: call hand")
    dealt = [(e.seat, e.cards) for e in of_type(events, "dealt") if e.reason == "sudden_demise"]
    assert dealt == [(1, ("1c",)), (2, ("2c",))]
    main = pot(last_result(game), "main")
    assert main is not None and main["winners"] == [2]
    assert "sudden demise" in main["reason"]
    # the caller lost: it pays
    assert [e.seat for e in of_type(events, "paid") if e.pot == "sabacc"] == [0]


def test_sudden_demise_still_tied_splits_with_odd_credit_left_of_dealer() -> None:
    game = new(3, **NO_SHIFT)
    rig(game, {0: "5f 6f", 1: "10f 10c", 2: "10s 10t"}, top="1c 1s")
    play(game, "1: check", "2: check", "0: check", "2: stand", "0: call hand")
    main = pot(last_result(game), "main")
    assert main is not None
    assert main["winners"] == [1, 2] and main["shares"] == [2, 1]
    assert "split" in main["reason"]


def test_sudden_demise_all_bomb_out_split() -> None:
    game = new(3, **NO_SHIFT)
    rig(game, {0: "5f 6f", 1: "10f 10c", 2: "10s 10t"}, top="15c 15s")
    events = play(game, "1: check", "2: check", "0: check", "2: stand", "0: call hand")
    main = pot(last_result(game), "main")
    assert main is not None and main["winners"] == [1, 2]
    # a bomb out in sudden demise is not penalised: only the losing caller pays
    assert [e.reason for e in of_type(events, "paid") if e.pot == "sabacc"] == [
        "caller did not win"
    ]


def test_sudden_demise_with_an_empty_deck_splits() -> None:
    game = new(3, **NO_SHIFT)
    rig(game, {0: "5f 6f", 1: "10f 10c", 2: "10s 10t"}, deck="")
    play(game, "1: check", "2: check", "0: check", "2: stand", "0: call hand")
    main = pot(last_result(game), "main")
    assert main is not None and main["winners"] == [1, 2]
    assert "no cards left" in main["reason"]


def test_tied_caller_who_shares_the_pot_does_not_pay() -> None:
    game = new(3, **NO_SHIFT)
    rig(game, {0: "10f 10c", 1: "10s 10t", 2: "4f 4c"}, top="1c 1s")
    events = play(game, "1: check", "2: check", "0: check", "2: stand", "0: call hand")
    assert [e for e in of_type(events, "paid") if e.pot == "sabacc"] == []
    assert set(pot(last_result(game), "main")["winners"]) == {0, 1}


def test_tie_on_a_special_hand_plays_sudden_demise_for_both_pots() -> None:
    game = new(3, **NO_SHIFT)
    rig(game, {0: "5f 6f", 1: "12f 11f", 2: "12c 11c"}, top="-2 1c")
    play(game, "1: check", "2: check", "0: check", "2: stand", "0: call hand")
    result = last_result(game)
    assert pot(result, "main")["winners"] == [1]
    assert pot(result, "sabacc")["winners"] == [1]


def test_sudden_demise_card_does_not_make_a_special_hand() -> None:
    # 22 and 22 tie; the demise card makes one a 23, but the sabacc pot is only won by a special
    # hand as called.
    game = new(3, **NO_SHIFT)
    rig(game, {0: "5f 6f", 1: "12f 10f", 2: "12c 10c"}, top="1c -2")
    play(game, "1: check", "2: check", "0: check", "2: stand", "0: call hand")
    result = last_result(game)
    assert pot(result, "main")["winners"] == [1]
    assert pot(result, "sabacc") is None


def test_forced_call_after_max_orbits_has_no_caller_penalty() -> None:
    game = new(2, shift_chance="0", max_orbits=1, min_turns_before_call=3)
    rig(game, {0: "5f 6f", 1: "10f 11f"})
    events = play(game, "1: check", "0: check", "1: stand", "0: check", "1: check")
    assert game.phase == "drawing"
    events = play(game, "0: stand")
    result = last_result(game)
    assert result["reason"] == "forced_call"
    assert pot(result, "main")["winners"] == [1]
    assert [e for e in of_type(events, "paid") if e.pot == "sabacc"] == []


def test_default_forced_call_after_ten_orbits() -> None:
    game = new(2, shift_chance="0")
    turns = 0
    while game.hand_no == 1:
        if game.phase == "calling":
            game.apply("stand")
        elif game.phase == "drawing":
            game.apply("stand")
            turns += 1
        else:
            game.apply("check")
    assert game.hand_results[-1].reason == "forced_call"
    assert turns == 20


def test_side_pot_for_a_short_stack() -> None:
    game = new(3, **NO_SHIFT)
    rig(game, {0: "5f 6f", 1: "10f 11f", 2: "12f 10c"})
    set_stack(game, 2, 1)
    play(game, "1: bet 3", "2: call", "0: call")
    assert game.stacks[2] == 0
    assert [(p.amount, p.eligible) for p in game.pots()] == [(6, (0, 1, 2)), (4, (0, 1))]
    # the all-in seat is not asked again but may still call the hand
    play(game, "2: call hand")
    result = last_result(game)
    assert pot(result, "main")["winners"] == [2]
    assert pot(result, "side 1")["winners"] == [1]


def test_all_in_player_is_not_asked_to_bet_or_fold() -> None:
    game = new(3, shift_chance="0")
    set_stack(game, 2, 0)
    play(game, "1: bet 1", "0: call")
    assert game.phase == "drawing"


# ---------------------------------------------------------------------------------------------
# illegal actions, observation, replay
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    ["bet 4", "bet 0", "raise 1", "call", "gain", "stand", "swap draw 5", "call hand", "xyz"],
)
def test_illegal_actions_leave_the_state_unchanged(action: str) -> None:
    game = new(3)
    before = snapshot(game)
    with pytest.raises(IllegalActionError):
        game.apply(action)
    assert snapshot(game) == before
    assert not game.is_legal(action)


def test_out_of_turn_and_illegal_in_other_phases() -> None:
    game = new(3, **NO_SHIFT)
    before = snapshot(game)
    with pytest.raises(IllegalActionError):
        game.apply("check", seat=2)
    assert snapshot(game) == before
    play(game, "1: check", "2: check", "0: check")
    assert game.phase == "calling"
    for action in ("check", "junk", "bet 1", "gain"):
        before = snapshot(game)
        with pytest.raises(IllegalActionError):
            game.apply(action)
        assert snapshot(game) == before
    play(game, "2: stand", "0: stand")
    assert game.phase == "drawing"
    for action in ("junk", "call hand", "check", "swap draw 99"):
        before = snapshot(game)
        with pytest.raises(IllegalActionError):
            game.apply(action)
        assert snapshot(game) == before


def test_observation_hides_other_hands_and_the_deck() -> None:
    game = new(4, shift_chance="1", min_turns_before_call=0)
    play(game, "1: check", "2: check", "3: check", "0: check")
    for seat in range(4):
        obs = game.observation(seat)
        assert obs["you"]["cards"] == [c.code for c in game.hands[seat]]
        assert all(s["known_cards"] == [] for s in obs["seats"])
        assert obs["deck"] == len(game.draw)
        assert "draw" not in obs
    full = game.full_state()
    assert len(full["draw"]) == len(game.draw)
    check_no_leak_hand(game)


def test_history_replays_exactly() -> None:
    game = new(4, seed=11, scoring="absolute")
    playout(game, random.Random(3))
    copy = sabacc.replay(json.loads(json.dumps(game.history())))
    assert snapshot(copy) == snapshot(game)
    assert copy.options == game.options


def test_clone_is_independent() -> None:
    game = new(3, **NO_SHIFT)
    twin = game.clone()
    assert isinstance(twin, ClassicGame)
    play(game, "1: bet 2")
    assert twin.current_player == 1 and twin.stacks == [98, 98, 98]
    assert twin.draw is not game.draw


def test_docs_cover_every_option() -> None:
    from pathlib import Path

    doc = Path(__file__).resolve().parents[3] / "docs" / "variants" / "classic.md"
    text = doc.read_text()
    for name in ClassicOptions.names():
        assert f"`{name}`" in text, name
