"""``shrewd``: ``sharp`` with the profile model, each opponent's bets believed by the opening
and raise rates counted across the hands of a game (benchmarks/bots-lab.md, "Multi-hand games")."""

from __future__ import annotations

import sabacc
from sabacc.lab import SHREWD, Params, SharpBot
from sabacc.services.bots import decide, make_bot
from sabacc.services.bots.policy import view_from_observation
from tests.services.bots.games import decisions, long_game, moves_match


def play(opponent: str, hands: int, seed: int = 11) -> list[tuple[int, float, float, bool]]:
    """``shrewd`` in seat 0 against ``opponent`` for a game of ``hands`` hands; a fresh
    ``shrewd`` reads only the current hand's observations (a new one every hand). At each of
    shrewd's betting decisions where the opponent was aggressive this hand: (hand number,
    shrewd's p, the fresh bot's p, whether shrewd prices the call as if the stacks go in)."""
    game = long_game(2, seed, hands)
    bot = make_bot("shrewd", seed)
    assert isinstance(bot, SharpBot)
    other = make_bot(opponent, seed + 1)
    fresh, fresh_hand = make_bot("shrewd", seed), 0
    out: list[tuple[int, float, float, bool]] = []
    for obs, legal, _ in decisions(game, bot, other):
        if obs["hand"] != fresh_hand:
            fresh, fresh_hand = make_bot("shrewd", seed), obs["hand"]
        assert isinstance(fresh, SharpBot)
        fresh._observe(obs)
        view = view_from_observation(obs, legal)
        if bot._hand_aggr.get(1) and view.phase == "betting":
            out.append(
                (
                    obs["hand"],
                    bot.win_chance(view, obs)[0],
                    fresh.win_chance(view, obs)[0],
                    bot.wild(1),
                )
            )
    return out


def test_shrewd_is_sharp_with_the_profile_model() -> None:
    bot = make_bot("shrewd", 1)
    assert isinstance(bot, SharpBot) and bot.name == "shrewd"
    assert bot.params == SHREWD and SHREWD.profile > 0 and Params().profile == 0
    assert make_bot("shrewd", 1, probe=0.5).params.probe == 0.5  # type: ignore[attr-defined]


def test_a_maniacs_bets_are_believed_less_and_less_across_hands() -> None:
    seen = play("ref-maniac", hands=12)
    late = [(p, f, w) for hand, p, f, w in seen if hand >= 6]
    assert late
    # after a few hands of counted bets and raises, shrewd narrows the maniac's range less
    # than a bot that only knows this hand, and expects it to keep raising
    assert all(p >= f - 1e-12 for p, f, _w in late)
    assert any(p > f + 0.01 for p, f, _w in late)
    assert all(w for _p, _f, w in late)
    assert not any(w for hand, _p, _f, w in seen if hand == 1)


def test_a_tight_player_is_never_priced_as_a_maniac() -> None:
    seen = play("ref-tight", hands=40)
    assert seen
    assert not any(w for *_x, w in seen)


def test_counted_rates_follow_the_opponent() -> None:
    def rates(opponent: str) -> tuple[float, float]:
        game = sabacc.new_game("spike", players=2, seed=5, log=False, game_end="hands:10")
        bots = [make_bot("shrewd", 1), make_bot(opponent, 2)]
        while not game.is_over:
            seat = game.current_player
            assert seat is not None
            game.apply(decide(bots[seat], game, seat), seat=seat)
        me = bots[0]
        assert isinstance(me, SharpBot)
        return me.bet_credibility(1)

    maniac, station, tight = rates("ref-maniac"), rates("ref-station"), rates("ref-tight")
    assert station == (1.0, 1.0)
    assert maniac[0] < 0.7 and maniac[1] < 0.7
    assert tight[0] > maniac[0] and tight[1] > maniac[1]


def test_at_a_table_of_three_or_more_shrewd_plays_sharp() -> None:
    game = sabacc.new_game("spike", players=4, seed=9, log=False, game_end="hands:8", buy_in=10_000)
    bots = [make_bot("shrewd", 4), make_bot("ref-maniac", 1), make_bot("ismcts:4", 2)]
    bots.append(make_bot("ref-tight", 3))
    shadow = make_bot("sharp", 4)
    moves_match(game, bots, shadow)
