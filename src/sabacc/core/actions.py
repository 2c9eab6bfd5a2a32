"""Player actions: the shared base and the betting actions, small frozen dataclasses with a
text form.

Text forms (each variant parses them with the parser its declared action kinds build, see
:mod:`sabacc.engine.actions`; a variant's own actions live in its package):

=====================  ==========================================================
``stand``              keep your hand / pass / decline to call (alias ``pass``)
``check`` ``call``     betting
``bet 5``              open the betting with 5 credits
``raise 3``            raise *by* 3 over the current bet
``junk``               fold (alias ``fold``)
=====================  ==========================================================
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import ClassVar

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

    def checked(self) -> Action:
        """This action if its fields are well formed, raising :class:`IllegalActionError` if
        not (a well-formed action is returned as it is; one with a NumPy integer where a whole
        number is due comes back as a new action with a plain ``int``).

        The boundary every engine's ``apply`` and ``is_legal`` go through (via the variant's
        parser): amounts and card values must be whole numbers, so that stacks stay integers,
        histories replay and observations stay JSON. An action with fields overrides it."""
        return self


@dataclass(frozen=True, slots=True)
class Stand(Action):
    """Keep the hand as it is (Spike stand, classic pass, decline to call)."""

    kind: ClassVar[str] = "stand"


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

    def checked(self) -> Action:
        return _checked_amount(self)


@dataclass(frozen=True, slots=True)
class Raise(Action):
    """Raise by ``amount`` credits over the current bet."""

    kind: ClassVar[str] = "raise"
    amount: int

    def __str__(self) -> str:
        return f"raise {self.amount}"

    def checked(self) -> Action:
        return _checked_amount(self)


@dataclass(frozen=True, slots=True)
class Junk(Action):
    """Fold: give up the hand; what you staked stays in the pot."""

    kind: ClassVar[str] = "junk"


STAND = Stand()
CHECK = Check()
CALL = Call()
JUNK = Junk()


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


def _checked_amount(action: Bet | Raise) -> Action:
    """A bet or raise whose amount is a whole number of credits (``Bet(2.5)``, ``Bet(True)``,
    ``Bet("5")``, ``Bet(None)`` are refused; a NumPy integer is taken as an ``int``)."""
    amount: object = action.amount
    if type(amount) is int:
        return action
    whole = whole_number(amount)
    if whole is None:
        raise IllegalActionError(
            f"{action.kind} {amount!r}: the amount must be a whole number of credits"
        )
    return type(action)(whole)


def checked_card_value(action: Action, value: object, where: str = "") -> int | None:
    """``value``, a card value field of ``action``, as a plain ``int``: None if it already is
    one, else the converted value; :class:`IllegalActionError` if it is not a whole number
    (``where``: the words between the kind and the value in the message, like ``"draw "``)."""
    if type(value) is int:
        return None
    whole = whole_number(value)
    if whole is None:
        raise IllegalActionError(
            f"{action.kind} {where}{value!r}: the card value must be a whole number like +4 or -3"
        )
    return whole
