"""Events: what happened, for logs, UIs and hand histories.

Each event is a frozen dataclass. Fields named in ``private`` are known only to ``seat``;
:meth:`Event.visible_to` returns the copy another viewer may see (those fields set to ``None``).
An observation or a network message must only ever carry ``visible_to(viewer)`` copies.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass(frozen=True, slots=True)
class Event:
    """Base class. ``type`` names the event in JSON."""

    type: ClassVar[str] = "event"
    private: ClassVar[tuple[str, ...]] = ()

    def visible_to(self, viewer: int | None) -> Event:
        """The version of this event that ``viewer`` (a seat, or None for a spectator) may see."""
        if not self.private:
            return self
        owner = getattr(self, "seat", None)
        if viewer is not None and viewer == owner:
            return self
        return dataclasses.replace(self, **{name: None for name in self.private})

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly dict: ``{"type": ..., <fields>}`` with tuples as lists."""
        out: dict[str, Any] = {"type": self.type}
        for name in _field_names(type(self)):
            out[name] = _jsonable(getattr(self, name))
        return out


def _field_names(cls: type[Event]) -> tuple[str, ...]:
    """The fields of an event class, in order (looked up once per class)."""
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return found


_FIELDS: dict[type, tuple[str, ...]] = {}


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return value


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    type: ClassVar[str] = "hand_started"
    hand: int
    dealer: int
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Anted(Event):
    type: ClassVar[str] = "anted"
    seat: int
    main: int
    sabacc: int


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """Cards dealt face down to ``seat`` (``cards`` hidden from others; ``count`` is public)."""

    type: ClassVar[str] = "dealt"
    private: ClassVar[tuple[str, ...]] = ("cards",)
    seat: int
    count: int
    cards: tuple[str, ...] | None
    reason: str = "deal"


@dataclass(frozen=True, slots=True)
class Flipped(Event):
    """A card turned face up onto a public pile (``pile``: discard, sun)."""

    type: ClassVar[str] = "flipped"
    card: str
    pile: str = "discard"


@dataclass(frozen=True, slots=True)
class Acted(Event):
    """A player's action. ``action`` is its full text; ``public`` what everyone else sees."""

    type: ClassVar[str] = "acted"
    private: ClassVar[tuple[str, ...]] = ("action",)
    seat: int
    public: str
    action: str | None


@dataclass(frozen=True, slots=True)
class CardTaken(Event):
    """``seat`` took a card from ``source``; ``card`` is public only when ``shown``."""

    type: ClassVar[str] = "card_taken"
    private: ClassVar[tuple[str, ...]] = ("card",)
    seat: int
    source: str
    card: str | None
    shown: bool = False

    def visible_to(self, viewer: int | None) -> Event:
        return self if self.shown else Event.visible_to(self, viewer)


@dataclass(frozen=True, slots=True)
class CardDiscarded(Event):
    """``seat`` put ``card`` face up on ``pile``."""

    type: ClassVar[str] = "card_discarded"
    seat: int
    card: str
    pile: str = "discard"


@dataclass(frozen=True, slots=True)
class Paid(Event):
    """Credits moved from a seat's stack into a pot (bets, fees, penalties)."""

    type: ClassVar[str] = "paid"
    seat: int
    amount: int
    pot: str
    reason: str


@dataclass(frozen=True, slots=True)
class BetReturned(Event):
    """The part of a bet nobody called goes back to the bettor when the betting closes."""

    type: ClassVar[str] = "bet_returned"
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class DiceRolled(Event):
    type: ClassVar[str] = "dice_rolled"
    dice: tuple[int, ...]
    shift: bool
    roller: int


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    """The discards (but the top) were shuffled into a new draw pile of ``cards`` cards."""

    type: ClassVar[str] = "reshuffled"
    cards: int


@dataclass(frozen=True, slots=True)
class Revealed(Event):
    """A hand shown at showdown, with its value."""

    type: ClassVar[str] = "revealed"
    seat: int
    cards: tuple[str, ...]
    name: str
    total: int
    rank: int


@dataclass(frozen=True, slots=True)
class BlindDraw(Event):
    """A true-tie blind draw card, shown to all."""

    type: ClassVar[str] = "blind_draw"
    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class PotAwarded(Event):
    type: ClassVar[str] = "pot_awarded"
    pot: str
    amount: int
    seats: tuple[int, ...]
    shares: tuple[int, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class PotCarried(Event):
    type: ClassVar[str] = "pot_carried"
    pot: str
    amount: int


@dataclass(frozen=True, slots=True)
class Eliminated(Event):
    type: ClassVar[str] = "eliminated"
    seat: int
    stack: int


@dataclass(frozen=True, slots=True)
class SeatJoined(Event):
    """A player sat down at ``seat`` with ``stack`` credits, between hands."""

    type: ClassVar[str] = "seat_joined"
    seat: int
    name: str
    stack: int


@dataclass(frozen=True, slots=True)
class SeatLeft(Event):
    """The player at ``seat`` left the table between hands, taking ``stack`` credits along."""

    type: ClassVar[str] = "seat_left"
    seat: int
    name: str
    stack: int


@dataclass(frozen=True, slots=True)
class ChipsAdded(Event):
    """``amount`` credits added to ``seat``'s stack between hands; ``reason``: ``rebuy``,
    ``add_on`` or ``top_up``."""

    type: ClassVar[str] = "chips_added"
    seat: int
    amount: int
    reason: str = "rebuy"


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    type: ClassVar[str] = "hand_ended"
    hand: int
    reason: str
    net: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    type: ClassVar[str] = "game_ended"
    stacks: tuple[int, ...]
    payoffs: tuple[int, ...]
