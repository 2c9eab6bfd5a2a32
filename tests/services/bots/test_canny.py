"""``canny``: ``shrewd`` heads-up, and at a multi-way table a small steal whenever nobody has bet,
kept up only while its own opening bets into several opponents take the pot at once
(benchmarks/bots-lab.md, "Multi-way play")."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import sabacc
from sabacc.lab import CANNY, SHREWD, Params, SharpBot
from sabacc.services.bots import make_bot
from sabacc.services.bots._multiway import BetRecord, acting_order, acts_last
from tests.services.bots.games import long_game, moves_match, play_out


def play_table(opponent: str, hands: int, seed: int) -> SharpBot:
    """``canny`` in seat 0 against three ``opponent``s for a game of ``hands`` hands."""
    game = long_game(4, seed, hands)
    bots = [make_bot("canny", seed)] + [make_bot(opponent, seed + i) for i in (1, 2, 3)]
    play_out(game, bots)
    me = bots[0]
    assert isinstance(me, SharpBot)
    return me


def test_canny_is_shrewd_with_the_multiway_steal() -> None:
    bot = make_bot("canny", 1)
    assert isinstance(bot, SharpBot) and bot.name == "canny"
    assert bot.params == CANNY and CANNY.mw_steal > 0 and Params().mw_steal == 0
    assert CANNY.profile == SHREWD.profile and CANNY.table_max == SHREWD.table_max


def test_heads_up_canny_plays_shrewds_moves() -> None:
    game = sabacc.new_game("spike", players=2, seed=4, log=False, game_end="hands:8")
    bots = [make_bot("canny", 6), make_bot("ref-maniac", 1)]
    shadow = make_bot("shrewd", 6)
    moves_match(game, bots, shadow)


def test_the_steals_stop_against_players_who_call_and_go_on_against_folders() -> None:
    # ref-station calls every bet: the record falls below its line after a few failed bets
    # and the steals stop; sharp junks most hands facing a bet multi-way, so they go on.
    stations = [play_table("ref-station", 12, seed) for seed in (1, 2, 3)]
    folders = [play_table("sharp", 12, seed) for seed in (1, 2, 3)]
    for bot in stations:
        assert bot.opening.rate < CANNY.mw_learn
        assert bot.opening.steals <= 3
    assert sum(b.opening.steals for b in folders) > sum(b.opening.steals for b in stations)
    assert max(b.opening.rate for b in folders) > CANNY.mw_learn


def test_sharp_never_steals() -> None:
    game = sabacc.new_game("spike", players=4, seed=2, log=False, game_end="hands:6")
    bots = [make_bot("sharp", 1)] + [make_bot("sharp", i) for i in (2, 3, 4)]
    play_out(game, bots)
    assert all(isinstance(b, SharpBot) and b.opening.steals == 0 for b in bots)


def test_the_bet_record_counts_only_a_pending_bet_once() -> None:
    record = BetRecord(1.0, 4.0)
    assert record.rate == 0.25
    record.answered(3, True)  # nothing pending: nothing counted
    assert (record.wins, record.bets) == (1.0, 4.0)
    record.opened(3)
    record.answered(4, True)  # another hand's answer does not count for it
    assert record.bets == 4.0
    record.answered(3, True)
    record.answered(3, False)  # already answered
    assert (record.wins, record.bets) == (2.0, 5.0)
    record.opened(5)
    record.answered(5, False)
    assert (record.wins, record.bets) == (2.0, 6.0)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 6),
    st.integers(0, 5),
    st.lists(st.integers(0, 5), min_size=1, max_size=5, unique=True),
)
def test_exactly_one_seat_acts_last(seats: int, dealer: int, chosen: list[int]) -> None:
    dealer %= seats
    live = sorted({s % seats for s in chosen})
    order = acting_order(dealer, seats, live)
    assert sorted(order) == live
    last = [s for s in live if acts_last(s, dealer, seats, [o for o in live if o != s])]
    assert last == [order[-1]]
    # the seat on the dealer's left speaks first, the dealer last
    if len(live) == seats:
        assert order[0] == (dealer + 1) % seats and order[-1] == dealer


def test_a_game_that_started_multiway_keeps_sharps_model_after_eliminations() -> None:
    # canny at a 4-seat game is sharp with the steal, move for move, also once seats are out
    # and two players are left (shrewd would switch to its profile model there).
    steal = {k: getattr(CANNY, k) for k in Params.__dataclass_fields__ if k.startswith("mw_")}
    game = sabacc.new_game("spike", players=4, seed=3, log=False, game_end="hands:40")
    bots = [make_bot("canny", 8)] + [make_bot("ref-maniac", i) for i in (1, 2, 3)]
    shadow = make_bot("sharp", 8, **steal)
    assert moves_match(game, bots, shadow) > 0  # some of them with two players left
