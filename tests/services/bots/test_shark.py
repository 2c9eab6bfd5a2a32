"""``shark``: ``sharp`` with a stronger, credibility-weighted narrowing of an opponent's range
by its bets (benchmarks/bots-lab.md, "Finding the leak")."""

from __future__ import annotations

from sabacc.lab import SHARK, Params, SharpBot
from sabacc.services.bots import make_bot
from sabacc.services.bots.policy import view_from_observation
from tests.services.bots.games import decisions, long_game


def shadowed(opponent: str, hands: int, seed: int = 11) -> list[tuple[float, float, float]]:
    """``shark`` in seat 0 against ``opponent``; a ``sharp`` shadow reads the same observations.
    At each of shark's betting decisions where the opponent was aggressive this hand: (shark's
    p, the shadow's p, the opponent's credibility)."""
    game = long_game(2, seed, hands)
    shark, shadow = make_bot("shark", seed), make_bot("sharp", seed)
    assert isinstance(shark, SharpBot) and isinstance(shadow, SharpBot)
    other = make_bot(opponent, seed + 1)
    out: list[tuple[float, float, float]] = []
    for obs, legal, _ in decisions(game, shark, other):
        shadow._observe(obs)
        view = view_from_observation(obs, legal)
        if shark._hand_aggr.get(1) and view.phase == "betting":
            p_shark, _ = shark.win_chance(view, obs)
            p_sharp, _ = shadow.win_chance(view, obs)
            out.append((p_shark, p_sharp, shark.credibility(1)))
    return out


def test_shark_is_sharp_with_its_own_constants() -> None:
    bot = make_bot("shark", 1)
    assert isinstance(bot, SharpBot) and bot.name == "shark"
    assert bot.params == SHARK and Params() != SHARK
    assert SHARK.narrowing > Params().narrowing
    tuned = make_bot("shark", 1, probe=0.5)
    assert isinstance(tuned, SharpBot) and tuned.params.probe == 0.5
    assert tuned.params.narrowing == SHARK.narrowing


def test_credible_bets_narrow_more_than_sharp_and_a_maniacs_less() -> None:
    honest = shadowed("ref-tight", hands=40)
    assert honest
    assert all(s <= p + 1e-12 for s, p, _c in honest)
    assert any(s < p - 0.01 for s, p, c in honest if c > 0.9)
    wild = [x for x in shadowed("ref-maniac", hands=20) if x[2] < 0.5]
    assert wild
    assert all(s >= p - 1e-12 for s, p, _c in wild)
    assert any(s > p + 0.01 for s, p, _c in wild)
