"""Corellian Spike (docs/rules.md §2; the Sabacc For Charity rules).

A hand: antes to the main and sabacc pots, two cards each, a discard pile started from the draw
pile, then ``rounds`` rounds of Card phase → Betting phase → Spike phase, then the showdown.
Surabat Cycle (:mod:`sabacc.variants.surabat_cycle.rules`) reuses this class with another array.

Project decisions where docs/rules.md is silent (documented in docs/rules-decisions.md):

* A junked hand is mucked: its cards go face down under the discard pile (they are not shown
  and do not change the discard top) and come back at the next reshuffle.
* True-tie blind-draw cards go face up onto the discard pile afterwards. The result of a blind
  draw between the same tied seats is reused for every pot they tie for.
* During a Sabacc Shift every active player discards first, then each is dealt in turn from the
  dealer's left, so the reshuffle (if needed) may include the just-discarded cards.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, MutableSequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypedDict

from sabacc.core.actions import STAND, Action, Stand
from sabacc.core.cards import Card
from sabacc.core.events import (
    CardDiscarded,
    CardTaken,
    Dealt,
    DiceRolled,
    Flipped,
    Reshuffled,
)
from sabacc.core.hands import HandValue
from sabacc.core.options import Options
from sabacc.engine.actions import Field, betting_kinds
from sabacc.engine.betting import Legal
from sabacc.engine.chance import ChanceEvent
from sabacc.engine.features import Block, ExtraWriter, FeatureSpec, Layout, card_ids, doubles
from sabacc.engine.game import Game
from sabacc.engine.observation import Observation
from sabacc.engine.observe import ObservationSnapshot
from sabacc.engine.variant import BLIND_DRAW, SPLIT, LevelPlan, Pile, PotRule, VariantInfo
from sabacc.variants.corellian_spike.text import SPIKE_TEXT
from sabacc.variants.registry import register
from sabacc.variants.spike_family.actions import (
    GAIN,
    GAIN_KIND,
    SWAP_DISCARD_KIND,
    SWAP_DRAW_KIND,
    Gain,
    Swap,
    swap_action,
)
from sabacc.variants.spike_family.bot import SpikeBot
from sabacc.variants.spike_family.deck import SPIKE_DECK as SPIKE_DECK
from sabacc.variants.spike_family.hands import SPIKE_TIEBREAKS, evaluate_spike
from sabacc.variants.spike_family.odds import SpikeOdds
from sabacc.variants.spike_family.snapshot import SpikeSnapshot


class SpikePart(TypedDict):
    """Corellian Spike's own part of the observation: the round and the card piles."""

    round: int
    rounds: int
    discard_top: str | None
    discard_pile: list[str]  # face up, bottom to top
    draw_pile: int  # cards left in the (face-down) draw pile
    mucked: int  # junked cards, face down under the discard pile
    dice: list[int] | None  # the last spike dice of this hand


class SpikeObservation(Observation, SpikePart):
    """A Corellian Spike observation (:meth:`SpikeGame.observation`, both engines)."""


def spike_extra(snap: ObservationSnapshot, seat: int | None) -> SpikePart:
    """Corellian Spike's keys of an observation, from the snapshot's ``part``: ``(round,
    rounds, discard pile's codes, draw pile size, muck size, last dice)`` (both engines fill
    it)."""
    rnd, rounds, discard, draw, muck, dice = snap.part
    return {
        "round": rnd,
        "rounds": rounds,
        "discard_top": discard[-1] if discard else None,
        "discard_pile": list(discard),
        "draw_pile": draw,
        "mucked": muck,
        "dice": list(dice) if dice else None,
    }


