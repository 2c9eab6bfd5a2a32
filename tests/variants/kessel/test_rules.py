"""Kessel Sabacc (RULES.md §4): deck, notation, options, ranking, odds, rounds, reveal, payout.

Shift tokens are in test_kessel_tokens.py; random-play properties in test_kessel_props.py.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from typing import Any, ClassVar

import pytest

import sabacc
from sabacc.core import events as ev
from sabacc.variants.kessel.actions import ChipsLost, DiceChoice, parse_kessel_action
from sabacc.variants.kessel.hands import (
    IMPOSTOR,
    Rules,
    deal_probabilities,
    hand_value,
    impostor_pair_probability,
    is_sabacc,
    kessel_deck,
    penalty,
)
from sabacc.variants.kessel.rules import KesselGame, KesselOptions
from tests.support import check_cards, snapshot
from tests.variants.kessel.support import (
    finish_round,
    force_dice,
    kessel,
    legal,
    play,
    rig,
    stand_all,
)

V = sabacc.variant("kessel")


def _kessel(**options: Any) -> KesselGame:
    game = sabacc.new_game("kessel", **options)
    assert isinstance(game, KesselGame)
    return game


def value(text: str, rules: Rules | None = None) -> sabacc.HandValue:
    return hand_value(V.parse_cards(text), rules or Rules())


# ---------------------------------------------------------------------------- the variant
class TestVariant:
    @pytest.mark.parametrize("name", ["kessel", "kessel-sabacc", "kessel_sabacc", " Kessel "])
    def test_names_and_aliases(self, name: str) -> None:
        g = sabacc.new_game(name, players=4, seed=7)
        assert g.variant == "kessel" and g.num_players == 4
        assert "kessel" in sabacc.variant_names()

    @pytest.mark.parametrize("players", [1, 7])
    def test_two_to_six_players(self, players: int) -> None:
        with pytest.raises(sabacc.OptionError, match="2-6 players"):
            sabacc.new_game("kessel", players=players)
        for ok in (2, 6):
            assert sabacc.new_game("kessel", players=ok, seed=1).n == ok

    def test_options_and_defaults(self) -> None:
        opts = V.options
        assert isinstance(opts, KesselOptions)
        assert (opts.chips, opts.turns, opts.early_end, opts.game_end) == (
            8,
            3,
            True,
            "last_standing",
        )
        assert (opts.shift_tokens, opts.impostors, opts.sylops) == ("draft", 3, 1)
        names = KesselOptions.names()
        assert set(names) == {
            "chips",
            "turns",
            "early_end",
            "game_end",
            "shift_tokens",
            "impostors",
            "sylops",
        }
        assert all(n in KesselOptions.help for n in names)
        g = sabacc.new_game("kessel", players=3, seed=2, chips="5", turns="2", early_end="off")
        assert isinstance(g.options, KesselOptions)
        assert (g.options.chips, g.options.turns, g.options.early_end) == (5, 2, False)
        assert g.stacks == [5, 5, 5] and g.options.changed() == {
            "chips": 5,
            "turns": 2,
            "early_end": False,
        }

    @pytest.mark.parametrize(
        "options",
        [
            {"chips": 3},
            {"chips": 11},
            {"turns": 0},
            {"game_end": "orbit"},
            {"game_end": "rounds:0"},
            {"game_end": "hands:0"},
            {"shift_tokens": "lucky_dice"},
            {"shift_tokens": "refund,refund"},
            {"impostors": 4},
            {"sylops": -1},
            {"buy_in": 100},
            {"ante": 1},
            {"final_pot": "house"},
        ],
    )
    def test_bad_options(self, options: dict[str, Any]) -> None:
        with pytest.raises(sabacc.OptionError):
            sabacc.new_game("kessel", players=2, **options)

    def test_hands_n_is_rounds_n(self) -> None:
        assert sabacc.variant("kessel", game_end="hands:3").options.game_end == "rounds:3"

    def test_shift_tokens_as_a_list(self) -> None:
        g = sabacc.new_game("kessel", players=3, seed=4, shift_tokens=["free_draw", "Embargo"])
        assert isinstance(g, KesselGame) and isinstance(g.options, KesselOptions)
        assert g.options.shift_tokens == "free_draw,embargo"
        assert g.tokens_left == [["free_draw", "embargo"]] * 3
        same = _kessel(players=3, seed=4, shift_tokens="free_draw, embargo")
        assert same.options == g.options
        replayed = sabacc.replay(g.history())
        assert isinstance(replayed, KesselGame) and replayed.tokens_left == g.tokens_left

    def test_draft_deals_three_distinct_tokens_by_the_seed(self) -> None:
        g = _kessel(players=6, seed=9)
        assert all(len(set(t)) == len(t) == 3 for t in g.tokens_left)
        assert _kessel(players=6, seed=9).tokens_left == g.tokens_left
        deals = {tuple(_kessel(players=2, seed=s).tokens_left[0]) for s in range(9)}
        assert len(deals) > 1
        assert _kessel(players=2, shift_tokens="none").tokens_left == [[], []]

    @pytest.mark.parametrize(("impostors", "sylops"), [(3, 1), (2, 2), (0, 0), (3, 3)])
    def test_deck_make_up(self, impostors: int, sylops: int) -> None:
        g = kessel(impostors=impostors, sylops=sylops)
        cards = g.deck.cards
        for fam in "sb":
            fam_cards = [c for c in cards if c.suit == fam]
            assert len(fam_cards) == 18 + impostors + sylops
            assert sum(c.code == f"I{fam}" for c in fam_cards) == impostors
            assert sum(c.code == f"0{fam}" for c in fam_cards) == sylops
            for v in range(1, 7):
                assert sum(c.code == f"{v}{fam}" for c in fam_cards) == 3
        check_cards(g)
        assert len(kessel_deck()) == 44


# ---------------------------------------------------------------------------- notation
class TestNotation:
    def test_codes(self) -> None:
        cards = V.parse_cards("3s 5b Is Ib 0s 0b is IB")
        assert [c.code for c in cards] == ["3s", "5b", "Is", "Ib", "0s", "0b", "Is", "Ib"]
        assert [c.suit for c in cards] == ["s", "b", "s", "b", "s", "b", "s", "b"]
        assert cards[2].value == IMPOSTOR and cards[4].name == "Sand Sylop"

    @pytest.mark.parametrize(
        ("text", "match"),
        [
            ("3", "unknown card '3'"),
            ("7s", "unknown card '7s'"),
            ("3x", "unknown card '3x'"),
            ("+3s", "unknown card"),
            ("0s 0s", "too many copies of '0s'"),
            ("4b 4b 4b 4b", "too many copies"),
            ("Is Is Is Is", "too many copies"),
        ],
    )
    def test_strict(self, text: str, match: str) -> None:
        with pytest.raises(sabacc.CardParseError, match=match):
            V.parse_cards(text)

    def test_a_deck_without_impostors_refuses_them(self) -> None:
        g = kessel(impostors=0)
        with pytest.raises(sabacc.CardParseError, match="no Impostors"):
            g.deck.parse_cards("Is")

    @pytest.mark.parametrize("text", ["3s 4s", "3b", "3s 3b 4b", ""])
    def test_a_hand_is_one_sand_and_one_blood(self, text: str) -> None:
        with pytest.raises(sabacc.CardParseError):
            V.evaluate(text)


# ---------------------------------------------------------------------------- ranking
class TestRanking:
    BEST_FIRST: ClassVar[list[str]] = [
        "0s 0b",  # Pure Sabacc
        "1s 1b",
        "2s 2b",
        "5s 5b",
        "6s 6b",
        "1s 2b",  # difference 1, lower card 1
        "3b 2s",
        "6s 5b",
        "1s 3b",
        "4s 2b",
        "1s 6b",
    ]

    def test_order(self) -> None:
        values = [V.evaluate(h) for h in self.BEST_FIRST]
        for better, worse in itertools.pairwise(values):
            assert better > worse, (better, worse)
        assert values[0].name == "Pure Sabacc" and values[1].name == "Sabacc 1/1"
        assert values[-1].name == "difference 5" and values[-1].total == 5

    def test_equal_hands_tie(self) -> None:
        assert V.evaluate("2s 3b") == V.evaluate("3s 2b")
        assert V.evaluate("0s 3b") == V.evaluate("3s 3b") == V.evaluate("3s 0b")
        assert V.evaluate("0s 3b").name == "Sabacc 3/3"

    def test_impostor_sabacc_equals_a_natural_pair(self) -> None:
        cards = V.parse_cards("Is 4b")
        assert hand_value(cards, Rules(), {cards[0].id: 4}) == V.evaluate("4s 4b")
        assert hand_value(cards, Rules(), {cards[0].id: 6}) == V.evaluate("6s 4b")
        both = V.parse_cards("Is Ib")
        assert hand_value(both, Rules(), {both[0].id: 2, both[1].id: 2}) == V.evaluate("2s 2b")
        # Unrolled, an Impostor is valued at its best case (what the hand can become).
        assert V.evaluate("Is 4b") == V.evaluate("4s 4b")
        assert V.evaluate("Is 0b") == V.evaluate("1s 1b")

    def test_cook_the_books_reverses_pairs_only(self) -> None:
        cook = Rules(cook_the_books=True)
        assert value("6s 6b", cook) > value("5s 5b", cook) > value("1s 1b", cook)
        assert value("0s 0b", cook) > value("6s 6b", cook)
        assert value("1s 1b", cook) > value("1s 2b", cook) > value("1s 3b", cook)

    def test_prime_sabacc_ranks_just_below_pure(self) -> None:
        prime = Rules(prime=4)
        assert value("0s 0b", prime) > value("4s 4b", prime) > value("1s 1b", prime)
        assert value("0s 4b", prime) == value("4s 4b", prime)
        assert value("4s 4b", prime).name == "Prime Sabacc 4/4"
        both = Rules(prime=5, cook_the_books=True)
        assert value("5s 5b", both) > value("6s 6b", both) > value("1s 1b", both)

    def test_markdown_sylop_is_zero(self) -> None:
        md = Rules(markdown=True)
        assert value("0s 4b", md).name == "difference 4" and value("0s 4b", md).total == 4
        assert value("0s 0b", md).name == "Pure Sabacc"
        assert value("1s 4b", md) > value("0s 4b", md) > value("1s 5b", md) > value("0s 5b", md)

    def test_major_fraud_impostors_are_six(self) -> None:
        mf = Rules(major_fraud=True)
        assert value("Is 6b", mf) == value("6s 6b") and value("Ib Is", mf) == value("6s 6b")
        assert value("Is 1b", mf).total == 5

    def test_penalty(self) -> None:
        assert penalty(V.evaluate("6s 6b")) == 1 and penalty(V.evaluate("0s 0b")) == 1
        assert penalty(V.evaluate("1s 5b")) == 4 and penalty(V.evaluate("3s 2b")) == 1
        assert is_sabacc(value("0s 3b")) and not is_sabacc(value("0s 3b", Rules(markdown=True)))


# ---------------------------------------------------------------------------- odds
class TestOdds:
    def test_reference_figures(self) -> None:
        odds = deal_probabilities()
        assert odds["pure_sabacc"] == Fraction(1, 484)
        assert odds["sabacc"] == Fraction(1077, 3872)
        assert impostor_pair_probability() == Fraction(37, 72)

    @pytest.mark.parametrize(("impostors", "sylops"), [(3, 1), (2, 2), (1, 0)])
    def test_matches_an_enumeration_of_the_deck_and_dice(self, impostors: int, sylops: int) -> None:
        deck = kessel_deck(impostors, sylops)
        sand = [c for c in deck.cards if c.suit == "s"]
        blood = [c for c in deck.cards if c.suit == "b"]
        rolls = [(a, b) for a in range(1, 7) for b in range(1, 7)]
        total = pure = Fraction(0)
        for s in sand:
            for b in blood:
                imps = [c for c in (s, b) if c.value == IMPOSTOR]
                outcomes: list[tuple[tuple[int, int], ...]] = (
                    [()] if not imps else [(r,) for r in rolls]
                )
                if len(imps) == 2:
                    outcomes = [(r, q) for r in rolls for q in rolls]
                hits = 0
                for dice in outcomes:
                    choices: list[dict[int, int]] = [{}]
                    for card, roll in zip(imps, dice, strict=True):
                        choices = [{**ch, card.id: d} for ch in choices for d in roll]
                    best = max(hand_value([s, b], Rules(), ch) for ch in choices)
                    hits += is_sabacc(best)
                    pure += Fraction(best.name == "Pure Sabacc", len(outcomes))
                total += Fraction(hits, len(outcomes))
        n = len(sand) * len(blood)
        odds = deal_probabilities(impostors, sylops)
        assert odds["sabacc"] == total / n and odds["pure_sabacc"] == pure / n


# ---------------------------------------------------------------------------- actions
class TestActions:
    TEXTS: ClassVar[list[str]] = [
        "stand",
        "draw sand",
        "draw blood",
        "draw sand discard",
        "draw blood discard",
        "keep",
        "discard",
        "impostor 4",
        "prime 3",
        "token free_draw",
        "token target_tariff 2",
        "token direct_transaction 0",
    ]

    @pytest.mark.parametrize("text", TEXTS)
    def test_text_round_trips(self, text: str) -> None:
        action = parse_kessel_action(text)
        assert str(action) == text and parse_kessel_action(str(action)) == action
        assert parse_kessel_action(" " + text.upper() + " ") == action
        assert kessel().parse_action(text) == action

    @pytest.mark.parametrize(
        ("text", "match"),
        [
            ("draw", "draw from where"),
            ("draw moon", "draw from where"),
            ("impostor 7", "die value 1-6"),
            ("prime x", "die value 1-6"),
            ("token lucky", "unknown token"),
            ("token target_tariff two", "seat number"),
            ("fly", "unknown action"),
        ],
    )
    def test_malformed(self, text: str, match: str) -> None:
        with pytest.raises(sabacc.IllegalActionError, match=match):
            parse_kessel_action(text)

    def test_illegal_input_is_refused_with_a_message_and_changes_nothing(self) -> None:
        g = kessel()
        before = snapshot(g)
        for bad, match in [
            ("keep", r"keep is not allowed now \(turn phase\).*can: stand, draw sand"),
            ("impostor 3", "not allowed"),
            ("token free_draw", "you do not hold free_draw"),
            ("bet 2", "not allowed"),
            ("draw sideways", "draw from where"),
        ]:
            with pytest.raises(sabacc.IllegalActionError, match=match):
                g.apply(bad)
        with pytest.raises(sabacc.IllegalActionError, match=r"not .*'s turn"):
            g.apply("stand", seat=(g.order[0] + 1) % g.n)
        assert snapshot(g) == before


# ---------------------------------------------------------------------------- a round
class TestRound:
    def test_deal(self) -> None:
        g = kessel(players=4, seed=3)
        for s in range(4):
            assert [c.suit for c in g.hands[s]] == ["s", "b"]
        assert len(g.sand_discard) == len(g.blood_discard) == 1
        assert len(g.sand_draw) == len(g.blood_draw) == 22 - 4 - 1
        assert g.current_player == g.dealer == g.order[0]
        assert g.order == [(g.dealer + i) % 4 for i in range(4)]
        flipped = [e for e in g.events if isinstance(e, ev.Flipped)]
        assert [e.card for e in flipped] == [g.sand_discard[0].code, g.blood_discard[0].code]

    def test_starting_player_by_seed_then_rotating(self) -> None:
        starters = {kessel(players=4, seed=s).dealer for s in range(20)}
        assert len(starters) > 1
        g = kessel(players=3, seed=5)
        first = g.dealer
        finish_round(g)
        assert g.hand_no == 2 and g.dealer == (first + 1) % 3
        # An eliminated player is skipped.
        skip = (g.dealer + 1) % 3
        g.stacks[skip] = 0
        finish_round(g)
        assert g.out[skip] and g.dealer == (skip + 1) % 3
        assert skip not in g.order and [c for c in g.hands[skip]] == []

    def test_draw_keep(self) -> None:
        g = kessel()
        a = g.order[0]
        rig(g, {a: "1s 5b", g.order[1]: "2s 2b", g.order[2]: "3s 4b"}, sand_draw="5s")
        play(g, f"{a} draw sand")
        assert g.stacks[a] == 7 and g.committed[a] == 1 and g.phase == "draw"
        assert legal(g) == ["keep", "discard"]
        assert g.observation(a)["drawn"] == {"from": "sand", "card": "5s"}
        assert g.observation(g.order[1])["drawn"] == {"from": "sand", "card": None}
        play(g, f"{a} keep")
        assert [c.code for c in g.hands[a]] == ["5s", "5b"]
        assert g.sand_discard[-1].code == "1s" and g.current_player == g.order[1]
        assert g.observation(None)["sand_discard"] == "1s"
        check_cards(g)

    def test_draw_discard(self) -> None:
        g = kessel()
        a = g.order[0]
        rig(g, {a: "1s 5b", g.order[1]: "2s 2b", g.order[2]: "3s 4b"}, blood_draw="6b")
        play(g, f"{a} draw blood", f"{a} discard")
        assert [c.code for c in g.hands[a]] == ["1s", "5b"]
        assert g.blood_discard[-1].code == "6b" and g.committed[a] == 1

    def test_draw_from_a_discard_pile_takes_the_top_even_the_card_just_discarded(self) -> None:
        g = kessel()
        a, b, c = g.order
        rig(g, {a: "1s 5b", b: "2s 2b", c: "3s 4b"}, sand_discard="6s", sand_draw="4s")
        play(g, f"{a} draw sand discard")
        taken = [e for e in g.events if isinstance(e, ev.CardTaken)][-1]
        assert taken.shown and taken.card == "6s" and taken.visible_to(b) == taken
        play(g, f"{a} keep")
        assert g.sand_discard[-1].code == "1s"
        assert g.observation(b)["seats"][a]["known_cards"] == ["6s"]
        play(g, f"{b} draw sand discard", f"{b} keep")  # takes the 1s just discarded
        assert [x.code for x in g.hands[b]] == ["1s", "2b"] and g.sand_discard[-1].code == "2s"

    def test_a_player_without_stock_must_stand(self) -> None:
        g = kessel()
        g.stacks[g.order[0]] = 0
        g._legal = None
        assert legal(g) == ["stand"]

    def test_an_empty_draw_pile_is_refilled_from_its_discards_but_the_top(self) -> None:
        g = kessel()
        a = g.order[0]
        top = g.sand_discard[-1]
        g.sand_discard = [*list(reversed(g.sand_draw)), top]
        g.sand_draw = []
        g._legal = None
        size = len(g.sand_discard)
        play(g, f"{a} draw sand")
        assert [e for e in g.events if isinstance(e, ev.Reshuffled)][-1].cards == size - 1
        assert g.sand_discard == [top] and len(g.sand_draw) == size - 2
        check_cards(g)

    def test_no_draw_from_an_empty_draw_pile_with_one_discard(self) -> None:
        g = kessel()
        spare, old = g.sand_draw, g.blood_discard
        g.sand_draw, g.blood_discard = [], []
        g._legal = None
        assert legal(g) == ["stand", "draw blood", "draw sand discard"]
        g.sand_draw, g.blood_discard = spare, old  # the cards back, for the conservation check
        check_cards(g)

    def test_everyone_standing_in_one_turn_ends_the_round(self) -> None:
        g = kessel()
        a, b, c = g.order
        play(g, f"{a} draw sand", f"{a} keep", f"{b} stand", f"{c} stand")
        assert g.hand_no == 1 and g.turn == 2
        play(g, f"{a} stand", f"{b} stand", f"{c} stand")
        assert g.hand_no == 2 and g.hand_results[-1].reason == "all_stood"

    def test_without_early_end_all_turns_are_played(self) -> None:
        g = kessel(early_end=False, turns=3)
        for _ in range(8):
            g.apply("stand")
        assert g.hand_no == 1 and g.turn == 3
        g.apply("stand")
        assert g.hand_no == 2 and g.hand_results[-1].reason == "turns"

    @pytest.mark.parametrize("turns", [1, 2, 4])
    def test_turns_option(self, turns: int) -> None:
        g = kessel(players=2, turns=turns)
        for _ in range(turns):
            for _ in range(2):
                g.apply("draw sand")
                g.apply("discard")
        assert g.hand_no == 2 and g.hand_results[-1].reason == "turns"

    def test_standing_does_not_stop_a_later_draw(self) -> None:
        g = kessel(players=2)
        a, b = g.order
        play(g, f"{a} stand", f"{b} draw blood", f"{b} keep")
        assert "draw sand" in legal(g) and g.current_player == a
        assert g.observation(b)["stood"][a]


# ---------------------------------------------------------------------------- reveal
class TestReveal:
    def test_impostor_dice_come_from_the_seeded_rng_and_the_owner_chooses(self) -> None:
        g = kessel()
        a, b, c = g.order
        rig(g, {a: "1s 5b", b: "Is 4b", c: "3s 6b"})
        play(g, f"{a} stand", f"{b} stand")
        force_dice(g, 4, 2)
        play(g, f"{c} stand")
        assert g.phase == "impostor" and g.current_player == b
        assert legal(g) == ["impostor 2", "impostor 4"]
        obs = g.observation(a)
        assert obs["dice"] == [4, 2] and obs["revealed"][str(b)] == ["Is", "4b"]
        assert obs["seats"][b]["known_cards"] == ["Is", "4b"]
        roll = [e for e in g.events if isinstance(e, DiceChoice)][-1]
        assert (roll.seat, roll.purpose, roll.dice) == (b, "Is", (4, 2))
        before = snapshot(g)
        with pytest.raises(sabacc.IllegalActionError, match="impostor 5 is not allowed"):
            g.apply("impostor 5")
        assert snapshot(g) == before
        play(g, f"{b} impostor 4")
        result = g.hand_results[-1]
        shown = result.hands[b][1]
        assert shown is not None and shown.name == "Sabacc 4/4"
        assert [p.winners for p in result.pots] == [(), (b,), ()]

    def test_each_impostor_rolls_its_own_dice(self) -> None:
        g = kessel(players=2)
        a, b = g.order
        rig(g, {a: "Is Ib", b: "3s 5b"})
        play(g, f"{a} stand")
        force_dice(g, 1, 6)
        play(g, f"{b} stand")
        assert legal(g) == ["impostor 1", "impostor 6"]
        force_dice(g, 3, 5)
        play(g, f"{a} impostor 6")
        assert g.current_player == a and legal(g) == ["impostor 3", "impostor 5"]
        play(g, f"{a} impostor 3")
        assert g.hand_results[-1].hands[a][1].name == "difference 3"  # type: ignore[union-attr]

    def test_impostor_choices_in_order_from_the_starting_player(self) -> None:
        g = kessel()
        a, b, c = g.order
        rig(g, {a: "2s 2b", b: "Is 1b", c: "3s Ib"})
        stand_all(g)
        assert g.current_player == b
        g.apply(legal(g)[0])
        assert g.current_player == c and g.phase == "impostor"

    def test_lone_sylop_takes_the_other_value_and_ties(self) -> None:
        g = kessel()
        a, b, c = g.order
        rig(g, {a: "0s 3b", b: "3s 3b", c: "4s 4b"})
        stand_all(g)
        result = g.hand_results[-1]
        assert [p.winners for p in result.pots] == [(a,), (b,), ()]
        assert result.hands[a][1] == result.hands[b][1]

    def test_two_sylops_are_pure_sabacc(self) -> None:
        g = kessel()
        a, b, c = g.order
        rig(g, {a: "1s 1b", b: "0s 0b", c: "Is 6b"})
        stand_all(g)
        g.apply(legal(g)[-1])
        result = g.hand_results[-1]
        assert result.hands[b][1].name == "Pure Sabacc"  # type: ignore[union-attr]
        assert [p.winners for p in result.pots] == [(), (b,), ()]


# ---------------------------------------------------------------------------- payout
class TestPayout:
    def test_winner_takes_pot_back_losers_lose_pot_and_pay_penalty(self) -> None:
        g = kessel()
        a, b, c = g.order
        rig(g, {a: "2s 2b", b: "1s 5b", c: "6s 6b"})
        g.stacks[:] = [5, 5, 5]
        g.committed[:] = [3, 3, 3]
        total = g.total_credits()
        stand_all(g)
        assert g.stacks[a] == 8  # pot back
        assert g.stacks[b] == 5 - 4  # difference 4
        assert g.stacks[c] == 5 - 1  # a Sabacc pays 1
        assert g.house == 3 + 4 + 3 + 1 and g.total_credits() == total
        lost = {e.seat: (e.pot, e.penalty) for e in g.events if isinstance(e, ChipsLost)}
        assert lost == {b: (3, 4), c: (3, 1)}

    def test_penalty_is_capped_at_the_stock(self) -> None:
        g = kessel(players=2)
        a, b = g.order
        rig(g, {a: "1s 1b", b: "1s 6b"})
        g.stacks[b] = 2
        g.house = 6  # keep the credit total constant for the checks
        stand_all(g)
        assert g.stacks[b] == 0 and g.house == 8
        assert g.out[b] and g.is_over and g.outcome is not None
        assert g.outcome.winners == (a,)

    def test_all_tied_players_win(self) -> None:
        g = kessel()
        a, b, c = g.order
        rig(g, {a: "2s 3b", b: "3s 2b", c: "1s 3b"})
        g.committed[:] = [1, 1, 1]
        g.stacks[:] = [7, 7, 7]
        stand_all(g)
        assert g.stacks[a] == g.stacks[b] == 8 and g.stacks[c] == 7 - 2

    def test_elimination_and_last_standing(self) -> None:
        g = kessel(players=3)
        a, b, c = g.order
        rig(g, {a: "1s 1b", b: "1s 6b", c: "2s 6b"})
        g.stacks[b] = 1
        g.house = 7
        stand_all(g)
        assert g.out[b] and not g.is_over and b not in g.order
        assert [e.seat for e in g.events if isinstance(e, ev.Eliminated)] == [b]
        g.house += g.stacks[c]
        g.stacks[c] = 0
        finish_round(g)
        assert g.is_over and g.outcome is not None and g.outcome.winners[0] == a

    def test_rounds_n_ends_with_most_chips(self) -> None:
        g = kessel(players=3, game_end="rounds:2")
        finish_round(g)
        assert not g.is_over
        finish_round(g)
        assert g.is_over and g.hand_no == 2 and g.outcome is not None
        best = max(g.stacks)
        assert g.outcome.winners == tuple(s for s in g.outcome.standings if g.stacks[s] == best)

    def test_chips_lost_leave_the_game(self) -> None:
        g = sabacc.new_game("kessel", players=4, seed=12)
        while not g.is_over:
            g.apply(g.legal_actions()[-1])
            assert sum(g.stacks) + sum(g.committed) + g.house == 32
        assert sum(g.payoffs) == -g.house and g.house > 0


# ---------------------------------------------------------------------------- observation
class TestObservation:
    def test_contents(self) -> None:
        g = sabacc.new_game("kessel", players=3, seed=21)
        assert isinstance(g, KesselGame)
        a, b, _c = g.order
        g.apply("stand" if "stand" in legal(g) else legal(g)[0])
        obs = g.observation(b)
        assert json.loads(json.dumps(obs)) == obs
        assert obs["you"]["cards"] == [c.code for c in g.hands[b]]
        assert obs["my_tokens"] == g.tokens_left[b]
        assert obs["sand_discard"] == g.sand_discard[-1].code
        assert obs["blood_discard_pile"] == [c.code for c in g.blood_discard]
        assert obs["draw_sizes"] == [len(g.sand_draw), len(g.blood_draw)]
        assert [s["committed"] for s in obs["seats"]] == g.committed and obs["chips_lost"] == 0
        assert obs["pots"]["side"] == [{"amount": g.committed[s], "eligible": [s]} for s in g.order]
        assert obs["pots"]["main"] == sum(g.committed) and obs["pots"]["sabacc"] == 0
        seat_a = obs["seats"][a]
        assert obs["stood"][a] and obs["tokens_left"][a] == 3 and obs["tokens_used"][a] == []
        assert seat_a["known_cards"] == [] and seat_a["cards"] == 2
        assert obs["sand_draw"] == len(g.sand_draw) and obs["blood_draw"] == len(g.blood_draw)
        assert obs["betting"]["structure"] == "none"  # no betting in Kessel
        assert obs["turn"] == 1 and obs["starting_player"] == a
        assert obs["legal"]["actions"] == legal(g)
        spectator = g.observation(None)
        assert "you" not in spectator and spectator["legal"]["actions"] == []
        for viewer in (None, 0, 1, 2):
            text = json.dumps(g.observation(viewer))
            for other in range(3):
                if other != viewer:
                    assert json.dumps(g.tokens_left[other]) not in text
