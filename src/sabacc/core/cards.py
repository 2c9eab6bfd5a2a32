"""Cards, decks and the card notation of docs/rules.md.

A deck is an immutable tuple of :class:`Card` objects with unique ``id`` values (0..n-1), so
identical-looking cards stay distinct and card conservation can be checked. Cards are shared,
never copied: the engine moves references around. The decks themselves are variant knowledge:
each variant module builds its own (``sabacc.variants.corellian_spike.rules.SPIKE_DECK``...).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from sabacc.core.errors import CardParseError


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

    ``style`` names the notation (and the card art apps draw it with); ``suits`` maps each suit
    letter to its name and ``symbols`` to a one-cell symbol for terminals. With
    ``signed_values`` values are written with their sign (``+4c``, ``-3``) and a suit letter may
    follow any value; without, suited cards are unsigned (``11f``) and only unsuited face cards
    carry a minus sign (``-2``).
    """

    def __init__(
        self,
        name: str,
        style: str,
        cards: Sequence[Card],
        *,
        suits: Mapping[str, str],
        signed_values: bool,
        symbols: Mapping[str, str] | None = None,
    ) -> None:
        self.name = name
        self.style = style
        self.cards: tuple[Card, ...] = tuple(cards)
        self.suits: dict[str, str] = dict(suits)
        self.symbols: dict[str, str] = dict(symbols or {})
        self.signed_values = signed_values
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
        """A value as written in this deck's notation (``+4`` signed, ``7`` unsigned)."""
        return signed(value) if self.signed_values else str(value)

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
        if self.signed_values:
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
