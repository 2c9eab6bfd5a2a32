"""Kessel Sabacc's player-facing vocabulary (EN/JA): actions, phases, piles, pots, tokens,
hand names and glossary, and the lines of its own events (RULES.md §4).

Token names and one-line effects are ``term.<token>`` and ``effect.<token>``; the renderer
(:mod:`sabacc.services.render`) puts a ``term.`` in place of any event field or action word that
has one, so ``token_played`` reads "Ann plays Free Draw" and ``ラン が フリードロー を使う``.
"""

from __future__ import annotations

from sabacc.engine.text import GlossaryEntry, VariantText
from sabacc.variants.kessel.tokens import TOKEN_HELP, TOKENS

TOKEN_NAMES: dict[str, dict[str, str]] = {
    "en": {
        "free_draw": "Free Draw",
        "refund": "Refund",
        "extra_refund": "Extra Refund",
        "embezzlement": "Embezzlement",
        "general_tariff": "General Tariff",
        "target_tariff": "Target Tariff",
        "general_audit": "General Audit",
        "target_audit": "Target Audit",
        "major_fraud": "Major Fraud",
        "markdown": "Markdown",
        "cook_the_books": "Cook the Books",
        "prime_sabacc": "Prime Sabacc",
        "immunity": "Immunity",
        "exhaustion": "Exhaustion",
        "direct_transaction": "Direct Transaction",
        "embargo": "Embargo",
    },
    "ja": {
        "free_draw": "フリードロー",
        "refund": "払い戻し",
        "extra_refund": "追加払い戻し",
        "embezzlement": "横領",
        "general_tariff": "一般関税",
        "target_tariff": "指定関税",
        "general_audit": "一般監査",
        "target_audit": "指定監査",
        "major_fraud": "大型詐欺",
        "markdown": "値下げ",
        "cook_the_books": "粉飾決算",
        "prime_sabacc": "プライム・サバック",
        "immunity": "免責",
        "exhaustion": "消耗",
        "direct_transaction": "直接取引",
        "embargo": "禁輸",
    },
}

TOKEN_EFFECTS: dict[str, dict[str, str]] = {
    "en": dict(TOKEN_HELP),
    "ja": {
        "free_draw": "このターンのドローは無料",
        "refund": "自分のポットから 2 チップをストックに戻す",
        "extra_refund": "自分のポットから 3 チップをストックに戻す",
        "embezzlement": "相手全員のポットから 1 チップずつ自分のポットへ移す",
        "general_tariff": "他の全員がストックから 1 チップを自分のポットへ払う",
        "target_tariff": "選んだ 1 人がストックから 2 チップを自分のポットへ払う",
        "general_audit": "このラウンドにスタンドした他の全員が 2 チップをポットへ払う",
        "target_audit": "このラウンドにスタンドした選んだ 1 人が 3 チップをポットへ払う",
        "major_fraud": "このラウンド、インポスターはすべて 6",
        "markdown": "このラウンド、シロップ 1 枚は 0（シロップ 2 枚はピュア・サバックのまま）",
        "cook_the_books": (
            "このラウンド、サバックの強さが逆になる（6/6 が最強、ピュアは最強のまま）"
        ),
        "prime_sabacc": "サイコロ 2 個を振って 1 つ選ぶ：その数のペアがピュアの次に強い",
        "immunity": (
            "このラウンド、自分や自分のチップを狙う他のプレイヤーのトークンを受けない"
            "（順位を変えるトークンは全員の手に効く）"
        ),
        "exhaustion": "選んだ 1 人が手札を捨て、サンドとブラッドを 1 枚ずつ引き直す",
        "direct_transaction": "選んだ 1 人と手札を交換する",
        "embargo": "次のプレイヤーは次のターンにスタンドしなければならない",
    },
}

#: The keyboard key of each action text (the TUI's key bar and pile hints): one key per action,
#: the dice values by their own digit.
ACTION_KEYS: dict[str, str] = {
    "stand": "s",
    "draw sand": "1",
    "draw blood": "2",
    "draw sand discard": "3",
    "draw blood discard": "4",
    "keep": "k",
    "discard": "x",
    **{f"impostor {v}": str(v) for v in range(1, 7)},
    **{f"prime {v}": str(v) for v in range(1, 7)},
}