@dataclass(frozen=True)
class SpikeOptions(Options):
    """Corellian Spike options (docs/rules.md §2)."""

    help: ClassVar[dict[str, str]] = {
        **Options.help,
        "rounds": "rounds per hand (Card, Betting, Spike phases)",
        "betting": "no_limit | pot_limit | fixed",
        "min_bet": "minimum bet and raise increment (none = the ante); the fixed bet size",
        "max_raises": "most raises per betting phase (none = unlimited)",
        "gain_fee": "credits paid into the main pot to Gain (Salas house rules: 1)",
        "swap_fee": "credits paid into the main pot to Swap (Salas house rules: 2)",
        "hand_cap": "maximum hand size (Gain is illegal at the cap)",
        "true_tie": "blind_draw (official Galaxy's Edge) | split",
    }

    bounds: ClassVar[dict[str, tuple[int, int | None]]] = {
        **Options.bounds,
        "rounds": (1, None),
        "min_bet": (1, None),
        "max_raises": (0, None),
        "gain_fee": (0, None),
        "swap_fee": (0, None),
        "hand_cap": (2, 8),
    }

    rounds: int = 3
    betting: Literal["no_limit", "pot_limit", "fixed"] = "no_limit"
    min_bet: int | None = None
    max_raises: int | None = None
    gain_fee: int = 0
    swap_fee: int = 0
    hand_cap: int = 5
    true_tie: Literal["blind_draw", "split"] = "blind_draw"


