"""Classic 76-card sabacc (docs/rules.md §1; M. Brent Sleeper's rules, seed 000).

A hand: antes (hand pot, and the sabacc pot when it is empty), two cards each, then turns from
the dealer's left. Each turn has four phases:

1. *Betting*: the turn player bets 1..``bet_limit`` or checks; every other active player then
   calls / raises / folds (facing a bet) or checks / folds (after a check): each is asked at most
   once, again only when facing a new raise. Folding costs ``fold_fee`` to the sabacc pot.
2. *Shifting*: a d6 from the game RNG; on a shift every active player loses a random card, the
   lost cards are shuffled and dealt back one each from the dealer's left.
3. *Calling*: from the turn player's left, each other active player may ``call hand`` (showdown
   at once) or ``stand``. Closed until ``min_turns_before_call`` orbits of turns are complete.
4. *Drawing*: the turn player may ``gain`` (draw), ``swap draw <value>`` (exchange, 3+ cards) or
   ``stand``. Discards leave play face down (the ``out`` pile).

The hand is force-called after ``max_orbits`` orbits. Showdown: the best valid hand takes the
hand pot (side pots as in poker); Idiot's Array or Pure Sabacc also takes the sabacc pot; every
bomb out, and a losing caller, pays the hand pot to the sabacc pot. Ties play sudden demise.

Project decisions where docs/rules.md is silent are listed in docs/variants/classic.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, MutableSequence, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, Literal, TypedDict

from sabacc.core.actions import CALL, CHECK, JUNK, STAND, Action, Stand
from sabacc.core.cards import Card, Deck
from sabacc.core.errors import OptionError
from sabacc.core.events import CardTaken, Dealt, DiceRolled, Event
from sabacc.core.hands import HandValue
from sabacc.core.options import Options
from sabacc.engine.actions import Field, betting_kinds
from sabacc.engine.betting import Legal
from sabacc.engine.chance import ChanceEvent
from sabacc.engine.features import Block, ExtraWriter, FeatureSpec, Layout
from sabacc.engine.game import Game
from sabacc.engine.observation import Observation
from sabacc.engine.observe import ObservationSnapshot
from sabacc.engine.variant import SUDDEN_DEMISE, LevelPlan, Pile, PotRule, VariantInfo
from sabacc.variants.classic.actions import CALL_HAND, CALL_HAND_KIND, EXCHANGE_KIND, CallHand
from sabacc.variants.classic.bot import ClassicBot
from sabacc.variants.classic.odds import ClassicOdds
from sabacc.variants.classic.text import CLASSIC_TEXT
from sabacc.variants.registry import register
from sabacc.variants.spike_family.actions import GAIN, GAIN_KIND, Gain, Swap

# --------------------------------------------------------------------------------------------
# Hand evaluation
# --------------------------------------------------------------------------------------------

#: ``HandValue.rank`` of each kind of classic hand (1 = best).
CLASSIC_SUITS: dict[str, str] = {"s": "Sabres", "t": "Staves", "f": "Flasks", "c": "Coins"}
CLASSIC_RANKED: dict[int, str] = {12: "Commander", 13: "Mistress", 14: "Master", 15: "Ace"}
CLASSIC_FACES: dict[int, str] = {
    0: "The Idiot",
    -2: "Queen of Air and Darkness",
    -8: "Endurance",
    -11: "Balance",
    -13: "Demise",
    -14: "Moderation",
    -15: "The Evil One",
    -17: "The Star",
}


def build_classic_deck() -> Deck:
    """The 76-card classic deck: four suits of 1..15 and two of each of eight face cards."""
    cards: list[Card] = []
    for suit, suit_name in CLASSIC_SUITS.items():
        for value in range(1, 16):
            rank = CLASSIC_RANKED.get(value)
            name = f"{rank} of {suit_name}" if rank else ""
            cards.append(Card(len(cards), value, suit, f"{value}{suit}", name))
    for value, name in CLASSIC_FACES.items():
        for _ in range(2):
            cards.append(Card(len(cards), value, None, str(value), name))
    return Deck(
        "classic",
        "classic",
        cards,
        suits=CLASSIC_SUITS,
        signed_values=False,
        symbols={"s": "♠", "t": "♣", "f": "♥", "c": "♦"},  # Sabres, Staves, Flasks, Coins
    )


CLASSIC_DECK = build_classic_deck()

IDIOTS_ARRAY = 1
PURE_SABACC = 2
ORDINARY = 3
BOMB_OUT = 4

SCORINGS = ("signed", "absolute")
_CLASSIC_VALUES = frozenset(CLASSIC_DECK.values)
_IDIOTS_ARRAY_VALUES = [0, 2, 3]


def evaluate_classic(values: Iterable[int], scoring: str = "signed") -> HandValue:
    """The value of a classic hand (docs/rules.md §1, "Scoring"), cards in any order.

    ``values`` are card values of the 76-card deck (1..15, and the faces 0, -2, -8, -11, -13,
    -14, -15, -17); at least one card. ``scoring`` is ``"signed"`` (highest total <= 23 wins,
    negative totals down to -23 are valid) or ``"absolute"`` (closest to ±23 wins, +x beats -x).

    ``rank``: 1 Idiot's Array (exactly The Idiot, a 2 and a 3: beats everything), 2 Pure Sabacc
    (+23; with absolute scoring also -23, ranked below +23), 3 an ordinary valid hand, 4 a bomb
    out (total > 23, < -23 or exactly 0; bomb outs never win and all compare equal).

    ``key`` is ``(tier, a, b)``, greater is better: ``(3, 0, 0)`` Idiot's Array; ``(2, 1, 0)``
    Pure Sabacc +23, ``(2, 0, 0)`` Pure Sabacc -23; ordinary hands ``(1, total, 0)`` (signed) or
    ``(1, |total|, total > 0)`` (absolute); ``(0, 0, 0)`` a bomb out.
    """
    if scoring not in SCORINGS:
        raise ValueError(f"scoring must be one of {', '.join(SCORINGS)}, not {scoring!r}")
    vals = list(values)
    if not vals:
        raise ValueError("a classic hand needs at least one card")
    for v in vals:
        if v not in _CLASSIC_VALUES:
            raise ValueError(f"not a classic sabacc card value: {v!r}")
    size = len(vals)
    total = sum(vals)
    if size == 3 and sorted(vals) == _IDIOTS_ARRAY_VALUES:
        return HandValue((3, 0, 0), "Idiot's Array", total, IDIOTS_ARRAY, size)
    if total > 23:
        return HandValue((0, 0, 0), "Bomb out (over 23)", total, BOMB_OUT, size)
    if total < -23:
        return HandValue((0, 0, 0), "Bomb out (under -23)", total, BOMB_OUT, size)
    if total == 0:
        return HandValue((0, 0, 0), "Bomb out (zero)", total, BOMB_OUT, size)
    if total == 23:
        return HandValue((2, 1, 0), "Pure Sabacc", total, PURE_SABACC, size)
    if scoring == "absolute":
        if total == -23:
            return HandValue((2, 0, 0), "Pure Sabacc (-23)", total, PURE_SABACC, size)
        return HandValue((1, abs(total), int(total > 0)), str(total), total, ORDINARY, size)
    return HandValue((1, total, 0), str(total), total, ORDINARY, size)


#: What decides at each position of a hand's key (``VariantInfo.tiebreaks``): the kind of hand
#: (Idiot's Array, Pure Sabacc, a total, a bomb-out), then the higher total (with absolute
#: scoring: the total closer to 23), then a positive total over a negative one.
CLASSIC_TIEBREAKS: tuple[str, ...] = ("rank", "higher_total", "positive")


def is_special(value: HandValue) -> bool:
    """Idiot's Array or Pure Sabacc: the hands that also win the sabacc pot."""
    return value.rank <= PURE_SABACC


