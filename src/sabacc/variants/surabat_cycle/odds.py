"""The exact-odds model of Surabat Cycle: Corellian Spike's
(:class:`~sabacc.variants.spike_family.odds.SpikeOdds`) with its own card options (gain a known
Sun card, discarding one at the hand cap; swap with the Moon pile)."""

from __future__ import annotations

from sabacc.core.cards import signed
from sabacc.core.hands import HandValue
from sabacc.engine.variant import CardOption, CardSituation
from sabacc.variants.spike_family.odds import SpikeOdds


class SurabatOdds(SpikeOdds):
    """Surabat Cycle: gain a known Sun card (discarding one at the cap), swap with the Moon."""

    def card_options(self, situation: CardSituation) -> list[CardOption]:
        sit = situation
        cap = int(getattr(sit.options, "hand_cap", 0) or 0)
        out: list[CardOption] = []
        for s in sorted(set(sit.sun)):
            action = f"gain {signed(s)}"
            if sit.want(action):
                values = [*sit.hand, s]
                if cap and len(values) > cap:
                    out.append((action, [(_best_after_discard(sit, values), 1)], True))
                else:
                    out.append((action, [(sit.evaluate(values), 1)], True))
        for v in sit.distinct:
            action = f"swap moon {signed(v)}"
            if not sit.want(action):
                continue
            if sit.moon_top is not None:
                out.append((action, [(sit.evaluate([*sit.without(v), sit.moon_top]), 1)], True))
            else:
                out.append((action, sit.drawn(sit.without(v)), False))
        return out


def _best_after_discard(sit: CardSituation, values: list[int]) -> HandValue:
    best: HandValue | None = None
    for v in sorted(set(values)):
        rest = list(values)
        rest.remove(v)
        hv = sit.evaluate(rest)
        if best is None or hv > best:
            best = hv
    assert best is not None
    return best
