"""Coruscant Shift (RULES.md §5; Galaxy's Edge, the "Sabacc Cantina" rules).

The Spike deck; a gold die (0, 0, +5, -5, +10, -10) sets the target number and a silver die
(circle, triangle, square, each twice) the target suit. A hand: everyone antes to the hand pot
(the sabacc pot is not used), five cards each, the dice are rolled, then:

1. *first selection*: from the dealer's left, each player keeps a subset of their cards (at least
   one), face down: ``keep -3 +5c 0``;
2. *betting* as in Corellian Spike (the engine's betting);
3. *shift*: the unselected cards are discarded face down; each player draws back up to five;
4. *betting* again;
5. *second selection*: each player may add cards to the kept set (kept cards are never removed;
   ``keep`` names the whole new set); the rest are discarded;
6. the kept sets are revealed: closest total to the target, then most cards of the target suit
   (Sylops count as it), then the higher total, then the higher single positive card, then a
   blind draw as in Spike (``true_tie``).

Decisions where §5 is silent are in ``docs/variants/coruscant_shift.md``; the main ones: how
many cards each player kept is public (everyone sees them draw back up), which cards is not;
discarded cards go face down; the betting unit is the (base) ante.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypedDict

from sabacc.core.actions import Action
from sabacc.core.cards import Card
from sabacc.core.errors import IllegalActionError, OptionError
from sabacc.core.events import Dealt, Event
from sabacc.core.hands import HandValue
from sabacc.core.options import Options
from sabacc.engine.actions import betting_kinds
from sabacc.engine.betting import Legal
from sabacc.engine.chance import ChanceEvent
from sabacc.engine.features import Block, ExtraWriter, FeatureSpec, Layout, card_ids
from sabacc.engine.observation import Observation, OwnHandObservation
from sabacc.engine.observe import ObservationSnapshot, ValueMemo, own_hand
from sabacc.engine.variant import (
    BLIND_DRAW,
    SPLIT,
    LevelPlan,
    Pile,
    PotRule,
    TableDisplay,
    VariantInfo,
)
from sabacc.variants.corellian_spike.rules import SPIKE_FIELDS, SpikeGame
from sabacc.variants.coruscant_shift.actions import KEEP_KIND, Keep, keep_action
from sabacc.variants.coruscant_shift.bot import CoruscantBot
from sabacc.variants.coruscant_shift.odds import CoruscantOdds
from sabacc.variants.coruscant_shift.text import CORUSCANT_TEXT
from sabacc.variants.registry import register
from sabacc.variants.spike_family.deck import SPIKE_DECK, SPIKE_STAVES

#: The gold die's faces (the target number) and the silver die's (the target suit).
GOLD_DIE: tuple[int, ...] = (0, 0, 5, -5, 10, -10)
SILVER_DIE: tuple[str, ...] = ("circle", "triangle", "square", "circle", "triangle", "square")
SUIT_LETTER: dict[str, str] = {name: letter for letter, name in SPIKE_STAVES.items()}
HAND_SIZE = 5
ON_TARGET = "On Target"
OFF_TARGET = "Off Target"


@dataclass(frozen=True, slots=True)
class TargetRolled(Event):
    """The dealer rolled the gold and silver dice: the hand's target number and suit
    (``total``: the target number; ``reason``: the suit, so that each language words it:
    ``target_rolled.circle``)."""

    type: ClassVar[str] = "target_rolled"
    total: int
    reason: str = "circle"


@dataclass(frozen=True, slots=True)
class Selected(Event):
    """``seat`` chose its kept set (``reason``: ``first`` or ``second`` selection); how many
    cards it keeps is public, which ones (``cards``) only the seat knows until the reveal."""

    type: ClassVar[str] = "selected"
    private: ClassVar[tuple[str, ...]] = ("cards",)
    seat: int
    count: int
    cards: str | None
    reason: str = "first"


@dataclass(frozen=True, slots=True)
class SetAside(Event):
    """``seat`` discarded its unselected cards face down (``cards`` known to the seat only)."""

    type: ClassVar[str] = "set_aside"
    private: ClassVar[tuple[str, ...]] = ("cards",)
    seat: int
    count: int
    cards: str | None
    reason: str = "shift"


class CoruscantPart(TypedDict):
    """Coruscant Shift's own part of the observation."""

    round: int  # betting rounds played or under way (1, 2)
    rounds: int
    target: int | None  # the gold die
    target_suit: str | None  # the silver die: circle, triangle, square
    kept_counts: list[int]  # how many cards each seat keeps (public)
    kept: list[str]  # the observer's own kept cards (empty for a spectator)
    draw_pile: int
    mucked: int  # cards discarded face down
    discard_top: str | None  # face-up discards: blind-draw cards only
    discard_pile: list[str]
    dice: list[int] | None  # always None (no spike dice), for Spike-family readers