def is_bomb_out(value: HandValue) -> bool:
    return value.rank == BOMB_OUT


def is_valid(value: HandValue) -> bool:
    """Not a bomb-out: a hand that can win a pot."""
    return value.rank != BOMB_OUT


def evaluate(options: Options, cards: list[Card]) -> HandValue:
    """Classic hand value under the game's ``scoring`` option."""
    return evaluate_classic([c.value for c in cards], str(getattr(options, "scoring", "signed")))


# --------------------------------------------------------------------------------------------
# Options
# --------------------------------------------------------------------------------------------

SABACC_ANTE_MODES = ("if_empty", "always")


def shift_faces(chance: str) -> int:
    """How many faces of a d6 shift, for a ``shift_chance`` text (``"1/2"`` -> 3).

    Raises :class:`OptionError` unless the chance is a fraction k/6 between 0 and 1.
    """
    try:
        p = Fraction(str(chance).strip())
    except (ValueError, ZeroDivisionError):
        p = Fraction(-1)
    faces = p * 6
    if not 0 <= p <= 1 or faces.denominator != 1:
        raise OptionError(
            f"option shift_chance={chance!r}: must be a chance k/6 of a d6 between 0 and 1, "
            "like 1/2, 1/3, 5/6, 0 or 1"
        )
    return int(faces)


