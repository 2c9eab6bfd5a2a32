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
}

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
