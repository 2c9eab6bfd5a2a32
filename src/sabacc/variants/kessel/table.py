"""How the tables lay out Kessel Sabacc (:class:`sabacc.engine.variant.TableDisplay`).

The terminal and web tables read these facts instead of knowing the variant: the four piles and
which action a click on each makes, the Sand and Blood colours, each seat's round pot, stood
flag and token count, and the shift-token hand with every token's name and one-line effect in
English and Japanese. Every word here comes from :mod:`sabacc.variants.kessel.text`, the one
source of Kessel's vocabulary (token names and effects, button labels, keys); only the seat
facts' short captions are the table's own.
"""

from __future__ import annotations

from sabacc.engine.variant import SeatFact, SideHand, TableDisplay
from sabacc.variants.kessel.text import ACTION_KEYS, BUTTON_LABELS, TOKEN_EFFECTS, TOKEN_NAMES

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
        names=TOKEN_NAMES,
        help=TOKEN_EFFECTS,
    ),
    suit_colours={"s": "gold", "b": "red"},
    declared_piles=True,
    pile_actions={
        "sand_draw": "draw sand",
        "blood_draw": "draw blood",
        "sand_discard_pile": "draw sand discard",
        "blood_discard_pile": "draw blood discard",
    },
    keys=ACTION_KEYS,
    labels=BUTTON_LABELS,
    dice_shift=False,
    lost_key="chips_lost",
    shown_keys=("turns", "draw_sizes", "drawn", "chips_lost"),
)