class SpikeGame(Game):
    """A game of Corellian Spike."""

    options: SpikeOptions
    piles: ClassVar[tuple[str, ...]] = ("draw", "discard", "muck")
    face_down_piles: ClassVar[tuple[str, ...]] = ("draw", "muck")
    observation_type: ClassVar[type] = SpikeObservation
    observation_extra = staticmethod(spike_extra)  # type: ignore[assignment]
    #: This hand's rounds once asked (0: not yet; a class default for games rebuilt without
    #: ``__init__``, as from a snapshot).
    _hand_rounds: int = 0

    # ------------------------------------------------------------------ hand state
    def _reset_hand_state(self) -> None:
        super()._reset_hand_state()
        self.draw: list[Card] = []  # top of the pile is the end of the list
        self.discard: list[Card] = []  # face up; top is the end
        self.muck: list[Card] = []  # junked hands, face down under the discard pile
        self.round = 0
        self.card_queue: list[int] = []
        self.last_dice: tuple[int, int] | None = None
        self._hand_rounds = 0

    def _rounds(self) -> int:
        """The declared rounds (:attr:`VariantInfo.rounds`; the Spike family always has a
        count), asked once a hand (observations read it)."""
        rounds = self._hand_rounds
        if not rounds:
            declared = super()._rounds()
            assert declared is not None, "the Spike family declares a number of rounds"
            rounds = self._hand_rounds = declared
        return rounds

    def _start_hand_variant(self) -> None:
        self.draw = self._shuffled(self.deck.cards)
        order = self._order_from(self._left_of(self.dealer))
        self._deal_start(order)
        self.round = 1
        self._begin_card_phase()

    def _deal_start(self, order: list[int]) -> None:
        for _ in range(2):
            for s in order:
                self.hands[s].append(self.draw.pop())
        if self.log:
            for s in order:
                self._emit(Dealt(s, 2, tuple(c.code for c in self.hands[s])))
        top = self.draw.pop()
        self.discard.append(top)
        self._emit(Flipped(top.code))

    # ------------------------------------------------------------------ piles
    def _can_draw(self) -> bool:
        return bool(self.draw) or len(self.discard) > 1 or bool(self.muck)

    def _draw(self) -> Card:
        if not self.draw:
            self._reshuffle()
        return self.draw.pop()

    def _reshuffle(self) -> None:
        pool = self.discard[:-1] + self.muck
        self.discard = self.discard[-1:]
        self.muck = []
        self.draw = pool = self._shuffled(pool)
        self._emit(Reshuffled(len(pool)))

    def _take_from_hand(self, seat: int, value: int) -> Card:
        """Remove a card of ``value`` from the hand: a publicly known copy first."""
        hand = self.hands[seat]
        public = self.public_ids[seat]
        idx = -1
        for i, c in enumerate(hand):
            if c.value == value:
                if c.id in public:
                    idx = i
                    break
                if idx < 0:
                    idx = i
        card = hand.pop(idx)
        public.discard(card.id)
        return card

    # ------------------------------------------------------------------ card phase
    def _begin_card_phase(self) -> None:
        self.phase = "card"
        self.card_queue = self._order_from(self._left_of(self.dealer))
        self._next_card_turn()

    def _next_card_turn(self) -> None:
        self._legal = None
        if self.card_queue:
            self.to_act = self.card_queue.pop(0)
        else:
            self._begin_betting()

    def _card_legal(self, seat: int) -> Legal:
        opts = self.options
        hand = self.hands[seat]
        stack = self.stacks[seat]
        fixed: list[Action] = [STAND]
        can_draw = self._can_draw()
        if len(hand) < opts.hand_cap and stack >= opts.gain_fee and can_draw:
            fixed.append(GAIN)
        if stack >= opts.swap_fee:
            values = sorted({c.value for c in hand})
            if self.discard:
                fixed.extend(swap_action("discard", v) for v in values)
            if can_draw:
                fixed.extend(swap_action("draw", v) for v in values)
        return Legal(tuple(fixed))

    def _card_act(self, seat: int, action: Action) -> None:
        opts = self.options
        t = type(action)
        if t is Stand:
            self._acted(seat, action)
        elif t is Gain:
            self._acted(seat, action)
            self._pay(seat, opts.gain_fee, "dead", "gain fee")
            card = self._draw()
            self.hands[seat].append(card)
            if self.log:
                self._emit(CardTaken(seat, "draw", card.code))
        else:
            assert isinstance(action, Swap)
            self._acted(seat, action)
            self._pay(seat, opts.swap_fee, "dead", "swap fee")
            if action.source == "discard":
                taken = self.discard.pop()
                given = self._take_from_hand(seat, action.value)
                self.hands[seat].append(taken)
                self.public_ids[seat].add(taken.id)
                self.discard.append(given)
                if self.log:
                    self._emit(CardTaken(seat, "discard", taken.code, shown=True))
                    self._emit(CardDiscarded(seat, given.code))
            else:
                given = self._take_from_hand(seat, action.value)
                taken = self._draw()
                self.hands[seat].append(taken)
                self.discard.append(given)
                if self.log:
                    self._emit(CardTaken(seat, "draw", taken.code))
                    self._emit(CardDiscarded(seat, given.code))

    # ------------------------------------------------------------------ betting, spike
    def _begin_betting(self) -> None:
        if not self._open_betting(self._left_of(self.dealer)):
            self._spike_phase()

    def _fold(self, s: int) -> None:
        super()._fold(s)
        self.muck.extend(self.hands[s])
        self.hands[s] = []
        self.public_ids[s].clear()

    def _spike_phase(self) -> None:
        self.phase = "spike"
        self.to_act = None
        d1 = self.rng.randrange(6) + 1
        d2 = self.rng.randrange(6) + 1
        self.last_dice = (d1, d2)
        shift = d1 == d2
        self._emit(DiceRolled((d1, d2), shift, self.dealer))
        if shift:
            self._sabacc_shift()
        self._end_of_round()

    def _end_of_round(self) -> None:
        if self.round < self._rounds():
            self.round += 1
            self._begin_card_phase()
        else:
            self._showdown()

    def _sabacc_shift(self) -> None:
        order = self._order_from(self._left_of(self.dealer))
        sizes = {s: len(self.hands[s]) for s in order}
        for s in order:
            for card in self.hands[s]:
                self.discard.append(card)
                if self.log:
                    self._emit(CardDiscarded(s, card.code, "discard"))
            self.hands[s] = []
            self.public_ids[s].clear()
        for s in order:
            new = [self._draw() for _ in range(sizes[s])]
            self.hands[s] = new
            if self.log:
                self._emit(Dealt(s, len(new), tuple(c.code for c in new), "shift"))
        self._flip_after_shift()

    def _flip_after_shift(self) -> None:
        if not self._can_draw():  # every other card is in a hand (8 seats at hand_cap 8)
            return
        card = self._draw()
        self.discard.append(card)
        self._emit(Flipped(card.code))

    # ------------------------------------------------------------------ protocol hooks
    def _compute_legal(self) -> Legal:
        seat = self.to_act
        assert seat is not None
        if self.phase == "betting":
            return self._betting_legal(seat)
        return self._card_legal(seat)

    def _perform(self, seat: int, action: Action) -> None:
        if self.phase == "betting":
            done = self._betting_act(seat, action)
            if self._all_junked_win():
                return
            if done:
                self._spike_phase()
            else:
                self._legal = None
            return
        self._card_act(seat, action)
        self._next_card_turn()

    # ------------------------------------------------------------------ showdown
    def _tie_card(self) -> Card | None:
        """A blind-draw card: the draw top (reshuffling if needed), then face up on the discard
        pile; None when no card can be drawn."""
        if not self._can_draw():
            return None
        card = self._draw()
        self.discard.append(card)
        return card

    # ------------------------------------------------------------------ the engines' seam
    def snapshot(self) -> SpikeSnapshot:
        """The whole state as plain data (:class:`SpikeSnapshot`), RNG state and logs included:
        what :meth:`from_snapshot` and the compiled core's ``from_snapshot`` rebuild. Corellian
        Spike only (Surabat Cycle, which extends this class, has more piles)."""
        if type(self) is not SpikeGame:
            raise TypeError(f"snapshot() covers Corellian Spike, not {type(self).info.title}")
        if self.custom_table:
            raise TypeError("snapshot() covers a fixed table with equal stacks: use save()")
        _version, internal, gauss = self.rng.getstate()
        if gauss is not None:  # pragma: no cover - the engine never draws Gaussians
            raise ValueError("the game's RNG holds a Gaussian draw a snapshot cannot keep")
        return SpikeSnapshot(
            options=self.options,
            seed=self.seed,
            names=tuple(self.names),
            rng_state=tuple(internal),
            stacks=tuple(self.stacks),
            out=tuple(self.out),
            hand_no=self.hand_no,
            dealer=self.dealer,
            orbit_steps=self.orbit_steps,
            sabacc_pot=self.sabacc_pot,
            carry=self.carry,
            house=self.house,
            to_act=self.to_act,
            phase=self.phase,
            over=self.over,
            hands=tuple(tuple(c.id for c in h) for h in self.hands),
            public_ids=tuple(frozenset(p) for p in self.public_ids),
            in_hand=tuple(self.in_hand),
            folded=tuple(self.folded),
            acted=tuple(self.acted),
            committed=tuple(self.committed),
            round_bet=tuple(self.round_bet),
            hand_start_stacks=tuple(self.hand_start_stacks),
            last_action=tuple(self.last_action),
            dead=self.dead,
            cur_bet=self.cur_bet,
            raises=self.raises,
            draw=tuple(c.id for c in self.draw),
            discard=tuple(c.id for c in self.discard),
            muck=tuple(c.id for c in self.muck),
            round=self.round,
            card_queue=tuple(self.card_queue),
            last_dice=self.last_dice,
            actions=tuple(self.actions),
            hand_results=tuple(self.hand_results),
        )

    @classmethod
    def from_snapshot(cls, snapshot: SpikeSnapshot, *, log: bool = True) -> SpikeGame:
        """A reference game in the state ``snapshot`` describes, going on exactly as the game it
        was taken from. Its event log starts empty (the snapshot keeps the action log and the
        hand results, not the events); ``log=False`` keeps none from here either."""
        if cls is not SpikeGame or type(snapshot.options) is not SpikeOptions:
            raise TypeError("from_snapshot rebuilds a Corellian Spike game from SpikeOptions")
        snapshot.validate()
        cards = cls.info.deck.cards
        game = object.__new__(cls)
        game.options = snapshot.options
        game.seed = snapshot.seed
        game.rng = random.Random()
        game.rng.setstate((3, snapshot.rng_state, None))
        game.names = list(snapshot.names)
        game.n = len(snapshot.names)
        game.stacks = list(snapshot.stacks)
        game.out = list(snapshot.out)
        game.hand_no = snapshot.hand_no
        game.dealer = snapshot.dealer
        game.orbit_steps = snapshot.orbit_steps
        game.sabacc_pot = snapshot.sabacc_pot
        game.carry = snapshot.carry
        game.house = snapshot.house
        game.log = log
        game.events = []
        game._pending = []
        game.actions = list(snapshot.actions)
        game.hand_results = list(snapshot.hand_results)
        game.to_act = snapshot.to_act
        game.phase = snapshot.phase
        game.over = snapshot.over
        game._legal = None
        game.hands = [[cards[i] for i in h] for h in snapshot.hands]
        game.public_ids = [set(p) for p in snapshot.public_ids]
        game.in_hand = list(snapshot.in_hand)
        game.folded = list(snapshot.folded)
        game.acted = list(snapshot.acted)
        game.committed = list(snapshot.committed)
        game.round_bet = list(snapshot.round_bet)
        game.hand_start_stacks = list(snapshot.hand_start_stacks)
        game.last_action = list(snapshot.last_action)
        game.dead = snapshot.dead
        game.cur_bet = snapshot.cur_bet
        game.raises = snapshot.raises
        game.draw = [cards[i] for i in snapshot.draw]
        game.discard = [cards[i] for i in snapshot.discard]
        game.muck = [cards[i] for i in snapshot.muck]
        game.round = snapshot.round
        game.card_queue = list(snapshot.card_queue)
        game.last_dice = snapshot.last_dice
        game._hand_rounds = 0  # asked again of the record
        return game

    # ------------------------------------------------------------------ observation
    def _observation_values(self) -> tuple[Any, ...]:
        """:func:`spike_extra`'s values: ``(round, rounds, discard pile's codes, draw pile size,
        muck size, last dice)`` (the compiled core fills the same)."""
        dice = self.last_dice
        return (
            self.round,
            self._rounds(),
            tuple([c.code for c in self.discard]),
            len(self.draw),
            len(self.muck),
            tuple(dice) if dice else None,
        )

    def _view_extra(self, seat: int) -> tuple[Any, ...]:
        """``(round, rounds, draw pile size, muck size, last dice doubles, discard ids)``: read by
        :data:`SPIKE_FEATURES` (the compiled core's ``seat_view`` builds the same)."""
        dice = self.last_dice
        return (
            self.round,
            self._rounds(),
            len(self.draw),
            len(self.muck),
            dice is not None and dice[0] == dice[1],
            bytes([c.id for c in self.discard]),
        )

    def _hidden_extra(self) -> dict[str, Any]:
        return {"draw": [c.code for c in self.draw], "muck": [c.code for c in self.muck]}


