"""Corellian Spike: every rule of docs/rules.md §2 but betting and side pots (test_spike_betting).

Hands are scripted with :func:`tests.support.arrange` (cards) and
:func:`tests.support.force_dice` (shift or not); seat 0 deals the first hand, so with three
players the order "from the dealer's left" is 1, 2, 0.
"""

from __future__ import annotations

from typing import Any

import pytest

import sabacc
from sabacc.core import events as ev
from sabacc.engine.game import Game
from sabacc.variants.corellian_spike.rules import SpikeGame
from tests.support import (
    arrange,
    check_cards,
    check_credits,
    do,
    force_dice,
    passive,
    to_phase,
)


def spike(players: int = 3, seed: int = 11, **options: Any) -> SpikeGame:
    game = sabacc.new_game("corellian_spike", players=players, seed=seed, **options)
    assert isinstance(game, SpikeGame)
    return game


def codes(cards: list[sabacc.Card]) -> list[str]:
    return [c.code for c in cards]


def hand_events(game: Game, hand: int) -> list[ev.Event]:
    """The events of hand number ``hand`` (from its HandStarted to its HandEnded)."""
    out: list[ev.Event] = []
    inside = False
    for e in game.events:
        if isinstance(e, ev.HandStarted):
            inside = e.hand == hand
        if inside:
            out.append(e)
        if isinstance(e, ev.HandEnded) and e.hand == hand:
            break
    return out


# ---------------------------------------------------------------------------- hand setup
class TestHandSetup:
    def test_default_antes_one_to_each_pot(self) -> None:
        g = spike(players=4)
        assert g.stacks == [98] * 4
        assert g.pot_total() == 4
        assert g.committed == [1, 1, 1, 1]
        assert g.sabacc_pot == 4
        obs = g.observation(None)
        assert obs["pots"]["main"] == 4 and obs["pots"]["sabacc"] == 4
        anted = [e for e in g.events if isinstance(e, ev.Anted)]
        assert sorted(e.seat for e in anted) == [0, 1, 2, 3]
        assert all((e.main, e.sabacc) == (1, 1) for e in anted)
        check_credits(g)

    def test_ante_options(self) -> None:
        g = spike(players=3, ante=2, sabacc_ante=3)
        assert g.options.starting_stack == 200  # buy-in defaults to 100 x the ante
        assert g.stacks == [195] * 3
        assert g.pot_total() == 6
        assert g.sabacc_pot == 9
        check_credits(g)

    def test_zero_sabacc_ante(self) -> None:
        g = spike(players=3, sabacc_ante=0, buy_in=50)
        assert g.stacks == [49] * 3
        assert g.sabacc_pot == 0 and g.pot_total() == 3

    def test_buy_in_option(self) -> None:
        g = spike(players=2, buy_in=7)
        assert g.stacks == [5, 5]
        check_credits(g)

    def test_deal_two_each_from_the_dealers_left(self) -> None:
        g = spike(players=4)
        assert [len(h) for h in g.hands] == [2, 2, 2, 2]
        dealt = [e for e in g.events if isinstance(e, ev.Dealt)]
        assert [e.seat for e in dealt] == [1, 2, 3, 0]
        assert all(e.count == 2 and e.reason == "deal" for e in dealt)
        for e in dealt:
            assert e.cards is not None and list(e.cards) == codes(g.hands[e.seat])

    def test_discard_pile_started_from_the_draw_pile(self) -> None:
        g = spike(players=4)
        assert len(g.discard) == 1
        assert len(g.draw) == 62 - 8 - 1
        flipped = [e for e in g.events if isinstance(e, ev.Flipped)]
        assert len(flipped) == 1 and flipped[0].card == g.discard[-1].code
        assert g.observation(2)["discard_top"] == g.discard[-1].code
        check_cards(g)

    @pytest.mark.parametrize("players", range(2, 9))
    def test_two_to_eight_players(self, players: int) -> None:
        g = spike(players=players)
        assert g.num_players == players
        assert len(g.draw) == 62 - 2 * players - 1
        check_cards(g)

    @pytest.mark.parametrize("players", [0, 1, 9, 12])
    def test_other_player_counts_refused(self, players: int) -> None:
        with pytest.raises(sabacc.OptionError, match="2-8"):
            spike(players=players)

    def test_player_names(self) -> None:
        g = sabacc.new_game("spike", players=["Han", "Lando"], seed=1)
        assert g.names == ["Han", "Lando"]
        with pytest.raises(sabacc.OptionError):
            sabacc.new_game("spike", players=["Han"], seed=1)

    def test_dealer_rotates_left(self) -> None:
        g = spike(players=3)
        dealers = []
        for _ in range(3):
            dealers.append(g.dealer)
            passive(g)
        assert dealers == [0, 1, 2]
        starts = [e.dealer for e in g.events if isinstance(e, ev.HandStarted)]
        assert starts == [0, 1, 2]