#: Short button labels per action text (the web table's buttons, the TUI's key bar).
BUTTON_LABELS: dict[str, dict[str, str]] = {
    "en": {
        "stand": "Stand",
        "draw sand": "Sand",
        "draw blood": "Blood",
        "draw sand discard": "Sand top",
        "draw blood discard": "Blood top",
        "keep": "Keep it",
        "discard": "Discard it",
        "token": "Token",
        **{f"impostor {v}": f"Impostor = {v}" for v in range(1, 7)},
        **{f"prime {v}": f"Prime pair {v}" for v in range(1, 7)},
    },
    "ja": {
        "stand": "スタンド",
        "draw sand": "サンド",
        "draw blood": "ブラッド",
        "draw sand discard": "サンド捨",
        "draw blood discard": "ブラッド捨",
        "keep": "残す",
        "discard": "捨てる",
        "token": "トークン",
        **{f"impostor {v}": f"インポスター = {v}" for v in range(1, 7)},
        **{f"prime {v}": f"プライムのペア {v}" for v in range(1, 7)},
    },
}

_EN: dict[str, str] = {
    # actions (label: buttons and prompt lists; did: the log)
    "label.stand": "stand",
    "label.draw_sand": "draw Sand (1 chip)",
    "label.draw_blood": "draw Blood (1 chip)",
    "label.draw_sand_discard": "take the Sand discard (1 chip)",
    "label.draw_blood_discard": "take the Blood discard (1 chip)",
    "label.keep": "keep the drawn card",
    "label.discard": "discard the drawn card",
    "label.impostor": "Impostor value",
    "label.prime": "Prime Sabacc value",
    "label.token": "play a shift token",
    "short.draw_sand": "draw Sand",
    "short.draw_blood": "draw Blood",
    "short.draw_sand_discard": "Sand discard",
    "short.draw_blood_discard": "Blood discard",
    "short.keep": "keep",
    "short.discard": "discard",
    "did.draw_sand": "{who} draws from the Sand draw pile",
    "did.draw_sand.you": "You draw from the Sand draw pile",
    "did.draw_blood": "{who} draws from the Blood draw pile",
    "did.draw_blood.you": "You draw from the Blood draw pile",
    "did.draw_sand_discard": "{who} takes the top of the Sand discard pile",
    "did.draw_sand_discard.you": "You take the top of the Sand discard pile",
    "did.draw_blood_discard": "{who} takes the top of the Blood discard pile",
    "did.draw_blood_discard.you": "You take the top of the Blood discard pile",
    "did.keep": "{who} keeps the drawn card",
    "did.keep.you": "You keep the drawn card",
    "did.discard": "{who} discards the drawn card",
    "did.discard.you": "You discard the drawn card",
    "did.impostor": "{who} gives their Impostor the value {n}",
    "did.impostor.you": "You give your Impostor the value {n}",
    "did.prime": "{who} chooses {n}: a pair of {n}s is Prime Sabacc this round",
    "did.prime.you": "You choose {n}: a pair of {n}s is Prime Sabacc this round",
    "did.token": "{who} plays {arg}",
    "did.token.you": "You play {arg}",
    "did.token_target": "{who} plays {arg} on {target}",
    "did.token_target.you": "You play {arg} on {target}",
    # its own observation facts, by key (the web table's captions)
    "fact.turn": "Turn",
    "fact.chips_lost": "Chips lost",
    "fact.draw_is_free": "Your draw is free",
    # phases
    "phase.turn": "Turn",
    "phase.draw": "Keep or discard",
    "phase.impostor": "Reveal: Impostor dice",
    "phase.prime": "Prime Sabacc dice",
    # piles and pots
    "pile.sand_draw": "the Sand draw pile",
    "pile.blood_draw": "the Blood draw pile",
    "pile.sand_discard": "the Sand discard pile",
    "pile.blood_discard": "the Blood discard pile",
    "pot.round": "round pot",
    "term.Is": "a Sand Impostor",
    "term.Ib": "a Blood Impostor",
    "term.sand": "Sand",
    "term.blood": "Blood",
    # payments and awards
    "paid.draw": "{who} pays {amount} chip into their round pot to draw",
    "paid.draw.you": "You pay {amount} chip into your round pot to draw",
    "paid.general_tariff": "{who} pays {amount} from stock into their round pot (General Tariff)",
    "paid.general_tariff.you": "You pay {amount} from stock into your round pot (General Tariff)",
    "paid.target_tariff": "{who} pays {amount} from stock into their round pot (Target Tariff)",
    "paid.target_tariff.you": "You pay {amount} from stock into your round pot (Target Tariff)",
    "paid.general_audit": "{who} pays {amount} from stock into their round pot (General Audit)",
    "paid.general_audit.you": "You pay {amount} from stock into your round pot (General Audit)",
    "paid.target_audit": "{who} pays {amount} from stock into their round pot (Target Audit)",
    "paid.target_audit.you": "You pay {amount} from stock into your round pot (Target Audit)",
    "reason.own_pot_back": "a best hand takes its own pot back",
    # Kessel's events
    "token_played": "{who} plays {token}: {token_effect}",
    "token_played.you": "You play {token}: {token_effect}",
    "token_played.target": "{who} plays {token} on {target}: {token_effect}",
    "token_played.target.you": "You play {token} on {target}: {token_effect}",
    "dice_choice": "{who} rolls {dice} for {purpose} and chooses one",
    "dice_choice.you": "You roll {dice} for {purpose}: choose one",
    "chips_moved": "{amount} chips move from {who}'s round pot ({reason})",
    "chips_moved.refund": "{who} takes {amount} chips from their round pot back to stock (Refund)",
    "chips_moved.refund.you": "You take {amount} chips from your round pot back to stock (Refund)",
    "chips_moved.extra_refund": (
        "{who} takes {amount} chips from their round pot back to stock (Extra Refund)"
    ),
    "chips_moved.extra_refund.you": (
        "You take {amount} chips from your round pot back to stock (Extra Refund)"
    ),
    "chips_moved.embezzlement": "{who} loses {amount} chip from their round pot (Embezzlement)",
    "chips_moved.embezzlement.you": "You lose {amount} chip from your round pot (Embezzlement)",
    "chips_lost": "{who} loses their round pot ({pot}) + penalty {penalty}",
    "chips_lost.you": "You lose your round pot ({pot}) + penalty {penalty}",
    "eliminated": "{who} has no chips left and is out",
    "eliminated.you": "You have no chips left and are out",
    **{f"term.{t}": name for t, name in TOKEN_NAMES["en"].items()},
    **{f"effect.{t}": text for t, text in TOKEN_EFFECTS["en"].items()},
    **{f"label.token_{t}": f"play {name}" for t, name in TOKEN_NAMES["en"].items()},
}
_EN.update(
    {
        # the house rules' values (settings dropdowns and the token checkboxes)
        "choice.game_end.last_standing": "until one player has chips",
        "choice.rounds:N": "a number of rounds (most chips wins)",
        "choice.draft": "draft: 3 tokens each, dealt at random",
        "choice.shift_tokens.none": "no tokens",
        "ui.default_length": "{hands} rounds",
        "hint.game_end": "how long the game lasts: until one player has chips, or a number of "
        "rounds (then most chips wins)",
        "hint.shift_tokens": "which shift tokens the players hold: a draft of 3 each, none, or "
        "the ones ticked (every player holds them all)",
        **{f"choice.{t}": name for t, name in TOKEN_NAMES["en"].items()},
        **{f"choice_help.{t}": text for t, text in TOKEN_EFFECTS["en"].items()},
    }
)