def evaluate(options: Options, cards: list[Card]) -> HandValue:
    """Spike hand value (options do not change Spike's ranking)."""
    return evaluate_spike([c.value for c in cards])


def _spike_writer(at: Layout) -> ExtraWriter:
    """Writes Spike's blocks from :meth:`SpikeGame._view_extra`'s tuple."""
    o = at.offsets
    rnd_at, top_at, pile_at, piles_at = o["round"], o["discard_top"], o["discard_pile"], o["piles"]
    vid = at.value_of
    deck = at.deck_size

    def write(f: MutableSequence[float], extra: tuple[Any, ...]) -> None:
        rnd, rounds, ndraw, nmuck, dbl, discard = extra
        f[rnd_at] = rnd / rounds
        if rnd >= rounds:
            f[rnd_at + 1] = 1.0
        if discard:
            f[top_at + vid[discard[-1]]] = 1.0
            for c in discard:
                f[pile_at + vid[c]] += 1.0
        f[piles_at] = ndraw / deck
        f[piles_at + 1] = nmuck / deck
        if dbl:
            f[piles_at + 2] = 1.0

    return write


def _spike_from_observation(obs: Mapping[str, Any], ids: Mapping[str, int]) -> tuple[Any, ...]:
    return (
        obs["round"],
        obs["rounds"],
        obs["draw_pile"],
        obs["mucked"],
        doubles(obs["dice"]),
        card_ids(obs["discard_pile"], ids),
    )


