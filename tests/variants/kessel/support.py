"""Scripting helpers for Kessel Sabacc tests: rigging a round's cards and the dice."""

from __future__ import annotations

import random
from typing import Any

import sabacc
from sabacc.variants.kessel.rules import KesselGame
from tests.support import check_cards


def kessel(players: int = 3, seed: int = 1, **options: Any) -> KesselGame:
    """A Kessel game (no tokens unless asked: tests hand them out themselves)."""
    options.setdefault("shift_tokens", "none")
    g = sabacc.new_game("kessel", players=players, seed=seed, **options)
    assert isinstance(g, KesselGame)
    return g


def rig(
    g: KesselGame,
    hands: dict[int, str],
    *,
    sand_draw: str = "",
    blood_draw: str = "",
    sand_discard: str = "",
    blood_discard: str = "",
) -> None:
    """Rearrange the current round's cards, keeping every card exactly once.

    ``hands`` gives every dealt seat's two cards (``"3s 4b"``). Draw piles are listed top first;
    discard piles bottom to top (the last is the top). A family's discard pile left unlisted gets
    one free card; every other card goes under the listed draw cards, in deck order.
    """
    deck = g.deck
    used: set[int] = set()

    def pick(code: str) -> Any:
        card = next(c for c in deck.cards if c.code.lower() == code.lower() and c.id not in used)
        used.add(card.id)
        return card

    assert set(hands) == set(g.order), "give every dealt seat's hand"
    new_hands = {}
    for s, text in hands.items():
        cards = [pick(t) for t in text.split()]
        cards.sort(key=lambda c: c.suit != "s")
        new_hands[s] = cards
    piles: dict[str, list[Any]] = {}
    for fam, draw_text, discard_text in (
        ("s", sand_draw, sand_discard),
        ("b", blood_draw, blood_discard),
    ):
        top_first = [pick(t) for t in draw_text.split()]
        discard = [pick(t) for t in discard_text.split()]
        rest = [c for c in deck.cards if c.suit == fam and c.id not in used]
        if not discard:
            discard = [rest.pop(0)]
        used.update(c.id for c in rest)
        piles[fam + "draw"] = list(reversed(top_first + rest))
        piles[fam + "discard"] = discard
    for s, cards in new_hands.items():
        g.hands[s] = cards
    g.sand_draw, g.blood_draw = piles["sdraw"], piles["bdraw"]
    g.sand_discard, g.blood_discard = piles["sdiscard"], piles["bdiscard"]
    g.drawn = []
    g.public_ids = [set() for _ in range(g.n)]
    g.seen = [set() for _ in range(g.n)]
    g._legal = None
    check_cards(g)


def give_tokens(g: KesselGame, tokens: dict[int, list[str]]) -> None:
    """Hand these seats these unplayed tokens (what a fixed ``shift_tokens`` list does)."""
    for s, names in tokens.items():
        g.tokens_left[s] = list(names)
    g._legal = None


def force_dice(g: KesselGame, a: int, b: int) -> None:
    """Reseed the game's RNG so that the next two dice rolled are ``a`` then ``b``."""
    for seed in range(100_000):
        r = random.Random(seed)
        if r.randrange(6) + 1 == a and r.randrange(6) + 1 == b:
            g.rng.seed(seed)
            return
    raise AssertionError("no seed found")  # pragma: no cover


def play(g: KesselGame, *moves: str) -> None:
    """Apply moves written ``"<seat> <action>"`` (the seat must be the current player)."""
    for move in moves:
        seat, action = move.split(" ", 1)
        assert g.current_player == int(seat), (move, g.current_player, g.phase)
        g.apply(action, seat=int(seat))


def stand_all(g: KesselGame) -> None:
    """Every player stands in turn until the round ends (no Impostor choices are made)."""
    start = g.hand_no
    while g.hand_no == start and not g.is_over and g.phase == "turn":
        g.apply("stand")


def legal(g: KesselGame) -> list[str]:
    return [str(a) for a in g.legal_actions()]


def finish_round(g: KesselGame) -> None:
    """Stand (or make the first legal choice at the reveal) until the round is over."""
    start = g.hand_no
    while g.hand_no == start and not g.is_over:
        g.apply("stand" if g.phase == "turn" else g.legal_actions()[0])
