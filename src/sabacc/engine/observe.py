"""The one observation builder: every engine's observation is made here, from a plain snapshot.

Both engines (the reference :class:`~sabacc.engine.game.Game` and each variant's compiled core)
export the same :class:`ObservationSnapshot` for the same state (``observation_snapshot()``):
an immutable record of plain values (ints, strings, tuples, the deck's frozen
:class:`~sabacc.core.cards.Card` objects and the typed immutable results), holding everything any
viewer's observation shows, hidden cards included (the builder shows each viewer only its own).
:func:`observe` and :func:`observe_many` turn it into :meth:`Game.observation`'s dict; nothing
else in the package assembles one (``tests/meta/test_observation_builder.py`` checks it).

What differs between variants is declared once per variant, in its package, as an
:class:`ObservationPart`: ``you`` (the viewer's own hand, :class:`OwnHandObservation`) and
``extra`` (the variant's own keys), both functions of the snapshot and the viewer, reading the
variant's :attr:`ObservationSnapshot.part` (a plain tuple each engine fills in the same layout).
The game class names it in ``observation_part``; the compiled core reads its reference class's.

``setup.py`` compiles this module unchanged with Cython (the extension, where built, is imported
before this file: rebuild after editing it; ``tests/meta/test_observation_builder.py`` fails
while the build is older than the source).
"""

from __future__ import annotations

import operator
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from sabacc.core.cards import Card
from sabacc.core.hands import HandValue
from sabacc.engine.betting import Legal, Pot
from sabacc.engine.observation import (
    SCHEMA_VERSION,
    Observation,
    OwnHandObservation,
)

if typing.TYPE_CHECKING:
    from sabacc.engine.game import GameOutcome, HandResult


class ObservationSnapshot(NamedTuple):
    """Everything the observations of one state are made of (plain, immutable; both engines
    give equal ones for equal states). Per-seat tuples are indexed by seat."""

    variant: str
    options: Any  # the game's frozen options
    names: tuple[str, ...]
    hand_no: int
    phase: str
    dealer: int
    current_player: int | None
    over: bool
    stacks: tuple[int, ...]
    committed: tuple[int, ...]
    round_bet: tuple[int, ...]
    status: tuple[str, ...]  # each seat's SeatStatus
    last_action: tuple[str | None, ...]
    hands: tuple[tuple[Card, ...], ...]  # every hand (hidden ones too), in hand order
    public: tuple[tuple[Card, ...], ...]  # the cards of each hand everybody saw go in
    seen: tuple[frozenset[int], ...]  # per viewer: card ids it alone saw go into other hands; ()
    pot: int  # the main pot(s), side pots included
    sabacc_pot: int
    side_pots: tuple[Pot, ...]
    cur_bet: int
    structure: str
    unit: int
    legal: Legal  # the current decision's (NO_ACTIONS when nobody is to act)
    last_hand: HandResult | None
    outcome: GameOutcome | None  # set once the game is over
    part: tuple[Any, ...]  # the variant's own values, in its ObservationPart's layout
    # per seat: nobody sits there (its player left a custom table); () when no seat is empty
    vacant: tuple[bool, ...] = ()


#: A variant's own keys of one viewer's observation (None: a spectator).
ExtraBuilder = Callable[[ObservationSnapshot, "int | None"], Mapping[str, object]]
#: A viewer's own hand (``observation["you"]``).
YouBuilder = Callable[[ObservationSnapshot, int], OwnHandObservation]


@dataclass(frozen=True, slots=True)
class ObservationPart:
    """What one variant adds to the observation (its package declares it once; both engines'
    observations use it): ``you`` describes the viewer's own hand, ``extra`` gives the variant's
    own keys (in the order they appear, after ``you`` and before ``outcome``)."""

    you: YouBuilder
    extra: ExtraBuilder


def own_hand(cards: Sequence[Card], value: HandValue | None) -> OwnHandObservation:
    """The usual ``you``: the cards, their values and sum, and ``value`` (None: no hand)."""
    values = [c.value for c in cards]
    return {
        "cards": [c.code for c in cards],
        "values": values,
        "total": sum(values),
        "hand": typing.cast(Any, value.to_dict()) if value is not None else None,
    }


