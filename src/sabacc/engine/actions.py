"""What a variant declares about its actions and its table: :class:`ActionKind`, :class:`Field`.

A variant lists its action kinds in its record (:attr:`VariantInfo.actions
<sabacc.engine.variant.VariantInfo.actions>`); from them come its one text parser
(:class:`ActionParser`), the controls the tables offer (:class:`Control`), the keyboard keys and
labels, and the RL action table's slots. The shared kinds (stand and the betting actions, whose
classes are in :mod:`sabacc.core.actions`) are declared here for every variant to list.

A variant also lists the observation fields it adds (:class:`Field`), each saying how the
tables show it, so that no app keeps its own list of observation keys.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from sabacc.core.actions import (
    CALL,
    CHECK,
    JUNK,
    STAND,
    Action,
    Bet,
    Call,
    Check,
    Junk,
    Raise,
    Stand,
)
from sabacc.core.errors import IllegalActionError

#: A kind's parser: the words after the kind's head and the whole text -> the action, or None
#: when the words are not of this kind's shape (another kind, or an unknown action).
WordParser = Callable[[Sequence[str], str], "Action | None"]
#: A kind's RL slots: the deck's distinct card values and the options -> its fixed actions, in
#: table order.
SlotMaker = Callable[[Sequence[int], Any], Sequence[Action]]


class Control(StrEnum):
    """How a player makes an action of a kind: the shape of its control at a table."""

    DIRECT = "direct"  # one action, nothing to choose (stand, gain, check)
    CARD = "card"  # pick a card of the hand (swap draw <card>, discard <card>)
    PILE = "pile"  # pick a card of a face-up pile (gain <Sun card>), or the pile itself
    SEAT = "seat"  # pick a seat
    DIE = "die"  # pick a die or a value (impostor <die>)
    SUBSET = "subset"  # choose a subset of the hand (keep <cards>): its actions have ``cards``
    AMOUNT = "amount"  # an amount of credits (bet, raise)
    ITEM = "item"  # play an item of the side hand, then a seat if it targets one (token)


@dataclass(frozen=True)
class ActionKind:
    """One kind of action a variant has.

    * ``name``: the kind's key, also its vocabulary key (``label.<name>``, ``short.<name>``);
    * ``cls``: the action class; ``matches`` tells this kind's actions apart where kinds share
      a class (a Sun gain and a plain gain are both ``Gain``);
    * ``form``: the text form, its literal head first (``"swap draw <card>"``, ``"call hand"``);
      ``aliases``: other heads taken for it (``"pass"`` for stand); ``parse`` reads the words
      after the head;
    * ``control``: its shape at a table; ``pile``: for a pile or card control, the observation
      key of the pile it takes from or gives to (``"sun"``), ``source``: the pile's generic name
      (``"discard"``, ``"moon"``) the tables word it by;
    * ``key``: its default keyboard key (the variant's text may rebind it); its labels, in
      every language, are its vocabulary's ``label.<name>`` and ``short.<name>``;
    * ``betting``: a betting-round action (check, call, bet...), grouped with them on a bar;
    * ``slots``: its fixed RL table entries (None: none; an amount kind takes the table's bet
      sizes), ``subsets``: a subset kind's RL slots (the most subsets a decision lists).
    """

    name: str
    cls: type[Action]
    form: str
    parse: WordParser = field(repr=False)
    control: Control = Control.DIRECT
    key: str = ""
    aliases: tuple[str, ...] = ()
    pile: str = ""
    source: str = ""
    betting: bool = False
    matches: Callable[[Action], bool] | None = field(default=None, repr=False)
    slots: SlotMaker | None = field(default=None, repr=False)
    subsets: int = 0

    @property
    def head(self) -> tuple[str, ...]:
        """The literal words the text form starts with (``("swap", "draw")``)."""
        out: list[str] = []
        for word in self.form.split(" "):
            if word.startswith(("<", "[")):
                break
            out.append(word)
        return tuple(out)

    def heads(self) -> tuple[tuple[str, ...], ...]:
        """The head and each alias's words."""
        return (self.head, *(tuple(a.split(" ")) for a in self.aliases))

    def owns(self, action: Action) -> bool:
        """Whether ``action`` is of this kind."""
        if type(action) is not self.cls:
            return False
        return self.matches is None or self.matches(action)


@dataclass(frozen=True)
class Field:
    """An observation field a variant adds, and how the tables show it.

    ``show``: ``"pile"`` (drawn as a declared pile), ``"bar"`` (in the status bar: a turn, a
    round count, who starts), ``"dice"`` (beside the pots), ``"hidden"`` (read by the tables'
    own parts or not shown: a pile's known cards, a limit), ``"fact"`` (listed among the
    table's facts with its value, worded by the variant's ``fact.<key>`` if it has one).
    ``count``: a text key (with ``{n}``) under which the tables also count the field in their
    line of pile sizes (a number as it is, a list by its length; not while None or empty).
    """

    key: str
    show: str = "hidden"
    count: str | None = None

    def __post_init__(self) -> None:
        if self.show not in FIELD_SHOWS:
            raise ValueError(f"field {self.key!r}: show is one of {FIELD_SHOWS}, not {self.show!r}")


#: How a :attr:`Field.show` may be spelled.
FIELD_SHOWS = ("pile", "bar", "dice", "hidden", "fact")

#: The keys every observation has, shown by the tables' generic parts (seats, pots, betting,
#: the hand, the status bar). A variant's own keys are its :class:`Field` declarations.
COMMON_FIELDS = frozenset(
    {
        "schema_version",
        "variant",
        "seat",
        "hand",
        "phase",
        "dealer",
        "current_player",
        "is_over",
        "seats",
        "pots",
        "betting",
        "legal",
        "last_hand",
        "you",
        "outcome",
        "round",
        "rounds",
    }
)


# ---------------------------------------------------------------------- word readers
def read_whole(word: str, text: str) -> int:
    """``word`` as a whole number, else :class:`IllegalActionError` quoting ``text``."""
    try:
        return int(word)
    except ValueError:
        raise IllegalActionError(f"{text!r}: {word!r} is not a whole number") from None


def read_card(word: str, text: str) -> int:
    """A card value word (``+4``, ``-3``; suit or stave letters after it are dropped, since
    suits never matter for play), else :class:`IllegalActionError` quoting ``text``."""
    digits = word.rstrip("cstf")
    try:
        return int(digits)
    except ValueError:
        raise IllegalActionError(
            f"{text!r}: {digits!r} is not a card value like +4 or -3"
        ) from None


def constant(action: Action) -> WordParser:
    """The parser of a kind with no arguments: ``action`` when no word follows the head."""

    def parse(words: Sequence[str], text: str) -> Action | None:
        return None if words else action

    return parse


def one_card(make: Callable[[int], Action]) -> WordParser:
    """The parser of a kind taking one card value (``discard +4``)."""

    def parse(words: Sequence[str], text: str) -> Action | None:
        return make(read_card(words[0], text)) if len(words) == 1 else None

    return parse


def one_amount(make: Callable[[int], Action]) -> WordParser:
    """The parser of a kind taking one whole number of credits (``bet 5``)."""

    def parse(words: Sequence[str], text: str) -> Action | None:
        return make(read_whole(words[0], text)) if len(words) == 1 else None

    return parse


def one_slot(action: Action) -> SlotMaker:
    """The RL slots of a kind that is one action."""

    def slots(values: Sequence[int], options: Any) -> Sequence[Action]:
        return (action,)

    return slots


def per_value(make: Callable[[int], Action]) -> SlotMaker:
    """The RL slots of a kind taking a card value: one per distinct value of the deck."""

    def slots(values: Sequence[int], options: Any) -> Sequence[Action]:
        return tuple(make(v) for v in values)

    return slots


# ---------------------------------------------------------------------- the shared kinds
STAND_KIND = ActionKind(
    "stand", Stand, "stand", constant(STAND), key="s", aliases=("pass",), slots=one_slot(STAND)
)
CHECK_KIND = ActionKind(
    "check", Check, "check", constant(CHECK), key="c", betting=True, slots=one_slot(CHECK)
)
CALL_KIND = ActionKind(
    "call", Call, "call", constant(CALL), key="c", betting=True, slots=one_slot(CALL)
)
JUNK_KIND = ActionKind(
    "junk", Junk, "junk", constant(JUNK), key="j", aliases=("fold",), slots=one_slot(JUNK)
)
BET_KIND = ActionKind(
    "bet", Bet, "bet <amount>", one_amount(Bet), Control.AMOUNT, key="b", betting=True
)
RAISE_KIND = ActionKind(
    "raise", Raise, "raise <amount>", one_amount(Raise), Control.AMOUNT, key="r", betting=True
)
#: The shared kinds of a variant with a betting round, in RL table order around the variant's
#: own: the passive ones first (stand, check, call, junk), the amounts last.
PASSIVE_KINDS: tuple[ActionKind, ...] = (STAND_KIND, CHECK_KIND, CALL_KIND, JUNK_KIND)
AMOUNT_KINDS: tuple[ActionKind, ...] = (BET_KIND, RAISE_KIND)
#: Every shared kind (the core's classes), which every variant's parser reads.
SHARED_KINDS: tuple[ActionKind, ...] = (*PASSIVE_KINDS, *AMOUNT_KINDS)


def betting_kinds(*own: ActionKind) -> tuple[ActionKind, ...]:
    """A betting variant's kinds in RL table order: the passive shared kinds, ``own``, the
    amounts."""
    return (*PASSIVE_KINDS, *own, *AMOUNT_KINDS)


# ---------------------------------------------------------------------- the parser
def _or_list(forms: Sequence[str]) -> str:
    quoted = [f"'{f}'" for f in forms]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


class ActionParser:
    """The one text parser of a variant, built from its declared kinds.

    The shared kinds (stand and betting, whose classes are the core's) are known to every
    variant's parser, declared or not: a variant without betting refuses ``bet 2`` as not
    allowed, like any action it does not allow now. Text is case-insensitive and spacing-free;
    the kinds whose head (or alias) starts it are tried, longest head first. A first word that
    only starts longer heads, none of which follows (``swap moon +4`` where the variant swaps
    with the draw and the discard), gets a hint naming the variant's forms. An :class:`Action`
    is checked by its own :meth:`Action.checked` (whole numbers where numbers are due),
    whichever variant it is of.
    """

    def __init__(self, kinds: Sequence[ActionKind]) -> None:
        self.kinds = tuple(kinds)
        declared = {kind.name for kind in self.kinds}
        shared = tuple(kind for kind in SHARED_KINDS if kind.name not in declared)
        self._simple: dict[str, Action] = {}
        self._by_head: dict[str, list[tuple[tuple[str, ...], ActionKind]]] = {}
        for kind in (*self.kinds, *shared):
            for head in kind.heads():
                self._by_head.setdefault(head[0], []).append((head, kind))
                if kind.head == tuple(kind.form.split(" ")):  # no arguments: a constant
                    action = kind.parse((), kind.form)
                    if action is not None:
                        self._simple.setdefault(" ".join(head), action)
        for entries in self._by_head.values():
            entries.sort(key=lambda entry: -len(entry[0]))

    def __call__(self, text: str | Action) -> Action:
        """The action of ``text``; :class:`IllegalActionError` if it is malformed or unknown."""
        if isinstance(text, Action):
            return text.checked()
        if not isinstance(text, str):
            raise IllegalActionError(
                f"an action must be text or an Action, not {type(text).__name__}"
            )
        norm = " ".join(text.strip().lower().split())
        simple = self._simple.get(norm)
        if simple is not None:
            return simple
        words = norm.split(" ")
        entries = self._by_head.get(words[0], ())
        matched = False
        for head, kind in entries:
            if tuple(words[: len(head)]) == head:
                matched = True
                action = kind.parse(words[len(head) :], text)
                if action is not None:
                    return action
        longer = [kind.form for head, kind in entries if len(head) > 1 and head == kind.head]
        if longer and not matched:
            forms = list(dict.fromkeys(longer))
            raise IllegalActionError(f"{text!r}: {words[0]} from where? say {_or_list(forms)}")
        raise IllegalActionError(f"unknown action {text!r}")

    def kind_of(self, action: Action) -> ActionKind | None:
        """The declared kind of ``action`` (None: not one of this variant's)."""
        return next((k for k in self.kinds if k.owns(action)), None)
