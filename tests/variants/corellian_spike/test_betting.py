"""Corellian Spike betting phase (docs/rules.md §2): actions, structures, all-ins and side pots.

Three players unless said otherwise: seat 0 deals, so the betting order is 1, 2, 0.
"""

from __future__ import annotations

from typing import Any, ClassVar

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
    set_stacks,
    to_phase,
)


def at_betting(players: int = 3, seed: int = 5, **options: Any) -> SpikeGame:
    g = sabacc.new_game("spike", players=players, seed=seed, **options)
    assert isinstance(g, SpikeGame)
    to_phase(g, "betting")
    return g


def legal(g: Game) -> list[str]:
    return [str(a) for a in g.legal_actions()]


def ranges(g: Game) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
    lg = g.legal()
    return lg.bet, lg.raise_


def pots(g: Game) -> list[tuple[int, tuple[int, ...]]]:
    return [(p.amount, p.eligible) for p in g.pots()]


def awarded(g: Game) -> list[tuple[str, int, tuple[int, ...], tuple[int, ...]]]:
    return [(p.pot, p.amount, p.winners, p.shares) for p in g.hand_results[-1].pots]


# ---------------------------------------------------------------------------- basic actions
class TestActions:
    def test_opening_options(self) -> None:
        g = at_betting()
        assert g.current_player == 1
        assert g.legal().fixed == (sabacc.Check(), sabacc.Junk())
        assert ranges(g) == ((1, 98), None)
        assert not g.is_legal("call")
        assert not g.is_legal("raise 1")
        assert not g.is_legal("stand")

    def test_all_check_closes_the_round(self) -> None:
        g = at_betting()
        do(g, "1 check", "2 check")
        force_dice(g, False)
        do(g, "0 check")
        assert g.phase == "card" and g.round == 2
        assert g.pot_total() == 3

    def test_bet_and_calls(self) -> None:
        g = at_betting()
        events = do(g, "1 bet 5")
        assert [e for e in events if isinstance(e, ev.Paid)] == [ev.Paid(1, 5, "main", "bet 5")]
        assert g.current_player == 2
        assert g.legal().fixed == (sabacc.Call(), sabacc.Junk())
        assert g.observation(2)["betting"]["to_call"] == 5
        assert g.observation(2)["betting"]["current_bet"] == 5
        do(g, "2 call")
        force_dice(g, False)
        do(g, "0 call")
        assert g.stacks == [93, 93, 93]
        assert g.pot_total() == 18
        assert g.phase == "card" and g.round == 2
        check_credits(g)

    def test_raise_is_by_the_amount_over_the_current_bet(self) -> None:
        g = at_betting()
        do(g, "1 bet 5", "2 raise 3")
        assert g.cur_bet == 8 and g.round_bet[2] == 8 and g.stacks[2] == 90
        assert g.observation(0)["betting"]["to_call"] == 8
        do(g, "0 call")
        assert g.current_player == 1 and g.observation(1)["betting"]["to_call"] == 3
        force_dice(g, False)
        do(g, "1 call")
        assert g.stacks == [90, 90, 90] and g.pot_total() == 27
        assert g.phase == "card"

    def test_bet_after_the_round_resets(self) -> None:
        g = at_betting()
        do(g, "1 bet 5", "2 call")
        force_dice(g, False)
        do(g, "0 call")
        to_phase(g, "betting")
        assert g.round == 2 and g.cur_bet == 0
        assert ranges(g)[0] == (1, 93)
        assert g.observation(1)["betting"]["to_call"] == 0

    def test_checked_player_must_answer_a_later_bet(self) -> None:
        g = at_betting()
        do(g, "1 check", "2 bet 4", "0 call")
        assert g.current_player == 1
        assert legal(g)[:2] == ["call", "junk"]
        force_dice(g, False)
        do(g, "1 call")
        assert g.phase == "card"


