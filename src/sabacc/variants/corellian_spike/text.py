"""Corellian Spike's player-facing vocabulary (EN/JA): hand names and their glossary.

Spike speaks the generic catalogue's words (stand, gain, swap, junk, Sabacc Shift), so it only
adds its hands. Surabat Cycle builds on this (:mod:`sabacc.variants.surabat_cycle.text`).
"""

from __future__ import annotations

from sabacc.engine.text import GlossaryEntry, VariantText

#: Spike hand names as the Japanese guides write them.
HAND_NAMES_JA: dict[str, str] = {
    "Pure Sabacc": "ピュア・サバック",
    "Full Sabacc": "フル・サバック",
    "Fleet": "フリート",
    "Yee-Haa": "イーハー",
    "Rhylet": "ライレット",
    "Squadron": "スクワドロン",
    "Gee Whiz": "ジー・ウィズ",
    "Straight Khyron": "ストレート・カイロン",
    "Banthas Wild": "バンサ・ワイルド",
    "Rule of Two": "ルール・オブ・ツー",
    "Sabacc": "サバック",
    "Nulrhek": "ナルレク",
}

GLOSSARY_EN: tuple[GlossaryEntry, ...] = (
    GlossaryEntry("Pure Sabacc", "exactly two cards, both Sylops", "0 0"),
    GlossaryEntry("Full Sabacc", "exactly +10, +10, -10, -10 and a Sylop", "+10 +10 -10 -10 0"),
    GlossaryEntry("Fleet", "exactly five cards: a Sylop and four of a kind", "+5 +5 -5 -5 0"),
    GlossaryEntry("Yee-Haa", "a Sylop and at least one pair", "+4 -4 0"),
    GlossaryEntry(
        "Rhylet",
        "exactly five cards, no Sylop: three of one value, two of another",
        "+2 +2 +2 -3 -3",
    ),
    GlossaryEntry("Squadron", "exactly four cards: four of a kind", "+6 +6 -6 -6"),
    GlossaryEntry("Gee Whiz", "exactly +1 +2 +3 +4 -10, or its mirror", "+1 +2 +3 +4 -10"),
    GlossaryEntry(
        "Straight Khyron", "four cards, no Sylop, four consecutive values", "+2 +3 -4 -1"
    ),
    GlossaryEntry("Banthas Wild", "three of a kind, totalling 0", "+2 +2 -2 +5 -7"),
    GlossaryEntry("Rule of Two", "two pairs of different values", "+2 -2 +7 -7"),
    GlossaryEntry("Sabacc", "a pair, or any other hand, totalling 0", "+5 -5"),
    GlossaryEntry("Nulrhek", "any hand not totalling 0: closest to 0 wins", "+7 -3"),
)

GLOSSARY_JA: tuple[GlossaryEntry, ...] = (
    GlossaryEntry("ピュア・サバック", "シロップ 2 枚だけの手", "0 0"),
    GlossaryEntry("フル・サバック", "+10、+10、-10、-10 とシロップの 5 枚", "+10 +10 -10 -10 0"),
    GlossaryEntry("フリート", "シロップと同じ数 4 枚の 5 枚", "+5 +5 -5 -5 0"),
    GlossaryEntry("イーハー", "シロップと 1 組以上のペア", "+4 -4 0"),
    GlossaryEntry("ライレット", "シロップなしの 5 枚：同じ数 3 枚と別の数 2 枚", "+2 +2 +2 -3 -3"),
    GlossaryEntry("スクワドロン", "同じ数 4 枚だけの手", "+6 +6 -6 -6"),
    GlossaryEntry(
        "ジー・ウィズ", "+1 +2 +3 +4 -10 ちょうど、またはその符号違い", "+1 +2 +3 +4 -10"
    ),
    GlossaryEntry("ストレート・カイロン", "シロップなしの 4 枚：連続する 4 つの数", "+2 +3 -4 -1"),
    GlossaryEntry("バンサ・ワイルド", "合計 0 で同じ数 3 枚を含む", "+2 +2 -2 +5 -7"),
    GlossaryEntry("ルール・オブ・ツー", "違う数のペア 2 組", "+2 -2 +7 -7"),
    GlossaryEntry("サバック", "合計 0 の手（ペアがあればより強い）", "+5 -5"),
    GlossaryEntry("ナルレク", "合計が 0 でない手：0 に近いほど強い", "+7 -3"),
)