class ClassicPart(TypedDict):
    """Classic sabacc's own part of the observation: turns, orbits, calls and the deck."""

    turn: int  # the turn player's seat
    orbit: int
    max_orbits: int
    calls_open: bool  # whether the hand may be called now
    bet_limit: int
    raises: int
    max_raises: int
    deck: int  # cards left in the draw deck
    out_of_play: int  # cards put out of play (face down)
    roll: int | None  # the last shift roll
    shift: bool  # whether the last roll shifted cards
    caller: int | None  # the seat that called the hand


class ClassicObservation(Observation, ClassicPart):
    """A classic sabacc observation (:meth:`ClassicGame.observation`)."""


#: Classic's keys of an observation, in order (the snapshot's ``part`` holds their values).
CLASSIC_KEYS = tuple(ClassicPart.__annotations__)


def classic_extra(snap: ObservationSnapshot, seat: int | None) -> ClassicPart:
    """Classic sabacc's keys of an observation: the turn and orbit, the call, the limits, the
    deck, the dice (the snapshot's ``part``: :meth:`ClassicGame._observation_values`)."""
    return dict(zip(CLASSIC_KEYS, snap.part, strict=True))  # type: ignore[return-value]


@dataclass(frozen=True)
class ClassicOptions(Options):
    """Classic sabacc options (docs/rules.md §1).

    ``sabacc_ante`` is a *mode* here (docs/rules.md names it so); the amount is
    ``sabacc_ante_amount``.
    """

    help: ClassVar[dict[str, str]] = {
        **Options.help,
        "sabacc_ante": "if_empty (ante to the sabacc pot only when it is empty) | always",
        "sabacc_ante_amount": "credits each player antes to the sabacc pot when one is due",
        "bet_limit": "largest bet, and largest raise increment (smallest: 1 credit)",
        "max_raises": "most raises per betting phase",
        "fold_fee": "credits a folding player pays to the sabacc pot (capped at the stack)",
        "shift_chance": "chance of a shift each turn, k/6 of a d6 (1/2: a roll of 1-3 shifts)",
        "min_turns_before_call": "orbits of turns to complete before anyone may call the hand",
        "max_orbits": "the hand is force-called (no caller) after this many orbits of turns",
        "allow_exchange_at_two": "allow exchanging a card while holding only two cards",
        "scoring": "signed (highest total <= 23 wins) | absolute (closest to ±23, +x beats -x)",
    }

    presets: ClassVar[dict[str, tuple[str, ...]]] = {
        **Options.presets,
        "shift_chance": ("0", "1/6", "1/3", "1/2", "2/3", "5/6", "1"),
    }
    bounds: ClassVar[dict[str, tuple[int, int | None]]] = {
        **{k: v for k, v in Options.bounds.items() if k != "sabacc_ante"},  # a mode here
        "sabacc_ante_amount": (0, None),
        "bet_limit": (1, None),
        "max_raises": (0, None),
        "fold_fee": (0, None),
        "min_turns_before_call": (0, None),
        "max_orbits": (1, None),
    }

    # The base class types this as an int amount; classic sabacc makes it a mode (docs/rules.md §1).
    sabacc_ante: Literal["if_empty", "always"] = "if_empty"  # type: ignore[assignment]
    sabacc_ante_amount: int = 1
    bet_limit: int = 3
    max_raises: int = 3
    fold_fee: int = 1
    shift_chance: str = "1/2"
    min_turns_before_call: int = 1
    max_orbits: int = 10
    allow_exchange_at_two: bool = False
    scoring: Literal["signed", "absolute"] = "signed"

    def __post_init__(self) -> None:
        super().__post_init__()  # every declared choice and bound, and the game end
        if not isinstance(self.shift_chance, str):
            raise OptionError(f"option shift_chance={self.shift_chance!r}: must be text like 1/2")
        shift_faces(self.shift_chance)
        if (
            self.game_end == "last_standing"
            and self.ante == 0
            and not (self.sabacc_ante == "always" and self.sabacc_ante_amount > 0)
        ):
            raise OptionError("game_end=last_standing needs a non-zero ante to be sure to end")

    @property
    def shift_faces(self) -> int:
        """Faces of the d6 (1..this) that cause a shift."""
        return shift_faces(self.shift_chance)


