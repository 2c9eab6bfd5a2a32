"""Cards, decks and the card notation of docs/rules.md.

A deck is an immutable tuple of :class:`Card` objects with unique ``id`` values (0..n-1), so
identical-looking cards (the two Sylops, the pairs of classic face cards) stay distinct and card
conservation can be checked. Cards are shared, never copied: the engine moves references around.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from sabacc.core.errors import CardParseError

SPIKE_STAVES: dict[str, str] = {"c": "circle", "s": "square", "t": "triangle"}
CLASSIC_SUITS: dict[str, str] = {"s": "Sabres", "t": "Staves", "f": "Flasks", "c": "Coins"}
CLASSIC_RANKED: dict[int, str] = {12: "Commander", 13: "Mistress", 14: "Master", 15: "Ace"}
CLASSIC_FACES: dict[int, str] = {
    0: "The Idiot",
    -2: "Queen of Air and Darkness",
    -8: "Endurance",
    -11: "Balance",
    -13: "Demise",
    -14: "Moderation",
    -15: "The Evil One",
    -17: "The Star",
}


@dataclass(frozen=True, slots=True)
class Card:
    """One physical card. ``code`` is its notation (``+4c``, ``0``, ``11f``, ``-2``)."""

    id: int
    value: int
    suit: str | None
    code: str
    name: str = field(default="", compare=False)

    def __str__(self) -> str:
        return self.code

    @property
    def label(self) -> str:
        """Human label: the code, plus the face or ranked name where the card has one."""
        return f"{self.code} ({self.name})" if self.name else self.code


def signed(value: int) -> str:
    """Spike notation of a value: ``+4``, ``-3``, ``0``."""
    return f"{value:+d}" if value else "0"


_TOKEN = re.compile(r"^([+-]?)(\d{1,2})([a-z]?)$")


class Deck:
    """An immutable deck with strict parsing of card notation.

    ``style`` is ``"spike"`` (signed values, stave letters) or ``"classic"`` (unsigned suit
    values with a suit letter; face cards by their negative value).
    """

    def __init__(self, name: str, style: str, cards: Sequence[Card]) -> None:
        self.name = name
        self.style = style
        self.cards: tuple[Card, ...] = tuple(cards)
        self.suits = SPIKE_STAVES if style == "spike" else CLASSIC_SUITS
        self.values: tuple[int, ...] = tuple(sorted({c.value for c in self.cards}))
        self._by_code: dict[str, list[Card]] = {}
        self._by_value: dict[int, list[Card]] = {}
        for card in self.cards:
            self._by_code.setdefault(card.code, []).append(card)
            self._by_value.setdefault(card.value, []).append(card)
        # How many copies of each value the deck holds (used by odds and hand parsing).
        self.value_counts: dict[int, int] = {v: len(cs) for v, cs in self._by_value.items()}

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def format_value(self, value: int) -> str:
        """A value as written in this deck's notation (``+4`` for Spike, ``7`` for classic)."""
        return signed(value) if self.style == "spike" else str(value)

    def card_name(self, value: int) -> str:
        """The face/ranked name of a value, or its notation if it has none."""
        for card in self._by_value.get(value, ()):
            if card.name:
                return card.name
        return self.format_value(value)

    def parse_value(self, token: str) -> int:
        """Parse a token and return its value (suit ignored); raises :class:`CardParseError`."""
        return self._lookup(token)[0].value

    def parse_cards(self, text: str | Sequence[str]) -> list[Card]:
        """Parse space/comma separated card tokens into distinct cards of this deck.

        Strict: an unknown token, a card the deck does not hold, or more copies than the deck
        holds raises :class:`CardParseError` naming the token.
        """
        tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
        used: set[int] = set()
        out: list[Card] = []
        # Exact codes first, so "+4c +4" never lets the value-only token steal the circle.
        exact: list[tuple[int, list[Card]]] = []
        loose: list[tuple[int, str, list[Card]]] = []
        for i, tok in enumerate(tokens):
            candidates = self._lookup(tok)
            if len(candidates) == 1 or self._is_exact(tok):
                exact.append((i, candidates))
            else:
                loose.append((i, tok, candidates))
        chosen: dict[int, Card] = {}
        for i, candidates in exact:
            card = next((c for c in candidates if c.id not in used), None)
            if card is None:
                raise CardParseError(
                    f"too many copies of {tokens[i]!r}: the {self.name} deck holds "
                    f"{len(candidates)}"
                )
            used.add(card.id)
            chosen[i] = card
        for i, tok, candidates in loose:
            card = next((c for c in candidates if c.id not in used), None)
            if card is None:
                raise CardParseError(
                    f"too many copies of {tok!r}: the {self.name} deck holds "
                    f"{len(candidates)} card(s) of that value"
                )
            used.add(card.id)
            chosen[i] = card
        out = [chosen[i] for i in range(len(tokens))]
        return out

    def _is_exact(self, token: str) -> bool:
        return token.strip().lower() in self._by_code or token.strip() in self._by_code

    def _lookup(self, token: str) -> list[Card]:
        raw = token.strip()
        tok = raw.lower()
        if tok in self._by_code:
            return self._by_code[tok]
        m = _TOKEN.match(tok)
        if not m:
            raise CardParseError(f"unknown card {raw!r} for the {self.name} deck")
        sign, digits, suit = m.groups()
        value = int(digits) * (-1 if sign == "-" else 1)
        if self.style == "spike":
            if suit:
                code = f"{signed(value)}{suit}"
                if code in self._by_code:
                    return self._by_code[code]
                raise CardParseError(f"unknown card {raw!r}: no such card in the {self.name} deck")
            if value in self._by_value:
                return self._by_value[value]
        else:
            if suit:
                code = f"{value}{suit}"
                if sign != "-" and code in self._by_code:
                    return self._by_code[code]
                raise CardParseError(f"unknown card {raw!r}: no such card in the {self.name} deck")
            if value in self._by_value:
                return self._by_value[value]
        raise CardParseError(
            f"unknown card {raw!r}: no card of value {value} in the {self.name} deck"
        )


def build_spike_deck() -> Deck:
    """The 62-card Corellian Spike deck: ±1..±10 in three staves, plus two Sylops (0)."""
    cards: list[Card] = []
    for suit in SPIKE_STAVES:
        for mag in range(1, 11):
            for value in (mag, -mag):
                cards.append(Card(len(cards), value, suit, f"{signed(value)}{suit}"))
    for _ in range(2):
        cards.append(Card(len(cards), 0, None, "0", "Sylop"))
    return Deck("Corellian Spike", "spike", cards)


def build_classic_deck() -> Deck:
    """The 76-card classic deck: four suits of 1..15 and two of each of eight face cards."""
    cards: list[Card] = []
    for suit, suit_name in CLASSIC_SUITS.items():
        for value in range(1, 16):
            rank = CLASSIC_RANKED.get(value)
            name = f"{rank} of {suit_name}" if rank else ""
            cards.append(Card(len(cards), value, suit, f"{value}{suit}", name))
    for value, name in CLASSIC_FACES.items():
        for _ in range(2):
            cards.append(Card(len(cards), value, None, str(value), name))
    return Deck("classic", "classic", cards)


SPIKE_DECK = build_spike_deck()
CLASSIC_DECK = build_classic_deck()
