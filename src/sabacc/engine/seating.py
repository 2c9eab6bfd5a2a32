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

import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from sabacc.core.actions import whole_number
from sabacc.core.errors import IllegalActionError, OptionError
from sabacc.core.events import ChipsAdded, Event, SeatJoined, SeatLeft

if TYPE_CHECKING:
    from sabacc.core.options import Options
    from sabacc.engine.observe import ObservationSnapshot
    from sabacc.engine.variant import VariantInfo

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


def seat_number(seat: object, n: int) -> int | None:
    """``seat`` as a seat number at an ``n``-seat table (an ``int`` or a NumPy integer, not a
    ``bool``), or None if it is not one (shared by every engine's ``apply``)."""
    if type(seat) is not int:
        if isinstance(seat, bool | float | str) or not hasattr(seat, "__index__"):
            return None
        try:
            seat = operator.index(seat)
        except TypeError:
            return None
    assert isinstance(seat, int)
    return seat if 0 <= seat < n else None


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


class SeatedTable(Protocol):
    """What the table operations below read of a game, on either engine (the reference
    :class:`~sabacc.engine.game.Game` and every compiled core): one source for their checks,
    their messages and their bookkeeping."""

    _seating: Seating | None

    @property
    def over(self) -> bool: ...
    @property
    def n(self) -> int: ...
    @property
    def names(self) -> list[str]: ...
    @property
    def action_count(self) -> int: ...
    @property
    def info(self) -> VariantInfo: ...
    @property
    def options(self) -> Options: ...


def check_open(table: SeatedTable) -> None:
    """Refuse a table operation once the game is over."""
    if table.over:
        raise IllegalActionError("the game is over: the table is closed")


def check_deal(table: SeatedTable, between_hands: bool) -> None:
    """Refuse :meth:`~sabacc.engine.game.Game.deal` unless the game is paused between hands."""
    if table.over:
        raise IllegalActionError("the game is over: no more hands")
    if not between_hands:
        raise IllegalActionError("a hand is in play: deal() starts the next one when it ends")


def pending_ops(table: SeatedTable) -> list[dict[str, Any]]:
    """The table changes that take effect before the next hand (the list itself)."""
    seating = table._seating
    return seating.pending if seating is not None else []


def seating_state(table: SeatedTable) -> Seating:
    """The game's :class:`Seating`, made at the first table change of a plain game."""
    seating = table._seating
    if seating is None:
        start = table.options.starting_stack
        n = table.n
        seating = table._seating = Seating(
            tuple(table.names), [start] * n, [0] * n, [False] * n, start * n
        )
    return seating


def free_seats(table: SeatedTable) -> list[int]:
    """Seats a join may take now: empty ones not promised to a pending join, then the next new
    seat (if the table has room)."""
    n = table.n
    taken = {e["seat"] for e in pending_ops(table) if e["op"] == "join"}
    vacant = table._seating.vacant if table._seating is not None else [False] * n
    free = [s for s in range(n) if vacant[s] and s not in taken]
    new = n + sum(1 for s in taken if s >= n)
    if new < table.info.max_players:
        free.append(new)
    return free


def seated(table: SeatedTable, what: str, seat: object) -> int:
    """``seat`` as the number of a seat with a player (who is not already leaving)."""
    n = table.n
    number = seat_number(seat, n)
    if number is None:
        raise IllegalActionError(f"{what}: no seat {seat!r} at this {n}-seat table")
    if table._seating is not None and table._seating.vacant[number]:
        raise IllegalActionError(f"{what}: seat {number} is empty")
    if any(e["op"] == "leave" and e["seat"] == number for e in pending_ops(table)):
        raise IllegalActionError(f"{what}: {table.names[number]} is leaving the table")
    return number


def request(table: SeatedTable, entry: dict[str, Any]) -> None:
    """Record a table operation (with ``at``) and queue it for the next hand's start."""
    seating = seating_state(table)
    seating.log.append({"at": table.action_count, **entry})
    if entry["op"] != "deal":
        seating.pending.append(entry)


def join(table: SeatedTable, name: object, stack: object, seat: object) -> int:
    """Check and queue a join (:meth:`~sabacc.engine.game.Game.join`); returns the seat."""
    check_open(table)
    if not isinstance(name, str) or not name.strip():
        raise IllegalActionError(f"join: the player's name {name!r} must be some text")
    amount = check_amount("join: stack", stack)
    free = free_seats(table)
    if seat is None:
        if not free:
            raise IllegalActionError(f"join: the table is full ({table.info.max_players} seats)")
        chosen = free[0]
    else:
        number = seat_number(seat, free[-1] + 1 if free else table.n)
        if number is None or number not in free:
            raise IllegalActionError(
                f"join: seat {seat!r} is not free (free: {', '.join(map(str, free)) or 'none'})"
            )
        chosen = number
    request(table, {"op": "join", "seat": chosen, "name": name, "stack": amount})
    return chosen