#: Corellian Spike's RL feature spec (the same on both engines).
SPIKE_FEATURES = FeatureSpec(
    phases=("card", "betting"),
    ranks=13,
    total_scale=10.0,
    blocks=(
        Block("round", 2),  # round / rounds, last round
        Block("discard_top", "values"),  # one-hot
        Block("discard_pile", "values", high="copies"),  # counts
        Block("piles", 2),  # draw pile and muck sizes / deck size
        Block("shift", 1),  # the last spike dice were doubles
    ),
    writer=_spike_writer,
    from_observation=_spike_from_observation,
    env_name="spike",
)


SPIKE_RULES = """\
Corellian Spike (Sabacc For Charity rules). Goal: a hand totalling 0, or as close to 0 as you can.
62 cards: +1..+10 and -1..-10 in three staves, plus two Sylops (0). Everyone antes to the main pot
and the sabacc pot; 2 cards each; one card flipped to start the discard pile.
3 rounds, each: Card phase (stand, gain the draw top, or swap a card with the discard top or draw
top), Betting phase (check, bet, call, raise, junk), Spike phase (two dice: doubles = Sabacc Shift,
everyone's hand is replaced by the same number of new cards).
Showdown: best hand takes the main pot; if it totals 0 it also takes the sabacc pot.
Ranks, best first: Pure Sabacc (0 0), Full Sabacc (+10 +10 -10 -10 0), Fleet, Yee-Haa, Rhylet,
Squadron, Gee Whiz, Straight Khyron, Banthas Wild, Rule of Two, Sabacc (a pair), unranked Sabacc,
Nulrhek (not 0: closest to 0 wins, + beats -). Ties: lower pattern values, more cards, higher sum
of positives, higher single positive, then a blind draw.
"""