_JA: dict[str, str] = {
    "label.stand": "スタンド",
    "label.draw_sand": "サンドを引く（1 チップ）",
    "label.draw_blood": "ブラッドを引く（1 チップ）",
    "label.draw_sand_discard": "サンドの捨て札を取る（1 チップ）",
    "label.draw_blood_discard": "ブラッドの捨て札を取る（1 チップ）",
    "label.keep": "引いた札を残す",
    "label.discard": "引いた札を捨てる",
    "label.impostor": "インポスターの値",
    "label.prime": "プライム・サバックの値",
    "label.token": "シフトトークンを使う",
    "short.draw_sand": "サンドを引く",
    "short.draw_blood": "ブラッドを引く",
    "short.draw_sand_discard": "サンド捨て札",
    "short.draw_blood_discard": "ブラッド捨て札",
    "short.keep": "残す",
    "short.discard": "捨てる",
    "did.draw_sand": "{who}はサンドの山札から引く",
    "did.draw_sand.you": "あなたはサンドの山札から引く",
    "did.draw_blood": "{who}はブラッドの山札から引く",
    "did.draw_blood.you": "あなたはブラッドの山札から引く",
    "did.draw_sand_discard": "{who}はサンドの捨て札の一番上を取る",
    "did.draw_sand_discard.you": "あなたはサンドの捨て札の一番上を取る",
    "did.draw_blood_discard": "{who}はブラッドの捨て札の一番上を取る",
    "did.draw_blood_discard.you": "あなたはブラッドの捨て札の一番上を取る",
    "did.keep": "{who}は引いた札を残す",
    "did.keep.you": "あなたは引いた札を残す",
    "did.discard": "{who}は引いた札を捨てる",
    "did.discard.you": "あなたは引いた札を捨てる",
    "did.impostor": "{who}はインポスターの値を {n} にする",
    "did.impostor.you": "あなたはインポスターの値を {n} にする",
    "did.prime": "{who}は {n} を選ぶ：このラウンドは {n} のペアがプライム・サバック",
    "did.prime.you": "あなたは {n} を選ぶ：このラウンドは {n} のペアがプライム・サバック",
    "did.token": "{who}は{arg}を使う",
    "did.token.you": "あなたは{arg}を使う",
    "did.token_target": "{who}は{target}に{arg}を使う",
    "did.token_target.you": "あなたは{target}に{arg}を使う",
    "fact.turn": "ターン",
    "fact.chips_lost": "失ったチップ",
    "fact.draw_is_free": "ドロー無料",
    "phase.turn": "ターン",
    "phase.draw": "残すか捨てるか",
    "phase.impostor": "公開：インポスターのサイコロ",
    "phase.prime": "プライム・サバックのサイコロ",
    "pile.sand_draw": "サンドの山札",
    "pile.blood_draw": "ブラッドの山札",
    "pile.sand_discard": "サンドの捨て札",
    "pile.blood_discard": "ブラッドの捨て札",
    "pot.round": "ラウンドポット",
    "term.Is": "サンドのインポスター",
    "term.Ib": "ブラッドのインポスター",
    "term.sand": "サンド",
    "term.blood": "ブラッド",
    "paid.draw": "{who}はドローのためにラウンドポットへ {amount} チップ払う",
    "paid.draw.you": "あなたはドローのためにラウンドポットへ {amount} チップ払う",
    "paid.general_tariff": "{who}はストックから {amount} をラウンドポットへ払う（一般関税）",
    "paid.general_tariff.you": "あなたはストックから {amount} をラウンドポットへ払う（一般関税）",
    "paid.target_tariff": "{who}はストックから {amount} をラウンドポットへ払う（指定関税）",
    "paid.target_tariff.you": "あなたはストックから {amount} をラウンドポットへ払う（指定関税）",
    "paid.general_audit": "{who}はストックから {amount} をラウンドポットへ払う（一般監査）",
    "paid.general_audit.you": "あなたはストックから {amount} をラウンドポットへ払う（一般監査）",
    "paid.target_audit": "{who}はストックから {amount} をラウンドポットへ払う（指定監査）",
    "paid.target_audit.you": "あなたはストックから {amount} をラウンドポットへ払う（指定監査）",
    "reason.own_pot_back": "最強の手は自分のポットを取り戻す",
    "token_played": "{who}は{token}を使う：{token_effect}",
    "token_played.you": "あなたは{token}を使う：{token_effect}",
    "token_played.target": "{who}は{target}に{token}を使う：{token_effect}",
    "token_played.target.you": "あなたは{target}に{token}を使う：{token_effect}",
    "dice_choice": "{who}は{purpose}のためにサイコロを振る（{dice}）：1 つを選ぶ",
    "dice_choice.you": "あなたは{purpose}のためにサイコロを振る（{dice}）：1 つを選ぶ",
    "chips_moved": "{who}のラウンドポットから {amount} チップが動く（{reason}）",
    "chips_moved.refund": "{who}はラウンドポットから {amount} チップをストックに戻す（払い戻し）",
    "chips_moved.refund.you": (
        "あなたはラウンドポットから {amount} チップをストックに戻す（払い戻し）"
    ),
    "chips_moved.extra_refund": (
        "{who}はラウンドポットから {amount} チップをストックに戻す（追加払い戻し）"
    ),
    "chips_moved.extra_refund.you": (
        "あなたはラウンドポットから {amount} チップをストックに戻す（追加払い戻し）"
    ),
    "chips_moved.embezzlement": "{who}はラウンドポットから {amount} チップを失う（横領）",
    "chips_moved.embezzlement.you": "あなたはラウンドポットから {amount} チップを失う（横領）",
    "chips_lost": "{who}はラウンドポット（{pot}）とペナルティ {penalty} を失う",
    "chips_lost.you": "あなたはラウンドポット（{pot}）とペナルティ {penalty} を失う",
    "eliminated": "{who}はチップがなくなり脱落",
    "eliminated.you": "あなたはチップがなくなり脱落",
    **{f"term.{t}": name for t, name in TOKEN_NAMES["ja"].items()},
    **{f"effect.{t}": text for t, text in TOKEN_EFFECTS["ja"].items()},
    **{f"label.token_{t}": f"{name}を使う" for t, name in TOKEN_NAMES["ja"].items()},
}
_JA.update(
    {
        "choice.game_end.last_standing": "チップが残るのが 1 人になるまで",
        "choice.rounds:N": "ラウンド数を指定（チップ最多が勝ち）",
        "choice.draft": "ドラフト：各自 3 枚をランダムに",
        "choice.shift_tokens.none": "トークンなし",
        "ui.default_length": "{hands} ラウンド",
        "hint.game_end": "ゲームの長さ：チップが残るのが 1 人になるまで、またはラウンド数を指定"
        "（その後チップ最多が勝ち）",
        "hint.shift_tokens": "プレイヤーが持つシフトトークン：各自 3 枚のドラフト、なし、または"
        "チェックしたもの（全員がすべて持つ）",
        **{f"choice.{t}": name for t, name in TOKEN_NAMES["ja"].items()},
        **{f"choice_help.{t}": text for t, text in TOKEN_EFFECTS["ja"].items()},
    }
)