# --------------------------------------------------------------------------------------------
# Events
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardSwapped(Event):
    """``seat`` gave up ``lost`` and got ``got`` (a shift, or an exchange with the deck).

    Both cards are known only to ``seat``: a shift never tells the others which card anybody lost
    or received, and an exchanged card is discarded face down.
    """

    type: ClassVar[str] = "card_swapped"
    private: ClassVar[tuple[str, ...]] = ("lost", "got")
    seat: int
    lost: str | None
    got: str | None
    reason: str = "shift"


# --------------------------------------------------------------------------------------------
# The game
# --------------------------------------------------------------------------------------------

_SWAPS: dict[int, Swap] = {}


def exchange_action(value: int) -> Swap:
    """The interned ``swap draw <value>`` action (classic's exchange)."""
    action = _SWAPS.get(value)
    if action is None:
        action = _SWAPS[value] = Swap("draw", value)
    return action


_CALLING = Legal((CALL_HAND, STAND))


class ClassicGame(Game):
    """A game of classic sabacc."""

    options: ClassicOptions
    # The discards are face down: observations do not list them, not even one's own, so search
    # does not remember them either.
    piles: ClassVar[tuple[str, ...]] = ("draw", "discards")
    face_down_piles: ClassVar[tuple[str, ...]] = ("draw", "discards")
    observation_type: ClassVar[type] = ClassicObservation
    observation_extra = staticmethod(classic_extra)  # type: ignore[assignment]

    # ------------------------------------------------------------------ hand state
    def _reset_hand_state(self) -> None:
        super()._reset_hand_state()
        self.draw: list[Card] = []  # the deck; the top is the end of the list
        self.discards: list[Card] = []  # out of play, face down (exchanges and folded hands)
        self.turn = -1  # seat whose turn it is
        self.orbit = 0  # orbits of turns completed this hand
        self.call_queue: list[int] = []  # seats still to ask in the calling phase
        self.caller: int | None = None
        self.last_roll: int | None = None
        self.last_shift = False
        # Ante bookkeeping: whether the sabacc pot was empty when this hand's antes began.
        self._anteing = True
        self._sabacc_was_empty = self.sabacc_pot == 0

    def _ante_due(self, seat: int) -> tuple[int, int]:
        opts = self.options
        if opts.sabacc_ante == "always":
            return opts.ante, opts.sabacc_ante_amount
        empty = self._sabacc_was_empty if self._anteing else self.sabacc_pot == 0
        return opts.ante, opts.sabacc_ante_amount if empty else 0

    def _start_hand_variant(self) -> None:
        self._anteing = False
        deck = list(self.deck.cards)
        self.rng.shuffle(deck)
        self.draw = deck
        order = self._order_from(self._left_of(self.dealer))
        for _ in range(2):
            for s in order:
                self.hands[s].append(deck.pop())
        if self.log:
            for s in order:
                self._emit(Dealt(s, 2, tuple(c.code for c in self.hands[s])))
        self.turn = order[0]
        self._begin_turn()

    # ------------------------------------------------------------------ turns
    def _next_live_after(self, seat: int) -> int:
        n = self.n
        for i in range(1, n + 1):
            s = (seat + i) % n
            if self.in_hand[s] and not self.folded[s]:
                return s
        return seat  # pragma: no cover - a hand with no live seat has ended

    def _begin_turn(self) -> None:
        if not self._open_betting(self.turn):
            self._shift_phase()

    def _calls_open(self) -> bool:
        return self.orbit >= self.options.min_turns_before_call

    def _shift_phase(self) -> None:
        self.phase = "shifting"
        self.to_act = None
        roll = self.rng.randrange(6) + 1
        shift = roll <= self.options.shift_faces
        self.last_roll = roll
        self.last_shift = shift
        self._emit(DiceRolled((roll,), shift, self.turn))
        if shift:
            self._shift()
        self._begin_calling()

    def _shift(self) -> None:
        """Each active player loses a random card; the lost cards are shuffled and dealt back
        one each in seat order from the dealer's left."""
        order = self._order_from(self._left_of(self.dealer))
        rng = self.rng
        lost: list[Card] = []
        for s in order:
            hand = self.hands[s]
            lost.append(hand.pop(rng.randrange(len(hand))))
        pool = lost[:]
        rng.shuffle(pool)
        for s, old, new in zip(order, lost, pool, strict=True):
            self.hands[s].append(new)
            if self.log:
                self._emit(CardSwapped(s, old.code, new.code, "shift"))

    def _begin_calling(self) -> None:
        if self._calls_open():
            turn = self.turn
            self.call_queue = [s for s in self._order_from(self._left_of(turn)) if s != turn]
        else:
            self.call_queue = []
        self._next_caller()

    def _next_caller(self) -> None:
        if self.call_queue:
            self.phase = "calling"
            self.to_act = self.call_queue.pop(0)
        else:
            self._begin_drawing()

    def _begin_drawing(self) -> None:
        t = self.turn
        if self.folded[t] or not self.draw:
            self._end_turn()  # a folded turn player, or an empty deck: nothing to draw
            return
        self.phase = "drawing"
        self.to_act = t

    def _end_turn(self) -> None:
        t = self.turn
        nxt = self._next_live_after(t)
        if (self.dealer - t) % self.n < (nxt - t) % self.n:
            self.orbit += 1  # the turn passed the dealer: an orbit is complete
        if self.orbit >= self.options.max_orbits:
            self._call_hand(None)
            return
        self.turn = nxt
        self._begin_turn()

    # ------------------------------------------------------------------ betting
    def _bet_structure(self) -> str:
        return "limit"

    def _bet_unit(self) -> int:
        return 1

    def _max_raises(self) -> int | None:
        return self.options.max_raises

    def _needs_to_act(self, s: int) -> bool:
        # Unlike poker, a player who has not acted is always asked (stay or fold), even when
        # nobody else can bet: folding still saves the bomb-out and caller penalties.
        if not self.in_hand[s] or self.folded[s] or self.stacks[s] == 0:
            return False
        return self.round_bet[s] < self.cur_bet or not self.acted[s]

    def _others_can_bet(self, s: int) -> bool:
        return any(self.stacks[o] > 0 for o in self._live() if o != s)

    def _classic_betting_legal(self, s: int) -> Legal:
        stack = self.stacks[s]
        limit = self.options.bet_limit
        to_call = self.cur_bet - self.round_bet[s]
        if to_call <= 0:
            if s == self.turn and self.cur_bet == 0 and self._others_can_bet(s):
                return Legal((CHECK, JUNK), (1, min(limit, stack)), None)
            return Legal((CHECK, JUNK))
        raise_: tuple[int, int] | None = None
        if (
            self.raises < self.options.max_raises
            and stack > to_call
            and not self.acted[s]
            and self._others_can_bet(s)
        ):
            raise_ = (1, min(limit, stack - to_call))
        return Legal((CALL, JUNK), None, raise_)

    def _fold(self, s: int) -> None:
        super()._fold(s)
        self._pay(s, self.options.fold_fee, "sabacc", "fold fee")
        self.discards.extend(self.hands[s])
        self.hands[s] = []

    # ------------------------------------------------------------------ drawing
    def _drawing_legal(self, seat: int) -> Legal:
        hand = self.hands[seat]
        fixed: list[Action] = [STAND]
        if self.draw:
            fixed.append(GAIN)
            if len(hand) >= 3 or self.options.allow_exchange_at_two:
                fixed.extend(exchange_action(v) for v in sorted({c.value for c in hand}))
        return Legal(tuple(fixed))

    def _draw_act(self, seat: int, action: Action) -> None:
        t = type(action)
        if t is Stand:
            self._acted(seat, action)
        elif t is Gain:
            self._acted(seat, action)
            card = self.draw.pop()
            self.hands[seat].append(card)
            if self.log:
                self._emit(CardTaken(seat, "draw", card.code))
        else:
            assert isinstance(action, Swap)
            # The discard goes face down: the others learn only that an exchange happened.
            self._acted(seat, action, "exchange")
            hand = self.hands[seat]
            idx = next(i for i, c in enumerate(hand) if c.value == action.value)
            given = hand.pop(idx)
            self.discards.append(given)
            taken = self.draw.pop()
            hand.append(taken)
            if self.log:
                self._emit(CardSwapped(seat, given.code, taken.code, "exchange"))

    # ------------------------------------------------------------------ protocol hooks
    def _compute_legal(self) -> Legal:
        seat = self.to_act
        assert seat is not None
        phase = self.phase
        if phase == "betting":
            return self._classic_betting_legal(seat)
        if phase == "calling":
            return _CALLING
        return self._drawing_legal(seat)

    def _perform(self, seat: int, action: Action) -> None:
        phase = self.phase
        if phase == "betting":
            done = self._betting_act(seat, action)
            if self._all_junked_win():
                return
            if done:
                self._shift_phase()
        elif phase == "calling":
            self._acted(seat, action)
            if type(action) is CallHand:
                self._call_hand(seat)
            else:
                self._next_caller()
        else:
            self._draw_act(seat, action)
            self._end_turn()

    # ------------------------------------------------------------------ showdown
    #: Bomb-outs and a losing caller pay once every pot is decided, before any is paid out.
    decide_all_first: ClassVar[bool] = True

    def _call_hand(self, caller: int | None) -> None:
        """The hand is called (by ``caller``; None: force-called): the showdown."""
        self.caller = caller
        self._showdown("called" if caller is not None else "forced_call")

    def _showdown_penalties(
        self, seats: Sequence[int], values: Mapping[int, HandValue], winners: set[int]
    ) -> None:
        """Each bomb-out, and a caller who won no pot, pays the hand pot to the sabacc pot."""
        hand_pot = self.pot_total()
        bombed = [s for s in seats if is_bomb_out(values[s])]
        for s in bombed:
            self._pay(s, hand_pot, "sabacc", "bomb out")
        caller = self.caller
        if caller is not None and caller not in bombed and caller not in winners:
            self._pay(caller, hand_pot, "sabacc", "caller did not win")

    def _sabacc_pot_reason(self, best: HandValue, why: str) -> str:
        return why

    def _tie_card(self) -> Card | None:
        """A sudden-demise card: the deck's top (no reshuffle)."""
        return self.draw.pop() if self.draw else None

    def _tie_cards_left(self) -> int:
        return len(self.draw)

    # ------------------------------------------------------------------ observation
    def _observation_values(self) -> tuple[Any, ...]:
        """:func:`classic_extra`'s values, in its keys' order."""
        return (
            self.turn,
            self.orbit,
            self.options.max_orbits,
            self._calls_open(),
            self.options.bet_limit,
            self.raises,
            self.options.max_raises,
            len(self.draw),
            len(self.discards),
            self.last_roll,
            self.last_shift,
            self.caller,
        )

    def _view_extra(self, seat: int) -> tuple[Any, ...]:
        """``(turn player (offset from ``seat``; -1: none), orbit, max orbits, calls open,
        raises, max raises, deck size, out-of-play size, last roll shifted)``: read by
        :data:`CLASSIC_FEATURES`."""
        opts = self.options
        turn = self.turn
        return (
            (turn - seat) % self.n if 0 <= turn < self.n else -1,
            self.orbit,
            opts.max_orbits,
            self._calls_open(),
            self.raises,
            opts.max_raises,
            len(self.draw),
            len(self.discards),
            self.last_shift,
        )

    def _hidden_extra(self) -> dict[str, Any]:
        return {"draw": [c.code for c in self.draw], "out": [c.code for c in self.discards]}


