"""Kessel Sabacc's search worlds (the ``ismcts`` bot): determinised rounds on the compiled core.

:func:`search_sampler` is what :meth:`KesselBot.search_sampler
<sabacc.variants.kessel.bot.KesselBot.search_sampler>` hands the search: worlds consistent with
one seat's information, sampling the cards it has not seen (each family within itself: a
place's family is public) and, under the ``draft``, the other players' unplayed tokens (from
the tokens they have not played, as the draft dealt them). The sampler reads the game once
(at its first sample: a decision the search settles without sampling reads nothing); each
world is a copy with the unseen cards shuffled in, so it depends only on the seat's
information and the ``rng`` given.

A world is a :class:`~sabacc.variants.kessel._kessel_core.KesselSearchWorld`: the round in the
compiled core's C state, stepped by the core's own rules (the rules of
:class:`~sabacc.variants.kessel.rules.KesselGame`, tested in lockstep with it), so the round
is written once for the engine and once for the core, and search adds no copy. A rollout plays
the heuristic for every seat (:data:`POLICY`: the functions of :mod:`sabacc.variants.kessel.bot`
on the plain values the core reads from its state, never an observation) to the round's payout,
with the dice and reshuffles of ``random.Random(seed)``.

Without the compiled core (a pure-Python install) :func:`search_sampler` gives None, and the
search samples ``KesselGame.determinize`` and plays its rollouts on the reference game itself.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from typing import Any

from sabacc.core.actions import Action
from sabacc.engine.bots import SearchWorld
from sabacc.variants.kessel.bot import Situation, best_card_action, best_token, situation_choice

#: The phases of a round in play: where a search world can be made.
ROUND_PHASES = ("turn", "draw", "impostor", "prime")


def _token(
    situation: tuple[Any, ...],
    tokens: Sequence[str],
    order: Sequence[int],
    score: float,
    stand: float,
) -> Action | None:
    """The token the heuristic plays over its card action (:func:`best_token`), or None."""
    return best_token(Situation(*situation), tokens, order, score, stand)


def _choose(situation: tuple[Any, ...], legal: Sequence[Action]) -> Action:
    """The heuristic's choice of a die (an Impostor's, or Prime Sabacc's)."""
    return situation_choice(Situation(*situation), legal)


#: The rollout policy, as the core calls it: the heuristic's card choice (cached), its token
#: choice over that, its die choice (``KesselSearchWorld``'s docstring gives the arguments).
#: The same choices as the ``heuristic`` bot's on the game (``tests/variants/kessel``).
POLICY: tuple[Callable[..., Any], ...] = (best_card_action, _token, _choose)


@functools.cache
def world_type() -> type[Any] | None:
    """The compiled core's ``KesselSearchWorld``; None when the core is not built."""
    try:
        from sabacc.variants.kessel._kessel_core import KesselSearchWorld
    except ImportError:
        return None
    world: type[Any] = KesselSearchWorld
    return world


def search_sampler(game: Any, seat: int) -> Callable[[random.Random], SearchWorld] | None:
    """Worlds as ``seat`` of ``game`` (a ``KesselGame`` or a ``KesselCore``) might imagine them
    (see the module docstring); None when the game has no round in play or the compiled core
    is not built (the search then samples the reference game)."""
    if game.over or game.to_act is None or game.phase not in ROUND_PHASES:
        return None
    world = world_type()
    if world is None:
        return None
    base: list[Any] = []

    def sample(rng: random.Random) -> SearchWorld:
        # The game is read at the first sample: a decision with one candidate samples none.
        if not base:
            base.append(world(game, seat, POLICY))
        sampled: SearchWorld = base[0].sample(rng)
        return sampled

    return sample