# ---------------------------------------------------------------------------- rounds
class TestRounds:
    @pytest.mark.parametrize("rounds", [1, 2, 3, 5])
    def test_number_of_rounds(self, rounds: int) -> None:
        g = spike(players=3, rounds=rounds)
        seen = []
        while g.hand_no == 1:
            seen.append((g.round, g.phase))
            passive_step(g)
        dice = [e for e in hand_events(g, 1) if isinstance(e, ev.DiceRolled)]
        assert len(dice) == rounds
        assert {r for r, _ in seen} == set(range(1, rounds + 1))

    def test_default_is_three_rounds(self) -> None:
        g = spike(players=2)
        assert g.options.rounds == 3
        assert g.observation(0)["rounds"] == 3
        passive(g)
        assert len([e for e in hand_events(g, 1) if isinstance(e, ev.DiceRolled)]) == 3

    def test_round_is_card_then_betting_then_spike(self) -> None:
        g = spike(players=3, rounds=2)
        trace: list[tuple[int, str, int | None]] = []
        start = len(g.events)
        while g.hand_no == 1:
            trace.append((g.round, g.phase, g.current_player))
            passive_step(g)
        assert trace == [
            (1, "card", 1),
            (1, "card", 2),
            (1, "card", 0),
            (1, "betting", 1),
            (1, "betting", 2),
            (1, "betting", 0),
            (2, "card", 1),
            (2, "card", 2),
            (2, "card", 0),
            (2, "betting", 1),
            (2, "betting", 2),
            (2, "betting", 0),
        ]
        kinds = [type(e).__name__ for e in g.events[start:] if not isinstance(e, ev.Paid)]
        # The dice come after the betting round and before the next card phase.
        first_dice = kinds.index("DiceRolled")
        assert kinds[first_dice - 1] == "Acted"
        assert kinds[:first_dice].count("Acted") == 6

    def test_card_and_betting_order_from_the_dealers_left_each_hand(self) -> None:
        g = spike(players=4)
        for hand, dealer in ((1, 0), (2, 1), (3, 2)):
            assert g.hand_no == hand and g.dealer == dealer
            card_order = []
            while g.phase == "card":
                card_order.append(g.current_player)
                g.apply("stand")
            bet_order = []
            while g.phase == "betting" and g.round == 1:
                bet_order.append(g.current_player)
                force_dice(g, False)
                g.apply("check")
            expected = [(dealer + i) % 4 for i in range(1, 5)]
            assert card_order == expected
            assert bet_order == expected
            passive(g)

    def test_dealer_rolls_the_spike_dice(self) -> None:
        g = spike(players=3)
        passive(g)
        passive(g)
        rolls = [e for e in g.events if isinstance(e, ev.DiceRolled)]
        assert [e.roller for e in rolls] == [0, 0, 0, 1, 1, 1]
        assert all(len(e.dice) == 2 and all(1 <= d <= 6 for d in e.dice) for e in rolls)
        assert all(e.shift == (e.dice[0] == e.dice[1]) for e in rolls)


def passive_step(g: Game) -> None:
    if g.phase == "betting":
        force_dice(g, False)
    legal = [str(a) for a in g.legal_actions()]
    g.apply("stand" if "stand" in legal else "check" if "check" in legal else "call")