def _classic_writer(at: Layout) -> ExtraWriter:
    """Writes classic's blocks from :meth:`ClassicGame._view_extra`'s tuple."""
    o = at.offsets
    turn_at, orbit_at, raises_at, piles_at = o["turn"], o["orbit"], o["raises"], o["piles"]
    deck = at.deck_size

    def write(f: MutableSequence[float], extra: tuple[Any, ...]) -> None:
        turn, orbit, max_orbits, calls_open, raises, max_raises, ndeck, nout, shift = extra
        if turn >= 0:
            f[turn_at + turn] = 1.0
        f[orbit_at] = orbit / max_orbits
        if calls_open:
            f[orbit_at + 1] = 1.0
        f[raises_at] = raises / max_raises if max_raises else 0.0
        f[piles_at] = ndeck / deck
        f[piles_at + 1] = nout / deck
        if shift:
            f[piles_at + 2] = 1.0

    return write


def _classic_from_observation(obs: Mapping[str, Any], ids: Mapping[str, int]) -> tuple[Any, ...]:
    turn, n = obs["turn"], len(obs["seats"])
    return (
        (turn - obs["seat"]) % n if 0 <= turn < n else -1,
        obs["orbit"],
        obs["max_orbits"],
        obs["calls_open"],
        obs["raises"],
        obs["max_raises"],
        obs["deck"],
        obs["out_of_play"],
        obs["shift"],
    )