def no_extra(snap: ObservationSnapshot, seat: int | None) -> Mapping[str, object]:
    """A variant without keys of its own."""
    return {}


class ValueMemo:
    """Hand values already worked out for observations' ``you``, by the game's options and a
    key of the cards (their ids, and whatever else the value depends on): a value is a pure
    function of those, and every viewer's observation of every state asks one. The options are
    told apart by identity, each kept beside its values so that the identity stays theirs."""

    __slots__ = ("_known",)

    def __init__(self) -> None:
        self._known: dict[tuple[int, object], tuple[object, HandValue]] = {}

    def get(self, options: object, key: object) -> HandValue | None:
        """The value remembered for ``options`` and ``key`` (None: none yet)."""
        hit = self._known.get((id(options), key))
        return hit[1] if hit is not None and hit[0] is options else None

    def put(self, options: object, key: object, value: HandValue) -> HandValue:
        """Remember ``value`` (a few thousand at most: the oldest forgotten all at once)."""
        known = self._known
        if len(known) >= 4096:
            known.clear()
        known[(id(options), key)] = (options, value)
        return value


def valued_hand(evaluator: Callable[[Any, list[Card]], HandValue]) -> YouBuilder:
    """The usual ``you`` builder: the viewer's cards valued by the variant's ``evaluator``
    (``evaluator(options, cards)``; no value for an empty hand)."""

    known = ValueMemo()

    def you(snap: ObservationSnapshot, seat: int) -> OwnHandObservation:
        cards = snap.hands[seat]
        if not cards:
            return own_hand(cards, None)
        options = snap.options
        key = tuple([c.id for c in cards])
        value = known.get(options, key)
        if value is None:
            value = known.put(options, key, evaluator(options, list(cards)))
        return own_hand(cards, value)

    return you


def check_viewer(seat: object, n: int) -> int | None:
    """``seat`` as an int seat of an ``n``-seat table (None: a spectator). Raises IndexError for
    anything else (a NumPy integer is taken; a bool is not)."""
    if type(seat) is int and 0 <= seat < n:  # the usual case, first
        return seat
    if seat is None:
        return None
    if isinstance(seat, bool) or not hasattr(seat, "__index__"):
        raise IndexError(f"no seat {seat!r} at this {n}-seat table")
    index = operator.index(typing.cast(Any, seat))
    if not 0 <= index < n:
        raise IndexError(f"no seat {index!r} at this {n}-seat table")
    return index


def public_rows(snap: ObservationSnapshot) -> list[dict[str, Any]]:
    """Each seat's row as a spectator sees it (new dicts). An engine that keeps its snapshot
    until the state changes may keep these too and pass them to :func:`observe` (a hot path of
    both engines: no per-row calls beyond the cards' codes)."""
    dealer = snap.dealer
    rows = [
        {
            "seat": s,
            "name": name,
            "stack": stack,
            "committed": put,
            "round_bet": bet,
            "cards": len(hand),
            "known_cards": [c.code for c in shown] if shown else [],
            "status": status,
            "dealer": s == dealer,
            "last_action": last,
        }
        for s, (name, stack, put, bet, hand, shown, status, last) in enumerate(
            zip(
                snap.names,
                snap.stacks,
                snap.committed,
                snap.round_bet,
                snap.hands,
                snap.public,
                snap.status,
                snap.last_action,
                strict=True,
            )
        )
    ]
    for s, empty in enumerate(snap.vacant):
        if empty:
            rows[s]["vacant"] = True
    return rows