# Hand names: "Pure Sabacc", "Prime Sabacc 3/3", "Sabacc 2/2", "difference 4".
for _v in range(0, 7):
    _EN[f"hand.Sabacc {_v}/{_v}"] = f"Sabacc {_v}/{_v}"
    _JA[f"hand.Sabacc {_v}/{_v}"] = f"サバック {_v}/{_v}"
    _JA[f"hand.Prime Sabacc {_v}/{_v}"] = f"プライム・サバック {_v}/{_v}"
    _JA[f"hand.difference {_v}"] = f"差 {_v}"
_JA["hand.Pure Sabacc"] = "ピュア・サバック"
_JA["hand.Prime Sabacc"] = "プライム・サバック"
_JA["hand.Sabacc"] = "サバック"
_JA["hand.difference"] = "差"

# How to win, the showdown explanation's words (services/explain.py) and the reveal line: a
# Kessel hand's "total" is its difference, already in its name, so it is not said twice.
_EN.update(
    {
        "howto": (
            "How to win: hold one Sand and one Blood card of equal value (a Sabacc; 1/1 is the "
            "best pair, two Sylops are Pure Sabacc), or else the smallest difference between "
            "them. There is no betting: on your turn you may play one shift token, then stand "
            "or pay 1 chip into your round pot to draw from a Sand or Blood pile and keep or "
            "discard what you drew. After three turns (or when everyone stands) the best hands "
            "take their own pot back; every other player loses their pot and pays a penalty: "
            "1 chip with a Sabacc, else the difference. Impostors take a die value at the "
            "reveal, a Sylop copies the other card. With no chips left you are out; the last "
            "player with chips wins."
        ),
        "revealed": "{who} shows {cards}: {hand}",
        "revealed.you": "You show {cards}: {hand}",
        "explain.hand": "{hand}",
        # Kessel's hand names say their kind ("Sabacc 3/3"), so "same rank" is not repeated.
        "explain.by_tiebreak": "{who} wins the {pot} ({amount}) with {hand} over {other} "
        "{other_hand}: {tiebreak}",
        "explain.by_tiebreak.you": "You win the {pot} ({amount}) with {hand} over {other} "
        "{other_hand}: {tiebreak}",
        "tiebreak.pair_or_difference": "the better pair, or the smaller difference, wins",
        "tiebreak.pair_or_difference.3": "the lower pair wins",
        "tiebreak.pair_or_difference.3.cook_the_books": (
            "Cook the Books was played: the higher pair wins"
        ),
        "tiebreak.pair_or_difference.4": "the smaller difference wins",
        "tiebreak.lower_card": "same difference: the lower card wins",
        "ended.all_stood": "everyone stood",
        # the terminal table: chips, not credits; a hand's name says its difference
        "ui.credits": "chips",
        "ui.unit": "chips",
        "ui.cr": "",  # a seat's stack: no short word for chips fits beside its pot and tokens
        # a token's action is said by its token_played line (the token and its effect); a
        # draw by the card taken (with its chip, one line), a keep or discard by the card put
        # on a discard pile
        "said_by.token": "token_played",
        "said_by.draw": "card_taken",
        "said_by.keep": "card_discarded",
        "said_by.discard": "card_discarded",
        "card_taken.paid": "{who} pays {amount} chip into their round pot and takes {card} from "
        "{pile}",
        "card_taken.paid.you": "You pay {amount} chip into your round pot and take {card} from "
        "{pile}",
        "card_discarded.keep": "{who} keeps the drawn card and puts {card} on {pile}",
        "card_discarded.keep.you": "You keep the drawn card and put {card} on {pile}",
        "card_discarded.discard": "{who} discards the drawn card, {card}, onto {pile}",
        "card_discarded.discard.you": "You discard the drawn card, {card}, onto {pile}",
        # the terminal table's pile labels: two short lines, its key and its size
        "pilelabel.sand_draw": "{hint}Sand\ndraw {count}",
        "pilelabel.blood_draw": "{hint}Blood\ndraw {count}",
        "pilelabel.sand_discard": "{hint}Sand\ndiscard {count}",
        "pilelabel.blood_discard": "{hint}Blood\ndiscard {count}",
        "ui.total": "",
        "ended.turns": "the last turn was played",
    }
)
_JA.update(
    {
        "howto": (
            "勝ち方：サンドとブラッドの札を 1 枚ずつ持ち、同じ値（サバック。1/1 が最強のペア、"
            "シロップ 2 枚はピュア・サバック）にするか、2 枚の差をできるだけ小さくする。ベットは"
            "ない：自分の番にシフトトークンを 1 枚使ってよく、スタンドするか、チップ 1 枚を"
            "ラウンドポットに払ってサンドかブラッドの山から引き、引いた札をキープか捨てる。"
            "3 ターン後（全員がスタンドしたらその時点で）最強の手は自分のポットを取り戻し、"
            "ほかの全員はポットを失ってペナルティを払う：サバックなら 1 枚、それ以外は差の枚数。"
            "インポスターはリビールでダイスの値になり、シロップはもう 1 枚の値になる。チップが"
            "なくなると脱落、最後までチップが残った人の勝ち。"
        ),
        "revealed": "{who}の手札 {cards}：{hand}",
        "explain.hand": "{hand}",
        "explain.by_tiebreak": "{who}が{hand}で{pot}（{amount}）を獲得：{other}{other_hand}に"
        "勝つ、{tiebreak}",
        "tiebreak.pair_or_difference": "よいペア、または差の小さいほうが勝ち",
        "tiebreak.pair_or_difference.3": "低いペアが勝ち",
        "tiebreak.pair_or_difference.3.cook_the_books": "粉飾決算が出たので高いペアが勝ち",
        "tiebreak.pair_or_difference.4": "差の小さいほうが勝ち",
        "tiebreak.lower_card": "差が同じ：低い札のほうが勝ち",
        "ended.all_stood": "全員がスタンド",
        "ui.credits": "チップ",
        "ui.unit": "チップ",
        "ui.cr": "",
        "said_by.token": "token_played",
        "said_by.draw": "card_taken",
        "said_by.keep": "card_discarded",
        "said_by.discard": "card_discarded",
        "card_taken.paid": "{who}はラウンドポットへ {amount} チップ払い、{pile}から {card} を取る",
        "card_taken.paid.you": "あなたはラウンドポットへ {amount} チップ払い、{pile}から {card} を"
        "取る",
        "card_discarded.keep": "{who}は引いた札を残し、{card} を{pile}に置く",
        "card_discarded.keep.you": "あなたは引いた札を残し、{card} を{pile}に置く",
        "card_discarded.discard": "{who}は引いた札 {card} を{pile}に捨てる",
        "card_discarded.discard.you": "あなたは引いた札 {card} を{pile}に捨てる",
        "pilelabel.sand_draw": "サンド\n{hint}山 {count}",
        "pilelabel.blood_draw": "ブラッド\n{hint}山 {count}",
        "pilelabel.sand_discard": "サンド\n{hint}捨 {count}",
        "pilelabel.blood_discard": "ブラッド\n{hint}捨 {count}",
        "ui.total": "",
        "ended.turns": "最後のターンが終わった",
    }
)