def _classic_bet_sizes(options: Options) -> tuple[str | float | int, ...]:
    """Every exact amount 1..bet_limit (bets are 1 to ``bet_limit`` credits), when it is small."""
    limit = int(getattr(options, "bet_limit", 3))
    return tuple(range(1, limit + 1)) if limit <= 10 else ("min", 0.5, 1.0, 2.0, "max")


#: Classic sabacc's RL feature spec.
CLASSIC_FEATURES = FeatureSpec(
    phases=("betting", "calling", "drawing"),
    ranks=4,
    total_scale=23.0,
    blocks=(
        Block("turn", "seats"),  # the turn player, one-hot from the observer
        Block("orbit", 2),  # orbit / max_orbits, calls open
        Block("raises", 1),  # raises / max_raises
        Block("piles", 2),  # deck and out-of-play sizes / deck size
        Block("shift", 1),  # the last roll shifted cards
    ),
    writer=_classic_writer,
    from_observation=_classic_from_observation,
    env_name="classic",
    bet_sizes=_classic_bet_sizes,
)


# One paragraph per line (no hard wraps inside a paragraph): terminals and web pages wrap it.
CLASSIC_RULES = "\n".join(
    (
        "Classic sabacc (M. Brent Sleeper's rules). Goal: the highest total up to 23 (negative "
        "totals down to -23 count too). A total over 23, under -23 or exactly 0 is a bomb out.",
        "76 cards: Sabres, Staves, Flasks and Coins, each 1-11 plus Commander 12, Mistress 13, "
        "Master 14 and Ace 15; and two each of the face cards The Idiot 0, Queen of Air and "
        "Darkness -2, Endurance -8, Balance -11, Demise -13, Moderation -14, The Evil One -15 "
        "and The Star -17.",
        "Everyone antes 1 to the hand pot, and 1 to the sabacc pot when it is empty. Two cards "
        "each. Turns go round from the dealer's left; each turn has four phases:",
        "1. Betting: the turn player bets 1-3 or checks; the others call, raise by 1-3 or fold "
        "(after a check: stay or fold). At most 3 raises. Folding costs 1 to the sabacc pot.",
        "2. Shifting: a d6; on 1-3 everyone still in loses a random card, and the lost cards are "
        "shuffled and dealt back one each.",
        "3. Calling: once every seat has had a turn, each other player in turn may call the "
        "hand, which ends it at once with a showdown.",
        "4. Drawing: the turn player draws a card, exchanges one (holding 3 or more), or passes.",
        "After 10 orbits of turns the hand is called anyway.",
        "Showdown: the best hand takes the hand pot. Idiot's Array (The Idiot, a 2 and a 3) beats "
        "everything, then Pure Sabacc (exactly 23); either also takes the sabacc pot. Every bomb "
        "out, and a caller who does not win, pays the amount of the hand pot to the sabacc pot. "
        "Ties: sudden demise (one more card each; best valid hand wins), otherwise a split. If "
        "nobody has a valid hand, the hand pot carries over.",
    )
)