#: The rules page, the menu line and the house-rule help in Japanese (the web lobby and Rules).
SPIKE_JA_DOCS: dict[str, str] = {
    "summary": (
        "映画『ハン・ソロ』のサバック・フォー・チャリティ大会のゲーム：62 枚、3 ラウンド、スパイク"
        "のダイス。"
    ),
    "rules": (
        "コレリアン・スパイク（サバック・フォー・チャリティのルール）。目標：合計 0 の手、"
        "またはできるだけ 0 に近い手。\n"
        "62 枚：3 つのステイブに +1〜+10 と -1〜-10、さらにシロップ（0）が 2 枚。全員が"
        "メインポットとサバックポットにアンティ。2 枚ずつ配り、1 枚めくって捨て札の山を始める。\n"
        "3 ラウンド。各ラウンドは カードフェイズ（スタンド、山札の上を取る＝ゲイン、捨て札の上か"
        "山札の上と 1 枚交換＝スワップ）、ベッティングフェイズ（チェック、ベット、コール、"
        "レイズ、ジャンク）、スパイクフェイズ（ダイス 2 個：ゾロ目はサバック・シフトで、全員の"
        "手札が同じ枚数の新しい札に替わる）。\n"
        "ショーダウン：最強の手がメインポットを取り、合計 0 ならサバックポットも取る。\n"
        "役（強い順）：ピュア・サバック（0 0）、フル・サバック（+10 +10 -10 -10 0）、フリート、"
        "イーハー、ライレット、スクワドロン、ジー・ウィズ、ストレート・カイロン、バンサズ・"
        "ワイルド、ルール・オブ・ツー、サバック（ペア）、役なしのサバック、ナルレク（0 でない："
        "0 に近いほど強く、プラスがマイナスに勝つ）。同点：組の数字が小さいほう、札が多いほう、"
        "プラスの合計が大きいほう、最大のプラスの札が大きいほう、それでも同じならブラインド・"
        "ドロー。"
    ),
    "help.rounds": "1 ハンドのラウンド数（カード、ベッティング、スパイクの各フェイズ）",
    "help.betting": "no_limit（上限なし）| pot_limit（ポットまで）| fixed（固定額）",
    "help.min_bet": "最小のベット額とレイズ幅（none＝アンティの額）。fixed では固定のベット額",
    "help.max_raises": "1 回のベッティングでのレイズの上限（none＝無制限）",
    "help.gain_fee": "ゲインするときメインポットに払う額（サラスのハウスルール：1）",
    "help.swap_fee": "スワップするときメインポットに払う額（サラスのハウスルール：2）",
    "help.hand_cap": "手札の上限枚数（上限ではゲインできない）",
    "help.true_tie": (
        "blind_draw（ギャラクシーズ・エッジ公式：1 枚ずつ引いて決める）| split（分配）"
    ),
    "option.rounds": "ラウンド数",
    "option.betting": "ベットの方式",
    "option.min_bet": "最小ベット",
    "option.max_raises": "レイズの上限回数",
    "option.gain_fee": "ゲインの料金",
    "option.swap_fee": "スワップの料金",
    "option.hand_cap": "手札の上限",
    "option.true_tie": "完全な同点",
}

SPIKE_TEXT = VariantText(
    messages={
        "en": {
            "phase.spike": "Spike phase",
            "howto": (
                "How to win: end the hand with cards totalling zero (a Sabacc), or as close to "
                "zero as you can. Each Card phase you stand, gain the draw top, or swap a card "
                "with the discard or draw top; then you bet, call or junk (fold). After three "
                "rounds the best hand takes the main pot, and the sabacc pot too if it totals "
                "zero. Among zero hands, named patterns win (Pure Sabacc 0 0 is best); among "
                "the rest, the total closest to zero wins and positive beats negative. Beware "
                "the Spike dice: doubles are a Sabacc Shift and every hand is dealt anew."
            ),
        },
        "ja": {
            "phase.spike": "スパイクフェイズ",
            "howto": (
                "勝ち方：手札の合計を 0（サバック）か、できるだけ 0 に近づけてハンドを終える。"
                "カードフェイズではスタンド、山札の上を取る（ゲイン）、捨て札か山札の上と 1 枚"
                "交換（スワップ）のどれか。続いてベット、コール、ジャンク（降りる）。3 ラウンド後、"
                "最強の手がメインポットを取り、合計 0 ならサバックポットも取る。合計 0 の手の"
                "中では役が強い（ピュア・サバック 0 0 が最強）。それ以外は 0 に近いほど強く、"
                "同じならプラスが勝つ。スパイクのダイスがゾロ目ならサバック・シフト：全員の手札が"
                "配り直される。"
            ),
            **{f"hand.{en}": ja for en, ja in HAND_NAMES_JA.items()},
            **SPIKE_JA_DOCS,
        },
    },
    glossary={"en": GLOSSARY_EN, "ja": GLOSSARY_JA},
)
