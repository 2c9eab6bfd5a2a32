"""The 62-card Corellian Spike deck, shared by Corellian Spike, Surabat Cycle and the compiled
core (its own module so the snapshot seam and the core can use it without importing the game)."""

from __future__ import annotations

from sabacc.core.cards import Card, Deck, signed

SPIKE_STAVES: dict[str, str] = {"c": "circle", "s": "square", "t": "triangle"}


def build_spike_deck() -> Deck:
    """The 62-card Corellian Spike deck: ±1..±10 in three staves, plus two Sylops (0)."""
    cards: list[Card] = []
    for suit in SPIKE_STAVES:
        for mag in range(1, 11):
            for value in (mag, -mag):
                cards.append(Card(len(cards), value, suit, f"{signed(value)}{suit}"))
    for _ in range(2):
        cards.append(Card(len(cards), 0, None, "0", "Sylop"))
    return Deck(
        "Corellian Spike",
        "spike",
        cards,
        suits=SPIKE_STAVES,
        signed_values=True,
        symbols={"c": "●", "s": "■", "t": "▲"},
    )


#: The deck of Corellian Spike and Surabat Cycle.
SPIKE_DECK = build_spike_deck()
