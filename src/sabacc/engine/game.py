"""The game protocol and the table machinery every variant shares.

A :class:`Game` is a table session: a sequence of hands between 2-8 seats, from buy-in to the
end of the game. Its public protocol is small and the same for every variant:

* ``current_player`` (a seat, or ``None`` once the game is over), ``legal_actions()``,
  ``is_legal(action)``, ``apply(action)`` (returns the events it caused), ``is_over``,
  ``payoffs``, ``outcome``, ``observation(seat)``, ``events``, ``history()``, ``clone()``.

(typed as :class:`~sabacc.engine.protocol.GameProtocol`, which the compiled Spike core implements
too).

Variants subclass it and implement the hand: dealing, phases, showdown. The base class owns
stacks, antes, pots and side pots, the betting round, the dealer button, eliminations, game end,
logging and the seeded RNG (the only source of randomness: ``(variant, options, seed, actions)``
replays a game exactly), the seats that change between hands (``join``, ``leave``, ``rebuy``,
given ``stacks``: :mod:`sabacc.engine.seating`, recorded in the history too) and the saved game
(``save`` / ``restore``: :mod:`sabacc.engine.saved`).

``apply`` validates first and mutates after: an illegal action raises
:class:`~sabacc.core.errors.IllegalActionError` and leaves the state exactly as it was.
"""

from __future__ import annotations

import operator
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from sabacc.core.actions import (
    CALL,
    CHECK,
    JUNK,
    Action,
    Bet,
    Call,
    Check,
    Junk,
    Raise,
)
from sabacc.core.cards import Card, Deck
from sabacc.core.errors import IllegalActionError, OptionError
from sabacc.core.events import (
    Acted,
    Anted,
    BetReturned,
    BlindDraw,
    Dealt,
    Eliminated,
    Event,
    GameEnded,
    HandEnded,
    HandStarted,
    Paid,
    PotAwarded,
    PotCarried,
    Revealed,
)
from sabacc.core.hands import HandValue
from sabacc.core.options import Options
from sabacc.engine import saved
from sabacc.engine import seating as _seats
from sabacc.engine.betting import NO_ACTIONS, Legal, Pot, build_pots, size_range, split_amount
from sabacc.engine.features import SeatRow, SeatView
from sabacc.engine.observation import (
    Observation,
    SeatStatus,
)
from sabacc.engine.observe import (
    ExtraBuilder,
    ObservationPart,
    ObservationSnapshot,
    YouBuilder,
    check_viewer,
    no_extra,
    observe,
    observe_many,
    valued_hand,
)
from sabacc.engine.seating import (
    BETWEEN_HANDS,
    Seating,
    check_stacks,
    seat_number,
)

if TYPE_CHECKING:
    from sabacc.engine.variant import TrueTie, VariantInfo

HISTORY_FORMAT = "sabacc-history"
HISTORY_VERSION = 1


@dataclass(frozen=True, slots=True)
class PotResult:
    """Who won one pot, how much each, and why."""

    pot: str
    amount: int
    winners: tuple[int, ...]
    shares: tuple[int, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class HandResult:
    """The typed outcome of one hand."""

    hand: int
    dealer: int
    reason: str  # "showdown", "all_junked", "called", "forced_call", ...
    pots: tuple[PotResult, ...]
    hands: dict[int, tuple[tuple[str, ...], HandValue | None]]
    carried: dict[str, int]
    net: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "dealer": self.dealer,
            "reason": self.reason,
            "pots": [
                {
                    "pot": p.pot,
                    "amount": p.amount,
                    "winners": list(p.winners),
                    "shares": list(p.shares),
                    "reason": p.reason,
                }
                for p in self.pots
            ],
            "hands": {
                str(s): {"cards": list(cards), **(v.to_dict() if v is not None else {})}
                for s, (cards, v) in self.hands.items()
            },
            "carried": dict(self.carried),
            "net": list(self.net),
        }


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """The typed outcome of a finished game: final stacks, payoffs and standings."""

    stacks: tuple[int, ...]
    payoffs: tuple[int, ...]
    standings: tuple[int, ...]  # seats, best first
    hands_played: int

    @property
    def winners(self) -> tuple[int, ...]:
        best = max(self.stacks)
        return tuple(s for s in self.standings if self.stacks[s] == best)

    def to_dict(self) -> dict[str, Any]:
        return {
            "stacks": list(self.stacks),
            "payoffs": list(self.payoffs),
            "standings": list(self.standings),
            "winners": list(self.winners),
            "hands_played": self.hands_played,
        }