def _copied(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """New copies of kept :func:`public_rows` (their ``known_cards`` lists too), so that no
    two observations share a mutable part."""
    out = []
    for row in rows:
        new = row.copy()
        new["known_cards"] = row["known_cards"].copy()
        out.append(new)
    return out


def no_legal() -> dict[str, object]:
    """``NO_ACTIONS.to_dict()`` (the legal part of a viewer not to act), without the call."""
    return {"actions": [], "bet": None, "raise": None}


Common = tuple[list[dict[str, Any]], dict[str, Any], Any, Any]


def _common(snap: ObservationSnapshot, rows: list[dict[str, Any]]) -> Common:
    """The parts every viewer sees alike: each seat's row as a spectator sees it, the pots, the
    last hand and the outcome."""
    result, outcome, side = snap.last_hand, snap.outcome, snap.side_pots
    return (
        rows,
        {
            "main": snap.pot,
            "sabacc": snap.sabacc_pot,
            "side": [{"amount": p.amount, "eligible": list(p.eligible)} for p in side]
            if side
            else [],
        },
        result.to_dict() if result is not None else None,
        outcome.to_dict() if outcome is not None else None,
    )


def _of(
    snap: ObservationSnapshot, part: ObservationPart, seat: int | None, common: Common
) -> Observation:
    """One viewer's observation from :func:`_common`'s parts (shared objects: a viewer's row is
    a new one only where its ``known_cards`` differ)."""
    rows, pots, last_hand, outcome = common
    (variant, _, _, hand_no, phase, dealer, current, over, _, _, round_bet, _, _, hands, public,
     seen, _, _, _, cur_bet, structure, unit, legal, _, _, _, _) = snap  # fmt: skip
    seats = list(rows)
    to_call = 0
    if seat is not None:
        if seen and seen[seat]:
            mine = seen[seat]
            for s, hand in enumerate(hands):
                if s == seat:
                    continue
                shown = public[s]
                if shown:  # by id: a Card compares by value, field by field, in Python
                    ids = {c.id for c in shown}
                    known = [c.code for c in hand if c.id in mine or c.id in ids]
                else:
                    known = [c.code for c in hand if c.id in mine]
                if known != rows[s]["known_cards"]:
                    seats[s] = {**rows[s], "known_cards": known}
        if phase == "betting":
            to_call = max(0, cur_bet - round_bet[seat])
        legal_dict = legal.to_dict() if seat == current else no_legal()
    else:
        legal_dict = no_legal()
    obs: Any = {
        "schema_version": SCHEMA_VERSION,
        "variant": variant,
        "seat": seat,
        "hand": hand_no,
        "phase": phase,
        "dealer": dealer,
        "current_player": current,
        "is_over": over,
        "seats": seats,
        "pots": pots,
        "betting": {
            "current_bet": cur_bet,
            "to_call": to_call,
            "structure": structure,
            "unit": unit,
        },
        "legal": legal_dict,
        "last_hand": last_hand,
    }
    if seat is not None:
        obs["you"] = part.you(snap, seat)
    obs.update(part.extra(snap, seat))  # the variant's keys, before the outcome
    if over:
        obs["outcome"] = outcome
    return obs  # type: ignore[no-any-return]


def observe(
    snap: ObservationSnapshot,
    part: ObservationPart,
    seat: int | None,
    rows: Sequence[dict[str, Any]] | None = None,
) -> Observation:
    """What ``seat`` may know (None: a spectator), as :meth:`Game.observation` returns it.

    Another seat's hidden cards never appear: only their count, and the cards everybody (or this
    viewer alone) saw go into that hand. ``seat`` must already be checked (:func:`check_viewer`).
    ``rows``: :func:`public_rows` of this snapshot, kept by an engine that asks for several
    observations of one state (copied here, never handed out, so they stay as made).
    """
    return _of(
        snap, part, seat, _common(snap, public_rows(snap) if rows is None else _copied(rows))
    )


def observe_many(
    snap: ObservationSnapshot, part: ObservationPart, viewers: Iterable[int | None]
) -> dict[int | None, Observation]:
    """``{viewer: observe(snap, part, viewer)}`` for several (checked) viewers, the parts every
    viewer sees alike made once and shared (read them, do not change them)."""
    common = _common(snap, public_rows(snap))
    out: dict[int | None, Observation] = {}
    for viewer in viewers:
        if viewer not in out:
            out[viewer] = _of(snap, part, viewer, common)
    return out
