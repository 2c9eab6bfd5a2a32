"""What the heuristic bot knows of a variant: :class:`BotModel`, and the :class:`View` it
decides from.

The decision rules (pot odds, when to call, rollouts) are generic and live in
:mod:`sabacc.services.bots.policy`; the hand values they weigh are variant knowledge, so each
variant module subclasses :class:`BotModel` (``sabacc.variants.spike_family.bot``,
``sabacc.variants.classic.bot``) and declares it in its :class:`~sabacc.engine.variant.VariantInfo`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, runtime_checkable

from sabacc.core.actions import Action, Bet, Raise, Stand
from sabacc.engine.betting import Legal

_SUIT = re.compile(r"[a-z]+$")


def card_value(code: str) -> int:
    """The value of a card code of any deck (``+4c`` -> 4, ``11f`` -> 11, ``0`` -> 0)."""
    text = _SUIT.sub("", code)
    return int(text) if text not in ("", "+", "-") else 0


def legal_from_actions(legal: Sequence[Action]) -> Legal:
    """The compact :class:`Legal` form of an expanded legal-action list."""
    fixed: list[Action] = []
    bets: list[int] = []
    raises: list[int] = []
    for a in legal:
        if type(a) is Bet:
            bets.append(a.amount)
        elif type(a) is Raise:
            raises.append(a.amount)
        else:
            fixed.append(a)
    return Legal(
        tuple(fixed),
        (min(bets), max(bets)) if bets else None,
        (min(raises), max(raises)) if raises else None,
    )


@dataclass(slots=True)
class View:
    """What one seat knows at a decision (built from an observation or a sampled state)."""

    variant: str
    phase: str
    values: list[int]
    legal: Legal
    to_call: int = 0
    pot: int = 0
    stack: int = 0
    unit: int = 1
    opponents: int = 1
    round: int = 1
    rounds: int = 1
    hand_cap: int = 5
    discard_top: int | None = None
    sun: tuple[int, ...] = ()
    moon_top: int | None = None
    #: Copies of each value the seat has not seen; ``None``: approximate by the whole deck.
    unseen: Mapping[int, int] | None = None
    calls_open: bool = False
    scoring: str = "signed"
    late: bool = False  # the last orbit before a forced call (variants with one)
    extra: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class SearchWorld(Protocol):
    """A variant's own compact search state (:meth:`BotModel.search_sampler`): a sampled world
    that plays its own rollouts, faster than a cloned game."""

    def rollout(self, seat: int, action: Action, seed: int) -> tuple[float, int]:
        """Play ``action`` for the player to act, then the rest of the hand (or round) by the
        heuristic for every seat, with a fresh RNG seeded by ``seed``. Returns ``seat``'s credit
        change from now to the end of the hand, and the number of actions played."""
        ...


class BotModel:
    """The heuristic bot's knowledge of one variant. The defaults know nothing of its hands:
    a variant without a model is played by standing, checking and calling."""

    #: Difficulty levels whose generic bot (:mod:`sabacc.services.bots.levels`) decides too
    #: slowly in this variant, mapped to a bot spec of about the same thinking time per
    #: decision (``{"hard": "ismcts:200"}``); the other levels keep their generic bot.
    level_bots: ClassVar[Mapping[str, str]] = {}

    #: Groups of difficulty levels that play identical bots in this variant, declared so that
    #: players are told (``(("hard", "expert"),)``: "this variant has three bot strengths").
    #: Levels that name the same bot spec must be declared here
    #: (:func:`sabacc.services.bots.levels.check_levels` refuses the model otherwise); levels
    #: measured to play alike with different specs may be declared too.
    same_levels: ClassVar[tuple[tuple[str, ...], ...]] = ()

    #: The phase in which a seat decides whether to call the hand (ask for the showdown), if
    #: the variant has one (classic's ``"calling"``); the search lists every action there.
    calling_phase: ClassVar[str | None] = None

    def target_total(self, observation: Mapping[str, Any]) -> int | None:
        """The total a hand aims at, for players who only count (the reference opponents of
        :mod:`sabacc.lab.reference`): 0 in the Spike family; None where winning is
        not "closest to a total" in that simple sense."""
        return None

    def hand_quality(self, view: View) -> float:
        """Estimated chance that the seat's current hand beats one opponent at the showdown."""
        return 0.5 if view.values else 0.0

    def card_scores(self, view: View) -> list[tuple[float, Action]]:
        """Each card action with its expected hand quality afterwards (higher is better)."""
        return [(1.0 if isinstance(a, Stand) else 0.0, a) for a in view.legal.fixed]

    def win_chance(self, view: View) -> float:
        """Estimated chance to beat one opponent by the end of the hand (cards still to come
        included); the policy raises it to the number of opponents."""
        return self.hand_quality(view)

    def choose(self, view: View, rng: Any) -> Action | None:
        """The variant's own decision, where the generic rules do not fit (a variant without
        betting); None: decide by the generic rules (``rng``: the bot's random.Random)."""
        return None

    def folds_hopeless(self, view: View) -> bool:
        """Whether to fold at once in the betting (a hand that can only lose more)."""
        return False

    def view_extras(self, observation: Mapping[str, Any]) -> dict[str, Any]:
        """More :class:`View` fields read from an observation (``late``, ``scoring``...)."""
        return {}

    def view_from_game(self, game: Any, seat: int) -> View | None:
        """A fast view of ``seat`` in a sampled game state (rollouts), reading only what the
        seat could see; None: build it from the observation."""
        return None

    def rollout_key(self, game: Any, seat: int, betting: bool) -> Hashable | None:
        """A cache key for ``seat``'s decision in a sampled state: everything the decision
        depends on (None: do not cache). ``betting``: the key of the chance of winning."""
        return None

    def search_sampler(self, game: Any, seat: int) -> Callable[[random.Random], SearchWorld] | None:
        """Worlds consistent with ``seat``'s information in ``game`` (a reference game), as the
        variant's own :class:`SearchWorld` (unseen cards and secrets sampled, each world
        depending only on that information and the ``rng`` given); None: the search samples
        ``game.determinize`` and plays its rollouts on cloned games."""
        return None
