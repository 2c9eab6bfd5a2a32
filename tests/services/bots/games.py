"""Whole games for the bot tests: bots play every seat to the end, and a *shadow* bot reads
the same observations as one seat to show that the seat's bot plays its moves exactly."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import sabacc
from sabacc.core.actions import Action
from sabacc.engine.game import Game
from sabacc.engine.observation import Observation
from sabacc.engine.protocol import GameProtocol
from sabacc.services.bots import Bot, decide


def long_game(players: int, seed: int, hands: int) -> Game:
    """A Corellian Spike game of ``hands`` hands, the stacks deep enough to last them all."""
    return sabacc.new_game(
        "spike", players=players, seed=seed, log=False, game_end=f"hands:{hands}", buy_in=10_000
    )


def decisions(
    game: GameProtocol, bot: Bot, other: Bot
) -> Iterator[tuple[Observation, list[Action], Action]]:
    """A heads-up game played to its end, ``bot`` in seat 0 and ``other`` in seat 1: each of
    ``bot``'s decisions is yielded (its observation, the legal actions, its move) before the
    move is applied, so a test can look inside the bot at that moment."""
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        if seat == 1:
            game.apply(decide(other, game, 1), seat=1)
            continue
        obs, legal = game.observation(0), game.legal_actions()
        action = decide(bot, game, 0)
        yield obs, legal, action
        game.apply(action, seat=0)


def play_out(game: GameProtocol, bots: Sequence[Bot]) -> None:
    """Play ``game`` to its end, each seat's move from its bot."""
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        game.apply(decide(bots[seat], game, seat), seat=seat)


def moves_match(game: GameProtocol, bots: Sequence[Bot], shadow: Bot, seat: int = 0) -> int:
    """Play ``game`` to its end and check at each of ``seat``'s decisions that ``shadow``,
    shown the same observation, makes the same move; returns the heads-up decisions among
    them (two players left)."""
    heads_up = decisions = 0
    while not game.is_over:
        turn = game.current_player
        assert turn is not None
        action = decide(bots[turn], game, turn)
        if turn == seat:
            obs = game.observation(seat)
            assert shadow.act(obs, game.legal_actions()) == action
            decisions += 1
            heads_up += sum(1 for s in obs["seats"] if s["status"] != "out") == 2
        game.apply(action, seat=turn)
    assert decisions > 20, decisions
    return heads_up