# ---------------------------------------------------------------------------- card phase
class TestCardPhase:
    def test_legal_card_actions(self) -> None:
        g = spike()
        arrange(g, hands={1: "+4c -7s"})
        legal = [str(a) for a in g.legal_actions()]
        assert sorted(legal) == sorted(
            ["stand", "gain", "swap discard +4", "swap discard -7", "swap draw +4", "swap draw -7"]
        )
        assert not g.is_legal("check")
        assert not g.is_legal("bet 1")
        assert not g.is_legal("junk")  # junk only in the betting phase
        assert not g.is_legal("swap draw +5")  # not in the hand

    def test_stand_changes_nothing(self) -> None:
        g = spike()
        arrange(g, hands={1: "+4c -7s"}, draw="+1c", discard="-2t")
        before = (codes(g.hands[1]), codes(g.draw), codes(g.discard), g.stacks[:])
        do(g, "1 stand")
        assert (codes(g.hands[1]), codes(g.draw), codes(g.discard), g.stacks[:]) == before
        assert g.current_player == 2

    def test_gain_takes_the_draw_top(self) -> None:
        g = spike()
        arrange(g, hands={1: "+4c -7s"}, draw="+1c +2c", discard="-2t")
        events = do(g, "1 gain")
        assert codes(g.hands[1]) == ["+4c", "-7s", "+1c"]
        assert g.draw[-1].code == "+2c"
        assert codes(g.discard) == ["-2t"]
        taken = [e for e in events if isinstance(e, ev.CardTaken)]
        assert taken == [ev.CardTaken(1, "draw", "+1c", shown=False)]
        # A card from the draw pile is hidden from the others.
        assert taken[0].visible_to(2).card is None  # type: ignore[attr-defined]
        assert g.observation(2)["seats"][1]["known_cards"] == []
        assert g.observation(2)["seats"][1]["cards"] == 3
        check_cards(g)

    def test_swap_with_the_discard_top(self) -> None:
        g = spike()
        arrange(g, hands={1: "+4c -7s"}, draw="+1c", discard="+9s -2t")
        do(g, "1 swap discard -7")
        assert sorted(codes(g.hands[1])) == ["+4c", "-2t"]
        assert codes(g.discard) == ["+9s", "-7s"]  # the given card is the new discard top
        assert g.draw[-1].code == "+1c"  # draw pile untouched
        # The card taken from the face-up pile is publicly known.
        assert g.observation(0)["seats"][1]["known_cards"] == ["-2t"]
        assert g.observation(0)["discard_top"] == "-7s"
        check_cards(g)

    def test_swap_with_the_draw_top(self) -> None:
        g = spike()
        arrange(g, hands={1: "+4c -7s"}, draw="+1c +2c", discard="-2t")
        events = do(g, "1 swap draw +4")
        assert sorted(codes(g.hands[1])) == ["+1c", "-7s"]
        assert codes(g.discard) == ["-2t", "+4c"]
        assert g.draw[-1].code == "+2c"
        discarded = [e for e in events if isinstance(e, ev.CardDiscarded)]
        assert [(e.seat, e.card) for e in discarded] == [(1, "+4c")]
        assert g.observation(0)["seats"][1]["known_cards"] == []
        check_cards(g)

    def test_swap_gives_back_a_card_held_before_the_swap(self) -> None:
        # Swapping for the discard top, you give one of the cards you held before:
        # "swap discard -2" with -2 only on the discard pile is illegal.
        g = spike()
        arrange(g, hands={1: "+4c -7s"}, discard="-2t")
        assert not g.is_legal("swap discard -2")
        with pytest.raises(sabacc.IllegalActionError):
            g.apply("swap discard -2")

    def test_swap_same_value_gives_the_held_copy(self) -> None:
        g = spike()
        arrange(g, hands={1: "+4c -7s"}, discard="-1t +4s")
        do(g, "1 swap discard +4")
        assert sorted(codes(g.hands[1])) == ["+4s", "-7s"]
        assert codes(g.discard) == ["-1t", "+4c"]

    def test_swap_a_publicly_known_copy_first(self) -> None:
        g = spike()
        arrange(g, hands={1: "+4c +4s"}, discard="+4t")
        do(g, "1 swap discard +4")  # seat 1 now holds a hidden +4 and the public +4t
        assert g.discard[-1].code in ("+4c", "+4s")
        assert g.observation(2)["seats"][1]["known_cards"] == ["+4t"]
        do(g, "2 stand", "0 stand")
        to_phase(g, "card")
        assert g.round == 2
        do(g, "1 swap draw +4")
        assert g.discard[-1].code == "+4t"  # the copy everybody knows about goes first
        assert g.observation(2)["seats"][1]["known_cards"] == []

    def test_hand_size_unchanged_by_swaps_and_grows_by_gain(self) -> None:
        g = spike(players=3)
        sizes = []
        for action in ("gain", "swap draw", "swap discard"):
            seat = g.current_player
            assert seat is not None
            before = len(g.hands[seat])
            if action == "gain":
                g.apply("gain")
            else:
                g.apply(f"{action} {g.hands[seat][0].value:+d}".replace("+0", "0"))
            sizes.append(len(g.hands[seat]) - before)
        assert sizes == [1, 0, 0]

    def test_gain_illegal_at_the_hand_cap(self) -> None:
        g = spike()
        arrange(g, hands={1: "+1c +2c +3c +4c +5c"})
        legal = [str(a) for a in g.legal_actions()]
        assert "gain" not in legal
        assert "stand" in legal and "swap draw +1" in legal and "swap discard +5" in legal
        with pytest.raises(sabacc.IllegalActionError):
            g.apply("gain")
        arrange(g, hands={1: "+1c +2c +3c +4c"})
        assert g.is_legal("gain")
        g.apply("gain")
        assert len(g.hands[1]) == 5

    def test_hand_cap_option(self) -> None:
        g = spike(hand_cap=3)
        assert g.is_legal("gain")
        do(g, "1 gain", "2 stand", "0 stand")
        to_phase(g, "card")
        assert len(g.hands[1]) == 3
        assert not g.is_legal("gain")

    @pytest.mark.parametrize("bad", [0, 1, 9])
    def test_hand_cap_bounds(self, bad: int) -> None:
        with pytest.raises(sabacc.OptionError, match="hand_cap"):
            spike(hand_cap=bad)

    def test_fees_default_to_zero(self) -> None:
        g = spike()
        do(g, "1 gain")
        assert g.stacks[1] == 98 and g.pot_total() == 3

    def test_gain_fee_paid_into_the_main_pot(self) -> None:
        g = spike(gain_fee=1, swap_fee=2)
        events = do(g, "1 gain")
        assert g.stacks[1] == 97
        assert g.pot_total() == 4
        assert g.sabacc_pot == 3
        paid = [e for e in events if isinstance(e, ev.Paid)]
        assert paid == [ev.Paid(1, 1, "main", "gain fee")]
        check_credits(g)

    def test_swap_fee_paid_into_the_main_pot(self) -> None:
        g = spike(gain_fee=1, swap_fee=2)
        value = g.hands[1][0].value
        events = do(g, "1 swap draw " + sabacc.core.cards.signed(value))
        assert g.stacks[1] == 96
        assert g.pot_total() == 5
        assert [e for e in events if isinstance(e, ev.Paid)] == [ev.Paid(1, 2, "main", "swap fee")]
        value = g.hands[2][0].value
        do(g, "2 swap discard " + sabacc.core.cards.signed(value))
        assert g.stacks[2] == 96 and g.pot_total() == 7
        do(g, "0 stand")
        assert g.stacks[0] == 98
        check_credits(g)

    def test_fees_go_to_the_winner_of_the_main_pot(self) -> None:
        g = spike(gain_fee=1, swap_fee=2)
        arrange(g, hands={1: "+4c -4c", 2: "+2c +3c", 0: "+1c +6c"}, draw="0")
        do(g, "1 stand", "2 swap draw +3", "0 gain")  # seat 2 now +2 0, seat 0 +1 +6 0
        passive(g)
        result = g.hand_results[-1]
        assert result.pots[0].pot == "main"
        assert result.pots[0].amount == 3 + 2 + 1
        assert result.pots[0].winners == (1,)

    def test_fees_illegal_when_unaffordable(self) -> None:
        g = spike(gain_fee=3, swap_fee=5)
        g.stacks[1] = 2
        legal = [str(a) for a in g.legal_actions()]
        assert legal == ["stand"]
        g.stacks[1] = 3
        g._legal = None
        legal = [str(a) for a in g.legal_actions()]
        assert "gain" in legal and not any(a.startswith("swap") for a in legal)
        g.stacks[1] = 5
        g._legal = None
        legal = [str(a) for a in g.legal_actions()]
        assert "gain" in legal and any(a.startswith("swap") for a in legal)

    def test_all_in_player_can_still_stand_gain_and_swap_without_fees(self) -> None:
        g = spike(players=2)
        to_phase(g, "betting")
        do(g, "1 bet 98", "0 call")
        assert g.stacks == [0, 0]
        assert g.phase == "card" and g.round == 2
        legal = [str(a) for a in g.legal_actions()]
        assert "stand" in legal and "gain" in legal
        assert any(a.startswith("swap") for a in legal)

    def test_all_in_player_cannot_pay_a_fee(self) -> None:
        g = spike(players=2, gain_fee=1, swap_fee=1)
        to_phase(g, "betting")
        do(g, "1 bet 98", "0 call")
        assert [str(a) for a in g.legal_actions()] == ["stand"]


