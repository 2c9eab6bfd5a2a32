"""Player actions: small frozen dataclasses with a text form that parses and round-trips.

Text forms (case-insensitive when parsed):

=====================  ==========================================================
``stand``              keep your hand / pass / decline to call (aliases ``pass``)
``gain``               take the top draw card (Spike, classic "draw"; alias ``draw``)
``gain +3``            take the face-up Sun card of that value (Surabat)
``swap discard -3``    take the discard top, discard your -3 (Spike)
``swap draw +4``       take the draw top, discard your +4 (Spike; classic "exchange")
``swap moon +4``       put your +4 face down on the Moon pile, take its top (Surabat)
``discard +4``         discard a card (Surabat, over the hand cap after a gain)
``check`` ``call``     betting
``bet 5``              open the betting with 5 credits
``raise 3``            raise *by* 3 over the current bet
``junk``               fold (alias ``fold``)
``call hand``          classic: call the hand, i.e. ask for the showdown
``keep -3 +5c 0``      choose a subset of your cards to keep (Coruscant Shift's selections)
=====================  ==========================================================
"""

from __future__ import annotations

import functools
import operator
from dataclasses import dataclass
from typing import ClassVar

from sabacc.core.cards import signed
from sabacc.core.errors import IllegalActionError


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action. ``kind`` is the first word of the text form."""

    kind: ClassVar[str] = ""

    def __str__(self) -> str:
        return self.kind

    def to_json(self) -> str:
        """Actions serialise as their text form."""
        return str(self)


@dataclass(frozen=True, slots=True)
class Stand(Action):
    """Keep the hand as it is (Spike stand, classic pass, decline to call)."""

    kind: ClassVar[str] = "stand"


@dataclass(frozen=True, slots=True)
class Gain(Action):
    """Take a card into the hand: the draw top, or (Surabat) the Sun card of ``value``."""

    kind: ClassVar[str] = "gain"
    value: int | None = None

    def __str__(self) -> str:
        return "gain" if self.value is None else f"gain {signed(self.value)}"


SWAP_SOURCES = ("discard", "draw", "moon")


@dataclass(frozen=True, slots=True)
class Swap(Action):
    """Exchange a hand card of ``value`` with a card from ``source``."""

    kind: ClassVar[str] = "swap"
    source: str
    value: int

    def __str__(self) -> str:
        return f"swap {self.source} {signed(self.value)}"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Discard a hand card of ``value`` (Surabat, back down to the hand cap)."""

    kind: ClassVar[str] = "discard"
    value: int

    def __str__(self) -> str:
        return f"discard {signed(self.value)}"


@dataclass(frozen=True, slots=True)
class Check(Action):
    """Bet nothing when there is nothing to call."""

    kind: ClassVar[str] = "check"


@dataclass(frozen=True, slots=True)
class Call(Action):
    """Match the current bet (all-in for less if the stack is short)."""

    kind: ClassVar[str] = "call"


@dataclass(frozen=True, slots=True)
class Bet(Action):
    """Open the betting with ``amount`` credits."""

    kind: ClassVar[str] = "bet"
    amount: int

    def __str__(self) -> str:
        return f"bet {self.amount}"


@dataclass(frozen=True, slots=True)
class Raise(Action):
    """Raise by ``amount`` credits over the current bet."""

    kind: ClassVar[str] = "raise"
    amount: int

    def __str__(self) -> str:
        return f"raise {self.amount}"


@dataclass(frozen=True, slots=True)
class Junk(Action):
    """Fold: give up the hand; what you staked stays in the pot."""

    kind: ClassVar[str] = "junk"


@dataclass(frozen=True, slots=True)
class CallHand(Action):
    """Classic: call the hand, ending it at once with a showdown."""

    kind: ClassVar[str] = "call hand"


def card_sort_key(token: str) -> tuple[int, str]:
    """The order :class:`Keep` lists its cards in: by value, then by the code (``-3 0 +5c``)."""
    digits = token.rstrip("abcdefghijklmnopqrstuvwxyz")
    try:
        return (int(digits), token)
    except ValueError:
        return (0, token)


@dataclass(frozen=True, slots=True)
class Keep(Action):
    """Choose a subset of your hand to keep: ``cards`` are card codes (a value, with a suit
    letter where it matters), in :func:`card_sort_key` order. Generic: the variant says which
    subsets are legal (Coruscant Shift: at least one card; the second selection only adds)."""

    kind: ClassVar[str] = "keep"
    cards: tuple[str, ...]

    def __str__(self) -> str:
        return "keep " + " ".join(self.cards)


def keep_action(cards: tuple[str, ...] | list[str]) -> Keep:
    """The :class:`Keep` of ``cards`` in the canonical order."""
    return Keep(tuple(sorted(cards, key=card_sort_key)))


STAND = Stand()
GAIN = Gain()
CHECK = Check()
CALL = Call()
JUNK = Junk()
CALL_HAND = CallHand()