class CoruscantObservation(Observation, CoruscantPart):
    """A Coruscant Shift observation (:meth:`CoruscantGame.observation`)."""


@dataclass(frozen=True)
class CoruscantOptions(Options):
    """Coruscant Shift options (RULES.md §5)."""

    help: ClassVar[dict[str, str]] = {
        **Options.help,
        "buy_in": "starting credits per player (Coruscant Shift: 100)",
        "ante": "ante to the hand pot each hand; also the betting unit (Coruscant Shift: 2)",
        "sabacc_ante": "not used: Coruscant Shift has no sabacc pot (always 0)",
        "betting": "no_limit | pot_limit | fixed",
        "min_bet": "minimum bet and raise increment (none = the ante); the fixed bet size",
        "max_raises": "most raises per betting phase (none = unlimited)",
        "true_tie": "blind_draw (official Galaxy's Edge) | split",
        "rising_ante": "the ante rises every hand: +5 with 2 players left, +3 with 3, +2 with 4, "
        "+1 with more",
        "target": "a fixed target number instead of the gold die (none = roll): 0, ±5, ±10",
        "target_suit": "roll (the silver die) | circle | triangle | square",
    }

    bounds: ClassVar[dict[str, tuple[int, int | None]]] = {
        **Options.bounds,
        "sabacc_ante": (0, 0),
        "min_bet": (1, None),
        "max_raises": (0, None),
        "target": (-10, 10),
    }

    buy_in: int | None = 100
    ante: int = 2
    sabacc_ante: int = 0
    betting: Literal["no_limit", "pot_limit", "fixed"] = "no_limit"
    min_bet: int | None = None
    max_raises: int | None = None
    true_tie: Literal["blind_draw", "split"] = "blind_draw"
    rising_ante: bool = False
    target: int | None = None
    target_suit: Literal["roll", "circle", "triangle", "square"] = "roll"

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.target is not None and self.target not in GOLD_DIE:
            raise OptionError(
                f"option target={self.target!r}: must be a face of the gold die: "
                "0, +5, -5, +10, -10"
            )


def ante_increment(players_left: int) -> int:
    """How much ``rising_ante`` raises the ante for a hand with this many players left."""
    return {2: 5, 3: 3, 4: 2}.get(players_left, 1)


#: What decides at each position of a kept set's key (``VariantInfo.tiebreaks``; On Target over
#: Off Target is the rank): the distance to the target, the cards of the target suit, the
#: higher total, the higher positive card.
CORUSCANT_TIEBREAKS: tuple[str, ...] = (
    "closer_to_target",
    "more_of_suit",
    "higher_total",
    "higher_positive_card",
)


def evaluate_target(cards: Sequence[Card], target: int, suit: str | None) -> HandValue:
    """The value of a kept set against a target: closer to ``target`` first, then more cards
    of ``suit`` (a Sylop counts as it), then the higher total, then the higher single positive
    card. ``suit`` None: no suit counts (a hand evaluated without a silver die)."""
    total = sum(c.value for c in cards)
    distance = abs(total - target)
    letter = SUIT_LETTER.get(suit, "") if suit else ""
    in_suit = sum(1 for c in cards if c.suit is None or c.suit == letter) if letter else 0
    best_positive = max((c.value for c in cards if c.value > 0), default=0)
    return HandValue(
        (-distance, in_suit, total, best_positive),
        ON_TARGET if distance == 0 else OFF_TARGET,
        total,
        1 if distance == 0 else 2,
        len(cards),
    )


def evaluate(options: Options, cards: list[Card]) -> HandValue:
    """A kept set's value against the options' fixed target (``target``, ``target_suit``):
    without one, the target is 0 and no suit counts."""
    target = getattr(options, "target", None)
    suit = getattr(options, "target_suit", "roll")
    return evaluate_target(cards, target or 0, None if suit == "roll" else suit)


