"""Ratings per variant: openskill's Plackett-Luce model, for games of many players.

A game counts (is *rated*) when at least two different accounts played it; every seat takes
part in the update by its final place (equal stacks share a place), bots included, but a bot's
rating is fixed: it is its difficulty level's published rating
(:attr:`sabacc.services.bots.levels.Level.rating`, Elo scale, measured on duplicate deals by
``scripts/ratings.py``), so the leaderboard, docs/bots.md and the level pickers show one number
per bot, and humans measure themselves against it. What players are shown is the *ordinal*
``mu - 3 sigma`` (a rating the system is about 99% sure the player's skill is above) on that
same Elo scale (:func:`display`): 1000 is a player known to be as good as ``easy``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from openskill.models import PlackettLuce

from sabacc.services.bots.levels import LEVELS

#: A new account's rating (openskill's defaults): its mean is taken to be ``easy``'s strength.
MU = 25.0
SIGMA = 25.0 / 3.0
BETA = MU / 6.0
#: A bot's fixed uncertainty.
BOT_SIGMA = 1.0
#: openskill mean per Elo point: two players ``d`` apart in mean (each with ``BOT_SIGMA``) have
#: win odds ``exp(d / c)``, ``c = sqrt(2 (BETA^2 + BOT_SIGMA^2))``; Elo puts ``400 / ln 10``
#: points on one unit of log-odds.
MU_PER_POINT = math.sqrt(2.0 * (BETA**2 + BOT_SIGMA**2)) / (400.0 / math.log(10.0))
#: The Elo-scale rating of ``easy``, the origin of the scale.
BASE = LEVELS["easy"].rating
#: ``random`` is on no measured ladder: its rating is set, 200 points below ``easy``.
RANDOM_RATING = BASE - 200
#: Published rating of every bot a table may seat: the levels by name and by their bot spec.
BOT_RATINGS: dict[str, int] = {
    "random": RANDOM_RATING,
    **{level.bot: level.rating for level in LEVELS.values()},
    **{name: level.rating for name, level in LEVELS.items()},
}
#: A bot spec not named above (a variant's own budget, e.g. ``ismcts:200``): rated as ``normal``.
OTHER_BOT = LEVELS["normal"].rating
#: A rated game needs this many different accounts at the table.
MIN_HUMANS = 2


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3.0 * self.sigma


def display(rating: Rating) -> int:
    """The number players see: the ordinal on the levels' Elo scale. A bot shows exactly its
    level's published rating; a player known to be as good as ``easy`` shows 1000; a new
    account starts lower (about 370: nothing is known yet) and climbs as its games make its
    rating surer."""
    origin = MU - 3.0 * BOT_SIGMA  # easy's ordinal
    return round(BASE + (rating.ordinal - origin) / MU_PER_POINT)


def bot_rating(bot: str) -> Rating:
    """The fixed openskill rating of a bot spec or level name, from its published rating."""
    points = BOT_RATINGS.get(bot.strip().lower(), OTHER_BOT)
    return Rating(MU + (points - BASE) * MU_PER_POINT, BOT_SIGMA)


@cache
def _model() -> PlackettLuce:
    return PlackettLuce(mu=MU, sigma=SIGMA)


def rated(users: Sequence[int | None]) -> bool:
    """Whether a game whose seats belong to ``users`` (None: a guest or a bot) counts: at least
    :data:`MIN_HUMANS` different accounts, none of them holding two seats."""
    accounts = [u for u in users if u is not None]
    return len(set(accounts)) >= MIN_HUMANS and len(set(accounts)) == len(accounts)


def update(
    ratings: Sequence[Rating | None], bots: Sequence[str | None], places: Sequence[int]
) -> list[Rating | None]:
    """The seats' ratings after a game they finished in ``places`` (1 = first).

    ``ratings[i]``: seat ``i``'s account rating, None for a seat without one (a bot, whose
    fixed rating from ``bots[i]`` is used and stays as it was; a guest, who plays as a new
    player and is not kept). Returns the new rating of every account seat, None elsewhere."""
    model = _model()
    teams = []
    for i, rating in enumerate(ratings):
        if rating is None:
            bot = bots[i]
            fixed = bot_rating(bot) if bot else Rating(MU, SIGMA)
            teams.append([model.rating(mu=fixed.mu, sigma=fixed.sigma)])
        else:
            teams.append([model.rating(mu=rating.mu, sigma=rating.sigma)])
    after = model.rate(teams, ranks=[float(p) for p in places])
    return [
        None if ratings[i] is None else Rating(float(team[0].mu), float(team[0].sigma))
        for i, team in enumerate(after)
    ]
