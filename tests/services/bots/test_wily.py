"""``wily``: ``shrewd`` with bet sizes read. An opponent's large bets (at least 70% of the pot
before them) and its small ones are counted apart across the hands of a game, each believed by
its own rate (benchmarks/bots-lab.md, "Bet sizes read: `wily`")."""

from __future__ import annotations

import pytest

import sabacc
from sabacc.engine.bots import View
from sabacc.lab import SHREWD, WILY, Params, SharpBot
from sabacc.services.bots import make_bot
from sabacc.services.bots.policy import _model, view_from_observation
from tests.services.bots.games import decisions, long_game, moves_match, play_out


def game_against(opponent: str, hands: int, seed: int = 5) -> SharpBot:
    """``wily`` in seat 0 after a game of ``hands`` hands against ``opponent``."""
    game = long_game(2, seed, hands)
    bots = [make_bot("wily", 1), make_bot(opponent, 2)]
    play_out(game, bots)
    me = bots[0]
    assert isinstance(me, SharpBot)
    return me


def test_wily_is_shrewd_reading_bet_sizes() -> None:
    bot = make_bot("wily", 1)
    assert isinstance(bot, SharpBot) and bot.name == "wily"
    assert bot.params == WILY and WILY.big_bet > 0
    assert Params().big_bet == 0 and SHREWD.big_bet == 0  # sharp and shrewd unchanged
    assert WILY.profile == SHREWD.profile and WILY.table_max == SHREWD.table_max == 2


def test_the_sizes_counted_follow_the_opponent() -> None:
    # sharp bets a third of the pot whenever its hand is playable and 70-100% of it for value:
    # its large bets are rare (believed fully), its small ones frequent (believed little)
    sharp = game_against("sharp", 20)
    seen = sharp.seen[1]
    assert seen.big_open_rate < 0.25 < seen.small_open_rate
    small, large = sharp.size_credibility(1)
    assert large == 1.0 and small < 0.5
    # a maniac's large bets come every hand: hardly believed (the ratio, before its 5th power)
    maniac = game_against("ref-maniac", 20)
    assert maniac.seen[1].big_open_rate > 0.4
    assert maniac.size_credibility(1)[1] < 0.5
    # a player who rarely bets is believed, whatever the size
    assert game_against("ref-station", 20).size_credibility(1) == (1.0, 1.0)


def narrowed(seed: int, hands: int = 40) -> list[tuple[int, int, float, float]]:
    """At each of wily's betting decisions facing a bet of ``sharp`` (no raise this hand) after
    the game's first five hands: (sharp's large bets this hand, its bets, wily's p, the
    unnarrowed p)."""
    game = long_game(2, seed, hands)
    bot = make_bot("wily", seed)
    assert isinstance(bot, SharpBot)
    other = make_bot("sharp", seed + 1)
    out: list[tuple[int, int, float, float]] = []
    for obs, legal, _ in decisions(game, bot, other):
        view = view_from_observation(obs, legal)
        bets = bot._hand_bets.get(1, 0)
        if obs["hand"] > 5 and view.to_call > 0 and bets and bot._hand_aggr.get(1) == bets:
            big = bot._hand_big.get(1, 0)
            out.append((big, bets, bot.win_chance(view, obs)[0], plain_q(view)))
    return out


def plain_q(view: View) -> float:
    """The unnarrowed chance to beat one opponent (as the bot clamps it)."""
    return min(0.999, max(0.001, _model(view.variant).win_chance(view)))


def test_a_large_bet_narrows_the_range_and_a_small_one_hardly() -> None:
    spots = narrowed(3)
    large = [(big, p, q) for big, _bets, p, q in spots if big]
    small = [(bets, p, q) for big, bets, p, q in spots if not big]
    assert len(large) >= 3 and len(small) >= 10
    # each large bet of sharp's is believed fully: at least the profile's narrowing of 2 each
    assert all(p <= q ** (1 + 2 * big) + 1e-9 for big, p, q in large)
    # its small bets (a third of the pot, most hands) hardly narrow
    assert all(p >= q ** (1 + 0.2 * bets) - 1e-9 for bets, p, q in small)
    assert all(p < q for _bets, p, q in small if q < 0.999)


#: ``wily`` as its heads-up proof played it: the bet sizes read, without the multi-way steal.
HEADS_UP = {k: getattr(WILY, k) for k in ("big_bet", "open_honest")}


@pytest.mark.parametrize("opponent", ["sharp", "ref-maniac", "ismcts:4"])
def test_heads_up_wily_plays_its_proofs_moves(opponent: str) -> None:
    # the multi-way steal needs two opponents in: heads-up wily is the bot its proof measured
    assert WILY.mw_steal > 0
    game = sabacc.new_game(
        "spike", players=2, seed=9, log=False, game_end="hands:10", buy_in=10_000
    )
    bots = [make_bot("wily", 4), make_bot(opponent, 1)]
    moves_match(game, bots, make_bot("shrewd", 4, **HEADS_UP))


@pytest.mark.parametrize("opponents", [("sharp", "ref-maniac"), ("ref-maniac",) * 3])
def test_at_a_table_of_three_or_more_wily_plays_canny(opponents: tuple[str, ...]) -> None:
    # canny's multi-way play (sharp with the learnt steal), also once eliminations leave two
    game = sabacc.new_game(
        "spike", players=len(opponents) + 1, seed=3, log=False, game_end="hands:40"
    )
    bots = [make_bot("wily", 8)] + [make_bot(o, i) for i, o in enumerate(opponents, 1)]
    heads_up = moves_match(game, bots, make_bot("canny", 8))
    assert heads_up > 0 or len(opponents) == 2
