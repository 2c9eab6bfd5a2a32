"""Classic sabacc's player-facing vocabulary (EN/JA).

Classic has its own words: you *pass* or *draw a card*, *exchange* with the deck, *fold*, and
*call the hand*; the dice shift the cards (there is no "Sabacc Shift"); hands are totals, bombs
out and two special hands.
"""

from __future__ import annotations

from sabacc.engine.text import GlossaryEntry, VariantText

_EN: dict[str, str] = {
    "label.stand": "pass",
    "label.gain": "draw a card",
    "label.swap_draw": "exchange",
    "label.junk": "fold",
    "short.swap_draw": "exchange",
    "did.stand": "{who} passes",
    "did.stand.you": "You pass",
    "did.gain": "{who} draws a card",
    "did.gain.you": "You draw a card",
    "did.swap": "{who} exchanges {card} for a card from {pile}",
    "did.swap.you": "You exchange {card} for a card from {pile}",
    "did.swap_hidden": "{who} exchanges a card for one from {pile}",
    "did.swap_hidden.you": "You exchange a card for one from {pile}",
    "did.junk": "{who} folds",
    "did.junk.you": "You fold",
    "pile.draw": "the deck",
    "dice.shift": "{roll}: the cards shift!",
    "reason.all_junked": "everyone else folded",
    "ended.all_junked": "everyone else folded",
    "ui.status.junked": "folded",
    "ui.junked": "folded",
    "howto": (
        "How to win: hold the highest total up to 23 when the hand is called. On your turn "
        "you pass, draw a card or exchange one, and bet 1-3 credits, call or fold; after the "
        "first orbit anyone may call the hand. Pure Sabacc (exactly 23) and the Idiot's Array "
        "(The Idiot 0 with a 2 and a 3) beat every total and also win the sabacc pot. Over 23, "
        "under -23 or exactly 0 is a bomb-out: you pay the size of the hand pot. Calling and "
        "not winning costs a penalty too. The shift die may change a random card of every hand."
    ),
    "banner.shift": "SHIFT! A card changed",
    "phase.shifting": "Shifting phase",
    "phase.calling": "Calling phase",
    "phase.drawing": "Drawing phase",
    "card_swapped.shift": "The shift changes one of {who}'s cards: {lost} becomes {got}",
    "card_swapped.shift.you": "The shift changes one of your cards: {lost} becomes {got}",
    "card_swapped.shift.hidden": "The shift changes one of {who}'s cards",
    "card_swapped.shift.hidden.you": "The shift changes one of your cards",
    "card_swapped.exchange": "{who} gives up {lost} and gets {got}",
    "card_swapped.exchange.you": "You give up {lost} and get {got}",
    "card_swapped.exchange.hidden": "{who} discards a card face down and gets another",
    "card_swapped.exchange.hidden.you": "You discard a card face down and get another",
}

_JA: dict[str, str] = {
    "label.stand": "パス",
    "label.gain": "1 枚引く",
    "label.swap_draw": "交換",
    "label.junk": "フォールド",
    "short.swap_draw": "交換",
    "did.stand": "{who}はパス",
    "did.gain": "{who}は 1 枚引く",
    "did.swap": "{who}は {card} を{pile}の札と交換",
    "did.swap_hidden": "{who}は札を 1 枚{pile}の札と交換",
    "did.junk": "{who}はフォールド",
    "pile.draw": "デッキ",
    "dice.shift": "{roll}：札がシフトする！",
    "reason.all_junked": "ほかの全員がフォールド",
    "ended.all_junked": "ほかの全員がフォールド",
    "ui.status.junked": "フォールド",
    "ui.junked": "フォールド",
    "howto": (
        "勝ち方：ハンドがコールされたとき、23 以下で最も大きい合計を持つ。自分の番ではパス、"
        "1 枚引く、1 枚交換のどれかをし、1〜3 クレジットのベット、コール、フォールドを選ぶ。"
        "1 周した後は誰でもハンドをコールできる。ピュア・サバック（ちょうど 23）とイディオッツ・"
        "アレイ（イディオット 0 と 2 と 3）はどの合計にも勝ち、サバックポットも取る。23 超、"
        "-23 未満、ちょうど 0 はボムアウト：ハンドポットと同額を払う。コールして勝てなくても"
        "ペナルティ。シフトのダイスで全員の手札の 1 枚がランダムに替わることがある。"
    ),
    "banner.shift": "シフト！",
    "phase.shifting": "シフトフェイズ",
    "phase.calling": "コールフェイズ",
    "phase.drawing": "ドローフェイズ",
    "card_swapped.shift": "シフトで{who}の札が変わる：{lost} が {got} に",
    "card_swapped.shift.hidden": "シフトで{who}の札が 1 枚変わる",
    "card_swapped.exchange": "{who}は {lost} を手放して {got} を得る",
    "card_swapped.exchange.hidden": "{who}は札を 1 枚伏せて捨て、別の札を得る",
    "hand.Idiot's Array": "イディオット・アレイ",
    "hand.Pure Sabacc": "ピュア・サバック",
    "hand.Pure Sabacc (-23)": "ピュア・サバック（-23）",
    "hand.Bomb out (over 23)": "ボムアウト（23 超）",
    "hand.Bomb out (under -23)": "ボムアウト（-23 未満）",
    "hand.Bomb out (zero)": "ボムアウト（0）",
}

GLOSSARY_EN: tuple[GlossaryEntry, ...] = (
    GlossaryEntry("Idiot's Array", "exactly The Idiot, a 2 and a 3: beats everything", "0 2s 3c"),
    GlossaryEntry("Pure Sabacc", "a total of exactly +23", "11s 12c"),
    GlossaryEntry(
        "(a total)", "any other hand scores its total: the highest up to 23 wins", "9f 8c"
    ),
    GlossaryEntry("Bomb out", "a total over 23, under -23 or exactly 0: cannot win", "15s 10c"),
)

GLOSSARY_JA: tuple[GlossaryEntry, ...] = (
    GlossaryEntry("イディオット・アレイ", "イディオット、2、3 の 3 枚ちょうど：最強", "0 2s 3c"),
    GlossaryEntry("ピュア・サバック", "合計がちょうど +23", "11s 12c"),
    GlossaryEntry("（合計）", "ほかの手は合計で比べる：23 以下で最も大きい手が勝つ", "9f 8c"),
    GlossaryEntry("ボムアウト", "合計が 23 超、-23 未満、またはちょうど 0：勝てない", "15s 10c"),
)

CLASSIC_TEXT = VariantText(
    messages={"en": _EN, "ja": _JA},
    keys={"swap_draw": "e", "junk": "j"},
    glossary={"en": GLOSSARY_EN, "ja": GLOSSARY_JA},
)
