"""Coruscant Shift's player-facing vocabulary (EN/JA): the selections, the dice target, the
two hand names (on and off target) and the variant's own events."""

from __future__ import annotations

from sabacc.engine.text import GlossaryEntry, VariantText

_EN: dict[str, str] = {
    "label.keep": "keep",
    "short.keep": "keep",
    "did.keep": "{who} keeps {cards}",
    "did.keep.you": "You keep {cards}",
    "phase.selection": "Selection phase",
    "phase.shift": "Shift phase",
    "hand.On Target": "On Target",
    "hand.Off Target": "Off Target",
    **{
        f"target_rolled.{suit}": "The dealer rolls the dice: target {total:+d}, suit "
        + f"{suit} {sym}"
        for suit, sym in (("circle", "●"), ("triangle", "▲"), ("square", "■"))
    },
    "selected.first": "{who} keeps {count} cards face down",
    "selected.first.you": "You keep {cards} face down",
    "selected.first.hidden": "{who} keeps {count} cards face down",
    "selected.second": "{who} keeps {count} cards in the final selection",
    "selected.second.you": "You keep {cards} in the final selection",
    "selected.second.hidden": "{who} keeps {count} cards in the final selection",
    "set_aside.shift": "{who} discards {count} unselected cards face down",
    "set_aside.shift.you": "You discard {cards} face down",
    "set_aside.shift.hidden": "{who} discards {count} unselected cards face down",
    "set_aside.second": "{who} discards {count} unselected cards face down",
    "set_aside.second.you": "You discard {cards} face down",
    "set_aside.second.hidden": "{who} discards {count} unselected cards face down",
    "dealt.draw_up": "{who} draws back up to five: {cards}",
    "dealt.draw_up.you": "You draw back up to five: {cards}",
    "selected.first.one": "{who} keeps 1 card face down",
    "selected.first.hidden.one": "{who} keeps 1 card face down",
    "selected.second.one": "{who} keeps 1 card in the final selection",
    "selected.second.hidden.one": "{who} keeps 1 card in the final selection",
    "set_aside.shift.one": "{who} discards 1 unselected card face down",
    "set_aside.shift.hidden.one": "{who} discards 1 unselected card face down",
    "set_aside.second.one": "{who} discards 1 unselected card face down",
    "set_aside.second.hidden.one": "{who} discards 1 unselected card face down",
    "howto": (
        "How to win: at the reveal, have the kept set whose total is closest to the target. "
        "Each hand you get five cards and the dealer rolls a gold die (the target number: 0, "
        "+5, -5, +10 or -10) and a silver die (the target suit). First you keep at least one "
        "card face down; you bet, call, raise or junk (fold); the rest are discarded and you "
        "draw back up to five; a second betting round; then you may add cards to your kept set "
        "(never remove them). Closest to the target wins the pot; then most cards of the target "
        "suit (Sylops count as it), then the higher total, then the higher positive card."
    ),
    "tiebreak.closer_to_target": "the total closer to the target wins",
    "fact.target": "Target {value:+d}",
    "fact.target_suit": "suit {term}",
    "tiebreak.more_of_suit": "more cards of the target suit win",
}

_JA: dict[str, str] = {
    "label.keep": "キープ",
    "short.keep": "キープ",
    "did.keep": "{who}は {cards} をキープ",
    "phase.selection": "セレクションフェイズ",
    "phase.shift": "シフトフェイズ",
    "hand.On Target": "オン・ターゲット",
    "hand.Off Target": "オフ・ターゲット",
    **{
        f"target_rolled.{suit}": "ディーラーがダイスを振る：ターゲット {total:+d}、"
        + f"スート {name} {sym}"
        for suit, name, sym in (
            ("circle", "サークル", "●"),
            ("triangle", "トライアングル", "▲"),
            ("square", "スクエア", "■"),
        )
    },
    "selected.first": "{who}は {count} 枚を伏せてキープ",
    "selected.first.you": "あなたは {cards} を伏せてキープ",
    "selected.first.hidden": "{who}は {count} 枚を伏せてキープ",
    "selected.second": "{who}は最終セレクションで {count} 枚をキープ",
    "selected.second.you": "あなたは最終セレクションで {cards} をキープ",
    "selected.second.hidden": "{who}は最終セレクションで {count} 枚をキープ",
    "set_aside.shift": "{who}は選ばなかった {count} 枚を伏せて捨てる",
    "set_aside.shift.you": "あなたは {cards} を伏せて捨てる",
    "set_aside.shift.hidden": "{who}は選ばなかった {count} 枚を伏せて捨てる",
    "set_aside.second": "{who}は選ばなかった {count} 枚を伏せて捨てる",
    "set_aside.second.you": "あなたは {cards} を伏せて捨てる",
    "set_aside.second.hidden": "{who}は選ばなかった {count} 枚を伏せて捨てる",
    "dealt.draw_up": "{who}は 5 枚まで引き直す：{cards}",
    "howto": (
        "勝ち方：リビールで、キープした札の合計がターゲットに最も近いこと。各ハンドで 5 枚ずつ"
        "配られ、ディーラーが金のダイス（ターゲットの数：0、+5、-5、+10、-10）と銀のダイス"
        "（ターゲットのスート）を振る。まず 1 枚以上を伏せてキープし、ベット、コール、レイズ、"
        "ジャンク（降りる）。残りは捨てて 5 枚まで引き直し、2 回目のベット。最後にキープに札を"
        "足してよい（外すことはできない）。ターゲットに最も近い人がポットを取る。同じなら"
        "ターゲットのスートの枚数（シロップも数える）、次に合計の大きいほう、次に最も大きい"
        "プラスの札。"
    ),
    "tiebreak.closer_to_target": "合計がターゲットに近いほうが勝ち",
    "fact.target": "ターゲット {value:+d}",
    "fact.target_suit": "スート {term}",
    "tiebreak.more_of_suit": "ターゲットのスートの札が多いほうが勝ち",
}

