"""Whole games for the bot tests: bots play every seat to the end, and a *shadow* bot reads
the same observations as one seat to show that the seat's bot plays its moves exactly."""

from __future__ import annotations

from collections.abc import Sequence

from sabacc.engine.protocol import GameProtocol
from sabacc.services.bots import Bot, decide


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