def coruscant_extra(snap: ObservationSnapshot, seat: int | None) -> CoruscantPart:
    """Coruscant Shift's keys of an observation, from the snapshot's ``part`` (both engines fill
    it; :meth:`CoruscantGame._observation_values` lists it)."""
    rnd, target, suit, kept_n, draw, muck, discard = snap.part
    return {
        "round": rnd,
        "rounds": 2,
        "target": target,
        "target_suit": suit,
        "kept_counts": list(kept_n),
        "kept": [c.code for c in snap.hands[seat][: kept_n[seat]]] if seat is not None else [],
        "draw_pile": draw,
        "mucked": muck,
        "discard_top": discard[-1] if discard else None,
        "discard_pile": list(discard),
        "dice": None,
    }


#: The values :func:`coruscant_you` worked out (a pure function of the options, the valued
#: cards, the target and its suit).
_VALUES = ValueMemo()


def coruscant_you(snap: ObservationSnapshot, seat: int) -> OwnHandObservation:
    """The viewer's hand, valued as its kept set once it kept cards (against the target)."""
    _, target, suit, kept_n, *_ = snap.part
    cards = snap.hands[seat]
    valued = cards[: kept_n[seat]] if kept_n[seat] else cards  # a junked hand keeps its count
    if not kept_n[seat] and not cards:
        return own_hand(cards, None)
    options = snap.options
    key = (tuple([c.id for c in valued]), target, suit)
    value = _VALUES.get(options, key)
    if value is None:
        made = (
            evaluate(options, list(valued))
            if target is None
            else evaluate_target(valued, target, suit)
        )
        value = _VALUES.put(options, key, made)
    return own_hand(cards, value)