#: The rules page, the menu line and the house-rule help in Japanese (the web lobby and Rules).
_JA_DOCS: dict[str, str] = {
    "summary": (
        "ギャラクシーズ・エッジ：スパイクのデッキで、金と銀のダイスがターゲットを決め、キープは増え"
        "るだけ。"
    ),
    "rules": (
        "コルサント・シフト（ギャラクシーズ・エッジ）。目標：キープした札の合計をターゲットの数に"
        "する。\n"
        "スパイクの 62 枚のデッキ。毎ハンド全員がハンドポットに 2 をアンティ（サバックポットは"
        "ない）、5 枚ずつ配る。金のダイス（0、0、+5、-5、+10、-10）がターゲットの数を、銀のダイス"
        "（円、三角、四角）がターゲットのスートを決める。\n"
        "1. セレクション：1 枚以上を伏せてキープする（keep -3 +5c 0）。\n"
        "2. ベッティング（チェック、ベット、コール、レイズ、ジャンク）。\n"
        "3. シフト：キープしなかった札を捨て、5 枚まで引き直す。\n"
        "4. もう一度ベッティング。\n"
        "5. 2 回目のセレクション：キープに札を加える（キープした札は残る）。残りは捨てる。\n"
        "6. 公開：合計がターゲットに最も近い人がポットを取る。同じならターゲットのスートの札が"
        "多いほう（シロップはどのスートにも数える）、次に合計が大きいほう、次に最大のプラスの札が"
        "大きいほう、それでも同じならブラインド・ドロー。\n"
        "オプション rising_ante：アンティが毎ハンド上がる（残り 2 人で +5、3 人で +3、4 人で +2、"
        "それ以上で +1）。"
    ),
    "help.buy_in": "各プレイヤーの開始クレジット（コルサント・シフト：100）",
    "help.ante": (
        "毎ハンドのハンドポットへのアンティ。ベットの単位も兼ねる（コルサント・シフト：2）"
    ),
    "help.sabacc_ante": "使わない：コルサント・シフトにサバックポットはない（常に 0）",
    "help.betting": "no_limit（上限なし）| pot_limit（ポットまで）| fixed（固定額）",
    "help.min_bet": "最小のベット額とレイズ幅（none＝アンティの額）。fixed では固定のベット額",
    "help.max_raises": "1 回のベッティングでのレイズの上限（none＝無制限）",
    "help.true_tie": (
        "blind_draw（ギャラクシーズ・エッジ公式：1 枚ずつ引いて決める）| split（分配）"
    ),
    "help.rising_ante": (
        "アンティが毎ハンド上がる：残り 2 人で +5、3 人で +3、4 人で +2、それ以上で +1"
    ),
    "help.target": "金のダイスの代わりに固定するターゲットの数（none＝振る）：0、±5、±10",
    "help.target_suit": "roll（銀のダイスを振る）| circle（円）| triangle（三角）| square（四角）",
    "option.betting": "ベットの方式",
    "option.min_bet": "最小ベット",
    "option.max_raises": "レイズの上限回数",
    "option.true_tie": "完全な同点",
    "option.rising_ante": "上がるアンティ",
    "option.target": "ターゲットの数",
    "option.target_suit": "ターゲットのスート",
}
# One card kept or discarded: English says "1 card" (Japanese counts the same way).
_JA.update({f"{k}.one": _JA[k].replace("{count}", "1") for k in _EN if f"{k}.one" in _EN})

CORUSCANT_TEXT = VariantText(
    messages={"en": _EN, "ja": {**_JA, **_JA_DOCS}},
    keys={"keep": "k", "junk": "j"},
    glossary={
        "en": (
            GlossaryEntry("On Target", "a kept set totalling the target number", "+5 -3 +3"),
            GlossaryEntry(
                "Off Target",
                "any other kept set: closest to the target wins, then most target-suit cards",
                "+7 -1",
            ),
        ),
        "ja": (
            GlossaryEntry("オン・ターゲット", "合計がターゲットの数ちょうどのキープ", "+5 -3 +3"),
            GlossaryEntry(
                "オフ・ターゲット",
                "それ以外：ターゲットに近いほど強く、次にターゲットのスートの枚数",
                "+7 -1",
            ),
        ),
    },
)