def leave(table: SeatedTable, seat: object) -> None:
    """Check and queue a leave (:meth:`~sabacc.engine.game.Game.leave`)."""
    check_open(table)
    number = seated(table, "leave", seat)
    request(table, {"op": "leave", "seat": number})


def rebuy(table: SeatedTable, seat: object, amount: object, reason: object) -> None:
    """Check and queue a rebuy (:meth:`~sabacc.engine.game.Game.rebuy`)."""
    check_open(table)
    number = seated(table, "rebuy", seat)
    credits = check_amount("rebuy: amount", amount)
    if reason not in CHIP_REASONS:
        raise IllegalActionError(
            f"rebuy: reason {reason!r} must be one of {', '.join(CHIP_REASONS)}"
        )
    request(table, {"op": "rebuy", "seat": number, "amount": credits, "reason": reason})


def settle(
    seating: Seating,
    pending: list[dict[str, Any]],
    names: list[str],
    stacks: list[int],
    out: list[bool],
) -> list[Event]:
    """Carry out the pending table changes, in the order they were asked for, on a game's
    ``names``, ``stacks`` and ``out`` (lists changed in place; a join at the next new seat
    appends to them) and its ``seating``; returns the events they cause. Both engines settle
    through here (the caller gives its new seats their per-hand state)."""
    events: list[Event] = []
    for entry in pending:
        op, seat = entry["op"], entry["seat"]
        if op == "join":
            stack = entry["stack"]
            if seat == len(stacks):
                names.append(entry["name"])
                stacks.append(stack)
                out.append(False)
                seating.buy_ins.append(stack)
                seating.cashed_out.append(0)
                seating.vacant.append(False)
            else:
                names[seat] = entry["name"]
                stacks[seat] = stack
                out[seat] = False
                seating.buy_ins[seat] = stack
                seating.cashed_out[seat] = 0
                seating.vacant[seat] = False
            seating.brought += stack
            events.append(SeatJoined(seat, entry["name"], stack))
        elif op == "leave":
            stack, stacks[seat] = stacks[seat], 0
            seating.cashed_out[seat] += stack
            seating.taken += stack
            seating.vacant[seat] = True
            out[seat] = True
            events.append(SeatLeft(seat, names[seat], stack))
        else:  # rebuy
            amount = entry["amount"]
            stacks[seat] += amount
            seating.buy_ins[seat] += amount
            seating.brought += amount
            out[seat] = False  # an eliminated player who rebuys plays again
            events.append(ChipsAdded(seat, amount, entry["reason"]))
    return events


def payoffs(seating: Seating, stacks: Sequence[int]) -> list[int]:
    """Each seat's net at a table with seat changes: the stack, plus what a player who left
    took away, minus every credit the seat's player brought (first stack and rebuys)."""
    return [
        stack + out - paid
        for stack, out, paid in zip(stacks, seating.cashed_out, seating.buy_ins, strict=True)
    ]


def history_entries(seating: Seating | None) -> dict[str, Any]:
    """A history's ``setup`` and ``table`` entries (none for a plain game)."""
    if seating is None:
        return {}
    out: dict[str, Any] = {}
    setup = seating.setup()
    if setup:
        out["setup"] = setup
    if seating.log:
        out["table"] = [dict(entry) for entry in seating.log]
    return out


def apply_entry(table: Any, entry: Mapping[str, Any]) -> None:
    """Carry out one entry of a history's ``table`` list on ``table`` (either engine), through
    its own ``join``, ``leave``, ``rebuy`` and ``deal``."""
    op = entry.get("op")
    if op == "join":
        table.join(entry["name"], entry["stack"], seat=entry["seat"])
    elif op == "leave":
        table.leave(entry["seat"])
    elif op == "rebuy":
        table.rebuy(entry["seat"], entry["amount"], entry.get("reason", "rebuy"))
    elif op == "deal":
        table.deal()
    else:
        raise IllegalActionError(f"unknown table operation {op!r}")


def mark_vacant(snap: ObservationSnapshot, seating: Seating | None) -> ObservationSnapshot:
    """``snap`` with its empty seats marked (``vacant``), when the table has one (both
    engines' observation snapshots go through here)."""
    if seating is None or True not in seating.vacant:
        return snap
    return snap._replace(vacant=tuple(seating.vacant))