# ---------------------------------------------------------------------------- junk
class TestJunk:
    def test_junk_mucks_the_hand_keeps_the_stake_and_costs_nothing(self) -> None:
        g = spike()
        arrange(g, hands={2: "+5c +6c"}, discard="-1t")
        to_phase(g, "betting")
        do(g, "1 bet 4")
        stack, pot, sab = g.stacks[2], g.pot_total(), g.sabacc_pot
        events = do(g, "2 junk")
        assert g.stacks[2] == stack  # no fee
        assert g.pot_total() == pot  # the stake stays
        assert g.sabacc_pot == sab
        assert g.committed[2] == 1
        assert g.hands[2] == []
        assert codes(g.muck) == ["+5c", "+6c"]  # face down, not on the discard pile
        assert g.discard[-1].code == "-1t"
        assert g.observation(0)["seats"][2]["status"] == "junked"
        assert "+5c" not in str(g.observation(0))
        assert [e for e in events if isinstance(e, ev.Paid)] == []
        check_cards(g)

    def test_junked_player_skips_later_phases(self) -> None:
        g = spike()
        to_phase(g, "betting")
        do(g, "1 check", "2 junk")
        force_dice(g, False)
        do(g, "0 check")
        assert g.phase == "card" and g.round == 2
        order = []
        while g.phase == "card":
            order.append(g.current_player)
            g.apply("stand")
        assert order == [1, 0]

    def test_junked_player_loses_the_hand(self) -> None:
        g = spike()
        arrange(g, hands={1: "+9c +8c", 2: "0 0", 0: "+3c +4c"})
        to_phase(g, "betting")
        do(g, "1 check", "2 junk")
        passive(g)
        result = g.hand_results[-1]
        assert 2 not in result.hands
        assert result.pots[0].winners == (0,)  # +7 beats +17
        assert g.sabacc_pot == 3 + 3  # no Sabacc among the live hands: carried, plus new antes