class CoruscantGame(SpikeGame):
    """A game of Coruscant Shift (reuses Corellian Spike's piles, betting and blind draw)."""

    options: CoruscantOptions  # type: ignore[assignment]
    observation_type: ClassVar[type] = CoruscantObservation
    observation_extra = staticmethod(coruscant_extra)
    observation_you = staticmethod(coruscant_you)  # type: ignore[assignment]

    # ------------------------------------------------------------------ hand state
    def _reset_hand_state(self) -> None:
        super()._reset_hand_state()
        #: Each seat's kept cards are the first ``kept_n[seat]`` cards of its hand.
        self.kept_n: list[int] = [0] * self.n
        self.target: int | None = None
        self.target_suit: str | None = None
        self.selection = 0  # 1, 2 during a selection phase

    def _ante_due(self, seat: int) -> tuple[int, int]:
        return getattr(self, "hand_ante", self.options.ante), 0

    def _start_hand(self) -> None:
        ante = getattr(self, "hand_ante", self.options.ante)
        if self.options.rising_ante and self.hand_no > 0:
            left = sum(1 for s in range(self.n) if not self.out[s] and self.stacks[s] > 0)
            ante += ante_increment(left)
        self.hand_ante = ante
        super()._start_hand()

    def _start_hand_variant(self) -> None:
        self.draw = self._shuffled(self.deck.cards)
        order = self._order_from(self._left_of(self.dealer))
        for _ in range(HAND_SIZE):
            for s in order:
                self.hands[s].append(self.draw.pop())
        if self.log:
            for s in order:
                self._emit(Dealt(s, HAND_SIZE, tuple(c.code for c in self.hands[s])))
        opts = self.options
        number = GOLD_DIE[self.rng.randrange(6)]
        suit = SILVER_DIE[self.rng.randrange(6)]
        self.target = opts.target if opts.target is not None else number
        self.target_suit = opts.target_suit if opts.target_suit != "roll" else suit
        self._emit(TargetRolled(self.target, self.target_suit))
        self.round = 1
        self._begin_selection(1)

    # ------------------------------------------------------------------ selections
    def _begin_selection(self, which: int) -> None:
        self.selection = which
        self.phase = "selection"
        self.card_queue = self._order_from(self._left_of(self.dealer))
        self._next_selection()

    def _next_selection(self) -> None:
        self._legal = None
        if self.card_queue:
            self.to_act = self.card_queue.pop(0)
            return
        if self.selection == 1:
            self._begin_betting()
        else:
            self._showdown()

    def _selection_legal(self, seat: int) -> Legal:
        hand = self.hands[seat]
        k = self.kept_n[seat]
        codes = [c.code for c in hand]
        # positions in the canonical card order, so each subset is listed sorted already
        order = sorted(range(len(hand)), key=lambda i: (hand[i].value, codes[i]))
        kept_mask = (1 << k) - 1
        found: dict[Keep, None] = {}
        for mask in range(1 if k == 0 else 0, 1 << (len(hand) - k)):
            full = kept_mask | (mask << k)
            found[Keep(tuple([codes[i] for i in order if full >> i & 1]))] = None
        return Legal(tuple(found))  # by the mask of hand positions (the RL table's keep #j)

    def _select(self, seat: int, action: Keep) -> None:
        hand = self.hands[seat]
        k = self.kept_n[seat]
        chosen = hand[:k]
        rest = hand[k:]
        wanted = list(action.cards)
        for c in chosen:
            wanted.remove(c.code)
        picked: list[Card] = []
        left: list[Card] = []
        for c in rest:
            if c.code in wanted:
                wanted.remove(c.code)
                picked.append(c)
            else:
                left.append(c)
        self.hands[seat] = chosen + picked + left
        self.kept_n[seat] = len(chosen) + len(picked)
        self.last_action[seat] = f"kept {self.kept_n[seat]}"
        reason = "first" if self.selection == 1 else "second"
        if self.log:
            kept_codes = " ".join(c.code for c in self.hands[seat][: self.kept_n[seat]])
            self._emit(Selected(seat, self.kept_n[seat], kept_codes, reason))
        if self.selection == 2:
            self._set_aside(seat, reason)

    def _set_aside(self, seat: int, reason: str) -> None:
        """Discard ``seat``'s unselected cards face down."""
        k = self.kept_n[seat]
        gone = self.hands[seat][k:]
        if not gone:
            return
        self.hands[seat] = self.hands[seat][:k]
        self.muck.extend(gone)
        for c in gone:
            self.public_ids[seat].discard(c.id)
        if self.log:
            self._emit(SetAside(seat, len(gone), " ".join(c.code for c in gone), reason))

    def _shift(self) -> None:
        """The shift: unselected cards are discarded; everyone draws back up to five."""
        self.phase = "shift"
        self.to_act = None
        order = self._order_from(self._left_of(self.dealer))
        for s in order:
            self._set_aside(s, "shift")
        for s in order:
            need = HAND_SIZE - len(self.hands[s])
            new = [self._draw() for _ in range(need) if self._can_draw()]
            self.hands[s].extend(new)
            if self.log and new:
                self._emit(Dealt(s, len(new), tuple(c.code for c in new), "draw_up"))
        self.round = 2
        if not self._open_betting(self._left_of(self.dealer)):
            self._begin_selection(2)

    # ------------------------------------------------------------------ protocol hooks
    def _begin_betting(self) -> None:
        if not self._open_betting(self._left_of(self.dealer)):
            self._shift()

    def _compute_legal(self) -> Legal:
        seat = self.to_act
        assert seat is not None
        if self.phase == "betting":
            return self._betting_legal(seat)
        return self._selection_legal(seat)

    def _perform(self, seat: int, action: Action) -> None:
        if self.phase == "betting":
            done = self._betting_act(seat, action)
            if self._all_junked_win():
                return
            if not done:
                self._legal = None
            elif self.round == 1:
                self._shift()
            else:
                self._begin_selection(2)
            return
        assert isinstance(action, Keep)
        self._select(seat, action)
        self._next_selection()

    def _resolve(self, action: Action | str) -> Action | str:
        """A ``keep`` naming cards by value only (``keep -3 +5 0``) as the cards of the hand it
        means; refused when a value-only card could be either of two suits."""
        try:
            act = CoruscantGame.info.parse_action(action)
        except IllegalActionError:
            return action
        seat = self.to_act
        if type(act) is not Keep or seat is None or self.over or self.phase != "selection":
            return act
        hand = self.hands[seat]
        k = self.kept_n[seat]
        free = list(hand)
        loose: dict[int, int] = {}
        codes: list[str] = []
        for token in act.cards:
            if not token[-1:].isalpha():
                value = int(token)
                loose[value] = loose.get(value, 0) + 1
                continue
            code = _canonical(token)
            match = next((c for c in free if c.code == code), None)
            if match is None:
                raise IllegalActionError(f"{act}: you hold no {code}")
            free.remove(match)
            codes.append(match.code)
        kept = hand[:k]
        for value, want in loose.items():
            name = f"{value:+d}" if value else "0"
            old = [c for c in free if c.value == value and c in kept]
            new = [c for c in free if c.value == value and c not in kept]
            if want > len(old) + len(new):
                raise IllegalActionError(f"{act}: you hold no more {name}")
            extra = want - len(old)
            if extra <= 0:
                codes.extend(c.code for c in old[:want])
                continue
            if extra < len(new) and len({c.code for c in new}) > 1:
                raise IllegalActionError(
                    f"{act}: which {name}? say " + " or ".join(sorted(c.code for c in new))
                )
            codes.extend(c.code for c in old + new[:extra])
        return keep_action(codes)

    def apply(self, action: Action | str, seat: int | None = None) -> list[Event]:
        return super().apply(self._resolve(action), seat)

    def is_legal(self, action: Action | str) -> bool:
        try:
            return super().is_legal(self._resolve(action))
        except IllegalActionError:
            return False

    def evaluate(self, cards: Sequence[Card]) -> HandValue:
        """A kept set's value against this hand's target."""
        if self.target is None:
            return evaluate(self.options, list(cards))
        return evaluate_target(cards, self.target, self.target_suit)

    def _observation_values(self) -> tuple[Any, ...]:
        """:func:`coruscant_extra`'s values: ``(round, target, target suit, kept counts, draw
        pile size, muck size, discard pile's codes)``."""
        return (
            self.round,
            self.target,
            self.target_suit,
            tuple(self.kept_n),
            len(self.draw),
            len(self.muck),
            tuple([c.code for c in self.discard]),
        )

    def _view_extra(self, seat: int) -> tuple[Any, ...]:
        """``(round, target, target suit, own kept ids, kept counts from the observer, draw
        pile size, muck size)``: read by :data:`CORUSCANT_FEATURES`."""
        n = self.n
        return (
            self.round,
            self.target,
            self.target_suit,
            bytes([c.id for c in self.hands[seat][: self.kept_n[seat]]]),
            tuple(self.kept_n[(seat + k) % n] for k in range(n)),
            len(self.draw),
            len(self.muck),
        )

    def snapshot(self) -> Any:
        raise TypeError("snapshot() covers Corellian Spike, not Coruscant Shift")


