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

# One card kept or discarded: English says "1 card" (Japanese counts the same way).
_JA.update({f"{k}.one": _JA[k].replace("{count}", "1") for k in _EN if f"{k}.one" in _EN})

CORUSCANT_TEXT = VariantText(
    messages={"en": _EN, "ja": _JA},
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