class Game(ABC):
    """Base class of every variant's game. See the module docstring for the protocol."""

    info: ClassVar[VariantInfo]
    #: The betting structure option value, read by :meth:`_bet_structure` (variants override).
    max_seats: ClassVar[int] = 8
    #: The variant's card piles besides the hands (attribute names), and those of them nobody
    #: sees (face down): what :meth:`card_locations` and :meth:`_hidden_slots` go through.
    piles: ClassVar[tuple[str, ...]] = ()
    face_down_piles: ClassVar[tuple[str, ...]] = ()
    #: The TypedDict of this variant's :meth:`observation` (the engine's part joined with the
    #: variant's own), from which ``docs/observation.schema.json`` is generated.
    observation_type: ClassVar[type] = Observation
    #: The variant's own keys of an observation (:mod:`sabacc.engine.observe`), from the
    #: snapshot's ``part`` (:meth:`_observation_values`); the compiled core uses the same.
    observation_extra: ClassVar[ExtraBuilder] = staticmethod(no_extra)
    #: The viewer's own hand (``observation["you"]``); None: its cards valued by the variant's
    #: evaluator (:func:`~sabacc.engine.observe.valued_hand`).
    observation_you: ClassVar[YouBuilder | None] = None
    _observation_part_made: ClassVar[ObservationPart]
    #: The part of the deck this game plays with (``cards=``), or None: the whole deck (a class
    #: default too, for games rebuilt without ``__init__``, as from a snapshot).
    _subdeck: Deck | None = None
    #: The seat bookkeeping of a game with a setup or table changes (None: a plain game, whose
    #: every seat bought in with ``starting_stack``; :mod:`sabacc.engine.seating`).
    _seating: Seating | None = None
    #: The dataclasses this game's state may hold, which :meth:`save` writes and
    #: :meth:`restore` reads back (variants holding others of their own add them).
    saved_types: ClassVar[tuple[type, ...]] = ()

    # ------------------------------------------------------------------ construction
    def __init__(
        self,
        options: Options,
        *,
        seed: int | None = None,
        players: int | Sequence[str] = 4,
        log: bool = True,
        rng: random.Random | None = None,
        cards: Sequence[Card] | None = None,
        stacks: Sequence[int] | None = None,
        pause_between_hands: bool = False,
    ) -> None:
        """``stacks``: each seat's starting credits (default: ``options.starting_stack`` each);
        ``pause_between_hands``: stop after each hand until :meth:`deal` (table changes then
        apply before the next deal; :mod:`sabacc.engine.seating`)."""
        if isinstance(players, int):
            names = [f"Player {i + 1}" for i in range(players)]
        else:
            names = [str(p) for p in players]
        info = type(self).info
        if not info.min_players <= len(names) <= info.max_players:
            raise OptionError(
                f"{info.title} is played by {info.min_players}-{info.max_players} players, "
                f"not {len(names)}"
            )
        start = check_stacks(stacks, len(names)) if stacks is not None else None
        if type(pause_between_hands) is not bool:
            raise OptionError(f"pause_between_hands={pause_between_hands!r}: must be True or False")
        seed = resolve_seed(seed)
        self.options = options
        self.seed = seed
        # ``rng``: another source of the same draws (chance mode, recording: engine/chance.py).
        self.rng = rng if rng is not None else random.Random(seed)
        if cards is not None:  # else the class default (None): the whole deck
            self._subdeck = self._deck_subset(cards)
        self.names = names
        self.n = len(names)
        self.stacks = list(start) if start is not None else [options.starting_stack] * self.n
        if start is not None or pause_between_hands:
            self._seating = Seating(
                tuple(names),
                self.stacks[:],
                [0] * self.n,
                [False] * self.n,
                sum(self.stacks),
                stacks=start,
                pause=pause_between_hands,
            )
        self.out = [False] * self.n
        self.hand_no = 0
        self.dealer = 0
        self.orbit_steps = 0
        self.sabacc_pot = 0
        self.carry = 0  # main pot carried into the next hand
        self.house = 0  # credits the house kept (final_pot=house)
        self.log = log
        self.events: list[Event] = []
        self.actions: list[tuple[int, str]] = []
        self.hand_results: list[HandResult] = []
        self.to_act: int | None = None
        self.phase = "setup"
        self.over = False
        self._legal: Legal | None = None
        self._reset_hand_state()
        self._pending: list[Event] = []
        if not any(self._can_ante(s) for s in range(self.n)):
            main, sab = self._ante_due(0)
            given = f"stacks={list(start)}" if start else f"buy_in={options.starting_stack}"
            raise OptionError(f"{given} cannot cover the antes ({main} + {sab})")
        self._start_hand()
        self._flush()

    # ------------------------------------------------------------------ public protocol
    @property
    def variant(self) -> str:
        return type(self).info.name

    @property
    def num_players(self) -> int:
        return self.n

    @property
    def current_player(self) -> int | None:
        """The seat that must act now, or ``None`` when the game is over."""
        return None if self.over else self.to_act

    @property
    def is_over(self) -> bool:
        return self.over

    def legal(self) -> Legal:
        """The legal actions in compact form (fixed actions plus bet/raise ranges)."""
        if self.over or self.to_act is None:
            return NO_ACTIONS
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def legal_actions(self) -> list[Action]:
        """Every legal action for ``current_player``, each bet/raise size listed."""
        return self.legal().actions()

    @property
    def deck(self) -> Deck:
        """The cards this game is played with: the variant's deck, or the subset of it given as
        ``cards`` (the research sub-games; a variant whose options change the deck overrides
        this and takes no ``cards``)."""
        if self._subdeck is not None:
            return self._subdeck
        return type(self).info.deck

    def _deck_subset(self, cards: Sequence[Card]) -> Deck:
        if type(self).deck is not Game.deck:
            raise OptionError(f"{self.info.title} builds its deck from its options: no cards=")
        full = type(self).info.deck
        ids = [c.id for c in cards]
        if len(set(ids)) != len(ids) or any(
            not 0 <= i < len(full) or full.cards[i] != c for i, c in zip(ids, cards, strict=True)
        ):
            raise OptionError("cards= must be distinct cards of the variant's deck")
        if len(cards) < 2:
            raise OptionError("cards= needs at least two cards")
        return Deck(
            full.name,
            full.style,
            sorted(cards, key=lambda c: c.id),
            suits=full.suits,
            signed_values=full.signed_values,
            symbols=full.symbols,
        )

    def parse_action(self, action: Action | str) -> Action:
        """An action from its text form, by the variant's parser (built from its declared
        action kinds); an :class:`Action` is checked by its own :meth:`~Action.checked`, as the
        parser would (the common case, without the parser's call: apply's hot path)."""
        if isinstance(action, Action):
            return action.checked()
        return type(self).info.parse_action(action)

    def is_legal(self, action: Action | str) -> bool:
        try:
            parsed = self.parse_action(action)
        except IllegalActionError:
            return False
        return self.legal().contains(parsed)

    def apply(self, action: Action | str, seat: int | None = None) -> list[Event]:
        """Apply the current player's action and run the game on to the next decision.

        ``seat``, when given, must be the current player (servers pass it to refuse out-of-turn
        input). Returns the events caused, also appended to :attr:`events`.
        """
        act = self.parse_action(action)
        if self.over:
            raise IllegalActionError("the game is over: no more actions")
        actor = self.to_act
        if actor is None:
            if self.phase == BETWEEN_HANDS:
                raise IllegalActionError("the hand is over: deal() starts the next one")
            raise IllegalActionError("nobody is to act")  # pragma: no cover - always a decision
        if seat is not None:
            number = seat_number(seat, self.n)
            if number is None:
                raise IllegalActionError(f"no such seat {seat!r}: it is {self.names[actor]}'s turn")
            if number != actor:
                raise IllegalActionError(
                    f"it is not {self.names[number]}'s turn: {self.names[actor]} is to act"
                )
        legal = self.legal()
        if not legal.contains(act):
            raise IllegalActionError(self._illegal_message(act, legal))
        self._legal = None
        self.actions.append((actor, str(act)))
        self._perform(actor, act)
        return self._flush()

    @property
    def payoffs(self) -> list[int]:
        """Each seat's net credits (final stack minus buy-in). Meaningful once over.

        At a table with seat changes: the stack, plus what a player who left took away, minus
        every credit the seat's player brought (first stack and rebuys)."""
        seating = self._seating
        if seating is None:
            start = self.options.starting_stack
            return [s - start for s in self.stacks]
        return _seats.payoffs(seating, self.stacks)

    @property
    def outcome(self) -> GameOutcome | None:
        if not self.over:
            return None
        standings = tuple(sorted(range(self.n), key=lambda s: (-self.stacks[s], s)))
        return GameOutcome(tuple(self.stacks), tuple(self.payoffs), standings, self.hand_no)

    @property
    def bet_unit(self) -> int:
        """The minimum bet and raise increment (the bet size in fixed and limit betting)."""
        return self._bet_unit()

    @property
    def rounds(self) -> int | None:
        """Rounds per hand, or ``None`` where a hand has no fixed number of rounds (classic:
        play goes on until someone calls the hand)."""
        return self._rounds()

    @property
    def hand_nets(self) -> list[tuple[int, int, str, tuple[int, ...]]]:
        """``(hand, dealer, reason, net per seat)`` of every finished hand: the compact form of
        :attr:`hand_results` (what the compiled core keeps as it plays)."""
        return [(r.hand, r.dealer, r.reason, r.net) for r in self.hand_results]

    @property
    def action_count(self) -> int:
        """How many actions have been applied (the length of :attr:`actions`)."""
        return len(self.actions)

    def events_for(self, viewer: int | None, since: int = 0) -> list[Event]:
        """The event log from index ``since`` as ``viewer`` may see it (None: a spectator)."""
        return [e.visible_to(viewer) for e in self.events[since:]]

    def total_credits(self) -> int:
        """Stacks plus every pot plus the house: constant through a game (conservation)."""
        return sum(self.stacks) + self.pot_total() + self.sabacc_pot + self.carry + self.house

    def pot_total(self) -> int:
        """Credits in the current hand's main pot (antes, bets, fees, carried main pot)."""
        return sum(self.committed) + self.dead

    def pots(self) -> list[Pot]:
        """The main pot and side pots as they stand, eligible seats included.

        Side pots form only at all-in players' levels; a bet nobody has called yet sits in the
        top pot (and is returned to its bettor when the betting round closes).
        """
        live = self._live()
        return build_pots(self.committed, live, self.dead, [s for s in live if self.stacks[s] == 0])

    def history(self) -> dict[str, Any]:
        """The versioned hand-history document (see :func:`sabacc.replay`); a game with given
        stacks, pauses or table changes adds its ``setup`` and ``table`` entries."""
        return {
            "format": HISTORY_FORMAT,
            "version": HISTORY_VERSION,
            "variant": self.variant,
            "options": self.options.changed(),
            "seed": self.seed,
            "players": list(self._seating.players if self._seating else self.names),
            **_seats.history_entries(self._seating),
            "actions": [{"seat": s, "action": a} for s, a in self.actions],
            "result": self._result_dict(),
        }

    # ------------------------------------------------------------------ seats between hands
    def join(self, name: str, stack: int, *, seat: int | None = None) -> int:
        """Seat a new player with ``stack`` credits from the next hand; returns the seat.

        The seat is ``seat`` (an empty seat, or the next new one at the end of the table) or, by
        default, the first empty seat, else a new one. Takes effect between hands (see
        :mod:`sabacc.engine.seating`), with a :class:`~sabacc.core.events.SeatJoined` event.
        Raises :class:`~sabacc.core.errors.IllegalActionError` (nothing changed) when the game
        is over, the table is full or the seat is taken.
        """
        return _seats.join(self, name, stack, seat)

    def leave(self, seat: int) -> None:
        """The player at ``seat`` leaves after the hand in play, taking their stack along (a
        :class:`~sabacc.core.events.SeatLeft` event); the seat is then empty."""
        _seats.leave(self, seat)

    def rebuy(self, seat: int, amount: int, reason: str = "rebuy") -> None:
        """Add ``amount`` credits to ``seat``'s stack before the next hand (a
        :class:`~sabacc.core.events.ChipsAdded` event); ``reason`` is one of ``rebuy``,
        ``add_on``, ``top_up``. An eliminated player who rebuys plays again."""
        _seats.rebuy(self, seat, amount, reason)

    def deal(self) -> list[Event]:
        """Start the next hand of a game paused between hands (``pause_between_hands=True``),
        after the table changes asked for; returns the events caused (the game may end)."""
        _seats.check_deal(self, self.phase == BETWEEN_HANDS)
        _seats.request(self, {"op": "deal"})
        self._apply_seat_changes()
        self._start_hand()
        return self._flush()

    @property
    def pending_changes(self) -> list[dict[str, Any]]:
        """The table changes asked for that take effect before the next hand (copies)."""
        return [dict(e) for e in _seats.pending_ops(self)]

    @property
    def table_log(self) -> list[dict[str, Any]]:
        """Every table operation asked for, with ``at`` (actions played before it): the
        history's ``table`` list."""
        return [dict(e) for e in self._seating.log] if self._seating else []

    @property
    def custom_table(self) -> bool:
        """Whether this game has given stacks, pauses between hands or has had table changes
        asked for (both engines play such a game; the history then has ``setup``/``table``)."""
        return self._seating is not None

    @property
    def vacant(self) -> list[bool]:
        """Per seat: whether it is empty (its player left and nobody took it since)."""
        return self._seating.vacant[:] if self._seating else [False] * self.n

    def credits_at_table(self) -> int:
        """Every credit brought to the table (stacks, joins, rebuys) less what leaving players
        took away: :meth:`total_credits` always equals it (conservation)."""
        seating = self._seating
        if seating is None:
            return self.options.starting_stack * self.n
        return seating.brought - seating.taken

    def apply_table(self, entry: Mapping[str, Any]) -> None:
        """Carry out one entry of a history's ``table`` list (``op`` and its arguments; ``at``
        is the replayer's business): the replay path of :meth:`join`, :meth:`leave`,
        :meth:`rebuy` and :meth:`deal`."""
        _seats.apply_entry(self, entry)

    def _next_hand(self) -> None:
        """After a hand: pause (``pause_between_hands``), or apply the table changes asked for
        and start the next hand."""
        seating = self._seating
        if seating is not None:
            if seating.pause:
                self.phase = BETWEEN_HANDS
                self._legal = None
                return
            if seating.pending:
                self._apply_seat_changes()
        self._start_hand()

    def _apply_seat_changes(self) -> None:
        """Carry out the pending table changes, in the order they were asked for
        (:func:`~sabacc.engine.seating.settle`), and give new seats their hand state."""
        seating = self._seating
        if seating is None or not seating.pending:
            return
        pending, seating.pending = seating.pending, []
        grown = self.n
        for event in _seats.settle(seating, pending, self.names, self.stacks, self.out):
            self._emit(event)
        self.n = len(self.stacks)
        if self.n > grown:
            self._grow_seats(grown)
        for entry in pending:
            if entry["op"] == "join":
                self._seat_joined(entry["seat"])

    def _grow_seats(self, old: int) -> None:
        """Give the hand's per-seat state an entry for each new seat (``old`` seats before):
        every list :meth:`_reset_hand_state` makes one entry per seat is extended with the
        fresh entries it would make, so variants need no code of their own for it."""
        fresh = self.clone(log=False)
        fresh._reset_hand_state()
        mine = self.__dict__
        for key, value in fresh.__dict__.items():
            current = mine.get(key)
            if (
                type(value) is list
                and len(value) == self.n
                and type(current) is list
                and len(current) == old
            ):
                current.extend(value[old:])

    def _seat_joined(self, seat: int) -> None:
        """A player just sat at ``seat``: set up the variant's per-game state for them
        (variants with such state override it, e.g. Kessel's shift tokens)."""
        return None

    def clone(self, *, log: bool | None = None, reseed: int | None = None) -> Game:
        """An independent copy. ``log=False`` drops the logs (faster, for search).

        By default the copy's RNG continues exactly as the original's would, so the same
        actions give the same future. ``reseed`` gives the copy a fresh RNG seeded with it
        instead: cheaper, and what search wants (the RNG state is hidden information).
        """
        new = object.__new__(type(self))
        d = new.__dict__
        for key, value in self.__dict__.items():
            if type(value) is list:  # per-seat lists and sets are copied one level deeper
                d[key] = [
                    v[:] if type(v) is list else set(v) if type(v) is set else v for v in value
                ]
            elif type(value) is dict:
                d[key] = dict(value)
            elif type(value) is set:
                d[key] = set(value)
            else:
                d[key] = value
        if self._seating is not None:
            new._seating = self._seating.copy()
        if reseed is not None:
            new.rng = random.Random(reseed)
        else:
            rng = random.Random.__new__(random.Random)
            rng.setstate(self.rng.getstate())
            new.rng = rng
        if log is not None:
            new.log = log
            if not log:
                new.events = []
                new.actions = []
                new._pending = []
        return new

    def save(self) -> dict[str, Any]:
        """The whole state as a plain JSON-able dict, the RNG state included, which
        :meth:`restore` turns back into a game going on exactly as this one (the event log is
        not kept; :mod:`sabacc.engine.saved`). Raises :class:`~sabacc.core.errors.SaveError`
        for a game drawing from another RNG (chance mode)."""
        return saved.dump(self, (*_SAVED_BASE, *type(self).saved_types))

    @classmethod
    def restore(cls, data: Mapping[str, Any], *, log: bool = True) -> Game:
        """The game a :meth:`save` document describes (of this class's variant); ``log=False``
        keeps no event log from here. Raises :class:`~sabacc.core.errors.SaveError` for a
        malformed document or another variant's."""
        return saved.load(cls, data, (*_SAVED_BASE, *cls.saved_types), log=log)

    def determinize(self, viewer: int, rng: random.Random) -> Game:
        """A copy of this state as ``viewer`` might imagine it (for search bots).

        Everything ``viewer`` cannot see (other hands' hidden cards, the draw pile, face-down
        piles) is shuffled and dealt back into the same places, and the copy gets a fresh RNG;
        what ``viewer`` knows (own hand, face-up cards, cards seen going into a hand) stays.
        The result depends only on ``viewer``'s information and ``rng``.
        """
        new = self.clone(log=False, reseed=rng.getrandbits(64))
        slots = new._hidden_slots(viewer)
        cards = [pile[i] for pile, i in slots]
        cards.sort(key=lambda c: c.id)  # forget where they were
        rng.shuffle(cards)
        for (pile, i), card in zip(slots, cards, strict=True):
            pile[i] = card
        new._legal = None
        return new

    def _hidden_slots(self, viewer: int) -> list[tuple[list[Card], int]]:
        """Places holding a card ``viewer`` cannot see: other hands' cards nobody saw go in,
        and every card of the :attr:`face_down_piles` (variants with more secrets extend it)."""
        slots: list[tuple[list[Card], int]] = []
        for s in range(self.n):
            if s == viewer:
                continue
            known = self.public_ids[s]
            hand = self.hands[s]
            slots.extend((hand, i) for i, c in enumerate(hand) if c.id not in known)
        for name in self.face_down_piles:
            pile: list[Card] = getattr(self, name)
            slots.extend((pile, i) for i in range(len(pile)))
        return slots

    def card_locations(self) -> list[Card]:
        """Every card of the deck, wherever it is now: the hands, then the :attr:`piles` (for
        conservation checks)."""
        cards = [c for h in self.hands for c in h]
        for name in self.piles:
            cards.extend(getattr(self, name))
        return cards

    # ------------------------------------------------------------------ observation
    def observation(self, seat: int | None) -> Observation:
        """What ``seat`` may know, as a JSON-serialisable dict (None: a spectator's view),
        typed by :attr:`observation_type` (:mod:`sabacc.engine.observation`, schema version
        ``schema_version``), made by the one builder (:func:`sabacc.engine.observe.observe`)
        from :meth:`observation_snapshot`.

        Another seat's hidden cards never appear: only their count, and the cards everybody saw
        go into that hand (taken from a face-up pile). Showdown reveals are in ``last_hand``.
        Raises IndexError for a seat not at this table (a NumPy integer seat is taken too).
        """
        seat = check_viewer(seat, self.n)
        return observe(self.observation_snapshot(), type(self).observation_part(), seat)

    def observations(self, viewers: Iterable[int | None]) -> dict[int | None, Observation]:
        """``{viewer: observation(viewer)}`` for several viewers at once (None: a spectator),
        each equal to :meth:`observation`'s, with the parts every viewer sees alike (pots,
        the last hand, the outcome, the seats' public rows) computed once.

        The observations share those parts (the same objects): read them, encode them, do not
        change them. Raises IndexError as :meth:`observation` does.
        """
        wanted = [check_viewer(v, self.n) for v in viewers]
        return observe_many(self.observation_snapshot(), type(self).observation_part(), wanted)

    @classmethod
    def observation_part(cls) -> ObservationPart:
        """This variant's part of the observation: :attr:`observation_extra`, and
        :attr:`observation_you` (or the own hand valued by the variant's evaluator)."""
        part: ObservationPart | None = cls.__dict__.get("_observation_part_made")
        if part is None:
            you = cls.observation_you
            part = ObservationPart(
                you=you if you is not None else valued_hand(cls.info.evaluator),
                extra=cls.observation_extra,
            )
            cls._observation_part_made = part
        return part

    def observation_snapshot(self) -> ObservationSnapshot:
        """Everything this state's observations are made of, as plain immutable data
        (:class:`~sabacc.engine.observe.ObservationSnapshot`); the compiled core gives an equal
        one in the same state. The variant's values come from :meth:`_observation_values`."""
        n = self.n
        hands = self.hands
        public_ids = self.public_ids
        results = self.hand_results
        snap = ObservationSnapshot(
            self.variant,
            self.options,
            tuple(self.names),
            self.hand_no,
            self.phase,
            self.dealer,
            self.current_player,
            self.over,
            tuple(self.stacks),
            tuple(self.committed),
            tuple(self.round_bet),
            tuple([self._status(s) for s in range(n)]),
            tuple(self.last_action),
            tuple([tuple(h) for h in hands]),
            tuple(
                [
                    tuple([c for c in h if c.id in pub]) if pub else ()
                    for h, pub in zip(hands, public_ids, strict=True)
                ]
            ),
            self._seen_ids(),
            self.pot_total(),
            self.sabacc_pot,
            tuple(self.pots()),
            self.cur_bet,
            self._bet_structure(),
            self._bet_unit(),
            self.legal(),
            results[-1] if results else None,
            self.outcome if self.over else None,
            self._observation_values(),
        )
        return _seats.mark_vacant(snap, self._seating)

    def seat_view(self, seat: int) -> SeatView:
        """What :meth:`observation` shows ``seat`` that the RL encoder needs, as one flat tuple
        of ints and card-id bytes (:data:`sabacc.engine.features.SeatView`; the variant's own
        part from :meth:`_view_extra`). The compiled Spike core builds the same tuple."""
        n = self.n
        if not 0 <= seat < n:
            raise IndexError(f"no seat {seat} at a {n}-seat table")
        stacks = self.stacks
        committed = self.committed
        round_bet = self.round_bet
        hands = self.hands
        last = self.last_action
        rows: list[SeatRow] = []
        for k in range(n):
            s = seat + k
            if s >= n:
                s -= n
            stack = stacks[s]
            if self.out[s]:
                status = 4
            elif not self.in_hand[s]:
                status = 3
            elif self.folded[s]:
                status = 2
            elif stack == 0:
                status = 1
            else:
                status = 0
            known = self._known_cards(seat, s)
            rows.append(
                (
                    stack,
                    committed[s],
                    round_bet[s],
                    len(hands[s]),
                    status,
                    last[s],
                    bytes([c.id for c in known]) if known else b"",
                )
            )
        own = hands[seat]
        return (
            self.phase,
            self.pot_total(),
            self.sabacc_pot,
            self.cur_bet,
            (self.dealer - seat) % n,
            bytes([c.id for c in own]),
            sum([c.value for c in own]),
            tuple(rows),
            self._view_extra(seat),
        )

    def full_state(self) -> dict[str, Any]:
        """Every hidden card too: for debugging, tests and hand-history viewers only."""
        return {
            "hands": [[c.code for c in h] for h in self.hands],
            **self._hidden_extra(),
            "observation": self.observation(None),
        }

    # ------------------------------------------------------------------ hooks for variants
    def _reset_hand_state(self) -> None:
        """Clear per-hand state. Variants extend it (and call super)."""
        n = self.n
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.public_ids: list[set[int]] = [set() for _ in range(n)]
        self.in_hand = [False] * n  # dealt into this hand
        self.folded = [False] * n
        self.committed = [0] * n
        self.round_bet = [0] * n
        self.acted = [False] * n
        self.last_action: list[str | None] = [None] * n
        self.dead = 0
        self.cur_bet = 0
        self.raises = 0
        self.hand_start_stacks = self.stacks[:]

    @abstractmethod
    def _start_hand_variant(self) -> None:
        """Deal and set the hand up to its first decision (variant)."""

    @abstractmethod
    def _compute_legal(self) -> Legal:
        """The legal actions for ``self.to_act`` in ``self.phase`` (variant)."""

    @abstractmethod
    def _perform(self, seat: int, action: Action) -> None:
        """Carry out a legal action and advance to the next decision (variant)."""

    def _ante_due(self, seat: int) -> tuple[int, int]:
        """(main, sabacc) ante this seat owes to be dealt in."""
        return self.options.ante, self.options.sabacc_ante

    def _known_cards(self, viewer: int | None, seat: int) -> list[Card]:
        """The cards of ``seat``'s hand that ``viewer`` knows: those everybody saw go into it
        (variants where a seat learns more, like Surabat, extend it)."""
        public = self.public_ids[seat]
        return [c for c in self.hands[seat] if c.id in public] if public else []

    def _seen_ids(self) -> tuple[frozenset[int], ...]:
        """Per viewer, the ids of other hands' cards it alone saw go in (the snapshot's
        ``seen``); () where nobody saw any (variants where a seat learns more extend it)."""
        return ()

    def _observation_values(self) -> tuple[Any, ...]:
        """The variant's own values of :meth:`observation_snapshot` (its ``part``), in the
        layout its :attr:`observation_extra` reads (the compiled core fills the same)."""
        return ()

    def _view_extra(self, seat: int) -> tuple[Any, ...]:
        """The variant's own part of :meth:`seat_view` (read by its RL feature spec)."""
        return ()

    def _hidden_extra(self) -> dict[str, Any]:
        return {}

    def _bet_structure(self) -> str:
        return str(getattr(self.options, "betting", "no_limit"))

    def _bet_unit(self) -> int:
        return options_bet_unit(self.options)

    def _rounds(self) -> int | None:
        """Rounds per hand, as the variant's record declares them for these options and the
        players dealt in (:attr:`VariantInfo.rounds`): :attr:`rounds`."""
        return type(self).info.rounds(self.options, sum(self.in_hand) or self.n)

    def _max_raises(self) -> int | None:
        value = getattr(self.options, "max_raises", None)
        return int(value) if value is not None else None

    def evaluate(self, cards: Sequence[Card]) -> HandValue:
        """The value of a hand under this game's options."""
        return type(self).info.evaluator(self.options, list(cards))

    # ------------------------------------------------------------------ logging helpers
    def _emit(self, event: Event) -> None:
        if self.log:
            self._pending.append(event)

    def _flush(self) -> list[Event]:
        out = self._pending
        self._pending = []
        self.events.extend(out)
        return out

    def _acted(self, seat: int, action: Action, public: str | None = None) -> None:
        text = str(action)
        self.last_action[seat] = public or text
        if self.log:
            self._pending.append(Acted(seat, public or text, text))

    # ------------------------------------------------------------------ seats
    def _status(self, s: int) -> SeatStatus:
        if self.out[s]:
            return "out"
        if not self.in_hand[s]:
            return "waiting"
        if self.folded[s]:
            return "junked"
        if self.stacks[s] == 0:
            return "all_in"
        return "active"

    def _live(self) -> list[int]:
        """Seats still contending this hand (dealt in, not folded)."""
        return [s for s in range(self.n) if self.in_hand[s] and not self.folded[s]]

    def _order_from(self, start: int) -> list[int]:
        """Live seats clockwise, beginning at ``start`` (inclusive)."""
        n = self.n
        return [
            (start + i) % n
            for i in range(n)
            if self.in_hand[(start + i) % n] and not self.folded[(start + i) % n]
        ]

    def _left_of(self, seat: int) -> int:
        return (seat + 1) % self.n

    def _odd_credit_order(self, seats: Sequence[int]) -> list[int]:
        """Seats sorted from the dealer's left, the order odd credits are given in."""
        n = self.n
        return sorted(seats, key=lambda s: (s - self.dealer - 1) % n)

    # ------------------------------------------------------------------ money
    def _pay(self, seat: int, amount: int, pot: str, reason: str) -> int:
        """Move up to ``amount`` from a stack into a pot; returns what was paid."""
        amount = min(amount, self.stacks[seat])
        if amount <= 0:
            return 0
        self.stacks[seat] -= amount
        if pot == "sabacc":
            self.sabacc_pot += amount
        elif pot == "main":
            self.committed[seat] += amount
        else:  # fees and other dead money in the main pot
            self.dead += amount
        if self.log:
            self._pending.append(Paid(seat, amount, "main" if pot == "dead" else pot, reason))
        return amount

    def _award(self, pot: str, amount: int, winners: Sequence[int], reason: str) -> PotResult:
        order = self._odd_credit_order(winners)
        shares = split_amount(amount, order) if order else []
        for s, share in zip(order, shares, strict=True):
            self.stacks[s] += share
        if self.log:
            self._pending.append(PotAwarded(pot, amount, tuple(order), tuple(shares), reason))
        return PotResult(pot, amount, tuple(order), tuple(shares), reason)

    # ------------------------------------------------------------------ hand lifecycle
    def _start_hand(self) -> None:
        """Eliminate who cannot ante, check game end, rotate the button, ante and deal."""
        first = self.hand_no == 0
        for s in range(self.n):
            if not self.out[s] and not self._can_ante(s):
                self.out[s] = True
                self._emit(Eliminated(s, self.stacks[s]))
        alive = [s for s in range(self.n) if not self.out[s]]
        limit = self.options.hand_limit
        if len(alive) < 2 or (limit is not None and self.hand_no >= limit):
            self._end_game()
            return
        if not first:
            step = 1
            while self.out[(self.dealer + step) % self.n]:
                step += 1
            self.orbit_steps += step
            self.dealer = (self.dealer + step) % self.n
            if self.options.game_end == "orbit" and self.orbit_steps >= self.n:
                self._end_game()
                return
        elif self.out[self.dealer]:
            self.dealer = alive[0]
        self.hand_no += 1
        self._reset_hand_state()
        self._emit(HandStarted(self.hand_no, self.dealer, tuple(alive)))
        dead_carry, self.carry = self.carry, 0
        self.dead = dead_carry
        log, self.log = self.log, False  # the Anted event says it all: no Paid events
        anted = []
        for s in self._seats_from_left_of_dealer(alive):
            main, sab = self._ante_due(s)
            self.in_hand[s] = True
            anted.append(
                Anted(s, self._pay(s, main, "main", "ante"), self._pay(s, sab, "sabacc", "ante"))
            )
        self.log = log
        if log:
            self._pending.extend(anted)
        self._start_hand_variant()

    def _can_ante(self, seat: int) -> bool:
        main, sab = self._ante_due(seat)
        return self.stacks[seat] >= main + sab and self.stacks[seat] > 0

    def _shuffled(self, cards: Sequence[Card]) -> list[Card]:
        """A uniformly shuffled copy (sorting by random keys: one fast RNG call per card; an RNG
        with its own ``shuffled``, as in chance mode, shuffles instead)."""
        own = getattr(self.rng, "shuffled", None)
        if own is not None:
            shuffled: list[Card] = own(cards)
            return shuffled
        rand = self.rng.random
        return sorted(cards, key=lambda _: rand())

    def _seats_from_left_of_dealer(self, seats: Sequence[int]) -> list[int]:
        return self._odd_credit_order(seats)

    def _finish_hand(
        self,
        reason: str,
        pot_results: Sequence[PotResult],
        hands: dict[int, tuple[tuple[str, ...], HandValue | None]],
    ) -> None:
        """Record the hand's result, then start the next hand (or end the game)."""
        carried = {}
        if self.carry:
            carried["main"] = self.carry
        if self.sabacc_pot:
            carried["sabacc"] = self.sabacc_pot
        net = tuple(self.stacks[s] - self.hand_start_stacks[s] for s in range(self.n))
        result = HandResult(
            self.hand_no, self.dealer, reason, tuple(pot_results), hands, carried, net
        )
        self.hand_results.append(result)
        self._emit(HandEnded(self.hand_no, reason, net))
        self.committed = [0] * self.n
        self.dead = 0
        self.to_act = None
        self._next_hand()

    def _end_game(self) -> None:
        leftover = self.sabacc_pot + self.carry
        if leftover:
            seated = list(range(self.n))
            if self._seating is not None:  # an empty seat takes no share
                seated = [s for s in seated if not self._seating.vacant[s]]
            alive = [s for s in seated if not self.out[s]] or seated
            if self.options.final_pot == "split" and alive:
                self._award("final", leftover, alive, "pots left at game end are split")
            else:
                self.house += leftover
                self._emit(PotCarried("house", leftover))
            self.sabacc_pot = 0
            self.carry = 0
        self.over = True
        self.to_act = None
        self.phase = "over"
        self._emit(GameEnded(tuple(self.stacks), tuple(self.payoffs)))

    def _result_dict(self) -> dict[str, Any] | None:
        outcome = self.outcome
        return outcome.to_dict() if outcome else None

    def _all_junked_win(self) -> bool:
        """If one seat is left contending, it takes every pot of this hand. True if so."""
        live = self._live()
        if len(live) != 1:
            return False
        winner = live[0]
        amount = self.pot_total()
        result = self._award("main", amount, [winner], "everyone else junked")
        if self.sabacc_pot:
            self._emit(PotCarried("sabacc", self.sabacc_pot))
        self._finish_hand("all_junked", [result], {})
        return True

    # ------------------------------------------------------------------ showdown
    #: Decide every pot before paying any, with :meth:`_showdown_penalties` paid in between
    #: (classic: bomb-outs and a losing caller pay into the sabacc pot the winner then takes);
    #: otherwise each pot is paid as soon as it is decided.
    decide_all_first: ClassVar[bool] = False

    def _showdown(self, reason: str = "showdown") -> None:
        """Reveal the hands and settle every pot of the variant's record (:attr:`VariantInfo.pots`),
        true ties broken by its declared :class:`~sabacc.engine.variant.TrueTie`, then finish the
        hand with ``reason``.

        The first pot rule is the hand pot: the main pot and side pots (each to the best hand
        eligible for it, if that hand ``takes`` it, else carried to the next hand), or one pot
        per seat (each seat holding a best hand takes its own back; the others' are lost:
        :meth:`_lose_own_pot`). Each other rule (the sabacc pot) goes to the hand's overall
        winners if their hand ``takes`` it, else carries over.
        """
        self.phase = "showdown"
        self.to_act = None
        info = type(self).info
        seats = self._showdown_seats()
        values: dict[int, HandValue] = {s: self.evaluate(self.hands[s]) for s in seats}
        shown: dict[int, tuple[tuple[str, ...], HandValue | None]] = {}
        for s in seats:
            v = values[s]
            codes = tuple(c.code for c in self.hands[s])
            shown[s] = (codes, v)
            if self.log:
                self._pending.append(Revealed(s, codes, v.name, v.total, v.rank))
        hand_rule = info.pots[0]
        contends = hand_rule.takes
        decided: dict[frozenset[int], tuple[list[int], str | None]] = {}
        tie_cards: dict[int, Card] = {}

        def winners(among: Sequence[int]) -> tuple[list[int], str]:
            if not among:
                return [], "no valid hand"
            best = max([values[s] for s in among])
            if not contends(best):
                return [], "no valid hand"
            tied = [s for s in among if values[s] == best]
            if len(tied) == 1:
                return tied, f"best hand: {best.name}"
            key = frozenset(tied)
            if key not in decided:
                tie = info.true_tie(self.options)
                decided[key] = self._break_true_tie(tie, tied, values, contends, tie_cards)
            ws, why = decided[key]
            return ws, why or f"best hand: {values[ws[0]].name}"

        results: list[PotResult] = []
        if hand_rule.per_seat:
            overall, why = winners(seats)
            for s in seats:
                name, amount = f"{hand_rule.pot} {s}", self.committed[s]
                if s in overall:
                    results.append(self._award(name, amount, [s], "own pot back"))
                else:
                    results.append(self._lose_own_pot(s, name, amount, values[s]))
        else:
            pending: list[tuple[str, int, list[int], str]] = []
            pot_winners: set[int] = set()
            for i, pot in enumerate(self.pots()):
                ws, why = winners(pot.eligible)
                pot_winners.update(ws)
                item = (hand_rule.pot if i == 0 else f"side {i}", pot.amount, ws, why)
                if self.decide_all_first:
                    pending.append(item)
                else:
                    results.extend(self._settle_pot(*item))
            overall, why = winners(seats)
            self._showdown_penalties(seats, values, pot_winners)
            for item in pending:
                results.extend(self._settle_pot(*item))
        for rule in info.pots[1:]:
            if overall and rule.takes(values[overall[0]]) and self.sabacc_pot:
                amount, self.sabacc_pot = self.sabacc_pot, 0
                reason_ = self._sabacc_pot_reason(values[overall[0]], why)
                results.append(self._award(rule.pot, amount, overall, reason_))
            elif self.sabacc_pot:
                self._emit(PotCarried(rule.pot, self.sabacc_pot))
        self._finish_hand(reason, results, shown)

    def _showdown_seats(self) -> list[int]:
        """The seats showing their hands, in the order they are revealed (from the dealer's
        left)."""
        return self._order_from(self._left_of(self.dealer))

    def _settle_pot(self, pot: str, amount: int, winners: list[int], why: str) -> list[PotResult]:
        """Pay a decided shared pot to its winners, or carry it to the next hand if none."""
        if winners:
            return [self._award(pot, amount, winners, why)]
        if amount:
            self.carry += amount
            self._emit(PotCarried(pot, amount))
        return []

    def _showdown_penalties(
        self, seats: Sequence[int], values: Mapping[int, HandValue], winners: set[int]
    ) -> None:
        """What players pay at the showdown besides their bets, once every pot is decided
        (``winners``: who won one). None by default."""
        return

    def _sabacc_pot_reason(self, best: HandValue, why: str) -> str:
        """The reason given for the sabacc pot's award (``why``: the hand pot's)."""
        return f"won with {best.name}"

    def _lose_own_pot(self, seat: int, pot: str, amount: int, value: HandValue) -> PotResult:
        """A per-seat pot its seat did not win: it leaves the game (to the house)."""
        self.house += amount
        return PotResult(pot, amount, (), (), "lost")

    def _break_true_tie(
        self,
        tie: TrueTie,
        tied: list[int],
        values: Mapping[int, HandValue],
        contends: Callable[[HandValue], bool],
        cards: dict[int, Card],
    ) -> tuple[list[int], str | None]:
        """The winners of a true tie by ``tie``, and the reason when it has its own (``cards``:
        the cards a sudden demise gave this showdown, one per seat at most)."""
        order = self._odd_credit_order(tied)
        if tie.name == "blind_draw":
            return self._blind_draw(order), None
        if tie.name == "sudden_demise":
            return self._sudden_demise(order, values, contends, cards)
        return order, None

    def _blind_draw(self, contenders: list[int]) -> list[int]:
        """Each contender draws a card blind (:meth:`_tie_card`): the card closest to 0 wins,
        positive over negative; again while tied; the rest split when the cards run out."""
        while len(contenders) > 1:
            drawn: dict[int, Card] = {}
            for s in contenders:
                card = self._tie_card()
                if card is None:
                    return contenders
                drawn[s] = card
                self._emit(BlindDraw(s, card.code))
            best = max(_closeness(c) for c in drawn.values())
            contenders = [s for s in contenders if _closeness(drawn[s]) == best]
        return contenders

    def _sudden_demise(
        self,
        order: list[int],
        values: Mapping[int, HandValue],
        contends: Callable[[HandValue], bool],
        cards: dict[int, Card],
    ) -> tuple[list[int], str]:
        """Each tied seat is dealt one more card (at most one per hand, reused for every pot it
        ties for); the best resulting hand that can still win takes it. If the cards cannot
        give every tied seat one, or the tie stands, or no hand can win, the tied seats split."""
        tied_name = values[order[0]].name
        need = [s for s in order if s not in cards]
        if len(need) > self._tie_cards_left():
            return order, f"tie on {tied_name}, split (no cards left for sudden demise)"
        for s in need:
            card = self._tie_card()
            assert card is not None  # counted above
            cards[s] = card
            self.hands[s].append(card)
            if self.log:
                self._emit(Dealt(s, 1, (card.code,), "sudden_demise"))
                v = self.evaluate(self.hands[s])
                codes = tuple(c.code for c in self.hands[s])
                self._emit(Revealed(s, codes, v.name, v.total, v.rank))
        after = {s: self.evaluate(self.hands[s]) for s in order}
        valid = [s for s in order if contends(after[s])]
        if not valid:
            return order, f"tie on {tied_name}, all bombed out in sudden demise: split"
        best = max(after[s] for s in valid)
        ws = [s for s in valid if after[s] == best]
        verdict = "won" if len(ws) == 1 else "still tied: split"
        return ws, f"tie on {tied_name}, sudden demise {verdict} with {best.name}"

    def _tie_card(self) -> Card | None:
        """The next card a true tie-break deals (blind draw, sudden demise), taken from the
        variant's piles, or None when no card is left (variants with such a tie-break give it)."""
        return None

    def _tie_cards_left(self) -> int:
        """How many cards :meth:`_tie_card` can still give."""
        return 0

    # ------------------------------------------------------------------ betting round
    def _open_betting(self, first: int) -> bool:
        """Start a betting round with ``first`` to act. False if nobody can bet."""
        self.phase = "betting"
        self.round_bet = [0] * self.n
        self.acted = [False] * self.n
        self.cur_bet = 0
        self.raises = 0
        nxt = self._next_bettor(first, inclusive=True)
        self.to_act = nxt
        self._legal = None
        return nxt is not None

    def _can_still_bet(self) -> int:
        return sum(1 for s in self._live() if self.stacks[s] > 0)

    def _needs_to_act(self, s: int) -> bool:
        if not self.in_hand[s] or self.folded[s] or self.stacks[s] == 0:
            return False
        if self.round_bet[s] < self.cur_bet:
            return True
        if self.acted[s]:
            return False
        # Nobody left to bet against: no decision to make.
        return self._can_still_bet() > 1

    def _next_bettor(self, start: int, inclusive: bool = False) -> int | None:
        n = self.n
        for i in range(0 if inclusive else 1, n + 1):
            s = (start + i) % n
            if self._needs_to_act(s):
                return s
        return None

    def _betting_legal(self, s: int) -> Legal:
        stack = self.stacks[s]
        to_call = self.cur_bet - self.round_bet[s]
        unit = self._bet_unit()
        structure = self._bet_structure()
        if to_call <= 0:
            bet = size_range(structure, unit, stack, self.pot_total())
            if self.cur_bet > 0:  # matched an all-in short bet: may raise only if reopened
                raise_ = self._raise_range(s, 0, stack, unit, structure)
                return Legal((CHECK, JUNK), None, raise_)
            return Legal((CHECK, JUNK), bet, None)
        raise_ = self._raise_range(s, to_call, stack, unit, structure)
        return Legal((CALL, JUNK), None, raise_)

    def _raise_range(
        self, s: int, to_call: int, stack: int, unit: int, structure: str
    ) -> tuple[int, int] | None:
        if self.acted[s]:
            return None  # action was not reopened by a full raise
        cap = self._max_raises()
        if cap is not None and self.raises >= cap:
            return None
        if sum(1 for o in self._live() if o != s and self.stacks[o] > 0) == 0:
            return None  # everyone else is all-in: raising is pointless
        return size_range(structure, unit, stack - to_call, self.pot_total() + to_call)

    def _betting_act(self, s: int, action: Action) -> bool:
        """Apply a betting action. Returns True when the betting round is over."""
        t = type(action)
        if t is Check:
            self.acted[s] = True
            self._acted(s, action)
        elif t is Call:
            paid = self._pay(s, self.cur_bet - self.round_bet[s], "main", "call")
            self.round_bet[s] += paid
            self.acted[s] = True
            self._acted(s, action, "call (all-in)" if self.stacks[s] == 0 else None)
        elif t is Bet or t is Raise:
            assert isinstance(action, Bet | Raise)
            to_call = self.cur_bet - self.round_bet[s]
            paid = self._pay(s, to_call + action.amount, "main", str(action))
            self.round_bet[s] += paid
            if action.amount >= self._bet_unit():  # a full bet/raise reopens the action
                self.acted = [False] * self.n
            if t is Raise:
                self.raises += 1
            self.cur_bet = self.round_bet[s]
            self.acted[s] = True
            self._acted(s, action, f"{action} (all-in)" if self.stacks[s] == 0 else None)
        elif t is Junk:
            self._acted(s, action)
            self._fold(s)
        if len(self._live()) > 1:
            nxt = self._next_bettor(s)
            self.to_act = nxt
            if nxt is not None:
                return False
        self._return_uncalled()
        return True

    def _return_uncalled(self) -> None:
        """Give back the part of a bet that nobody called (as in poker)."""
        live = self._live()
        if not live or not self.cur_bet:
            return
        top = max(live, key=lambda s: self.committed[s])
        others = max((c for s, c in enumerate(self.committed) if s != top), default=0)
        excess = min(self.committed[top] - others, self.round_bet[top])
        if excess > 0:
            self.committed[top] -= excess
            self.round_bet[top] -= excess
            self.stacks[top] += excess
            self._emit(BetReturned(top, excess))

    def _fold(self, s: int) -> None:
        """Give up the hand (variants decide where the cards go)."""
        self.folded[s] = True

    # ------------------------------------------------------------------ messages
    def _illegal_message(self, action: Action, legal: Legal) -> str:
        name = self.names[self.to_act] if self.to_act is not None else "nobody"
        return illegal_message(action, legal, self.phase, name)