def _canonical(token: str) -> str:
    """``5c`` -> ``+5c``, ``+0`` -> ``0``: a token in the deck's notation."""
    letters = token.lstrip("+-0123456789")
    digits = token[: len(token) - len(letters)]
    try:
        value = int(digits)
    except ValueError:
        return token
    return (f"{value:+d}" if value else "0") + letters


def _coruscant_rounds(options: Options, players: int) -> int:
    return 2


def on_target(hand: HandValue) -> bool:
    """Whether a kept set hits its target exactly."""
    return hand.rank == 1


_TARGETS = (0, 5, -5, 10, -10)
_SUITS = ("circle", "triangle", "square")


def _coruscant_writer(at: Layout) -> ExtraWriter:
    """Writes Coruscant Shift's blocks from :meth:`CoruscantGame._view_extra`'s tuple."""
    o = at.offsets
    rnd_at, target_at, suit_at = o["round"], o["target"], o["target_suit"]
    kept_at, counts_at, piles_at = o["kept"], o["kept_counts"], o["piles"]
    vid = at.value_of
    deck = at.deck_size

    def write(f: MutableSequence[float], extra: tuple[Any, ...]) -> None:
        rnd, target, suit, kept, counts, ndraw, nmuck = extra
        f[rnd_at] = rnd / 2
        if target is not None:
            f[target_at + _TARGETS.index(target)] = 1.0
        if suit is not None:
            f[suit_at + _SUITS.index(suit)] = 1.0
        for c in kept:
            f[kept_at + vid[c]] += 1.0
        for k, count in enumerate(counts):
            f[counts_at + k] = count / HAND_SIZE
        f[piles_at] = ndraw / deck
        f[piles_at + 1] = nmuck / deck

    return write


