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
    "card_swapped.shift.same": "The shift takes one of {who}'s cards and deals it back: {got}",
    "card_swapped.shift.same.you": (
        "The shift takes one of your cards and deals it back to you: {got}"
    ),
    "card_swapped.shift.hidden": "The shift changes one of {who}'s cards",
    "card_swapped.shift.hidden.you": "The shift changes one of your cards",
    "card_swapped.exchange": "{who} gives up {lost} and gets {got}",
    "card_swapped.exchange.you": "You give up {lost} and get {got}",
    "card_swapped.exchange.hidden": "{who} discards a card face down and gets another",
    "card_swapped.exchange.hidden.you": "You discard a card face down and get another",
}

#: shift_chance's typical values (the settings' dropdown), per language.
_SHIFT_CHANCES = {
    "en": {"0": "never", "1/6": "1 turn in 6", "1/3": "1 turn in 3", "1/2": "1 turn in 2",
           "2/3": "2 turns in 3", "5/6": "5 turns in 6", "1": "every turn"},
    "ja": {"0": "なし", "1/6": "6 手番に 1 回", "1/3": "3 手番に 1 回", "1/2": "2 手番に 1 回",
           "2/3": "3 手番に 2 回", "5/6": "6 手番に 5 回", "1": "毎手番"},
}  # fmt: skip
_EN.update({f"choice.shift_chance.{k}": v for k, v in _SHIFT_CHANCES["en"].items()})
_EN["hint.shift_chance"] = "how often the cards shift: a d6 is rolled every turn"
_EN["hint.scoring"] = "which totals win: the highest up to 23, or the closest to ±23"
_EN["hint.sabacc_ante"] = "when players ante to the sabacc pot: only when it is empty, or always"
# Here the sabacc ante is a mode and its amount another setting: two names that differ.
_EN["option.sabacc_ante"] = "When to ante the sabacc pot"

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
    "card_swapped.shift.same": "シフトで{who}の札 {got} が抜かれ、同じ札が戻る",
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

#: The rules page, the menu line and the house-rule help in Japanese (the web lobby and Rules).
_JA_DOCS: dict[str, str] = {
    "summary": "銀河で遊ばれる 76 枚のゲーム：23 以下で最も大きい合計を狙う。カードは入れ替わる。",
    "rules": (
        "クラシック・サバック（M・ブレント・スリーパーのルール）。目標：23 以下でできるだけ大きい"
        "合計（-23 までのマイナスの合計も数える）。23 超、-23 未満、ちょうど 0 はボムアウト。\n"
        "76 枚：セイバー、スタッフ、フラスク、コインの 4 スートに 1〜11 とコマンダー 12、"
        "ミストレス 13、マスター 14、エース 15。さらに絵札が 2 枚ずつ：イディオット 0、空と闇の"
        "女王 -2、忍耐 -8、均衡 -11、破滅 -13、節制 -14、邪悪なる者 -15、星 -17。\n"
        "全員がハンドポットに 1、サバックポットが空なら 1 をアンティ。2 枚ずつ配る。手番は"
        "ディーラーの左から回り、各手番は 4 つのフェイズ：\n"
        "1. ベッティング：手番のプレイヤーは 1〜3 をベットするかチェック。ほかの人はコール、"
        "1〜3 のレイズ、フォールド（チェックの後はステイかフォールド）。レイズは 3 回まで。"
        "フォールドするとサバックポットに 1 払う。\n"
        "2. シフト：d6 を振り、1〜3 なら残っている全員がランダムに 1 枚失い、失われた札を"
        "混ぜて 1 枚ずつ配り直す。\n"
        "3. コール：全員が一度手番を終えたら、ほかのプレイヤーは順にハンドをコールできる。"
        "コールするとすぐショーダウン。\n"
        "4. ドロー：手番のプレイヤーは 1 枚引く、1 枚交換する（3 枚以上のとき）、パスのどれか。\n"
        "手番が 10 周するとハンドは自動的にコールされる。\n"
        "ショーダウン：最強の手がハンドポットを取る。イディオット・アレイ（イディオット、2、3）"
        "が最強、次にピュア・サバック（ちょうど 23）。どちらもサバックポットも取る。ボムアウト"
        "した人と、コールして勝てなかった人は、ハンドポットと同じ額をサバックポットに払う。"
        "同点はサドン・ディマイズ（1 枚ずつ追加し、有効な最強の手が勝つ）、それでも同じなら"
        "分配。有効な手が誰にもなければハンドポットは持ち越し。"
    ),
    "help.sabacc_ante": "if_empty（サバックポットが空のときだけアンティ）| always（毎ハンド）",
    "help.sabacc_ante_amount": "サバックポットへのアンティが必要なとき各自が払う額",
    "help.bet_limit": "最大のベット額と最大のレイズ幅（最小は 1 クレジット）",
    "help.max_raises": "1 回のベッティングでのレイズの上限",
    "help.fold_fee": "フォールドした人がサバックポットに払う額（持ち分が上限）",
    "help.shift_chance": "各手番でシフトが起きる確率、d6 の k/6（1/2：1〜3 の目でシフト）",
    "help.min_turns_before_call": "誰かがハンドをコールできるまでに終える手番の周回数",
    "help.max_orbits": "この周回数を過ぎるとハンドは自動的にコールされる（コールした人なし）",
    "help.allow_exchange_at_two": "手札が 2 枚のときも 1 枚の交換を認める",
    "help.scoring": (
        "signed（23 以下で最大の合計が勝つ）| absolute（±23 に最も近い手、同じなら +x が -x に勝つ"
        "）"
    ),
    "option.sabacc_ante_amount": "サバックポットのアンティ額",
    "option.sabacc_ante": "サバックポットにアンティする時",
    "option.bet_limit": "ベットの上限",
    "option.max_raises": "レイズの上限回数",
    "option.fold_fee": "フォールド料",
    "option.shift_chance": "シフトの確率",
    "option.min_turns_before_call": "コールできるまでの周回",
    "option.max_orbits": "最大周回数",
    "option.allow_exchange_at_two": "2 枚での交換",
    "option.scoring": "得点の数え方",
}

_JA_DOCS.update({f"choice.shift_chance.{k}": v for k, v in _SHIFT_CHANCES["ja"].items()})
_JA_DOCS["hint.shift_chance"] = "カードがシフトする頻度：毎手番 d6 を振る"
_JA_DOCS["hint.scoring"] = "勝つ合計：23 以下で最大か、±23 に最も近いか"
_JA_DOCS["hint.sabacc_ante"] = "サバックポットへのアンティ：空のときだけか、毎回か"

CLASSIC_TEXT = VariantText(
    messages={"en": _EN, "ja": {**_JA, **_JA_DOCS}},
    keys={"swap_draw": "e", "junk": "j"},
    glossary={"en": GLOSSARY_EN, "ja": GLOSSARY_JA},
)
