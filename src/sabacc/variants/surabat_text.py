"""Surabat Cycle's player-facing vocabulary (EN/JA): Spike's, plus the Sun and Moon piles."""

from __future__ import annotations

from sabacc.engine.text import VariantText
from sabacc.variants.spike_text import SPIKE_TEXT

_EN: dict[str, str] = {
    "phase.cycle": "Cycle phase",
    "phase.discard": "Discard phase",
    "moon_placed.prime": "The dealer puts {card} face down on the Moon pile",
    "moon_placed.cycle": "The dealer puts {card} face down on the Moon pile",
    "moon_placed.swap": "{who} puts {card} face down on the Moon pile",
    "moon_placed.swap.you": "You put {card} face down on the Moon pile",
}

_JA: dict[str, str] = {
    "phase.cycle": "サイクルフェイズ",
    "phase.discard": "ディスカードフェイズ",
    "moon_placed.prime": "ディーラーが {card} をムーンに伏せて置く",
    "moon_placed.cycle": "ディーラーが {card} をムーンに伏せて置く",
    "moon_placed.swap": "{who}は {card} をムーンに伏せて置く",
}

SURABAT_TEXT = VariantText(
    messages={
        "en": {**SPIKE_TEXT.messages.get("en", {}), **_EN},
        "ja": {**SPIKE_TEXT.messages.get("ja", {}), **_JA},
    },
    keys={**SPIKE_TEXT.keys, "discard": "x"},
    glossary=SPIKE_TEXT.glossary,
)
