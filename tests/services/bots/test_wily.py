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
    assert seen.big_open_rate <= 0.25 < seen.small_open_rate
    small, large = sharp.size_credibility(1)
    assert large == 1.0 and small < 0.5
    # a maniac's large bets come every hand: hardly believed (the ratio, before its 5th power)
    maniac = game_against("ref-maniac", 20)
    assert maniac.seen[1].big_open_rate > 0.4
    assert maniac.size_credibility(1)[1] < 0.5
    # a player who rarely bets is believed, whatever the size
    assert game_against("ref-station", 20).size_credibility(1) == (1.0, 1.0)


def narrowed(seed: int, hands: int = 40) -> list[tuple[int, int, float, float, float]]:
    """At each of wily's betting decisions facing a bet of ``sharp`` (no raise this hand) after
    the game's first five hands: (sharp's large bets this hand, its bets, wily's p, the
    unnarrowed p, the posterior that sharp is a wild player)."""
    game = long_game(2, seed, hands)
    bot = make_bot("wily", seed)
    assert isinstance(bot, SharpBot)
    other = make_bot("sharp", seed + 1)
    out: list[tuple[int, int, float, float, float]] = []
    for obs, legal, _ in decisions(game, bot, other):
        view = view_from_observation(obs, legal)
        bets = bot._hand_bets.get(1, 0)
        if obs["hand"] > 5 and view.to_call > 0 and bets and bot._hand_aggr.get(1) == bets:
            big = bot._hand_big.get(1, 0)
            p = bot.win_chance(view, obs)[0]
            out.append((big, bets, p, plain_q(view), bot.wild_share(1)))
    return out


def plain_q(view: View) -> float:
    """The unnarrowed chance to beat one opponent (as the bot clamps it)."""
    return min(0.999, max(0.001, _model(view.variant).win_chance(view)))


def test_a_large_bet_narrows_the_range_and_a_small_one_hardly() -> None:
    spots = narrowed(3)
    large = [(big, p, q, m) for big, _bets, p, q, m in spots if big]
    small = [(bets, p, q) for big, bets, p, q, _m in spots if not big]
    assert len(large) >= 3 and len(small) >= 10
    # each large bet of sharp's is believed fully: at least the profile's narrowing of 2 each,
    # but for the share of a wild player, which sharp's checks and calls soon make negligible
    assert all(p <= m * q + (1 - m) * q ** (1 + 2 * big) + 1e-9 for big, p, q, m in large)
    assert large[-1][3] < 1e-6
    # its small bets (a third of the pot, most hands) hardly narrow
    assert all(p >= q ** (1 + 0.2 * bets) - 1e-9 for bets, p, q in small)
    assert all(p < q for _bets, p, q in small if q < 0.999)


#: ``wily`` as its heads-up proof played it: the bet sizes read, without the multi-way steal.
HEADS_UP = {k: getattr(WILY, k) for k in ("big_bet", "open_honest", "wild_prior")}


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


def first_hand_calls(prior: float, deals: int = 60) -> tuple[int, int]:
    """(calls, decisions) of wily (``wild_prior=prior``) facing a fresh ``ref-shover``'s all-in
    in the first hand of heads-up games, over ``deals`` seeds."""
    calls = faced = 0
    for seed in range(deals):
        game = sabacc.new_game(
            "corellian_spike", players=2, seed=seed, log=False, game_end="hands:1"
        )
        bot = make_bot("wily", seed, wild_prior=prior)
        for obs, _legal, action in decisions(game, bot, make_bot("ref-shover", seed + 1)):
            if int(obs["betting"]["to_call"]) > 0 and int(obs["pots"]["main"]) > 0:
                faced += 1
                calls += type(action).__name__ != "Junk"
    return calls, faced


def test_a_fresh_shover_is_not_believed_fully() -> None:
    # without the wild prior every first-hand shove was folded (issue 36); with it wily
    # calls the strong part of its range, and the posterior is bounded by the prior
    before, faced = first_hand_calls(0.0)
    after, faced_after = first_hand_calls(WILY.wild_prior)
    assert faced > 30 and faced_after > 30
    assert before == 0 and after >= faced_after // 6
    bot = make_bot("wily", 1)
    assert isinstance(bot, SharpBot) and bot.wild_share(1) == pytest.approx(WILY.wild_prior)
    assert Params().wild_prior == 0 and SHREWD.wild_prior == 0  # the lab's constants unchanged