GLOSSARY_EN: tuple[GlossaryEntry, ...] = (
    GlossaryEntry("Pure Sabacc", "both cards Sylops", "0s 0b"),
    GlossaryEntry(
        "Prime Sabacc", "with the Prime Sabacc token: a pair of the chosen value", "4s 4b"
    ),
    GlossaryEntry(
        "Sabacc", "equal values (a Sylop copies the other card); 1/1 best, 6/6 worst", "3s 3b"
    ),
    GlossaryEntry(
        "difference",
        "unequal values: the smaller the difference the better, then the lower card",
        "2s 3b",
    ),
)
GLOSSARY_JA: tuple[GlossaryEntry, ...] = (
    GlossaryEntry("ピュア・サバック", "2 枚ともシロップ", "0s 0b"),
    GlossaryEntry("プライム・サバック", "プライム・サバックのトークンで選んだ数のペア", "4s 4b"),
    GlossaryEntry(
        "サバック", "同じ値（シロップはもう 1 枚の値になる）。1/1 が最強、6/6 が最弱", "3s 3b"
    ),
    GlossaryEntry("差", "値が違う手：差が小さいほど強く、同じなら低い札が強い", "2s 3b"),
)

#: The rules page, the menu line and the house-rule help in Japanese (the web lobby and Rules).
_JA_DOCS: dict[str, str] = {
    "summary": (
        "サンドとブラッドを 1 枚ずつ。ドローとペナルティでチップが動き、シフトトークンは 16 種。"
    ),
    "rules": (
        "ケッセル・サバック（『スター・ウォーズ 無法者』）。サンドとブラッドの 2 つのファミリー、"
        "各 22 枚：1〜6 が 3 枚ずつ、インポスター（I）3 枚、シロップ（0）1 枚。手札はサンド 1 枚と"
        "ブラッド 1 枚。ベットはない：チップ 8 枚で始め、ドローするたびに自分のラウンドポットへ "
        "1 チップ払う。\n"
        "ラウンド：各プレイヤーに各ファミリー 1 枚ずつ配り、各ファミリー 1 枚ずつで捨て札の山を"
        "始める。最大 3 ターン、開始プレイヤーから各自 1 回ずつ行動：シフトトークンを 1 枚使って"
        "もよい。その後スタンドするか、サンドかブラッドの山札か捨て札の上を（1 チップで）引き、"
        "それをキープする（同じファミリーの手札が捨てられる）か捨てる。あるターンで全員が"
        "スタンドしたらラウンドは終わる。公開：インポスターはダイスを 2 個振り、持ち主がどちらか"
        "を選ぶ。シロップ 1 枚はもう 1 枚と同じ値になり、シロップ 2 枚はピュア・サバック。\n"
        "順位：ピュア・サバック、サバック（同じ値：1/1 が最強、6/6 が最弱）、その後は差が小さい"
        "ほう、次に小さい札。同じ手はすべて勝ち。勝者は自分のポットを取り戻し、敗者はポットを"
        "失い、1 チップ（サバックのとき）か差の分のペナルティを払う（持ち分が上限）。チップが"
        "なくなると脱落し、最後までチップが残った人が勝つ。\n"
        "シフトトークン（各 3 枚、1 ゲームに 1 回ずつ、自分のターンの始めに 1 ターン 1 枚、効果は"
        "ラウンドの終わりまで）：free_draw、refund、extra_refund、embezzlement、general_tariff、"
        "target_tariff、general_audit、target_audit、major_fraud、markdown、cook_the_books、"
        "prime_sabacc、immunity、exhaustion、direct_transaction、embargo。"
    ),
    "help.game_end": (
        "last_standing（チップが残った最後の 1 人が勝つ）| rounds:N（N ラウンド後にチップが最多の人"
        "。hands:N も同じ）"
    ),
    "help.chips": "各プレイヤーの開始チップ（4〜10）",
    "help.turns": "1 ラウンドのターン数（各プレイヤーは 1 ターンに 1 回行動）",
    "help.early_end": "あるターンで全員がスタンドしたら、その場でラウンドを終える",
    "help.shift_tokens": (
        "draft（各自 3 枚、シードで配る）| none（なし）| 全員が持つトークンのカンマ区切り（free_dra"
        "w、refund、extra_refund、embezzlement、general_tariff、target_tariff、general_audit、targe"
        "t_audit、major_fraud、markdown、cook_the_books、prime_sabacc、immunity、exhaustion、direct"
        "_transaction、embargo）"
    ),
    "help.impostors": "各ファミリーのインポスターの枚数（0〜3。2 枚で遊ぶテーブルもある）",
    "help.sylops": "各ファミリーのシロップの枚数（0〜3。2 枚で遊ぶテーブルもある）",
    "option.chips": "チップ",
    "option.turns": "ターン数",
    "option.early_end": "全員スタンドで終了",
    "option.shift_tokens": "シフトトークン",
    "option.impostors": "インポスター",
    "option.sylops": "シロップ",
}

KESSEL_TEXT = VariantText(
    messages={"en": _EN, "ja": {**_JA, **_JA_DOCS}},
    # Keys by action kind (the generic controls' lookup): the same keys as ACTION_KEYS.
    keys={
        **{
            text.replace(" ", "_"): key
            for text, key in ACTION_KEYS.items()
            if not text[-1].isdigit()
        },
        "impostor": "i",
        "prime": "p",
        "token": "t",
    },
    glossary={"en": GLOSSARY_EN, "ja": GLOSSARY_JA},
)

__all__ = [
    "ACTION_KEYS",
    "BUTTON_LABELS",
    "KESSEL_TEXT",
    "TOKENS",
    "TOKEN_EFFECTS",
    "TOKEN_NAMES",
]
