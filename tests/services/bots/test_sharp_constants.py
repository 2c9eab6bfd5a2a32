"""``sharp`` under other constants (``shark``, ``shrewd``, ``wily``, ``canny``): each is
deterministic with a seed and refuses a seat not to act, a spectator's view and a finished game,
as every bot must."""

from __future__ import annotations

import pytest

import sabacc
import sabacc.lab
from sabacc.core.errors import NotToActError, OptionError
from sabacc.services.bots import decide, make_bot

NAMES = ("shark", "shrewd", "wily", "canny")


@pytest.mark.parametrize("name", NAMES)
def test_same_seed_same_decisions(name: str) -> None:
    def actions(seed: int) -> list[str]:
        game = sabacc.new_game("spike", players=3, seed=7, log=False, game_end="hands:6")
        bots = [make_bot(name, seed), make_bot("heuristic", 2), make_bot("ref-maniac", 3)]
        played = []
        while not game.is_over:
            seat = game.current_player
            assert seat is not None
            action = decide(bots[seat], game, seat)
            played.append(str(action))
            game.apply(action, seat=seat)
        return played

    assert actions(5) == actions(5)


@pytest.mark.parametrize("name", NAMES)
def test_it_refuses_a_seat_not_to_act_and_a_finished_game(name: str) -> None:
    game = sabacc.new_game("spike", players=2, seed=3, log=False, game_end="hands:1")
    seat = game.current_player
    assert seat is not None
    with pytest.raises(NotToActError, match="not to act"):
        make_bot(name, 1).act(game.observation(1 - seat), game.legal_actions())
    with pytest.raises(NotToActError, match="spectator"):
        make_bot(name, 1).act(game.observation(None), game.legal_actions())
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    with pytest.raises(NotToActError, match="the game is over"):
        decide(make_bot(name, 1), game)


@pytest.mark.parametrize("name", NAMES)
def test_a_colon_parameter_or_an_unknown_constant_is_an_option_error(name: str) -> None:
    with pytest.raises(OptionError, match=f"the {name} bot takes no parameter"):
        make_bot(f"{name}:3")
    with pytest.raises(OptionError, match=f"{name} bot"):
        make_bot(name, 1, no_such_constant=1.0)