_SIMPLE: dict[str, Action] = {
    "stand": STAND,
    "pass": STAND,
    "gain": GAIN,
    "draw": GAIN,
    "check": CHECK,
    "call": CALL,
    "junk": JUNK,
    "fold": JUNK,
    "call hand": CALL_HAND,
}


def _int(word: str, text: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise IllegalActionError(f"{text!r}: {word!r} is not a whole number") from None


def _value(word: str, text: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise IllegalActionError(f"{text!r}: {word!r} is not a card value like +4 or -3") from None


def whole_number(value: object) -> int | None:
    """``value`` as a plain ``int`` if it is a whole number (an ``int`` or a NumPy integer, not a
    ``bool``), else None. Variants check their own actions' number fields with it."""
    if type(value) is int:
        return value
    if isinstance(value, bool | float | str) or not hasattr(value, "__index__"):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


@functools.lru_cache(maxsize=1024)
def _is_card_code(card: str) -> bool:
    """Whether ``card`` reads as a card code: a whole number with any letters after it (the
    form the text parser takes: ``+5c``, ``-3``, ``0``). Cached: a game's keeps name the same
    few codes over and over."""
    try:
        int(card.rstrip("abcdefghijklmnopqrstuvwxyz"))
    except ValueError:
        return False
    return True


def checked_action(action: Action) -> Action:
    """``action`` if its fields are well formed, raising :class:`IllegalActionError` if not.

    The boundary every engine's ``apply`` and ``is_legal`` go through (via :func:`parse_action`):
    a bet or raise amount must be a whole number of credits and a card value a whole number, so
    that stacks stay integers, histories replay and observations stay JSON. ``Bet(2.5)``,
    ``Bet(True)``, ``Bet("5")``, ``Bet(None)``, ``Swap("draw", 6.0)`` are refused; a NumPy
    integer is taken, converted to ``int`` (a new action; well-formed actions are returned as
    they are). A :class:`Keep` names its cards as the text parser reads them (``+5c``, ``-3``).
    """
    if isinstance(action, Bet | Raise):
        amount: object = action.amount
        if type(amount) is int:
            return action
        whole = whole_number(amount)
        if whole is None:
            raise IllegalActionError(
                f"{action.kind} {amount!r}: the amount must be a whole number of credits"
            )
        return type(action)(whole)
    if isinstance(action, Keep):
        cards: object = action.cards
        if not isinstance(cards, tuple) or not cards or not all(isinstance(c, str) for c in cards):
            raise IllegalActionError(f"keep {cards!r}: name at least one card, like 'keep +5c 0'")
        for card in cards:
            if not _is_card_code(card):
                raise IllegalActionError(
                    f"keep {cards!r}: {card!r} is not a card like +5c, -3 or 0"
                )
        return action
    if isinstance(action, Swap | Discard | Gain):
        value: object = action.value
        if type(value) is int or (value is None and isinstance(action, Gain)):
            return action
        whole = whole_number(value)
        if whole is None:
            where = f"{action.source} " if isinstance(action, Swap) else ""
            raise IllegalActionError(
                f"{action.kind} {where}{value!r}: the card value must be a whole number "
                "like +4 or -3"
            )
        if isinstance(action, Swap):
            return Swap(action.source, whole)
        return type(action)(whole)
    return action


def parse_action(text: str | Action) -> Action:
    """Parse the text form of an action; raises :class:`IllegalActionError` if malformed.

    Suit or stave letters after a card value are accepted and ignored (``swap draw +4c``),
    because suits never matter for play. An :class:`Action` is checked by
    :func:`checked_action` (whole-number amounts and card values).
    """
    if isinstance(text, Action):
        return checked_action(text)
    if not isinstance(text, str):
        raise IllegalActionError(f"an action must be text or an Action, not {type(text).__name__}")
    norm = " ".join(text.strip().lower().split())
    if norm in _SIMPLE:
        return _SIMPLE[norm]
    words = norm.split(" ")
    head = words[0] if words else ""
    card_word = words[-1].rstrip("cstf") if len(words) > 1 else ""
    if head in ("bet", "raise") and len(words) == 2:
        amount = _int(words[1], text)
        return Bet(amount) if head == "bet" else Raise(amount)
    if head in ("gain", "draw") and len(words) == 2:
        return Gain(_value(card_word, text))
    if head == "discard" and len(words) == 2:
        return Discard(_value(card_word, text))
    if head == "swap" and len(words) == 3:
        if words[1] not in SWAP_SOURCES:
            raise IllegalActionError(
                f"{text!r}: swap from where? say 'swap discard <card>', 'swap draw <card>' "
                "or 'swap moon <card>'"
            )
        return Swap(words[1], _value(card_word, text))
    if head == "keep" and len(words) >= 2:
        for word in words[1:]:
            _value(word.rstrip("abcdefghijklmnopqrstuvwxyz"), text)
        return keep_action(words[1:])
    if head == "exchange" and len(words) == 2:
        return Swap("draw", _value(card_word, text))
    raise IllegalActionError(f"unknown action {text!r}")
