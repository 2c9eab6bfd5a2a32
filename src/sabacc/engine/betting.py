"""Betting structures and side pots: pure helpers shared by every variant.

Why separate: the arithmetic of limits and side pots is the part of poker-style betting most
often got wrong; keeping it pure makes it testable on its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sabacc.core.actions import Action, Bet, Raise

# Interned sized actions, so enumerating every legal bet size costs a list slice.
_BETS: list[Bet] = [Bet(i) for i in range(1025)]
_RAISES: list[Raise] = [Raise(i) for i in range(1025)]


def _grow(n: int) -> None:
    while len(_BETS) <= n:
        _BETS.append(Bet(len(_BETS)))
        _RAISES.append(Raise(len(_RAISES)))


@dataclass(frozen=True, slots=True)
class Legal:
    """The legal actions at one decision: fixed actions plus inclusive bet/raise ranges."""

    fixed: tuple[Action, ...]
    bet: tuple[int, int] | None = None
    raise_: tuple[int, int] | None = None

    def contains(self, action: Action) -> bool:
        if type(action) is Bet:
            return self.bet is not None and self.bet[0] <= action.amount <= self.bet[1]
        if type(action) is Raise:
            return self.raise_ is not None and self.raise_[0] <= action.amount <= self.raise_[1]
        return action in self.fixed

    def actions(self) -> list[Action]:
        out: list[Action] = list(self.fixed)
        if self.bet is not None:
            _grow(self.bet[1])
            out.extend(_BETS[self.bet[0] : self.bet[1] + 1])
        if self.raise_ is not None:
            _grow(self.raise_[1])
            out.extend(_RAISES[self.raise_[0] : self.raise_[1] + 1])
        return out

    def count(self) -> int:
        n = len(self.fixed)
        if self.bet is not None:
            n += self.bet[1] - self.bet[0] + 1
        if self.raise_ is not None:
            n += self.raise_[1] - self.raise_[0] + 1
        return n

    def to_dict(self) -> dict[str, object]:
        return {
            "actions": [str(a) for a in self.fixed],
            "bet": list(self.bet) if self.bet else None,
            "raise": list(self.raise_) if self.raise_ else None,
        }


NO_ACTIONS = Legal(())


def size_range(
    structure: str, unit: int, stack_after_call: int, pot_after_call: int
) -> tuple[int, int] | None:
    """Inclusive range of a bet (or raise increment) under a betting structure.

    ``stack_after_call`` is what the player has left once any amount to call is paid;
    ``pot_after_call`` is the pot once that call is in (pot-limit's maximum). A player may always
    go all-in for less than the minimum; a player with nothing left cannot bet.
    """
    if stack_after_call <= 0:
        return None
    unit = max(1, unit)
    if structure == "fixed":
        high = unit
    elif structure == "pot_limit":
        high = max(unit, pot_after_call)
    else:
        high = stack_after_call
    high = min(high, stack_after_call)
    low = min(unit, stack_after_call)
    if structure == "fixed" and stack_after_call >= unit:
        low = unit
    return (low, high)


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot: its amount and the seats that can win it (side pots are built as in poker)."""

    amount: int
    eligible: tuple[int, ...]


def build_pots(
    committed: Sequence[int],
    live: Sequence[int],
    dead: int = 0,
    all_in: Sequence[int] | None = None,
) -> list[Pot]:
    """Split what each seat committed this hand into a main pot and side pots.

    ``live`` are the seats still in the hand (not folded); folded seats' chips fill the pots
    up to their level. ``dead`` (carried pots, fees) joins the main pot. Pots with the same
    eligible seats are merged.

    ``all_in``, when given, lists the live seats that are all-in: pots are then split only at
    their levels (as in poker, while betting is still going on), and seats that are not all-in
    are eligible for every pot, since they can still match any bet. Without it, every live
    seat's level splits the pots (right once everyone has matched or is all-in).
    """
    if not live:
        return [Pot(sum(committed) + dead, ())]
    if all_in is None:
        levels = sorted({committed[s] for s in live})
        capped: set[int] = set(live)
    else:
        capped = set(all_in)
        levels = sorted({committed[s] for s in capped} | {max(committed[s] for s in live)})
    pots: list[Pot] = []
    prev = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, prev) for c in committed)
        eligible = tuple(s for s in live if committed[s] >= level or s not in capped)
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        elif amount > 0 or not pots:
            pots.append(Pot(amount, eligible))
        prev = level
    leftover = sum(max(0, c - prev) for c in committed)
    if leftover:
        pots[-1] = Pot(pots[-1].amount + leftover, pots[-1].eligible)
    pots[0] = Pot(pots[0].amount + dead, pots[0].eligible)
    return pots


def split_amount(amount: int, winners: Sequence[int]) -> list[int]:
    """Shares of ``amount`` among ``winners`` (already in odd-credit order): odd credits first."""
    base, odd = divmod(amount, len(winners))
    return [base + (1 if i < odd else 0) for i in range(len(winners))]