def _coruscant_from_observation(obs: Mapping[str, Any], ids: Mapping[str, int]) -> tuple[Any, ...]:
    counts = obs["kept_counts"]
    seat = obs["seat"] or 0
    n = len(counts)
    return (
        obs["round"],
        obs["target"],
        obs["target_suit"],
        card_ids(obs["kept"], ids),
        tuple(counts[(seat + k) % n] for k in range(n)),
        obs["draw_pile"],
        obs["mucked"],
    )


#: Coruscant Shift's RL feature spec.
CORUSCANT_FEATURES = FeatureSpec(
    phases=("selection", "betting"),
    ranks=2,
    total_scale=10.0,
    blocks=(
        Block("round", 1),  # betting round / 2
        Block("target", len(_TARGETS)),  # one-hot of the gold die
        Block("target_suit", len(_SUITS)),  # one-hot of the silver die
        Block("kept", "values", high="copies", private=True),  # own kept cards, copies per value
        Block("kept_counts", "seats"),  # cards each seat keeps / 5, from the observer
        Block("piles", 2),  # draw pile and muck sizes / deck size
    ),
    writer=_coruscant_writer,
    from_observation=_coruscant_from_observation,
    env_name="coruscant",
)


CORUSCANT_RULES = """\
Coruscant Shift (Galaxy's Edge). Goal: a kept set whose total is the target number.
The 62-card Spike deck. Each hand everyone antes 2 to the hand pot (no sabacc pot) and gets
5 cards; the gold die (0, 0, +5, -5, +10, -10) sets the target number, the silver die (circle,
triangle, square) the target suit.
1. Selection: keep at least one card, face down (keep -3 +5c 0).
2. Betting (check, bet, call, raise, junk).
3. Shift: the unselected cards are discarded; draw back up to 5.
4. Betting again.
5. Second selection: add cards to your kept set (kept cards stay); the rest are discarded.
6. Reveal: closest total to the target wins the pot; then most cards of the target suit (a
Sylop counts as any suit); then the higher total; then the higher single positive card; then a
blind draw.
Option rising_ante: the ante rises every hand (+5 with 2 players left, +3 with 3, +2 with 4, +1).
"""


def load_compiled_core() -> type[Any]:
    """The compiled Coruscant Shift engine's game class (``CoruscantCore``: the Spike family's
    compiled core built with Coruscant's own rules); ImportError when it is not built."""
    from sabacc.variants.coruscant_shift._coruscant_shift_core import CoruscantCore

    return CoruscantCore


#: Tournament levels: the one ante rises; from the ninth level the table's own rising ante
#: (``rising_ante``) is on as well, so the last levels close the event.
CORUSCANT_LEVELS = LevelPlan(
    options=("ante", "rising_ante"),
    antes=("ante",),
    schedule=tuple(
        {"ante": a, "rising_ante": i >= 8}
        for i, a in enumerate((2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30))
    ),
    hands_per_level=10,
)

CoruscantGame.info = register(
    VariantInfo(
        name="coruscant_shift",
        title="Coruscant Shift",
        levels=CORUSCANT_LEVELS,
        aliases=("coruscant", "coruscant-shift"),
        deck=SPIKE_DECK,
        options_type=CoruscantOptions,
        game_type=CoruscantGame,
        evaluator=evaluate,
        summary="Galaxy's Edge: the Spike deck, a gold and a silver die set the target, "
        "selections that only grow.",
        rules_text=CORUSCANT_RULES,
        piles=(Pile("draw", False, "draw_pile"), Pile("discard", False, "mucked")),
        pots=(PotRule("main", "the kept set closest to the target", lambda hand: True),),
        rounds=_coruscant_rounds,
        odds=CoruscantOdds(),
        bot=CoruscantBot(SPIKE_DECK),
        compiled=load_compiled_core,
        card_art="spike_family/art.js",
        display=TableDisplay(kept_key="kept"),
        text=CORUSCANT_TEXT,
        tiebreaks=CORUSCANT_TIEBREAKS,
        true_ties=(BLIND_DRAW, SPLIT),
        true_tie_option="true_tie",
        chance=(
            ChanceEvent("shuffle", "the deck before the deal; the discards at a reshuffle"),
            ChanceEvent("roll", "the gold die (target number) and the silver die (suit)", 6),
        ),
        rl_spec=CORUSCANT_FEATURES,
        # stand is never legal; it is kept first, the passive choice of the RL table
        actions=betting_kinds(KEEP_KIND),
        fields=SPIKE_FIELDS,
    )
)