# ---------------------------------------------------------------------------- spike phase
class TestSpikePhase:
    def test_no_doubles_no_shift(self) -> None:
        g = spike()
        to_phase(g, "betting")
        hands = [codes(h) for h in g.hands]
        do(g, "1 check", "2 check")
        force_dice(g, False)
        events = do(g, "0 check")
        rolled = [e for e in events if isinstance(e, ev.DiceRolled)]
        assert len(rolled) == 1 and not rolled[0].shift
        assert rolled[0].dice[0] != rolled[0].dice[1]
        assert [codes(h) for h in g.hands] == hands
        assert g.observation(1)["dice"] == list(rolled[0].dice)

    def test_doubles_are_a_sabacc_shift(self) -> None:
        g = spike()
        arrange(
            g,
            hands={1: "+1c +2c", 2: "+3c +4c", 0: "+5c +6c"},
            draw="+7c -1s -2s -3s -4s -5s -6s -7s -8s",
            discard="-9t",
        )
        do(g, "1 gain", "2 stand", "0 stand")  # seat 1 has three cards
        do(g, "1 check", "2 check")
        force_dice(g, True)
        events = do(g, "0 check")
        rolled = [e for e in events if isinstance(e, ev.DiceRolled)]
        assert rolled[0].shift and rolled[0].dice[0] == rolled[0].dice[1]
        # Same number of new cards each, dealt one player at a time from the dealer's left.
        assert codes(g.hands[1]) == ["-1s", "-2s", "-3s"]
        assert codes(g.hands[2]) == ["-4s", "-5s"]
        assert codes(g.hands[0]) == ["-6s", "-7s"]
        # The old hands went onto the discard pile, then a fresh card was flipped on top.
        assert codes(g.discard) == ["-9t", "+1c", "+2c", "+7c", "+3c", "+4c", "+5c", "+6c", "-8s"]
        dealt = [e for e in events if isinstance(e, ev.Dealt)]
        assert [(e.seat, e.count, e.reason) for e in dealt] == [
            (1, 3, "shift"),
            (2, 2, "shift"),
            (0, 2, "shift"),
        ]
        flipped = [e for e in events if isinstance(e, ev.Flipped)]
        assert [e.card for e in flipped] == ["-8s"]
        # New cards are hidden from the others.
        assert dealt[0].visible_to(2).cards is None  # type: ignore[attr-defined]
        check_cards(g)

    def test_shift_clears_public_knowledge(self) -> None:
        g = spike()
        arrange(g, hands={1: "+1c +2c"}, discard="+9t")
        do(g, "1 swap discard +1", "2 stand", "0 stand")
        assert g.observation(0)["seats"][1]["known_cards"] == ["+9t"]
        do(g, "1 check", "2 check")
        force_dice(g, True)
        do(g, "0 check")
        assert g.observation(0)["seats"][1]["known_cards"] == []

    def test_junked_players_are_not_dealt_in_a_shift(self) -> None:
        g = spike()
        arrange(g, hands={1: "+1c +2c", 2: "+3c +4c", 0: "+5c +6c"})
        to_phase(g, "betting")
        do(g, "1 check", "2 junk")
        force_dice(g, True)
        events = do(g, "0 check")
        assert g.hands[2] == []
        assert [e.seat for e in events if isinstance(e, ev.Dealt)] == [1, 0]
        assert len(g.hands[1]) == len(g.hands[0]) == 2
        check_cards(g)

    def test_all_in_players_take_part_in_a_shift(self) -> None:
        g = spike(players=2)
        arrange(g, hands={1: "+1c +2c", 0: "+3c +4c"}, draw="-1s -2s -3s -4s -5s")
        to_phase(g, "betting")
        force_dice(g, True)
        do(g, "1 bet 98", "0 call")
        assert g.stacks == [0, 0]
        assert codes(g.hands[1]) == ["-1s", "-2s"]
        assert codes(g.hands[0]) == ["-3s", "-4s"]
        assert g.discard[-1].code == "-5s"
        check_cards(g)

    def test_shift_frequency_is_about_one_in_six(self) -> None:
        shifts = total = 0
        for seed in range(60):
            g = spike(players=2, seed=seed)
            while g.hand_no == 1:
                legal = [str(a) for a in g.legal_actions()]
                g.apply("stand" if "stand" in legal else "check")
            for e in hand_events(g, 1):
                if isinstance(e, ev.DiceRolled):
                    total += 1
                    shifts += e.shift
        assert total == 180
        assert 10 <= shifts <= 55  # 1/6 of 180 = 30