def _closeness(card: Card) -> tuple[int, int]:
    """Blind-draw order: closest to 0 wins, positive beats negative."""
    return (-abs(card.value), 1 if card.value > 0 else 0)


#: The dataclasses any game's state may hold (:meth:`Game.save`).
_SAVED_BASE: tuple[type, ...] = (HandResult, PotResult, HandValue, Seating)


def options_bet_unit(options: Options) -> int:
    """The betting unit options give (their ``min_bet``, else the ante, at least 1): the
    reference engine's rule, which the compiled core reads too (variants with another rule
    override :meth:`Game._bet_unit`)."""
    unit = getattr(options, "min_bet", None)
    return int(unit) if unit else max(1, options.ante)


def resolve_seed(seed: object) -> int:
    """The game seed ``seed`` stands for, shared by every engine: a whole number (an ``int`` or a
    NumPy integer), or ``None`` for a fresh one drawn from the OS (then recorded in the game's
    history, so that it replays). Anything else (a float, a bool, text) is an
    :class:`~sabacc.core.errors.OptionError`: a seed that is not kept exactly would not replay.
    """
    if type(seed) is int:
        return seed
    if seed is None:
        return random.SystemRandom().randrange(2**63)
    if not isinstance(seed, bool | float | str) and hasattr(seed, "__index__"):
        try:
            return operator.index(seed)
        except TypeError:
            pass
    raise OptionError(f"seed={seed!r}: must be a whole number (or None for a random seed)")


def illegal_message(action: Action, legal: Legal, phase: str, name: str) -> str:
    """Why ``action`` is refused, and what ``name`` can do instead (shared by every engine)."""
    options = [str(a) for a in legal.fixed]
    if legal.bet:
        lo, hi = legal.bet
        options.append(f"bet {lo}" if lo == hi else f"bet {lo}-{hi}")
    if legal.raise_:
        lo, hi = legal.raise_
        options.append(f"raise {lo}" if lo == hi else f"raise {lo}-{hi}")
    if type(action) in (Bet, Raise) and (
        (type(action) is Bet and legal.bet) or (type(action) is Raise and legal.raise_)
    ):
        reason = f"{action} is out of range"
    else:
        reason = f"{action!s} is not allowed now ({phase} phase)"
    return f"{reason}; {name} can: " + ", ".join(options)
