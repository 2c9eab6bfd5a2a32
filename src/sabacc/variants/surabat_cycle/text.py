"""Surabat Cycle's player-facing vocabulary (EN/JA): Spike's, plus the Sun and Moon piles."""

from __future__ import annotations

from sabacc.engine.text import VariantText
from sabacc.variants.corellian_spike.text import SPIKE_TEXT

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

#: The rules page, the menu line and the house-rule help in Japanese (the web lobby and Rules).
_JA_DOCS: dict[str, str] = {
    "summary": "サンとムーンの山があるコレリアン・スパイク：1 人 1 ラウンド、バイイン 500。",
    "rules": (
        "スラバト・サイクル（バトゥー、ギャラクシーズ・エッジ）。コレリアン・スパイクのデッキ、"
        "役、同点の決め方に、別の場札の並びを使う。目標：合計 0 の手、またはできるだけ 0 に近い"
        "手。バイイン 500。ハンドポットに 5、サバックポットに 5 をアンティ。場札：山札、サンの山"
        "（表向き 3 枚）、ムーンの山（伏せて 2 枚）。全員に 2 枚ずつ配る。\n"
        "1 ハンドのラウンド数＝プレイヤー数（2 人なら 4）。開始プレイヤーは毎ラウンド 1 席ずつ"
        "時計回りに移る（第 1 ラウンドはディーラーの左）。各ラウンド：\n"
        "- カードフェイズ（開始プレイヤーから）：スタンド、表向きのサンから好きな 1 枚を取る"
        "（ゲイン「gain +3」。最後のサンを取るとすぐ新しく 3 枚配られる）、ムーンの上と 1 枚"
        "交換（「swap moon +4」：あなたの札はムーンに伏せて置かれ、あなただけが知っている）。"
        "手札の上限は 5 枚：上限でゲインしたら 1 枚捨てる（「discard -2」）。\n"
        "- ベッティングフェイズ（開始プレイヤーから）：チェック、ベット、コール、レイズ、ジャンク。"
        "\n"
        "- スパイクフェイズ：ディーラーがスパイクのダイスを 2 個振る。ゾロ目はサバック・シフトで、"
        "全員の手札が捨てられ同じ枚数の新しい札に替わる。\n"
        "- サイクルフェイズ：ディーラーがサンに 1 枚表向きで、ムーンに 1 枚伏せて加える。\n"
        "山札がなくなったら捨て札をすべて混ぜて山札にする。\n"
        "ショーダウン：0 に最も近い手がハンドポットを取る（スパイクの役と同点の決め方）。勝者の"
        "合計がちょうど 0 ならサバックポットも取り、そうでなければ持ち越し。"
    ),
    "help.buy_in": "各プレイヤーの開始クレジット（スラバト：500）",
    "help.ante": "毎ハンドのハンドポットへのアンティ。ベットの単位も兼ねる（スラバト：5）",
    "help.sabacc_ante": "毎ハンドのサバックポットへのアンティ（スラバト：5）",
    "help.rounds": "1 ハンドのラウンド数（none＝配られた人数、2 人なら 4）",
    "help.gain_fee": "サンの札をゲインするときハンドポットに払う額",
    "help.swap_fee": "ムーンとスワップするときハンドポットに払う額",
    "help.hand_cap": "手札の上限枚数（上限でゲインしたら 1 枚捨てる）",
}

SURABAT_TEXT = VariantText(
    messages={
        "en": {**SPIKE_TEXT.messages.get("en", {}), **_EN},
        "ja": {**SPIKE_TEXT.messages.get("ja", {}), **_JA, **_JA_DOCS},
    },
    keys={**SPIKE_TEXT.keys, "discard": "x"},
    glossary=SPIKE_TEXT.glossary,
)
