"""``sharpmc`` (the expert level): sharp's move, replaced only where the search finds a clearly
better one; deterministic for a seed; sharp's opponent model keeps learning inside it."""

from __future__ import annotations

import pytest

import sabacc
from sabacc.core.actions import Bet, Raise
from sabacc.core.errors import OptionError
from sabacc.lab import SharpBot, SharpSearchBot
from sabacc.services.bots import decide, make_bot


def _positions(seed: int, count: int) -> list[sabacc.Game]:
    """Decision points of heads-up Spike hands (several legal actions each)."""
    out: list[sabacc.Game] = []
    game = sabacc.new_game("spike", players=2, seed=seed, log=False, game_end="hands:40")
    mover = make_bot("heuristic", seed)
    while not game.is_over and len(out) < count:
        if len(game.legal_actions()) > 1:
            out.append(game.clone())
        game.apply(decide(mover, game))
    return out


def test_without_a_sampler_it_plays_sharps_move() -> None:
    for game in _positions(3, 25):
        seat = game.current_player
        assert seat is not None
        obs, legal = game.observation(seat), game.legal_actions()
        bot = make_bot("sharpmc:50", 9)
        assert isinstance(bot, SharpSearchBot)
        twin = SharpBot(9 ^ 0x5A5A5A5A)
        assert bot.act(obs, legal) == twin.act(obs, legal)


def test_same_seed_same_decisions_and_a_budget_of_zero_alternatives_is_sharp() -> None:
    positions = _positions(11, 12)
    first = [decide(make_bot("sharpmc:40", 1), g) for g in positions]
    again = [decide(make_bot("sharpmc:40", 1), g) for g in positions]
    assert first == again
    # An impossible confidence: no alternative ever beats sharp's move, whatever the worlds.
    for game in positions:
        strict = make_bot("sharpmc:40", 1, confidence=1e9)
        seat = game.current_player
        assert seat is not None
        assert decide(strict, game) == SharpBot(1 ^ 0x5A5A5A5A).act(
            game.observation(seat), game.legal_actions()
        )


def test_search_overrules_sharp_somewhere_and_keeps_its_move_elsewhere() -> None:
    """Over many positions the search both agrees with sharp and departs from it, and every
    departure is a candidate it scored higher than sharp's move."""
    agree = differ = 0
    for game in _positions(21, 40):
        seat = game.current_player
        assert seat is not None
        bot = make_bot("sharpmc:200", 2)
        assert isinstance(bot, SharpSearchBot)
        sharp_move = SharpBot(2 ^ 0x5A5A5A5A).act(game.observation(seat), game.legal_actions())
        chosen = decide(bot, game)
        if chosen == sharp_move:
            agree += 1
            continue
        differ += 1
        means = bot.last_stats["candidates"]
        assert means[str(chosen)] > means[str(sharp_move)]
    assert agree > 0 and differ > 0


def test_its_own_rollout_bets_like_sharp() -> None:
    """In its rollouts the seat bets by sharp's rules: a near-certain hand bets or raises."""
    for game in _positions(5, 60):
        seat = game.current_player
        assert seat is not None
        if game.phase != "betting":
            continue
        bot = make_bot("sharpmc:10", 1)
        assert isinstance(bot, SharpSearchBot)
        bot._narrow = {}
        world = game.clone()
        from sabacc.services.bots.policy import _model, view_from_game

        q = _model(game.info.name).win_chance(view_from_game(world, seat))
        action = bot._sharp_bet(world, seat, {}, False)
        if q > 0.95 and (game.legal().bet or game.legal().raise_):
            assert type(action) in (Bet, Raise)


def test_parameters() -> None:
    bot = make_bot("sharpmc:0.05s", 1)
    assert isinstance(bot, SharpSearchBot) and bot.seconds == 0.05
    assert make_bot("sharpmc", 1).name == "sharpmc"
    with pytest.raises(OptionError):
        make_bot("sharpmc:lots", 1)
    with pytest.raises(OptionError):
        make_bot("sharpmc", 1, colour="red")


def test_search_bets_off_leaves_every_bet_to_sharp() -> None:
    for game in _positions(8, 30):
        seat = game.current_player
        assert seat is not None
        if game.phase != "betting":
            continue
        bot = make_bot("sharpmc:100", 4, search_bets=False)
        sharp_move = SharpBot(4 ^ 0x5A5A5A5A).act(game.observation(seat), game.legal_actions())
        assert decide(bot, game) == sharp_move


def test_sharp_opponents_in_rollouts_changes_the_scores_not_the_determinism() -> None:
    """With the rollout opponents betting by sharp's rules the candidates' scores differ from
    the heuristic-opponent rollouts somewhere, and the same seed still gives the same moves."""
    positions = [g for g in _positions(13, 30) if g.phase == "betting"]
    assert positions
    differ = 0
    for game in positions:
        a = make_bot("sharpmc:60", 3, sharp_opponents=True)
        b = make_bot("sharpmc:60", 3)
        assert isinstance(a, SharpSearchBot) and isinstance(b, SharpSearchBot)
        first = decide(a, game)
        assert decide(make_bot("sharpmc:60", 3, sharp_opponents=True), game) == first
        decide(b, game)
        if a.last_stats.get("candidates") != b.last_stats.get("candidates"):
            differ += 1
    assert differ > 0


def test_more_rejection_tries_keep_the_best_fitting_world() -> None:
    """With ``rejections`` set, a world is drawn until one fits the opponents' bets; if none is
    accepted the best-fitting one drawn is kept: never a worse fit than the first draw."""
    import random

    from sabacc.services.bots import sampler_for
    from sabacc.services.bots.ismcts import signal_likelihood

    checked = 0
    for game in _positions(17, 60):
        seat = game.current_player
        assert seat is not None
        bot = make_bot("sharpmc:20", 5, rejections=30)
        assert isinstance(bot, SharpSearchBot)
        bot._remember(game.observation(seat))
        signals = bot._signals(game.observation(seat))
        if not signals:
            continue
        sampler = sampler_for(game, seat)
        state = bot.rng.getstate()
        world, tries = bot._world(sampler, seat, signals)
        assert 1 <= tries <= 31
        bot.rng.setstate(state)
        first = sampler(random.Random(bot.rng.getrandbits(64)))

        def fit(w: object, signals: dict[int, str] = signals) -> float:
            out = 1.0
            for opp, text in signals.items():
                out *= signal_likelihood(w, opp, text)  # type: ignore[arg-type]
            return out

        assert fit(world) >= fit(first) or tries < 31
        checked += 1
    assert checked > 0