# ---------------------------------------------------------------------------- reshuffle
class TestReshuffle:
    def test_gain_from_an_empty_draw_pile_reshuffles_the_discards_but_the_top(self) -> None:
        g = spike()
        arrange(g, hands={1: "+1c +2c", 2: "+3c +4c", 0: "+5c +6c"}, draw="+7c", rest="discard")
        assert len(g.draw) == 1
        top = g.discard[-1]
        under = len(g.discard) - 1
        do(g, "1 gain")
        assert g.draw == [] and codes(g.hands[1])[-1] == "+7c"
        events = do(g, "2 gain")
        reshuffled = [e for e in events if isinstance(e, ev.Reshuffled)]
        assert reshuffled == [ev.Reshuffled(under)]
        assert g.discard == [top]
        assert len(g.draw) == under - 1
        assert len(g.hands[2]) == 3
        check_cards(g)

    def test_swap_draw_from_an_empty_draw_pile(self) -> None:
        g = spike()
        arrange(g, hands={1: "+1c +2c"}, draw=[], rest="discard")
        assert g.draw == []
        top = g.discard[-1]
        do(g, "1 swap draw +1")
        # The card given is not part of the reshuffle: it lands on top of the kept top card.
        assert codes(g.discard) == [top.code, "+1c"]
        assert len(g.hands[1]) == 2
        check_cards(g)

    def test_mucked_cards_come_back_at_the_reshuffle(self) -> None:
        g = spike()
        arrange(g, hands={1: "+1c +2c", 2: "+3c +4c", 0: "+5c +6c"}, draw=[], rest="discard")
        to_phase(g, "betting")
        do(g, "1 check", "2 junk")
        assert len(g.muck) == 2
        under = len(g.discard) - 1
        force_dice(g, False)
        do(g, "0 check")
        events = do(g, "1 gain")
        assert [e for e in events if isinstance(e, ev.Reshuffled)] == [ev.Reshuffled(under + 2)]
        assert g.muck == [] and len(g.discard) == 1
        check_cards(g)

    def test_shift_with_a_short_draw_pile_reshuffles(self) -> None:
        g = spike()
        arrange(g, hands={1: "+1c +2c", 2: "+3c +4c", 0: "+5c +6c"}, draw="+7c +8c", rest="discard")
        to_phase(g, "betting")
        do(g, "1 check", "2 check")
        force_dice(g, True)
        events = do(g, "0 check")
        assert any(isinstance(e, ev.Reshuffled) for e in events)
        assert codes(g.hands[1]) == ["+7c", "+8c"]
        assert all(len(h) == 2 for h in g.hands)
        check_cards(g)

    def test_no_gain_or_draw_swap_when_no_card_can_be_drawn(self) -> None:
        g = spike()
        arrange(g, hands={1: "+1c +2c"}, draw=[], rest="discard")
        # Every card but the discard top goes into seat 0's hand: nothing left to reshuffle.
        g.hands[0].extend(g.discard[:-1])
        del g.discard[:-1]
        g._legal = None
        check_cards(g)
        legal = [str(a) for a in g.legal_actions()]
        assert sorted(legal) == ["stand", "swap discard +1", "swap discard +2"]