# ---------------------------------------------------------------------------- structures
class TestStructures:
    def test_no_limit_minimum_is_one_ante_unit(self) -> None:
        g = at_betting(ante=2)
        assert ranges(g) == ((2, 197), None)  # buy-in 200, antes 2 + 1
        with pytest.raises(sabacc.IllegalActionError, match="out of range"):
            g.apply("bet 1")
        do(g, "1 bet 2")
        assert ranges(g) == (None, (2, 195))
        assert not g.is_legal("raise 1")

    def test_min_bet_option(self) -> None:
        g = at_betting(min_bet=5)
        assert ranges(g) == ((5, 98), None)
        assert not g.is_legal("bet 4")
        do(g, "1 bet 7")
        assert ranges(g) == (None, (5, 91))
        assert not g.is_legal("raise 4")
        assert g.observation(2)["betting"]["unit"] == 5

    def test_no_limit_maximum_is_the_stack(self) -> None:
        g = at_betting()
        assert g.is_legal("bet 98") and not g.is_legal("bet 99")
        do(g, "1 bet 10")
        assert g.is_legal("raise 88") and not g.is_legal("raise 89")

    def test_pot_limit_maximums(self) -> None:
        g = at_betting(betting="pot_limit")
        assert g.observation(1)["betting"]["structure"] == "pot_limit"
        assert ranges(g) == ((1, 3), None)  # the pot is the 3 antes
        do(g, "1 bet 3")
        # Pot after the call: 3 + 3 + 3 = 9.
        assert ranges(g) == (None, (1, 9))
        do(g, "2 raise 9")  # puts in 12: the pot is now 18
        # Seat 0 calls 12 first: 18 + 12 = 30.
        assert ranges(g) == (None, (1, 30))
        assert not g.is_legal("raise 31")

    def test_pot_limit_minimum_is_a_unit_even_with_a_small_pot(self) -> None:
        g = at_betting(betting="pot_limit", min_bet=5)
        assert ranges(g) == ((5, 5), None)

    def test_pot_limit_includes_fees(self) -> None:
        g = sabacc.new_game("spike", players=3, seed=5, betting="pot_limit", gain_fee=2)
        do(g, "1 gain", "2 gain", "0 stand")
        assert g.pot_total() == 7
        assert ranges(g) == ((1, 7), None)

    def test_fixed_sizes(self) -> None:
        g = at_betting(betting="fixed")
        assert ranges(g) == ((1, 1), None)
        do(g, "1 bet 1")
        assert ranges(g) == (None, (1, 1))
        g = at_betting(betting="fixed", min_bet=4)
        assert ranges(g) == ((4, 4), None)
        assert not g.is_legal("bet 5") and not g.is_legal("bet 3")
        do(g, "1 bet 4")
        assert ranges(g) == (None, (4, 4))
        do(g, "2 raise 4")
        assert g.cur_bet == 8

    def test_fixed_short_stack_may_go_all_in(self) -> None:
        g = at_betting(betting="fixed", min_bet=4)
        set_stacks(g, [98, 3, 98])
        assert ranges(g) == ((3, 3), None)

    def test_max_raises(self) -> None:
        g = at_betting(max_raises=2)
        do(g, "1 bet 1", "2 raise 1", "0 raise 1")
        assert legal(g) == ["call", "junk"]
        do(g, "1 call", "2 call")
        assert g.phase == "card"

    def test_max_raises_zero_allows_bets_only(self) -> None:
        g = at_betting(max_raises=0)
        assert ranges(g)[0] is not None
        do(g, "1 bet 3")
        assert legal(g) == ["call", "junk"]

    def test_unlimited_raises_by_default(self) -> None:
        g = at_betting()
        do(g, "1 bet 1")
        seats = [2, 0, 1, 2, 0, 1, 2]
        for s in seats:
            do(g, f"{s} raise 1")
        assert g.raises == len(seats)
        assert g.legal().raise_ is not None

    @pytest.mark.parametrize(
        ("options", "match"),
        [
            ({"betting": "spread"}, "betting"),
            ({"min_bet": 0}, "min_bet"),
            ({"max_raises": -1}, "max_raises"),
            ({"gain_fee": -1}, "gain_fee"),
        ],
    )
    def test_bad_betting_options(self, options: dict[str, Any], match: str) -> None:
        with pytest.raises(sabacc.OptionError, match=match):
            sabacc.new_game("spike", players=3, seed=1, **options)


