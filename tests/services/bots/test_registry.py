"""The bot registry: names, budgets, errors, determinism for a seed."""

from __future__ import annotations

import pytest

import sabacc
from sabacc.core.errors import OptionError
from sabacc.services.bots import BOTS, Bot, IsmctsBot, bot_names, decide, make_bot


def test_registry_names() -> None:
    assert {"random", "heuristic", "ismcts"} <= set(bot_names())
    assert set(bot_names()) == set(BOTS)
    for name in bot_names():
        assert isinstance(make_bot(name, 1), Bot)


def test_budgets_from_the_name() -> None:
    bot = make_bot("ismcts:123", 1)
    assert isinstance(bot, IsmctsBot)
    assert bot.playouts == 123 and bot.seconds is None
    assert bot.name == "ismcts:123"
    timed = make_bot("ismcts:0.25s", 1)
    assert isinstance(timed, IsmctsBot) and timed.seconds == 0.25
    keyword = make_bot("ismcts", 1, playouts=50)
    assert isinstance(keyword, IsmctsBot) and keyword.playouts == 50


@pytest.mark.parametrize("bad", ["nobody", "ismcts:lots", "random:3", "ismcts:0", "heuristic:x"])
def test_bad_bot_names(bad: str) -> None:
    with pytest.raises(OptionError):
        make_bot(bad, 1)


@pytest.mark.parametrize("name", ["random", "heuristic", "ismcts:12"])
def test_same_seed_same_game(name: str) -> None:
    def run(seed: int) -> list[tuple[int, str]]:
        game = sabacc.new_game("spike", players=3, seed=11, log=False, game_end="hands:1")
        bots = [make_bot(name, seed + s) for s in range(3)]
        while not game.is_over:
            seat = game.current_player
            assert seat is not None
            game.apply(decide(bots[seat], game, seat))
        return list(game.actions)

    assert run(1) == run(1)
