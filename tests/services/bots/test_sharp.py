"""``sharp`` (the expert level): its opponent model reads stations, maniacs and folders from
the public betting, and its bets follow it (no bluff against a station)."""

from __future__ import annotations

from sabacc.core.actions import Bet
from sabacc.lab import SharpBot
from sabacc.services.bots import make_bot
from sabacc.services.bots.policy import view_from_observation
from tests.services.bots.games import decisions, long_game


def play(opponent: str, hands: int = 25, seed: int = 5) -> tuple[SharpBot, list[float]]:
    """A heads-up game of ``hands`` hands, sharp in seat 0; the win chances of its bets."""
    game = long_game(2, seed, hands)
    sharp = make_bot("sharp", seed)
    assert isinstance(sharp, SharpBot)
    bet_chances: list[float] = []
    for obs, legal, action in decisions(game, sharp, make_bot(opponent, seed + 1)):
        if type(action) is Bet:
            p, _live = sharp.win_chance(view_from_observation(obs, legal), obs)
            bet_chances.append(p)
    return sharp, bet_chances


def test_a_maniac_loses_its_credibility_and_an_honest_bettor_keeps_it() -> None:
    vs_maniac, _ = play("ref-maniac")
    assert vs_maniac.credibility(1) < 0.4
    vs_tight, _ = play("ref-tight")
    assert vs_tight.credibility(1) == 1.0


def test_no_bluff_against_a_calling_station() -> None:
    sharp, chances = play("ref-station", hands=40)
    assert sharp.seen[1].fold_rate < 0.05
    assert chances  # it bets for value...
    assert min(chances) > sharp.params.probe_floor  # ...and never with a hopeless hand


def test_it_bets_weak_hands_into_a_player_seen_folding_often() -> None:
    sharp, chances = play("ref-tight", hands=60)
    assert sharp.seen[1].fold_rate > sharp.params.bluff_floor  # folds seen, junks included
    assert sum(p < 0.5 for p in chances) > 10  # bets with hands more likely to lose than win
