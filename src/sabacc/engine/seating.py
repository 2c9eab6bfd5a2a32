"""Seats and stacks that change between hands: a game's setup and its table changes.

A game normally seats a fixed set of players with equal stacks (``Options.starting_stack``).
A game given ``stacks=`` starts from those stacks instead, and any game takes table changes
(:meth:`~sabacc.engine.game.Game.join`, :meth:`~sabacc.engine.game.Game.leave`,
:meth:`~sabacc.engine.game.Game.rebuy`). A change is requested at any time and takes effect
between hands: when the hand in play ends, before the next one is dealt (with
``pause_between_hands=True``, when :meth:`~sabacc.engine.game.Game.deal` is called). Each change
is recorded with the number of actions played before it, so ``(variant, options, seed, setup,
table changes, actions)`` replays exactly; taking effect, it emits
:class:`~sabacc.core.events.SeatJoined`, :class:`~sabacc.core.events.SeatLeft` or
:class:`~sabacc.core.events.ChipsAdded`.

Seat numbers never change: a player who leaves leaves an empty (vacant) seat, which a later
join may take; a join takes the first empty seat or a new one at the end of the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sabacc.core.actions import whole_number
from sabacc.core.errors import IllegalActionError, OptionError

#: Why credits are added to a seat between hands (:class:`~sabacc.core.events.ChipsAdded`).
CHIP_REASONS = ("rebuy", "add_on", "top_up")
#: The table operations a history's ``table`` list records (``deal``: pause mode's next hand).
TABLE_OPS = ("join", "leave", "rebuy", "deal")
#: The phase of a game paused between hands (``pause_between_hands=True``).
BETWEEN_HANDS = "between_hands"


@dataclass(slots=True)
class Seating:
    """A game's seat bookkeeping, present only on a game with a setup or table changes.

    ``buy_ins[s]``: credits the player at seat ``s`` brought (first stack plus rebuys);
    ``cashed_out[s]``: credits a player took away leaving seat ``s``; ``vacant[s]``: nobody sits
    there. ``brought`` and ``taken`` count every credit that came to and left the table.
    ``log`` is every table operation requested, each with ``at`` (actions played before it);
    ``pending`` those that have not taken effect yet.
    """

    # ``players`` first: the fields in the order a game creates them

    players: tuple[str, ...]  # the names the game started with (the history's players)
    buy_ins: list[int]
    cashed_out: list[int]
    vacant: list[bool]
    brought: int
    taken: int = 0
    stacks: tuple[int, ...] | None = None  # the setup's stacks, when given
    pause: bool = False
    log: list[dict[str, Any]] = field(default_factory=list)
    pending: list[dict[str, Any]] = field(default_factory=list)

    def copy(self) -> Seating:
        """An independent copy (the log entries are never changed, so they are shared)."""
        return Seating(
            self.players,
            self.buy_ins[:],
            self.cashed_out[:],
            self.vacant[:],
            self.brought,
            self.taken,
            self.stacks,
            self.pause,
            self.log[:],
            self.pending[:],
        )

    def setup(self) -> dict[str, Any]:
        """The history's ``setup`` entry: only what differs from a plain game."""
        out: dict[str, Any] = {}
        if self.stacks is not None:
            out["stacks"] = list(self.stacks)
        if self.pause:
            out["pause_between_hands"] = True
        return out


def check_stacks(stacks: object, n: int) -> tuple[int, ...]:
    """The setup's ``stacks`` as a tuple, one whole number >= 1 per seat, or OptionError."""
    if isinstance(stacks, str | bytes) or not isinstance(stacks, Sequence):
        raise OptionError(f"stacks={stacks!r}: must be a list of credits, one per seat")
    values = [whole_number(x) for x in stacks]
    if len(values) != n:
        raise OptionError(f"stacks={list(stacks)!r}: {n} seats need {n} stacks")
    if any(v is None or v < 1 for v in values):
        raise OptionError(f"stacks={list(stacks)!r}: each stack is a whole number, at least 1")
    return tuple(v for v in values if v is not None)


def check_amount(what: str, value: object) -> int:
    """A stack or rebuy amount: a whole number >= 1, or IllegalActionError."""
    amount = whole_number(value)
    if amount is None or amount < 1:
        raise IllegalActionError(f"{what} {value!r}: must be a whole number of credits, at least 1")
    return amount