def total_zero(hand: HandValue) -> bool:
    """Whether a Spike-family hand totals 0 (and so takes the sabacc pot if it wins)."""
    return hand.total == 0


#: The pots of the Spike family: the best hand takes the main pot, and the sabacc pot too if it
#: totals 0 (otherwise the sabacc pot carries over).
#: The Spike family's own observation fields and how the tables show them.
SPIKE_FIELDS: tuple[Field, ...] = (
    Field("discard_top", "hidden"),  # the discard pile's top: drawn with the pile
    Field("draw_pile", "pile", count="ui.draw_count"),
    Field("discard_pile", "pile", count="ui.discard_pile_count"),
    Field("mucked", "pile"),
    Field("dice", "dice"),
)

SPIKE_POTS = (
    PotRule("main", "the best hand", lambda hand: True),
    PotRule("sabacc", "the best hand, if it totals 0", total_zero, sabacc=True),
)


def _spike_rounds(options: Options, players: int) -> int:
    return int(getattr(options, "rounds", 3))


def load_compiled_core() -> type[Any]:
    """The compiled Corellian Spike engine's game class (ImportError when it is not built)."""
    from sabacc.variants.corellian_spike._corellian_spike_core import SpikeCore

    return SpikeCore


def load_vector_engine() -> type[Any]:
    """The compiled batch engine (many games stepped at once: ``sabacc.apps.rl.vector``);
    ImportError when it is not built."""
    from sabacc.variants.corellian_spike._corellian_spike_core import SpikeVector

    return SpikeVector


#: Tournament levels (S4C style): the hand pot and sabacc pot antes rise together.
SPIKE_LEVELS = LevelPlan(
    schedule=tuple(
        {"ante": a, "sabacc_ante": a} for a in (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40)
    ),
    hands_per_level=12,
)

SpikeGame.info = register(
    VariantInfo(
        name="corellian_spike",
        title="Corellian Spike",
        levels=SPIKE_LEVELS,
        aliases=("spike", "corellian-spike", "corellian"),
        deck=SPIKE_DECK,
        options_type=SpikeOptions,
        game_type=SpikeGame,
        evaluator=evaluate,
        rl_spec=SPIKE_FEATURES,
        actions=betting_kinds(GAIN_KIND, SWAP_DISCARD_KIND, SWAP_DRAW_KIND),
        fields=SPIKE_FIELDS,
        summary="The Sabacc For Charity tournament game from Solo: 62 cards, 3 rounds, spike dice.",
        rules_text=SPIKE_RULES,
        piles=(Pile("draw", False, "draw_pile"), Pile("discard", True, "discard_pile")),
        pots=SPIKE_POTS,
        rounds=_spike_rounds,
        odds=SpikeOdds(),
        bot=SpikeBot(SPIKE_DECK),
        compiled=load_compiled_core,
        vector=load_vector_engine,
        card_art="spike_family/art.js",
        text=SPIKE_TEXT,
        tiebreaks=SPIKE_TIEBREAKS,
        true_ties=(BLIND_DRAW, SPLIT),
        true_tie_option="true_tie",
        chance=(
            ChanceEvent("shuffle", "the deck before the deal; the discard and muck at a reshuffle"),
            ChanceEvent("roll", "the two spike dice after each betting phase", 6),
        ),
    )
)
