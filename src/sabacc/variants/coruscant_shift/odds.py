"""Coruscant Shift's exact-odds model: a kept set is on target or off by some distance.

The generic enumeration (:mod:`sabacc.services.odds`) evaluates every multiset of ``k`` card
values through the variant's evaluator under the options' fixed target (``-o target=+5``;
default 0), so ``sabacc odds -v coruscant --cards k`` gives the exact chance that ``k`` cards
hit the target. There is no card option to weigh (the selections choose among held cards).
"""

from __future__ import annotations

from sabacc.core.hands import HandValue
from sabacc.engine.variant import CardOption, CardSituation, OddsModel


class CoruscantOdds(OddsModel):
    """Distributions grouped as "On Target" or "Off by N"."""

    def hand_label(self, hand: HandValue) -> str:
        distance = -hand.key[0]
        return hand.name if distance == 0 else f"Off by {distance}"

    def card_options(self, situation: CardSituation) -> list[CardOption]:
        return []
