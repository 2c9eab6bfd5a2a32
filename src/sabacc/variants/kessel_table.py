"""How the tables lay out Kessel Sabacc (:class:`sabacc.engine.variant.TableDisplay`).

The terminal and web tables read these facts instead of knowing the variant: the four piles and
which action a click on each makes, the Sand and Blood colours, each seat's round pot, stood
flag and token count, and the shift-token hand with every token's name and one-line effect in
English and Japanese.
"""

from __future__ import annotations

from sabacc.engine.variant import SeatFact, SideHand, TableDisplay
from sabacc.variants.kessel_tokens import TOKEN_HELP

TOKEN_NAMES_EN: dict[str, str] = {
    name: name.replace("_", " ").title().replace("Cook The Books", "Cook the Books")
    for name in TOKEN_HELP
}
TOKEN_NAMES_JA: dict[str, str] = {
    "free_draw": "フリードロー",
    "refund": "払い戻し",
    "extra_refund": "追加払い戻し",
    "embezzlement": "横領",
    "general_tariff": "一般関税",
    "target_tariff": "指定関税",
    "general_audit": "一般監査",
    "target_audit": "指定監査",
    "major_fraud": "大規模詐欺",
    "markdown": "値下げ",
    "cook_the_books": "帳簿改ざん",
    "prime_sabacc": "プライム・サバック",
    "immunity": "免責",
    "exhaustion": "消耗",
    "direct_transaction": "直接取引",
    "embargo": "禁輸",
}
TOKEN_HELP_JA: dict[str, str] = {
    "free_draw": "このターンのドローは無料",
    "refund": "自分のポットからチップ2枚をストックに戻す",
    "extra_refund": "自分のポットからチップ3枚をストックに戻す",
    "embezzlement": "相手全員のポットから1枚ずつ自分のポットへ",
    "general_tariff": "他の全員がストックから1枚を自分のポットへ",
    "target_tariff": "指定した1人がストックから2枚を自分のポットへ",
    "general_audit": "このラウンドにスタンドした他の全員が2枚をポットへ",
    "target_audit": "このラウンドにスタンドした指定の1人が3枚をポットへ",
    "major_fraud": "このラウンド、インポスターはすべて6",
    "markdown": "このラウンド、シーロップは0(シーロップ2枚はピュア・サバックのまま)",
    "cook_the_books": "このラウンド、サバックの順位が逆(6/6が最強、ピュアは最強のまま)",
    "prime_sabacc": "ダイス2個を振って1つ選ぶ:その値のペアがピュアの次に強い",
    "immunity": "このラウンド、他の人のトークンの影響を受けない",
    "exhaustion": "指定した1人が手札を捨て、サンドとブラッドを1枚ずつ引き直す",
    "direct_transaction": "指定した1人と手札を交換する",
    "embargo": "次の人は次のターンにスタンドしかできない",
}

KESSEL_DISPLAY = TableDisplay(
    seat_facts=(
        SeatFact("committed", {"en": "pot {value}", "ja": "ポット{value}"}),
        SeatFact("tokens_left", {"en": "tok {value}", "ja": "トークン{value}"}),
        SeatFact("stood", {"en": "stood", "ja": "スタンド済"}, flag=True),
        SeatFact("immune", {"en": "immune", "ja": "免責"}, flag=True),
        SeatFact("embargoed", {"en": "embargo", "ja": "禁輸"}, flag=True),
    ),
    side_hand=SideHand(
        key="my_tokens",
        action="token",
        used_key="tokens_used",
        title={"en": "Shift tokens", "ja": "シフトトークン"},
        names={"en": TOKEN_NAMES_EN, "ja": TOKEN_NAMES_JA},
        help={"en": dict(TOKEN_HELP), "ja": TOKEN_HELP_JA},
    ),
    suit_colours={"s": "gold", "b": "red"},
    declared_piles=True,
    pile_actions={
        "sand_draw": "draw sand",
        "blood_draw": "draw blood",
        "sand_discard_pile": "draw sand discard",
        "blood_discard_pile": "draw blood discard",
    },
    keys={
        "stand": "s",
        "draw sand": "1",
        "draw blood": "2",
        "draw sand discard": "3",
        "draw blood discard": "4",
        "keep": "k",
        "discard": "x",
        **{f"impostor {v}": str(v) for v in range(1, 7)},
        **{f"prime {v}": str(v) for v in range(1, 7)},
    },
    labels={
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
    },
    dice_shift=False,
)
