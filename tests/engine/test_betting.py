"""The pure betting helpers: ``Legal``, ``size_range``, ``build_pots``, ``split_amount``."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sabacc.core.actions import CALL, CHECK, JUNK, STAND, Bet, Raise
from sabacc.engine.betting import NO_ACTIONS, Legal, Pot, build_pots, size_range, split_amount


class TestLegal:
    def test_contains_and_actions(self) -> None:
        lg = Legal((CHECK, JUNK), (2, 5), None)
        assert lg.contains(CHECK) and lg.contains(JUNK)
        assert not lg.contains(CALL)
        assert [lg.contains(Bet(i)) for i in range(1, 7)] == [False, True, True, True, True, False]
        assert not lg.contains(Raise(3))
        assert lg.actions() == [CHECK, JUNK, Bet(2), Bet(3), Bet(4), Bet(5)]
        assert lg.count() == 6

    def test_raise_range(self) -> None:
        lg = Legal((CALL, JUNK), None, (1, 3))
        assert lg.actions() == [CALL, JUNK, Raise(1), Raise(2), Raise(3)]
        assert lg.contains(Raise(3)) and not lg.contains(Raise(4)) and not lg.contains(Bet(1))

    def test_large_ranges_are_listed(self) -> None:
        lg = Legal((), (1, 3000), None)
        acts = lg.actions()
        assert len(acts) == 3000 == lg.count()
        assert acts[-1] == Bet(3000)

    def test_to_dict(self) -> None:
        assert Legal((STAND,)).to_dict() == {"actions": ["stand"], "bet": None, "raise": None}
        assert Legal((CALL,), None, (1, 4)).to_dict() == {
            "actions": ["call"],
            "bet": None,
            "raise": [1, 4],
        }

    def test_no_actions(self) -> None:
        assert NO_ACTIONS.actions() == [] and NO_ACTIONS.count() == 0
        assert not NO_ACTIONS.contains(STAND)


class TestSizeRange:
    def test_no_limit(self) -> None:
        assert size_range("no_limit", 1, 98, 3) == (1, 98)
        assert size_range("no_limit", 5, 98, 3) == (5, 98)

    def test_pot_limit(self) -> None:
        assert size_range("pot_limit", 1, 98, 3) == (1, 3)
        assert size_range("pot_limit", 1, 98, 30) == (1, 30)
        assert size_range("pot_limit", 5, 98, 3) == (5, 5)  # at least one unit
        assert size_range("pot_limit", 1, 10, 30) == (1, 10)  # capped by the stack

    def test_fixed(self) -> None:
        assert size_range("fixed", 2, 98, 50) == (2, 2)
        assert size_range("fixed", 4, 3, 50) == (3, 3)  # all-in for less

    def test_all_in_for_less_and_nothing_left(self) -> None:
        assert size_range("no_limit", 5, 3, 10) == (3, 3)
        assert size_range("no_limit", 1, 0, 10) is None
        assert size_range("pot_limit", 1, -2, 10) is None

    @given(
        st.sampled_from(["no_limit", "pot_limit", "fixed"]),
        st.integers(1, 20),
        st.integers(-5, 500),
        st.integers(0, 500),
    )
    @settings(max_examples=300, deadline=None)
    def test_range_properties(self, structure: str, unit: int, stack: int, pot: int) -> None:
        r = size_range(structure, unit, stack, pot)
        if stack <= 0:
            assert r is None
            return
        assert r is not None
        lo, hi = r
        assert 1 <= lo <= hi <= stack
        assert lo == min(unit, stack)
        if structure == "fixed":
            assert lo == hi
        if structure == "pot_limit":
            assert hi == min(stack, max(unit, pot))
        if structure == "no_limit":
            assert hi == stack


class TestBuildPots:
    def test_everyone_matched_is_one_pot(self) -> None:
        assert build_pots([5, 5, 5], [0, 1, 2]) == [Pot(15, (0, 1, 2))]

    def test_three_way_all_in(self) -> None:
        pots = build_pots([9, 39, 19], [0, 1, 2])
        assert pots == [Pot(27, (0, 1, 2)), Pot(20, (1, 2)), Pot(20, (1,))]

    def test_folded_chips_fill_the_pots(self) -> None:
        # Seat 3 folded after putting in 16: 6 go to the main pot, 10 to the side pot.
        pots = build_pots([6, 16, 16, 16], [0, 1, 2], dead=0)
        assert pots == [Pot(24, (0, 1, 2)), Pot(30, (1, 2))]
        pots = build_pots([16, 6, 16, 26], [1, 2, 3])
        assert pots == [Pot(24, (1, 2, 3)), Pot(30, (2, 3)), Pot(10, (3,))]

    def test_folded_above_the_live_level(self) -> None:
        pots = build_pots([20, 5, 5], [1, 2])
        assert pots == [Pot(30, (1, 2))]

    def test_dead_money_joins_the_main_pot(self) -> None:
        assert build_pots([4, 2, 4], [0, 1, 2], dead=5) == [Pot(11, (0, 1, 2)), Pot(4, (0, 2))]

    def test_no_live_seats(self) -> None:
        assert build_pots([3, 3], [], dead=2) == [Pot(8, ())]

    @given(
        st.lists(st.integers(0, 60), min_size=2, max_size=8),
        st.data(),
        st.integers(0, 20),
    )
    @settings(max_examples=300, deadline=None)
    def test_pot_properties(self, committed: list[int], data: st.DataObject, dead: int) -> None:
        n = len(committed)
        live = data.draw(st.lists(st.sampled_from(range(n)), min_size=1, unique=True))
        live.sort()
        pots = build_pots(committed, live, dead)
        assert sum(p.amount for p in pots) == sum(committed) + dead
        assert all(p.amount >= 0 for p in pots)
        # Each pot's eligible seats are live, and eligibility shrinks pot after pot.
        for a, b in pairwise(pots):
            assert set(b.eligible) < set(a.eligible)
        assert pots[0].eligible == tuple(live)
        # Every live seat can win exactly what it could in poker: from each seat, up to its own
        # stake. (Folded chips above every live stake go with the top pot.)
        top = max(committed[s] for s in live)
        above = sum(max(0, c - top) for c in committed)
        for s in live:
            mine = sum(p.amount for p in pots if s in p.eligible)
            poker = dead + sum(min(c, committed[s]) for c in committed)
            assert mine == poker + (above if s in pots[-1].eligible else 0)


class TestSplitAmount:
    @pytest.mark.parametrize(
        ("amount", "k", "shares"),
        [(3, 2, [2, 1]), (10, 3, [4, 3, 3]), (2, 3, [1, 1, 0]), (9, 1, [9]), (0, 2, [0, 0])],
    )
    def test_shares(self, amount: int, k: int, shares: list[int]) -> None:
        assert split_amount(amount, list(range(k))) == shares

    @given(st.integers(0, 1000), st.integers(1, 8))
    def test_split_properties(self, amount: int, k: int) -> None:
        shares = split_amount(amount, list(range(k)))
        assert sum(shares) == amount
        assert max(shares) - min(shares) <= 1
        assert shares == sorted(shares, reverse=True)  # odd credits go first
