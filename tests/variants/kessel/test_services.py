"""Kessel Sabacc through the services: exact odds (RULES.md §4 reference figures), option odds,
the heuristic's value function and token use, and the words of its events."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from typer.testing import CliRunner

import sabacc
from sabacc.apps.cli import app
from sabacc.services.bots import decide, make_bot
from sabacc.services.odds import hand_distribution, improve_odds_codes, option_odds
from sabacc.services.render import action_label, describe_event, vocabulary
from sabacc.variants import compiled
from sabacc.variants.kessel.actions import ChipsLost, TokenPlayed
from sabacc.variants.kessel.bot import KesselBot
from sabacc.variants.kessel.rules import KesselGame
from sabacc.variants.kessel.tokens import TOKENS

ENGINES = ["python", "compiled"] if compiled.available("kessel") else ["python"]

runner = CliRunner()


def test_reference_figures() -> None:
    dist = hand_distribution("kessel", 2)
    assert dist.p_name("Pure Sabacc") == Fraction(1, 484)
    assert dist.p_total(0) == Fraction(1077, 3872)  # any Sabacc on the deal, Pure included
    assert sum(dist.names.values()) == dist.outcomes


def test_cli_odds_prints_the_figures_and_hand_options() -> None:
    result = runner.invoke(app, ["odds", "-v", "kessel"])
    assert result.exit_code == 0, result.output
    assert "1/484" in result.output and "1077/3872" in result.output
    result = runner.invoke(app, ["odds", "-v", "kessel", "--hand", "3s 5b", "--discard", "4s 1b"])
    assert result.exit_code == 0, result.output
    for option in ("stand", "draw sand", "draw blood", "draw sand discard", "draw blood discard"):
        assert option in result.output


def test_option_odds_of_a_known_discard() -> None:
    odds = {o.action: o for o in improve_odds_codes("kessel", ["3s", "5b"], tops=["5s"]) or []}
    assert odds["draw sand discard"].better == 1 and odds["draw sand discard"].sabacc == 1
    assert odds["stand"].same == 1
    for o in odds.values():
        assert o.better + o.same + o.worse == 1


def test_keep_or_discard_odds_in_the_draw_phase() -> None:
    game = sabacc.new_game("kessel", players=2, seed=5, shift_tokens="none")
    game.apply("draw sand")
    obs = game.observation(game.current_player)
    assert [o.action for o in option_odds(obs)] == ["keep", "discard"]


def test_value_function_orders_hands() -> None:
    bot = KesselBot()
    from sabacc.variants.kessel.bot import _quality_table
    from sabacc.variants.kessel.hands import Rules

    q = _quality_table(Rules(), bot.counts)
    assert q[(0, 0)] > q[(1, 1)] > q[(6, 6)] > q[(2, 3)] > q[(1, 6)]
    reverse = _quality_table(Rules(cook_the_books=True), bot.counts)
    assert reverse[(6, 6)] > reverse[(1, 1)]


def test_heuristic_takes_a_sabacc_from_the_discard_and_stands_on_it() -> None:
    for seed in range(40):
        game = sabacc.new_game("kessel", players=2, seed=seed, shift_tokens="none")
        me = game.current_player
        assert me is not None and isinstance(game, KesselGame)
        sand, blood = game.hands[me]
        top = game.blood_discard[-1]
        if sand.value in (1, 2, 3, 4, 5, 6) and top.value == sand.value != blood.value:
            bot = make_bot("heuristic", seed=1)
            assert str(decide(bot, game)) == "draw blood discard"
            game.apply("draw blood discard")
            assert str(decide(bot, game)) == "keep"
            return
    raise AssertionError("no seed deals a Sabacc on the Blood discard")


def test_heuristic_refunds_only_a_pot_worth_it() -> None:
    played = []
    for seed in range(30):
        game = sabacc.new_game("kessel", players=2, seed=seed, shift_tokens="refund", turns=2)
        bot = make_bot("heuristic", seed=seed)
        while not game.is_over and game.hand_no <= 2:
            seat = game.current_player
            assert seat is not None and isinstance(game, KesselGame)
            action = decide(bot, game)
            if str(action).startswith("token"):
                played.append((game.turn, game.committed[seat]))
            game.apply(action, seat=seat)
    assert played and all(pot >= 1 and (turn == 2 or pot >= 3) for turn, pot in played)


@pytest.mark.parametrize("engine", ENGINES)
def test_the_view_read_from_the_game_is_the_observations(engine: str) -> None:
    """``KesselBot.view_from_game`` (what search rollouts on the reference game read) gives
    every seat, at every step, the situation, legal actions, values and phase its
    observation gives."""
    from sabacc.services.bots.policy import view_from_observation

    model = KesselBot()
    checked = 0
    for seed in range(12):
        tokens = "draft" if seed % 2 else ",".join(TOKENS)
        game: Any = sabacc.new_game(  # type: ignore[call-overload]
            "kessel", players=2 + seed % 5, seed=seed, engine=engine, shift_tokens=tokens
        )
        rng = random.Random(seed)
        while not game.is_over:
            for seat in range(game.n):
                mine = seat == game.current_player
                view = model.view_from_game(game, seat)
                legal = game.legal_actions() if mine else []
                seen = view_from_observation(game.observation(seat), legal)
                assert view.extra == seen.extra
                if mine:
                    assert (view.legal, view.values, view.phase) == (
                        seen.legal,
                        seen.values,
                        seen.phase,
                    )
                checked += 1
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
    assert checked > 1000


def test_event_lines_in_both_languages() -> None:
    names = ["Han", "Lando"]
    line = describe_event(TokenPlayed(0, "target_tariff", 1), names, viewer=1, variant="kessel")
    assert (
        line
        == "Han plays Target Tariff on you: a chosen player moves 2 chips from stock into their pot"
    )
    ja = describe_event(TokenPlayed(0, "free_draw", None), names, lang="ja", variant="kessel")
    assert "フリードロー" in ja
    lost = describe_event(ChipsLost(1, 3, 2), names, viewer=1, variant="kessel")
    assert lost == "You lose your round pot (3) + penalty 2"
    vocab = vocabulary("kessel", "en")
    assert action_label("draw blood discard", vocab) == "take the Blood discard (1 chip)"
    assert action_label("token target_tariff 2", vocab) == "play Target Tariff 2"
    assert action_label("impostor 4", vocab) == "Impostor value 4"
