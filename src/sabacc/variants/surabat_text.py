"""Surabat Cycle's player-facing vocabulary (EN/JA): Spike's, plus the Sun and Moon piles."""

from __future__ import annotations

from sabacc.engine.text import VariantText
from sabacc.variants.spike_text import SPIKE_TEXT

_EN: dict[str, str] = {
    "phase.cycle": "Cycle phase",
    "phase.discard": "Discard phase",
    "howto": (
        "How to win: end the hand with cards totalling zero (a Sabacc), or as close to zero as "
        "you can. Each Card phase you stand, gain one of the face-up Sun cards, or swap a card "
        "with the face-down Moon pile; then you bet, call or junk (fold). The Cycle phase adds a "
        "card to each pile. After the last round the best hand takes the hand pot, and the "
        "sabacc pot too if it totals zero. Zero hands rank by pattern (Pure Sabacc 0 0 is best);"
        " the rest by closeness to zero, positive beating negative."
    ),
    "moon_placed.prime": "The dealer puts {card} face down on the Moon pile",
    "moon_placed.cycle": "The dealer puts {card} face down on the Moon pile",
    "moon_placed.swap": "{who} puts {card} face down on the Moon pile",
    "moon_placed.swap.you": "You put {card} face down on the Moon pile",
}

_JA: dict[str, str] = {
    "phase.cycle": "サイクルフェイズ",
    "phase.discard": "ディスカードフェイズ",
    "howto": (
        "勝ち方：手札の合計を 0（サバック）か、できるだけ 0 に近づけてハンドを終える。"
        "カードフェイズではスタンド、表向きのサンから 1 枚取る（ゲイン）、伏せたムーンと "
        "1 枚交換のどれか。続いてベット、コール、ジャンク（降りる）。サイクルフェイズで各山に "
        "1 枚ずつ加わる。最終ラウンド後、最強の手がハンドポットを取り、合計 0 ならサバック"
        "ポットも取る。合計 0 の手は役で比べ（ピュア・サバック 0 0 が最強）、それ以外は 0 に"
        "近いほど強く、同じならプラスが勝つ。"
    ),
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