# ---------------------------------------------------------------------------- showdown
class TestShowdown:
    def test_best_hand_takes_main_and_sabacc_pot_with_total_zero(self) -> None:
        g = spike()
        arrange(g, hands={1: "+4c -4c", 2: "+2c +3c", 0: "0 +1c"})
        passive(g)
        r = g.hand_results[-1]
        assert r.reason == "showdown"
        assert [(p.pot, p.amount, p.winners) for p in r.pots] == [
            ("main", 3, (1,)),
            ("sabacc", 3, (1,)),
        ]
        assert r.net == (-2, 4, -2)
        assert g.stacks == [96, 102, 96]  # after the next hand's antes
        assert g.sabacc_pot == 3  # only the new antes
        revealed = [e for e in hand_events(g, 1) if isinstance(e, ev.Revealed)]
        assert [(e.seat, e.name) for e in revealed] == [
            (1, "Sabacc"),
            (2, "Nulrhek"),
            (0, "Nulrhek"),
        ]

    def test_no_sabacc_the_sabacc_pot_carries_over(self) -> None:
        g = spike()
        arrange(g, hands={1: "+4c -3c", 2: "+2c +3c", 0: "0 +2s"})
        passive(g)
        r = g.hand_results[-1]
        assert [(p.pot, p.amount, p.winners) for p in r.pots] == [("main", 3, (1,))]
        assert r.carried == {"sabacc": 3}
        assert any(
            isinstance(e, ev.PotCarried) and e.pot == "sabacc" and e.amount == 3
            for e in hand_events(g, 1)
        )
        # The next hand's sabacc pot is the carried pot plus the new antes.
        assert g.hand_no == 2 and g.sabacc_pot == 6
        assert g.observation(0)["pots"]["sabacc"] == 6
        check_credits(g)
        # Won later by a Sabacc: the whole accumulated pot.
        arrange(g, hands={2: "0 0", 0: "+1c +2c", 1: "+5c +1s"})
        passive(g)
        r = g.hand_results[-1]
        assert ("sabacc", 6, (2,)) in [(p.pot, p.amount, p.winners) for p in r.pots]

    def test_unranked_sabacc_wins_the_sabacc_pot(self) -> None:
        g = spike()
        arrange(g, hands={1: "+4c -3c -1c", 2: "+2c +3c", 0: "0 +2s"})
        passive(g)
        pots = [(p.pot, p.amount, p.winners) for p in g.hand_results[-1].pots]
        assert pots == [("main", 3, (1,)), ("sabacc", 3, (1,))]

    def test_nulrhek_closest_to_zero_positive_beats_negative(self) -> None:
        g = spike()
        arrange(g, hands={1: "-2c -1c", 2: "+2c +1c", 0: "+1s +5c"})
        passive(g)
        assert g.hand_results[-1].pots[0].winners == (2,)

    def test_ranked_hand_beats_unranked_sabacc(self) -> None:
        g = spike()
        arrange(g, hands={1: "+4c -3c -1c", 2: "+9c -9c", 0: "0 +2s"})
        passive(g)
        assert g.hand_results[-1].pots[0].winners == (2,)

    def test_all_others_junk_last_player_takes_the_main_pot_only(self) -> None:
        g = spike()
        arrange(g, hands={1: "+4c -4c", 2: "0 0", 0: "+1c +2c"})
        to_phase(g, "betting")
        do(g, "1 bet 3", "2 junk")
        stacks = g.stacks[:]
        do(g, "0 junk")
        r = g.hand_results[-1]
        assert r.reason == "all_junked"
        # The uncalled bet of 3 goes back to seat 1 first; the pot is the three main antes.
        assert [(p.pot, p.amount, p.winners) for p in r.pots] == [("main", 3, (1,))]
        assert r.carried == {"sabacc": 3}
        assert r.net == (-2, 1, -2)  # seat 1: antes 2 staked, bet 3 returned, 3 won
        # The hand ends at once: next hand, sabacc pot carried plus the new antes.
        assert g.hand_no == 2 and g.sabacc_pot == 6
        assert g.stacks == [stacks[0] - 2, stacks[1] + 6 - 2, stacks[2] - 2]
        check_credits(g)

    def test_no_reveal_when_everyone_else_junked(self) -> None:
        g = spike()
        to_phase(g, "betting")
        do(g, "1 junk", "2 junk")
        assert not any(isinstance(e, ev.Revealed) for e in hand_events(g, 1))
        assert g.hand_results[-1].hands == {}

    def test_shown_hands_in_last_hand_observation(self) -> None:
        g = spike()
        arrange(g, hands={1: "+4c -4c", 2: "+2c +3c", 0: "0 +1c"})
        passive(g)
        last = g.observation(2)["last_hand"]
        assert last["hands"]["1"]["cards"] == ["+4c", "-4c"]
        assert last["hands"]["1"]["name"] == "Sabacc"
        assert last["pots"][0]["winners"] == [1]


