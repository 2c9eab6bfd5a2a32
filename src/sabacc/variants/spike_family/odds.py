"""The exact-odds model of the Spike family (:mod:`sabacc.services.odds` asks it).

Hands are enumerated on the additive multiset keys of :mod:`sabacc.variants.spike_family.hands`; the
card options are Corellian Spike's (gain, swap with the discard top or the draw); Surabat
Cycle's model (:mod:`sabacc.variants.surabat_cycle.odds`) adds its own.
"""

from __future__ import annotations

from collections.abc import Sequence

from sabacc.core.cards import signed
from sabacc.core.hands import HandValue
from sabacc.core.options import Options
from sabacc.engine.variant import CardOption, CardSituation, OddsModel, ValueEvaluator, VariantInfo
from sabacc.variants.spike_family.hands import SPIKE_CODES, SPIKE_MIN_VALUE, evaluate_spike_key


class SpikeOdds(OddsModel):
    """Corellian Spike: options never change the ranking; Sabacc's two kinds apart."""

    key_codes = SPIKE_CODES
    key_offset = SPIKE_MIN_VALUE

    def evaluate_key(self, key: int) -> HandValue:
        return evaluate_spike_key(key)

    def value_evaluator(self, info: VariantInfo, options: Options) -> ValueEvaluator:
        codes = SPIKE_CODES
        offset = -SPIKE_MIN_VALUE

        def spike(values: Sequence[int]) -> HandValue:
            key = 0
            for v in values:
                key += codes[v + offset]
            return evaluate_spike_key(key)

        return spike

    def hand_label(self, hand: HandValue) -> str:
        if hand.rank == 12:
            return "Sabacc (unranked)"
        if hand.rank == 11:
            return "Sabacc (pair)"
        return hand.name

    def card_options(self, situation: CardSituation) -> list[CardOption]:
        sit = situation
        cap = int(getattr(sit.options, "hand_cap", 0) or 0)
        out: list[CardOption] = []
        if (not cap or len(sit.hand) < cap) and sit.want("gain"):
            out.append(("gain", sit.drawn(list(sit.hand)), False))
        if sit.discard_top is not None:
            for v in sit.distinct:
                action = f"swap discard {signed(v)}"
                if sit.want(action):
                    result = sit.evaluate([*sit.without(v), sit.discard_top])
                    out.append((action, [(result, 1)], True))
        for v in sit.distinct:
            action = f"swap draw {signed(v)}"
            if sit.want(action):
                out.append((action, sit.drawn(sit.without(v)), False))
        return out
