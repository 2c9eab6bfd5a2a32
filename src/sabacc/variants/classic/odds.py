"""The exact-odds model of classic sabacc (:mod:`sabacc.services.odds` asks it)."""

from __future__ import annotations

from collections.abc import Sequence

from sabacc.core.cards import signed
from sabacc.core.hands import HandValue
from sabacc.core.options import Options
from sabacc.engine.variant import CardOption, CardSituation, OddsModel, ValueEvaluator, VariantInfo


class ClassicOdds(OddsModel):
    """Classic: hands by value under the ``scoring`` option; draw, or exchange (with 3 cards or
    more, or with ``allow_exchange_at_two``); ordinary totals grouped as one name."""

    def value_evaluator(self, info: VariantInfo, options: Options) -> ValueEvaluator:
        from sabacc.variants.classic.rules import evaluate_classic

        scoring = str(getattr(options, "scoring", "signed"))

        def classic(values: Sequence[int]) -> HandValue:
            return evaluate_classic(values, scoring)

        return classic

    def hand_label(self, hand: HandValue) -> str:
        if hand.rank == 3 and hand.name.lstrip("+-").isdigit():
            return "Ordinary hand"
        return hand.name

    def card_options(self, situation: CardSituation) -> list[CardOption]:
        sit = situation
        out: list[CardOption] = []
        if sit.want("gain"):
            out.append(("gain", sit.drawn(list(sit.hand)), False))
        if len(sit.hand) >= 3 or bool(getattr(sit.options, "allow_exchange_at_two", False)):
            for v in sit.distinct:
                action = f"swap draw {signed(v)}"
                if sit.want(action):
                    out.append((action, sit.drawn(sit.without(v)), False))
        return out