def load_compiled_core() -> type[Any]:
    """The compiled classic engine's game class (ImportError when it is not built)."""
    from sabacc.variants.classic._classic_core import ClassicCore

    return ClassicCore


#: Tournament levels: the hand pot ante and the sabacc pot's ante (paid while it is empty)
#: rise together.
CLASSIC_LEVELS = LevelPlan(
    options=("ante", "sabacc_ante_amount"),
    antes=("ante", "sabacc_ante_amount"),
    schedule=tuple(
        {"ante": a, "sabacc_ante_amount": a} for a in (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25)
    ),
    hands_per_level=10,
)

ClassicGame.info = register(
    VariantInfo(
        name="classic",
        title="Classic Sabacc",
        levels=CLASSIC_LEVELS,
        aliases=("traditional", "classic-sabacc"),
        deck=CLASSIC_DECK,
        options_type=ClassicOptions,
        game_type=ClassicGame,
        evaluator=evaluate,
        rl_spec=CLASSIC_FEATURES,
        actions=betting_kinds(CALL_HAND_KIND, GAIN_KIND, EXCHANGE_KIND),
        fields=(
            Field("deck", "pile", count="ui.deck_count"),
            Field("out_of_play", "pile", count="ui.out_of_play"),
            Field("roll", "dice"),
            Field("shift", "dice"),
            Field("turn", "bar"),
            Field("orbit", "bar"),
            Field("max_orbits", "bar"),
            Field("calls_open", "bar"),
            Field("caller", "bar"),
            Field("bet_limit", "hidden"),
            Field("raises", "hidden"),
            Field("max_raises", "hidden"),
        ),
        summary="The 76-card game of the Star Wars galaxy: highest total up to 23, shifting cards.",
        rules_text=CLASSIC_RULES,
        piles=(Pile("deck", False, "deck"), Pile("out", False, "out_of_play")),
        pots=(
            PotRule("main", "the best hand that has not bombed out", is_valid),
            PotRule(
                "sabacc",
                "the best hand, if it is an Idiot's Array or a Pure Sabacc",
                is_special,
                sabacc=True,
            ),
        ),
        bet_unit=lambda options: 1,
        odds=ClassicOdds(),
        bot=ClassicBot(CLASSIC_DECK),
        compiled=load_compiled_core,
        card_art="classic/art.js",
        text=CLASSIC_TEXT,
        tiebreaks=CLASSIC_TIEBREAKS,
        true_ties=(SUDDEN_DEMISE,),
        chance=(
            ChanceEvent("shuffle", "the deck before the deal; the lost cards of a shift"),
            ChanceEvent("roll", "the shift die after each betting turn", 6),
            ChanceEvent("roll", "which card of each hand a shift takes (one of its cards)"),
        ),
    )
)
