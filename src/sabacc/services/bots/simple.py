"""Two simple bots: ``random`` (uniform over legal actions) and ``heuristic``.

The heuristic plays every variant from its observation alone (:mod:`sabacc.services.bots.policy`):
card actions by the exact expected hand quality over the cards it has not seen, bets and calls
by its chance of winning against the pot odds, with a little randomness (bet or not, the odd
bluff) drawn from its own seeded RNG.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from sabacc.core.actions import Action
from sabacc.core.errors import OptionError
from sabacc.services.bots.base import register_bot
from sabacc.services.bots.policy import policy_action, view_from_observation


class RandomBot:
    """Chooses uniformly among the legal actions."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def act(self, observation: dict[str, Any], legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]


class HeuristicBot:
    """Rule-based play: expected hand quality for card actions, win chance vs pot odds for bets."""

    def __init__(self, seed: int | None = None, aggression: float = 0.7) -> None:
        self.name = "heuristic"
        self.rng = random.Random(seed)
        self.aggression = aggression

    def act(self, observation: dict[str, Any], legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        if "you" not in observation:
            return legal[0]
        view = view_from_observation(observation, legal)
        return policy_action(view, self.rng, self.aggression)


def _random(seed: int | None = None, arg: str | None = None, **params: Any) -> RandomBot:
    if arg is not None or params:
        raise OptionError("the random bot takes no parameters")
    return RandomBot(seed)


def _heuristic(seed: int | None = None, arg: str | None = None, **params: Any) -> HeuristicBot:
    if arg is not None:
        try:
            params["aggression"] = float(arg)
        except ValueError:
            raise OptionError(f"heuristic:{arg}: the parameter is an aggression like 0.7") from None
    try:
        return HeuristicBot(seed, **params)
    except TypeError as exc:
        raise OptionError(f"heuristic bot: {exc}") from None


register_bot("random", _random)
register_bot("heuristic", _heuristic)
