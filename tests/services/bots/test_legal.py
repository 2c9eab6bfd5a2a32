"""Bots only ever return legal actions, in every variant, with 2 to 4 seats."""

from __future__ import annotations

import random

import pytest

import sabacc
import sabacc.lab
from sabacc.services.bots import decide, make_bot

BOTS = ["random", "heuristic", "ismcts:6", "sharp", "shark", "shrewd", "wily", "canny", "sharpmc:6"]


@pytest.mark.parametrize("variant", sabacc.variant_names())
@pytest.mark.parametrize("bot", BOTS)
def test_bots_play_only_legal_actions(variant: str, bot: str) -> None:
    rng = random.Random(f"{variant}-{bot}")
    games = 2 if bot.startswith("ismcts") else 6
    for g in range(games):
        players = 2 + g % 3
        game = sabacc.new_game(
            variant, players=players, seed=rng.randrange(10**9), log=False, game_end="hands:2"
        )
        bots = [make_bot(bot, seed=rng.randrange(10**9)) for _ in range(players)]
        steps = 0
        while not game.is_over:
            seat = game.current_player
            assert seat is not None
            action = decide(bots[seat], game, seat)
            assert game.is_legal(action), (variant, bot, game.phase, action, game.legal())
            game.apply(action, seat=seat)
            steps += 1
            assert steps < 5000
        assert sum(game.payoffs) + game.house == 0


@pytest.mark.parametrize("variant", sabacc.variant_names())
def test_heuristic_act_without_harness(variant: str) -> None:
    """The plain protocol (observation + legal list) works too, search bots included."""
    game = sabacc.new_game(variant, players=3, seed=5, log=False, game_end="hands:1")
    bots = [make_bot("heuristic", 1), make_bot("ismcts:4", 2), make_bot("random", 3)]
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        legal = game.legal_actions()
        action = bots[seat].act(game.observation(seat), legal)
        assert action in legal
        game.apply(action)
