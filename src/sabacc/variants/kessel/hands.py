"""Kessel Sabacc cards, hand ranking and exact deal odds (RULES.md §4).

Two families of 22 cards, **Sand** (``s``) and **Blood** (``b``): three copies of each value 1-6,
Impostors (``Is``/``Ib``, valued by dice at the reveal) and Sylops (``0s``/``0b``, taking the
other card's value). A hand is one card of each family. Ranking, best first: Pure Sabacc (two
Sylops); Sabacc (equal values; the lower pair is better); then the smaller difference
``|Sand - Blood|``, then the lower card. Shift tokens change the ranking for a round (Major
Fraud, Markdown, Cook the Books, Prime Sabacc): :class:`Rules` carries them.

Kept apart from the game so that hand evaluation and odds work without a game.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from sabacc.core.cards import Card, Deck
from sabacc.core.errors import CardParseError
from sabacc.core.hands import HandValue

FAMILIES: dict[str, str] = {"s": "Sand", "b": "Blood"}
#: Card values of the two special cards (never summed: resolved before ranking).
SYLOP = 0
IMPOSTOR = -1
DIE = range(1, 7)

# Key categories (greater is better).
_PURE, _PRIME, _SABACC, _PLAIN = 4, 3, 2, 1

#: What decides at each position of a hand's key (``VariantInfo.tiebreaks``): the kind (Pure,
#: Prime, Sabacc, a difference), then the better pair (lower, or higher under Cook the Books) or
#: the smaller difference, then, at equal differences, the lower card.
KESSEL_TIEBREAKS: tuple[str, ...] = ("rank", "pair_or_difference", "lower_card")


class KesselDeck(Deck):
    """The Kessel deck, with its notation: ``3s``, ``5b``, ``Is``/``Ib``, ``0s``/``0b``."""

    def __init__(self, impostors: int, sylops: int) -> None:
        cards: list[Card] = []
        for fam, fam_name in FAMILIES.items():
            for value in DIE:
                for _ in range(3):
                    cards.append(Card(len(cards), value, fam, f"{value}{fam}"))
            for _ in range(impostors):
                cards.append(Card(len(cards), IMPOSTOR, fam, f"I{fam}", f"{fam_name} Impostor"))
            for _ in range(sylops):
                cards.append(Card(len(cards), SYLOP, fam, f"0{fam}", f"{fam_name} Sylop"))
        super().__init__(
            "Kessel",
            "kessel",
            cards,
            suits=FAMILIES,
            signed_values=False,
            symbols={"s": "◆", "b": "●"},  # Sand, Blood
        )
        self._lower: dict[str, list[Card]] = {}
        for card in cards:
            self._lower.setdefault(card.code.lower(), []).append(card)

    def format_value(self, value: int) -> str:
        return "I" if value == IMPOSTOR else str(value)

    def _is_exact(self, token: str) -> bool:
        return True

    def _lookup(self, token: str) -> list[Card]:
        raw = token.strip()
        found = self._lower.get(raw.lower())
        if found:
            return found
        tok = raw.lower()
        if tok in ("is", "ib"):
            raise CardParseError(f"no Impostors in this Kessel deck (card {raw!r})")
        if tok in ("0s", "0b"):
            raise CardParseError(f"no Sylops in this Kessel deck (card {raw!r})")
        raise CardParseError(
            f"unknown card {raw!r} for the Kessel deck: write a value 1-6, I (Impostor) or "
            "0 (Sylop), then s (Sand) or b (Blood), e.g. 3s, 5b, Is, 0b"
        )


@functools.cache
def kessel_deck(impostors: int = 3, sylops: int = 1) -> KesselDeck:
    """The deck for these family make-ups (one instance each, so cards are shared)."""
    return KesselDeck(impostors, sylops)


@dataclass(frozen=True, slots=True)
class Rules:
    """The ranking rules of one round: what the shift tokens played so far changed."""

    major_fraud: bool = False  # every Impostor is worth 6
    markdown: bool = False  # a single Sylop is worth 0
    cook_the_books: bool = False  # Sabacc pairs: 6/6 best
    prime: int | None = None  # a pair of this value ranks just below Pure Sabacc


PLAIN_RULES = Rules()


def split_hand(cards: Sequence[Card]) -> tuple[Card, Card]:
    """The (Sand, Blood) cards of a hand; a Kessel hand is exactly one of each."""
    if len(cards) != 2 or {c.suit for c in cards} != {"s", "b"}:
        raise CardParseError(
            "a Kessel hand is one Sand and one Blood card, e.g. '3s 3b' (got "
            + (" ".join(c.code for c in cards) or "nothing")
            + ")"
        )
    sand, blood = cards if cards[0].suit == "s" else (cards[1], cards[0])
    return sand, blood


def _value(card: Card, chosen: Mapping[int, int], rules: Rules) -> int | None:
    """A card's value before Sylop resolution; None for an Impostor whose die is not chosen."""
    if card.value != IMPOSTOR:
        return card.value
    if rules.major_fraud:
        return 6
    return chosen.get(card.id)


