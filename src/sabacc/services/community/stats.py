"""What one finished game adds to each human player's stats: place, net credits, hands,
sabacc pots won and the best hand shown (from the game's own hand results, any variant)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sabacc.engine.protocol import GameProtocol


@dataclass(frozen=True)
class SeatSummary:
    """One seat's part of one finished game."""

    seat: int
    place: int  # 1 = first; seats ending with equal stacks share a place
    net: int
    hands: int
    sabacc_pots: int
    #: The best hand this seat showed (``name``, ``rank``, ``total`` and the comparison
    #: ``key``), None if it never showed one.
    best_hand: dict[str, Any] | None


def places(stacks: list[int]) -> list[int]:
    """Each seat's place by final stack: 1 for the largest, ties sharing the better place."""
    return [1 + sum(1 for other in stacks if other > mine) for mine in stacks]


def summarise(game: GameProtocol) -> list[SeatSummary]:
    """Every seat's summary of the finished ``game``."""
    outcome = game.outcome
    if outcome is None:
        raise ValueError("the game is not over")
    info = game.info
    sabacc_pots = {rule.pot for rule in info.pots if rule.sabacc}
    n = len(game.names)
    pots_won = [0] * n
    best: list[Any] = [None] * n
    played = [0] * n
    for result in game.hand_results:
        for seat in range(n):
            if result.net[seat] != 0 or seat in result.hands:
                played[seat] += 1
        for pot in result.pots:
            if pot.pot in sabacc_pots:
                for seat in pot.winners:
                    pots_won[seat] += 1
        for seat, (_cards, value) in result.hands.items():
            if value is not None and (best[seat] is None or value > best[seat]):
                best[seat] = value
    place = places(list(outcome.stacks))
    return [
        SeatSummary(
            seat=seat,
            place=place[seat],
            net=int(outcome.payoffs[seat]),
            hands=played[seat],
            sabacc_pots=pots_won[seat],
            best_hand=None
            if best[seat] is None
            else {**best[seat].to_dict(), "key": list(best[seat].key)},
        )
        for seat in range(n)
    ]