# ---------------------------------------------------------------------------- closing
class TestClosingAction:
    def test_cannot_reraise_own_raise(self) -> None:
        g = at_betting()
        do(g, "1 bet 2", "2 call")
        force_dice(g, False)
        do(g, "0 call")
        # Everybody matched: the bettor does not get to act again.
        assert g.phase == "card" and g.round == 2

    def test_reraise_after_someone_else_raised(self) -> None:
        g = at_betting()
        do(g, "1 bet 2", "2 raise 2", "0 call")
        assert g.current_player == 1 and g.legal().raise_ is not None
        do(g, "1 raise 2", "2 call")
        force_dice(g, False)
        do(g, "0 call")
        assert g.phase == "card"
        assert g.stacks == [92, 92, 92]

    def test_short_all_in_raise_does_not_reopen_the_betting(self) -> None:
        g = at_betting(min_bet=5)
        set_stacks(g, [98, 98, 7])
        do(g, "1 bet 5", "2 raise 2")  # seat 2 all-in: a raise of 2, less than the unit
        assert g.stacks[2] == 0 and g.cur_bet == 7
        # Seat 0 has not acted yet: it may raise.
        assert g.current_player == 0 and g.legal().raise_ == (5, 91)
        do(g, "0 call")
        # Seat 1 already acted and the short raise did not reopen: call or junk only.
        assert g.current_player == 1
        assert legal(g) == ["call", "junk"]
        force_dice(g, False)
        do(g, "1 call")
        assert g.phase == "card"

    def test_full_raise_reopens_the_betting(self) -> None:
        g = at_betting(min_bet=5)
        do(g, "1 bet 5", "2 raise 5", "0 call")
        assert g.current_player == 1 and g.legal().raise_ == (5, 88)

    def test_all_in_for_less_with_a_call(self) -> None:
        g = at_betting()
        set_stacks(g, [98, 98, 4])
        do(g, "1 bet 10")
        events = do(g, "2 call")
        assert [e for e in events if isinstance(e, ev.Paid)] == [ev.Paid(2, 4, "main", "call")]
        assert g.stacks[2] == 0
        assert g.observation(0)["seats"][2]["status"] == "all_in"
        assert any(isinstance(e, ev.Acted) and e.public == "call (all-in)" for e in events)
        force_dice(g, False)
        do(g, "0 call")
        assert g.phase == "card"

    def test_all_in_bet_for_less_than_the_unit(self) -> None:
        g = at_betting(min_bet=5)
        set_stacks(g, [98, 3, 98])
        assert ranges(g) == ((3, 3), None)
        do(g, "1 bet 3")
        assert g.stacks[1] == 0
        assert g.legal().raise_ == (5, 95)

    def test_all_in_players_are_skipped_in_later_betting_rounds(self) -> None:
        g = at_betting()
        set_stacks(g, [98, 98, 4])
        do(g, "1 bet 4", "2 call")
        force_dice(g, False)
        do(g, "0 call")
        to_phase(g, "betting")
        order = []
        while g.phase == "betting":
            order.append(g.current_player)
            force_dice(g, False)
            g.apply("check")
        assert order == [1, 0]

    def test_betting_skipped_when_only_one_player_has_chips(self) -> None:
        g = at_betting(players=2)
        force_dice(g, False)
        do(g, "1 bet 98", "0 call")
        assert g.stacks == [0, 0]
        assert g.phase == "card" and g.round == 2
        do(g, "1 stand")
        force_dice(g, False)
        do(g, "0 stand")
        # No betting phase: straight to the next card phase.
        assert g.phase == "card" and g.round == 3

    def test_raise_pointless_when_everyone_else_is_all_in(self) -> None:
        g = at_betting()
        set_stacks(g, [3, 98, 5])
        do(g, "1 bet 10", "2 call")
        assert g.current_player == 0
        assert legal(g) == ["call", "junk"]

    def test_junk_while_facing_a_bet(self) -> None:
        g = at_betting()
        do(g, "1 bet 5", "2 junk")
        force_dice(g, False)
        do(g, "0 call")
        assert g.phase == "card"
        assert g.pot_total() == 13