# ---------------------------------------------------------------------------- true ties
class TestTrueTie:
    def test_blind_draw_positive_beats_negative(self) -> None:
        g = spike()
        assert g.options.true_tie == "blind_draw"
        arrange(g, hands={1: "+9c +8c", 2: "+1c -1c", 0: "+1s -1s"}, draw="-3c +3c")
        passive(g)
        r = g.hand_results[-1]
        draws = [e for e in hand_events(g, 1) if isinstance(e, ev.BlindDraw)]
        # The tied players draw from the dealer's left: seat 2 then seat 0.
        assert [(e.seat, e.card) for e in draws] == [(2, "-3c"), (0, "+3c")]
        assert [(p.pot, p.amount, p.winners) for p in r.pots] == [
            ("main", 3, (0,)),
            ("sabacc", 3, (0,)),
        ]

    def test_blind_draw_closest_to_zero_wins(self) -> None:
        g = spike()
        arrange(g, hands={1: "+9c +8c", 2: "+1c -1c", 0: "+1s -1s"}, draw="-1t +4c")
        passive(g)
        assert g.hand_results[-1].pots[0].winners == (2,)

    def test_blind_draw_repeats_until_one_wins(self) -> None:
        g = spike()
        arrange(g, hands={1: "+9c +8c", 2: "+1c -1c", 0: "+1s -1s"}, draw="+2c +2s -5c -5s 0 -1t")
        passive(g)
        draws = [(e.seat, e.card) for e in hand_events(g, 1) if isinstance(e, ev.BlindDraw)]
        assert draws == [(2, "+2c"), (0, "+2s"), (2, "-5c"), (0, "-5s"), (2, "0"), (0, "-1t")]
        assert g.hand_results[-1].pots[0].winners == (2,)

    def test_blind_draw_cards_end_on_the_discard_pile(self) -> None:
        g = spike(game_end="hands:1")  # the piles stay as they are once the game is over
        arrange(g, hands={1: "+9c +8c", 2: "+1c -1c", 0: "+1s -1s"}, draw="-3c +3c")
        passive(g)
        assert g.is_over
        assert codes(g.discard)[-2:] == ["-3c", "+3c"]
        kinds = [type(e).__name__ for e in hand_events(g, 1)]
        assert kinds.index("Revealed") < kinds.index("BlindDraw") < kinds.index("PotAwarded")

    def test_three_way_blind_draw(self) -> None:
        g = spike()
        arrange(g, hands={1: "+1t -1t", 2: "+1c -1c", 0: "+1s -1s"}, draw="+5c +2c -2c +2s -9c")
        passive(g)
        draws = [(e.seat, e.card) for e in hand_events(g, 1) if isinstance(e, ev.BlindDraw)]
        # Round one: seat 1 draws +5 (out); seats 2 and 0 draw +2 and -2: +2 wins.
        assert draws == [(1, "+5c"), (2, "+2c"), (0, "-2c")]
        assert g.hand_results[-1].pots[0].winners == (2,)

    def test_split_odd_credit_to_the_first_seat_left_of_the_dealer(self) -> None:
        g = spike(true_tie="split")
        # Dealer 0: the order from its left is 1, 2, 0. Seats 2 and 0 tie.
        arrange(g, hands={1: "+9c +8c", 2: "+1c -1c", 0: "+1s -1s"})
        passive(g)
        r = g.hand_results[-1]
        assert not any(isinstance(e, ev.BlindDraw) for e in hand_events(g, 1))
        assert [(p.pot, p.amount, p.winners, p.shares) for p in r.pots] == [
            ("main", 3, (2, 0), (2, 1)),
            ("sabacc", 3, (2, 0), (2, 1)),
        ]
        assert r.net == (0, -2, 2)

    def test_split_with_the_dealer_later(self) -> None:
        g = spike(true_tie="split")
        passive(g)
        assert g.dealer == 1  # order from its left: 2, 0, 1
        arrange(g, hands={2: "+9c +8c", 0: "+1c -1c", 1: "+1s -1s"})
        passive(g)
        r = g.hand_results[-1]
        assert r.pots[0].winners == (0, 1)
        assert r.pots[0].shares[0] >= r.pots[0].shares[1]
        if r.pots[0].amount % 2:
            assert r.pots[0].shares[0] == r.pots[0].shares[1] + 1

    def test_not_a_true_tie_more_cards_wins(self) -> None:
        g = spike()
        arrange(g, hands={1: "+9c +8c", 2: "+1c -1c", 0: "+1s -1s +2c -2c"})
        passive(g)
        assert not any(isinstance(e, ev.BlindDraw) for e in hand_events(g, 1))
        assert g.hand_results[-1].pots[0].winners == (0,)  # Rule of Two beats a Sabacc anyway

    def test_tie_broken_by_pattern_not_drawn(self) -> None:
        g = spike()
        arrange(g, hands={1: "+9c +8c", 2: "+1c -1c +2c -2c", 0: "+1s -1s +3s -3s"})
        passive(g)
        # Rule of Two: lower pairs 1 = 1, higher pair 2 < 3: seat 2 wins.
        assert not any(isinstance(e, ev.BlindDraw) for e in hand_events(g, 1))
        assert g.hand_results[-1].pots[0].winners == (2,)


def test_cards_conserved_through_scripted_hands() -> None:
    g = spike(players=5, gain_fee=1, swap_fee=1)
    for _ in range(5):
        while not g.is_over and g.phase == "card":
            legal = g.legal_actions()
            g.apply(legal[min(len(legal) - 1, 2)])
            check_cards(g)
            check_credits(g)
        if g.is_over:
            break
        passive(g, shift=True)
        check_cards(g)
        check_credits(g)