def _rank(a: int, b: int, rules: Rules) -> HandValue:
    """Rank a hand of resolved values (a Sylop is 0 and never both)."""
    if a == SYLOP and not rules.markdown:
        a = b
    elif b == SYLOP and not rules.markdown:
        b = a
    if a == b:
        if rules.prime is not None and a == rules.prime:
            return HandValue((_PRIME, 0, 0), f"Prime Sabacc {a}/{a}", 0, 2, 2)
        order = a if rules.cook_the_books else -a
        return HandValue((_SABACC, order, 0), f"Sabacc {a}/{a}", 0, 3, 2)
    diff = abs(a - b)
    low = min(a, b)
    return HandValue((_PLAIN, -diff, -low), f"difference {diff}", diff, 4, 2)


def hand_value(
    cards: Sequence[Card],
    rules: Rules = PLAIN_RULES,
    chosen: Mapping[int, int] | None = None,
    rolled: Mapping[int, Sequence[int]] | None = None,
) -> HandValue:
    """The value of a Kessel hand under ``rules``.

    ``chosen`` maps an Impostor's card id to the die its owner chose; ``rolled`` maps an
    Impostor whose dice are rolled but not chosen yet to those dice. An Impostor with no die
    chosen yet is valued at its best case among its dice (any value 1-6 before they are
    rolled): what the hand can still become, which is what a player looking at it wants to know
    (never a pair the rolled dice cannot make).
    """
    sand, blood = split_hand(cards)
    if sand.value == SYLOP and blood.value == SYLOP:
        return HandValue((_PURE, 0, 0), "Pure Sabacc", 0, 1, 2)
    picks = chosen or {}
    dice = rolled or {}
    a = _value(sand, picks, rules)
    b = _value(blood, picks, rules)
    options_a = (a,) if a is not None else tuple(dice.get(sand.id, DIE))
    options_b = (b,) if b is not None else tuple(dice.get(blood.id, DIE))
    return max(_rank(x, y, rules) for x in options_a for y in options_b)


def rolling_impostor(cards: Sequence[Card], chosen: Mapping[int, int]) -> Card | None:
    """The Impostor of ``cards`` whose rolled dice its owner is choosing from (the first one
    not chosen yet, in hand order: the order the reveal rolls them), or None."""
    return next((c for c in cards if c.value == IMPOSTOR and c.id not in chosen), None)


def is_sabacc(value: HandValue) -> bool:
    """Pure, Prime or plain Sabacc (a loser with one pays a penalty of 1)."""
    return value.key[0] >= _SABACC


def penalty(value: HandValue) -> int:
    """What a losing hand pays from stock: 1 for a Sabacc, else the difference."""
    return 1 if is_sabacc(value) else value.total


# ------------------------------------------------------------------ exact odds
def _dice() -> list[tuple[int, int]]:
    return [(a, b) for a in DIE for b in DIE]


def impostor_pair_probability() -> Fraction:
    """P(two Impostors, each rolling two dice and choosing one, can show equal values)."""
    rolls = _dice()
    hits = sum(1 for r in rolls for q in rolls if set(r) & set(q))
    return Fraction(hits, len(rolls) ** 2)


def _impostor_hits(value: int) -> Fraction:
    """P(an Impostor's two dice include ``value``)."""
    rolls = _dice()
    return Fraction(sum(1 for r in rolls if value in r), len(rolls))


def deal_probabilities(impostors: int = 3, sylops: int = 1) -> dict[str, Fraction]:
    """Exact probabilities of the dealt hand (one card of each family, no tokens played).

    ``pure_sabacc``: two Sylops. ``sabacc``: any Sabacc, Pure included, each Impostor choosing
    the better of its two dice (so an Impostor makes a pair whenever a die allows it).
    Enumerates the families' card kinds with exact fractions (RULES.md reference figures:
    1/484 and 1077/3872 for the standard deck).
    """
    size = 18 + impostors + sylops
    kinds: list[tuple[str, int, int]] = [("value", v, 3) for v in DIE]
    kinds += [("impostor", IMPOSTOR, impostors), ("sylop", SYLOP, sylops)]
    pure = Fraction(0)
    sabacc = Fraction(0)
    pair_ii = impostor_pair_probability()
    for ka, va, na in kinds:
        for kb, vb, nb in kinds:
            p = Fraction(na * nb, size * size)
            if not p:
                continue
            if ka == "sylop" or kb == "sylop":
                win = Fraction(1)  # a Sylop copies the other card; two Sylops are Pure
                if ka == kb:
                    pure += p
            elif ka == "impostor" and kb == "impostor":
                win = pair_ii
            elif ka == "impostor":
                win = _impostor_hits(vb)
            elif kb == "impostor":
                win = _impostor_hits(va)
            else:
                win = Fraction(1 if va == vb else 0)
            sabacc += p * win
    return {"pure_sabacc": pure, "sabacc": sabacc}