# ---------------------------------------------------------------------------- side pots
def side_pot_game(hands: dict[int, str], stacks: list[int]) -> tuple[Game, int]:
    """Three players, one hand; seat 1 shoves and both others call all-in for less."""
    g = sabacc.new_game("spike", players=3, seed=3, game_end="hands:1")
    arrange(g, hands=hands)
    total = set_stacks(g, stacks)
    to_phase(g, "betting")
    do(g, f"1 bet {stacks[1]}", "2 call", "0 call")
    return g, total


class TestSidePots:
    STACKS: ClassVar[list[int]] = [8, 38, 18]  # seat 0, 1, 2 after the antes

    def test_one_pot_when_everybody_matched(self) -> None:
        g = at_betting()
        do(g, "1 bet 5", "2 raise 3", "0 call", "1 call")
        to_phase(g, "betting")
        assert pots(g) == [(27, (0, 1, 2))]

    def test_no_side_pot_without_an_all_in(self) -> None:
        g = at_betting()
        do(g, "1 bet 5", "2 raise 3")
        # Nobody is all-in: every live seat can still win every credit in the pot.
        assert pots(g) == [(16, (0, 1, 2))]
        assert g.observation(0)["pots"]["side"] == [{"amount": 16, "eligible": [0, 1, 2]}]

    def test_three_way_all_in_pots(self) -> None:
        g, total = side_pot_game({1: "+9c +8c", 2: "+1c -1c", 0: "0 0"}, self.STACKS)
        # Seat 1's uncalled 20 went back to seat 1 when the betting closed.
        assert g.stacks == [0, 20, 0]
        assert g.committed == [9, 19, 19]
        assert any(
            isinstance(e, ev.BetReturned) and e.seat == 1 and e.amount == 20 for e in g.events
        )
        assert pots(g) == [(27, (0, 1, 2)), (20, (1, 2))]
        obs = g.observation(0)
        assert obs["pots"]["main"] == 47
        assert obs["pots"]["side"][:2] == [
            {"amount": 27, "eligible": [0, 1, 2]},
            {"amount": 20, "eligible": [1, 2]},
        ]
        assert g.total_credits() == total

    def test_shortest_stack_wins_main_middle_wins_side(self) -> None:
        g, total = side_pot_game({1: "+9c +8c", 2: "+1c -1c", 0: "0 0"}, self.STACKS)
        passive(g)
        assert g.is_over
        assert g.stacks == [27 + 3, 20, 20]  # main + sabacc; side 1; uncalled back
        res = awarded(g)
        assert res[0] == ("main", 27, (0,), (27,))
        assert res[1] == ("side 1", 20, (2,), (20,))
        assert ("sabacc", 3, (0,), (3,)) in res
        assert sum(g.stacks) == total

    def test_middle_stack_wins_main_and_side(self) -> None:
        g, total = side_pot_game({1: "+9c +8c", 2: "0 0", 0: "+1c -1c"}, self.STACKS)
        passive(g)
        assert g.stacks == [0, 20, 27 + 20 + 3]
        assert sum(g.stacks) == total

    def test_big_stack_wins_everything(self) -> None:
        g, total = side_pot_game({1: "0 0", 2: "+1c -1c", 0: "+9c +8c"}, self.STACKS)
        passive(g)
        assert g.stacks == [0, 67 + 3, 0]
        assert sum(g.stacks) == total

    def test_short_stack_best_hand_without_sabacc_pot(self) -> None:
        g, total = side_pot_game({1: "+9c +8c", 2: "+5c +1c", 0: "+1s +1t"}, self.STACKS)
        passive(g)
        # Seat 0 (+2) takes the main pot; seat 2 (+6) the side pot; no Sabacc: the sabacc pot
        # is left at the end of this one-hand game and split among the players.
        assert awarded(g)[:2] == [("main", 27, (0,), (27,)), ("side 1", 20, (2,), (20,))]
        assert sum(g.stacks) == total
        assert g.stacks == [27 + 1, 20 + 1, 20 + 1]

    def test_side_pot_tie_is_resolved_within_its_eligible_seats(self) -> None:
        g, total = side_pot_game(
            {1: "+2c -2c", 2: "+2s -2s", 0: "0 0"}, self.STACKS
        )  # seats 1 and 2 tie for the side pot; seat 0 wins the main pot
        g.options = g.options.replace(true_tie="split")
        passive(g)
        res = awarded(g)
        assert res[0] == ("main", 27, (0,), (27,))
        assert res[1] == ("side 1", 20, (1, 2), (10, 10))
        assert sum(g.stacks) == total

    def test_four_players_side_pot_grows_in_later_rounds(self) -> None:
        g = sabacc.new_game("spike", players=4, seed=9, game_end="hands:1")
        arrange(g, hands={1: "0 0", 2: "+1c -1c", 3: "+5c +1s", 0: "+9c +8c"})
        total = set_stacks(g, [50, 5, 15, 50])
        to_phase(g, "betting")
        do(g, "1 bet 5", "2 raise 10", "3 call")
        force_dice(g, False)
        do(g, "0 call")
        assert pots(g) == [(24, (0, 1, 2, 3)), (30, (0, 2, 3))]
        to_phase(g, "betting")
        assert g.current_player == 3  # seats 1 and 2 are all-in
        do(g, "3 bet 10")
        force_dice(g, False)
        do(g, "0 call")
        assert pots(g) == [(24, (0, 1, 2, 3)), (30, (0, 2, 3)), (20, (0, 3))]
        passive(g)
        res = awarded(g)
        assert res[:3] == [
            ("main", 24, (1,), (24,)),
            ("side 1", 30, (2,), (30,)),
            ("side 2", 20, (3,), (20,)),
        ]
        assert ("sabacc", 4, (1,), (4,)) in res
        assert g.stacks == [25, 28, 30, 45]
        assert sum(g.stacks) == total

    def test_folded_chips_stay_in_the_pots(self) -> None:
        g = sabacc.new_game("spike", players=4, seed=9, game_end="hands:1", true_tie="split")
        arrange(g, hands={1: "0 0", 2: "+1c -1c", 3: "+5c +1s", 0: "+9c +8c"})
        total = set_stacks(g, [50, 5, 15, 50])
        to_phase(g, "betting")
        do(g, "1 bet 5", "2 raise 10", "3 call")
        force_dice(g, False)
        do(g, "0 call")
        to_phase(g, "betting")
        do(g, "3 bet 10", "0 junk")
        # Seat 0's 16 stay in: main 24 (seats 1-3), side 30 (seats 2, 3); seat 3's uncalled
        # 10 went back to seat 3 when the betting closed.
        assert pots(g) == [(24, (1, 2, 3)), (30, (2, 3))]
        passive(g)
        assert g.stacks == [35, 24 + 4, 30, 25 + 10]
        assert sum(g.stacks) == total

    def test_all_in_player_with_sabacc_takes_the_sabacc_pot(self) -> None:
        g = sabacc.new_game("spike", players=3, seed=3, game_end="hands:1")
        arrange(g, hands={1: "+9c +8c", 2: "+5c +4c", 0: "+3c -3c"})
        set_stacks(g, [0, 98, 98])  # seat 0 is all-in from the ante
        to_phase(g, "betting")
        do(g, "1 bet 10", "2 call")
        passive(g)
        res = awarded(g)
        assert res[0] == ("main", 3, (0,), (3,))
        assert res[1] == ("side 1", 20, (2,), (20,))
        assert res[2] == ("sabacc", 3, (0,), (3,))

    def test_conservation_through_all_ins(self) -> None:
        g = sabacc.new_game("spike", players=4, seed=21, buy_in=6)
        check_credits(g)
        while not g.is_over:
            lg = g.legal()
            if lg.bet:
                g.apply(f"bet {lg.bet[1]}")
            elif sabacc.Call() in lg.fixed:
                g.apply("call")
            else:
                g.apply(lg.fixed[0])
            check_credits(g)
            check_cards(g)
        assert sum(g.payoffs) == 0
