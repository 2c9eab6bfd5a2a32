"""Ratings per variant: openskill's Plackett-Luce model, for games of many players.

A game counts (is *rated*) when at least two different accounts played it; every seat takes
part in the update by its final place (equal stacks share a place), bots included, but a bot's
rating is fixed and published (:data:`BOT_RATINGS`), so humans measure themselves against it
and bots never drift. What players are shown is the *ordinal* ``mu - 3 sigma`` (a rating the
system is about 99% sure the player's skill is above), scaled as :func:`display`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from openskill.models import PlackettLuce

#: A new account's rating (openskill's defaults).
MU = 25.0
SIGMA = 25.0 / 3.0
#: Fixed ratings of the bot levels and bots (mu, sigma), published on the leaderboard. The bot
#: names ``heuristic`` and ``random`` are what the levels and tables seat.
BOT_RATINGS: dict[str, tuple[float, float]] = {
    "random": (15.0, 1.0),
    "easy": (22.0, 1.0),
    "heuristic": (22.0, 1.0),
    "normal": (27.0, 1.0),
    "hard": (31.0, 1.0),
}
#: A bot spec not named above (``ismcts:200``): rated as the middle level.
OTHER_BOT = (27.0, 1.0)
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
    """The number players see: the ordinal on a familiar scale, ``1000 + 40 * ordinal`` (a new
    account shows 1000 and climbs as its games make its rating surer; a player known to be as
    good as the average new player, ``mu`` 25 with ``sigma`` 1, shows 1880)."""
    return round(1000 + 40 * rating.ordinal)


def bot_rating(bot: str) -> Rating:
    mu, sigma = BOT_RATINGS.get(bot.strip().lower(), OTHER_BOT)
    return Rating(mu, sigma)


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
