"""The typed, versioned observation: what :meth:`Game.observation` returns, for every variant.

The observation IS its JSON form (a dict of ints, strings, lists and dicts), so its schema is a
set of :class:`~typing.TypedDict`: :class:`Observation` is the part every variant shares (seats,
pots, betting, legal actions, the last hand's result, the seat's own hand); each variant module
declares its own part (Corellian Spike's discard pile, Surabat's Sun and Moon, classic's turn and
orbit) and the observation type that joins the two, and names it in its game class's
:attr:`~sabacc.engine.game.Game.observation_type`. ``docs/observation.schema.json`` is generated
from these types (``scripts/gen_schema.py``, :func:`json_schema`); ``schema_version`` says which
schema an observation follows, and changes whenever a key is added, removed or changes meaning.

:func:`json_schema` is the small generator: it turns these TypedDicts into JSON Schema (draft
2020-12), every object closed (``additionalProperties: false``) so that a key the schema does not
know fails validation.
"""

from __future__ import annotations

import types
import typing
from typing import Any, Literal, NotRequired, TypedDict, Union

#: The version of the observation schema (the ``schema_version`` of every observation).
SCHEMA_VERSION = 1

SeatStatus = Literal["active", "all_in", "junked", "waiting", "out"]
#: Seat statuses, in the order the RL encoder one-hots them.
SEAT_STATUSES: tuple[SeatStatus, ...] = typing.get_args(SeatStatus)


class SeatObservation(TypedDict):
    """One seat as everybody sees it."""

    seat: int
    name: str
    stack: int
    committed: int  # put into the pots this hand
    round_bet: int  # bet in the current betting round
    cards: int  # how many cards it holds
    known_cards: list[str]  # the cards of that hand this viewer saw go into it
    status: SeatStatus
    dealer: bool
    last_action: str | None  # its last action this hand, as public text ("gain", "bet 5")
    #: Only on an empty seat, and then True: its player left the table and nobody sat there
    #: since (its status is "out"; clients show an empty seat, not the old name).
    vacant: NotRequired[bool]


class SidePotObservation(TypedDict):
    amount: int
    eligible: list[int]


class PotsObservation(TypedDict):
    main: int  # every credit in the main pot(s), side pots included
    sabacc: int
    side: list[SidePotObservation]


class BettingObservation(TypedDict):
    current_bet: int
    to_call: int  # what this seat owes to stay in (0 outside a betting phase)
    structure: str  # "no_limit", "pot_limit", "fixed", or the variant's own
    unit: int  # the minimum bet and raise increment


#: The legal actions of the seat to act (empty for everybody else): the fixed actions as text,
#: and the inclusive ranges of a bet and of a raise increment (None: not legal).
LegalObservation = TypedDict(
    "LegalObservation", {"actions": list[str], "bet": list[int] | None, "raise": list[int] | None}
)


class HandValueObservation(TypedDict):
    name: str
    total: int
    rank: int  # 1 is the best rank
    size: int


class OwnHandObservation(TypedDict):
    """The observer's own hand (absent from a spectator's view)."""

    cards: list[str]
    values: list[int]
    total: int
    hand: HandValueObservation | None  # None: no cards


class RevealedHandObservation(TypedDict):
    """A hand shown at the end of a hand: its cards, and its value when it had one."""

    cards: list[str]
    name: NotRequired[str]
    total: NotRequired[int]
    rank: NotRequired[int]
    size: NotRequired[int]


class PotResultObservation(TypedDict):
    pot: str
    amount: int
    winners: list[int]
    shares: list[int]
    reason: str


class HandResultObservation(TypedDict):
    """:meth:`sabacc.HandResult.to_dict`."""

    hand: int
    dealer: int
    reason: str
    pots: list[PotResultObservation]
    hands: dict[str, RevealedHandObservation]  # by seat number (as text: JSON keys)
    carried: dict[str, int]
    net: list[int]


class OutcomeObservation(TypedDict):
    """:meth:`sabacc.GameOutcome.to_dict`."""

    stacks: list[int]
    payoffs: list[int]
    standings: list[int]
    winners: list[int]
    hands_played: int


class Observation(TypedDict):
    """The part of every variant's observation that the engine builds (see module doc)."""

    schema_version: int
    variant: str
    seat: int | None  # None: a spectator's view
    hand: int
    phase: str
    dealer: int
    current_player: int | None
    is_over: bool
    seats: list[SeatObservation]
    pots: PotsObservation
    betting: BettingObservation
    legal: LegalObservation
    last_hand: HandResultObservation | None
    you: NotRequired[OwnHandObservation]
    outcome: NotRequired[OutcomeObservation | None]


# ---------------------------------------------------------------------- JSON Schema
_SCALARS: dict[Any, dict[str, Any]] = {
    int: {"type": "integer"},
    str: {"type": "string"},
    bool: {"type": "boolean"},
    float: {"type": "number"},
    type(None): {"type": "null"},
}


def _is_typeddict(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, dict) and hasattr(tp, "__required_keys__")


def _schema_of(tp: Any, defs: dict[str, Any]) -> dict[str, Any]:
    if tp in _SCALARS:
        return dict(_SCALARS[tp])
    if _is_typeddict(tp):
        name = tp.__name__
        if name not in defs:
            defs[name] = {}  # reserve the name (recursion)
            # ``NotRequired`` read from the hints: with postponed annotations, Python 3.11's
            # ``__required_keys__`` counts every key as required.
            hints = typing.get_type_hints(tp, include_extras=True)
            doc = (tp.__doc__ or "").strip()
            body: dict[str, Any] = {"type": "object"}
            if doc and not doc.startswith(f"{name}("):
                body["description"] = doc.splitlines()[0]
            body["properties"] = {key: _schema_of(t, defs) for key, t in hints.items()}
            body["required"] = sorted(
                key for key, t in hints.items() if typing.get_origin(t) is not NotRequired
            )
            body["additionalProperties"] = False
            defs[name] = body
        return {"$ref": f"#/$defs/{name}"}
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is Literal:
        return {"enum": list(args)} if len(args) > 1 else {"const": args[0]}
    if origin in (Union, types.UnionType):
        return {"anyOf": [_schema_of(a, defs) for a in args]}
    if origin in (NotRequired, typing.Required):
        return _schema_of(args[0], defs)
    if origin is list:
        return {"type": "array", "items": _schema_of(args[0], defs)}
    if origin is dict:
        return {"type": "object", "additionalProperties": _schema_of(args[1], defs)}
    raise TypeError(f"no JSON Schema for {tp!r}")


def json_schema(variants: dict[str, type], title: str = "sabacc observation") -> dict[str, Any]:
    """A JSON Schema (2020-12) of the observations of ``variants`` (variant name -> its
    observation TypedDict): one of them, told apart by ``variant`` (a constant in each)."""
    defs: dict[str, Any] = {}
    choices = []
    for name, tp in variants.items():
        ref = _schema_of(tp, defs)
        body = defs[tp.__name__]
        body["properties"]["variant"] = {"const": name}
        body["properties"]["schema_version"] = {"const": SCHEMA_VERSION}
        choices.append(ref)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{title}, schema version {SCHEMA_VERSION}",
        "description": (
            "What one seat (or a spectator) may know of a sabacc game: "
            "Game.observation(seat). Generated by scripts/gen_schema.py from "
            "sabacc.engine.observation and the variant modules; do not edit."
        ),
        "oneOf": choices,
        "$defs": dict(sorted(defs.items())),
    }
