"""The sixteen Kessel shift tokens (RULES.md §4): names, one-line effects, targets, the draft.

The effects themselves act on a game's state and live in :mod:`sabacc.variants.kessel.rules`; this
module holds what everything else (docs, apps, bots) needs to know about a token.
"""

from __future__ import annotations

import random

from sabacc.core.errors import OptionError

#: Every token, in the order of RULES.md §4, with its one-line effect.
TOKEN_HELP: dict[str, str] = {
    "free_draw": "this turn's draw costs nothing",
    "refund": "move 2 chips from your pot back to your stock",
    "extra_refund": "move 3 chips from your pot back to your stock",
    "embezzlement": "take 1 chip from each opponent's pot into yours",
    "general_tariff": "every other player moves 1 chip from stock into their pot",
    "target_tariff": "a chosen player moves 2 chips from stock into their pot",
    "general_audit": "every other player who has stood this round moves 2 chips into their pot",
    "target_audit": "a chosen player who has stood this round moves 3 chips into their pot",
    "major_fraud": "every Impostor is worth 6 this round",
    "markdown": "a Sylop is worth 0 this round (two Sylops stay Pure Sabacc)",
    "cook_the_books": "Sabacc pairs rank in reverse this round (6/6 best; Pure stays best)",
    "prime_sabacc": "roll two dice, choose one: a pair of that value ranks just below Pure",
    "immunity": (
        "other players' tokens aimed at you or your chips do not affect you this round "
        "(ranking tokens still apply to every hand)"
    ),
    "exhaustion": "a chosen player discards their hand and draws a new Sand and Blood card",
    "direct_transaction": "swap hands with a chosen player",
    "embargo": "the next player must stand on their next turn",
}
TOKENS: tuple[str, ...] = tuple(TOKEN_HELP)
#: Tokens played on one chosen seat (``token target_tariff 2``).
TARGETED: frozenset[str] = frozenset(
    {"target_tariff", "target_audit", "exhaustion", "direct_transaction"}
)
#: Tokens each player is dealt in the draft.
DRAFT_SIZE = 3


def parse_token_setting(value: object) -> str:
    """The canonical text of a ``shift_tokens`` option: ``draft``, ``none`` or ``a,b,c``.

    A list (or comma-separated text) names the tokens every player holds; each name must be a
    token and appear once.
    """
    if isinstance(value, list | tuple):
        names = [str(v).strip().lower() for v in value]
    elif isinstance(value, str):
        text = value.strip().lower()
        if text in ("draft", "none"):
            return text
        names = [n.strip() for n in text.replace(" ", ",").split(",") if n.strip()]
    else:
        raise OptionError(f"option shift_tokens={value!r}: must be draft, none or a token list")
    names = [n.replace("-", "_") for n in names]
    if not names:
        return "none"
    for name in names:
        if name not in TOKEN_HELP:
            raise OptionError(
                f"option shift_tokens: unknown token {name!r}; tokens: " + ", ".join(TOKENS)
            )
    if len(set(names)) != len(names):
        raise OptionError("option shift_tokens: a token is listed twice")
    return ",".join(names)


def deal_tokens(setting: str, players: int, rng: random.Random) -> list[list[str]]:
    """Each player's tokens for the game.

    ``draft``: each player is dealt 3 distinct tokens from their own full set of sixteen (two
    players may hold the same token). ``none``: no tokens. A list: every player holds all of it.
    """
    if setting == "none":
        return [[] for _ in range(players)]
    if setting == "draft":
        return [rng.sample(TOKENS, DRAFT_SIZE) for _ in range(players)]
    names = setting.split(",")
    return [list(names) for _ in range(players)]
