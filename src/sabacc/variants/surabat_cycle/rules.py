"""Surabat Cycle (docs/rules.md §3, seed 001): Corellian Spike with a Sun/Moon array.

A hand: antes (5 and 5 by default), the array is set (three face-up cards on the **Sun pile**, two
face-down cards on the **Moon pile**), two cards are dealt to each player, then ``rounds`` rounds
(the number of players, 4 with two players) of Card → Betting → Spike → Cycle phases, then the
Spike showdown. Ranks, tie-breakers, betting, pots and the spike dice are Corellian Spike's
(:class:`~sabacc.variants.corellian_spike.rules.SpikeGame`); this module changes the array, the card
actions, the round count and who starts each round.

Card phase actions: ``stand``; ``gain <v>`` takes the face-up Sun card of value ``v`` (the Sun
pile is restocked with three cards the moment its last card is taken); ``swap moon <v>`` puts
your card of value ``v`` face down on the Moon pile and takes the Moon top. At the hand cap a
Gain must be followed by ``discard <v>``, a separate decision of the same player, onto the
discard stack (face up). Junked hands go face down into the discard stack; when the draw deck
runs out the whole discard stack is shuffled into a new draw deck.

Information: the Sun pile and the discard stack's face-up cards are public. A Moon card is known
only to the player who put it there (a card the dealer put there is known to nobody); a player
who takes the Moon top knows it, and so does the player who put it there, who then knows that
card is in the taker's hand (``seen``). Putting a card face down on the Moon hides which card
left the hand, so everyone else forgets what they knew of that hand (even cards everyone saw it
gain from the Sun). Rule decisions are listed in docs/variants/surabat_cycle.md.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableSequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypedDict

from sabacc.core.actions import STAND, Action, Stand
from sabacc.core.cards import Card
from sabacc.core.events import CardDiscarded, CardTaken, Dealt, Event, Flipped, Reshuffled
from sabacc.core.options import Options
from sabacc.engine.actions import Field, betting_kinds
from sabacc.engine.betting import Legal
from sabacc.engine.chance import ChanceEvent
from sabacc.engine.features import Block, ExtraWriter, FeatureSpec, Layout, card_ids, doubles
from sabacc.engine.observation import Observation
from sabacc.engine.observe import ObservationSnapshot
from sabacc.engine.variant import BLIND_DRAW, SPLIT, LevelPlan, Pile, VariantInfo
from sabacc.variants.corellian_spike.rules import (
    SPIKE_DECK,
    SPIKE_FIELDS,
    SPIKE_POTS,
    SpikeGame,
    SpikeOptions,
    evaluate,
)
from sabacc.variants.registry import register
from sabacc.variants.spike_family.actions import Discard, Gain, Swap, swap_action
from sabacc.variants.spike_family.hands import SPIKE_TIEBREAKS
from sabacc.variants.surabat_cycle.actions import (
    DISCARD_KIND,
    GAIN_SUN_KIND,
    SWAP_MOON_KIND,
    discard_action,
    gain_action,
)
from sabacc.variants.surabat_cycle.bot import SurabatBot
from sabacc.variants.surabat_cycle.odds import SurabatOdds
from sabacc.variants.surabat_cycle.text import SURABAT_TEXT

#: Cards put face up on an empty Sun pile (at the start of a hand and on every restock).
SUN_SIZE = 3
#: Cards put face down on the Moon pile at the start of a hand.
MOON_SIZE = 2


class SurabatPart(TypedDict):
    """Surabat Cycle's own part of the observation: the round and the array."""

    round: int
    rounds: int
    starting_player: int | None
    hand_cap: int
    sun: list[str]  # the face-up Sun cards
    moon_count: int
    moon_known: list[str | None]  # bottom to top: a card only where this seat put it
    discard_pile: list[str]  # face up, bottom to top
    discard_stack: int  # discard pile and junked cards under it
    mucked: int
    draw_pile: int
    dice: list[int] | None


class SurabatObservation(Observation, SurabatPart):
    """A Surabat Cycle observation (:meth:`SurabatGame.observation`)."""


def surabat_extra(snap: ObservationSnapshot, seat: int | None) -> SurabatPart:
    """Surabat Cycle's keys of an observation, from the snapshot's ``part`` (both engines fill
    it; :meth:`SurabatGame._observation_values` lists it). A Moon card shows only to the seat
    that put it there (and only while it is still there)."""
    rnd, rounds, starter, cap, sun, moon, owners, discard, muck, draw, dice = snap.part
    if seat is not None and seat in owners:
        known = [code if owner == seat else None for code, owner in zip(moon, owners, strict=True)]
    else:  # the usual case: none of the Moon is the viewer's
        known = [None] * len(moon)
    return {
        "round": rnd,
        "rounds": rounds,
        "starting_player": starter,
        "hand_cap": cap,
        "sun": list(sun),
        "moon_count": len(moon),
        "moon_known": known,
        "discard_pile": list(discard),
        "discard_stack": len(discard) + muck,
        "mucked": muck,
        "draw_pile": draw,
        "dice": list(dice) if dice else None,
    }


@dataclass(frozen=True, slots=True)
class MoonPlaced(Event):
    """A card put face down on the Moon pile.

    ``seat`` put it there (``None``: the dealer, priming the pile or in the Cycle phase). Only
    that seat sees ``card``; a card the dealer placed is seen by nobody (only in the full log).
    """

    type: ClassVar[str] = "moon_placed"
    private: ClassVar[tuple[str, ...]] = ("card",)
    seat: int | None
    card: str | None
    reason: str = "swap"  # "prime", "cycle" or "swap"


@dataclass(frozen=True)
class SurabatOptions(SpikeOptions):
    """Surabat Cycle options (docs/rules.md §3): Spike's, with Surabat defaults."""

    help: ClassVar[dict[str, str]] = {
        **SpikeOptions.help,
        "buy_in": "starting credits per player (Surabat: 500)",
        "ante": "ante to the hand pot each hand; also the betting unit (Surabat: 5)",
        "sabacc_ante": "ante to the sabacc pot each hand (Surabat: 5)",
        "rounds": "rounds per hand (none = the number of players dealt in, 4 with two players)",
        "gain_fee": "credits paid into the hand pot to gain a Sun card",
        "swap_fee": "credits paid into the hand pot to swap with the Moon pile",
        "hand_cap": "maximum hand size (a Gain at the cap must be followed by a discard)",
    }

    buy_in: int | None = 500
    ante: int = 5
    sabacc_ante: int = 5
    # None (automatic) widens Spike's ``rounds: int``; the record's rounds resolve it.
    rounds: int | None = None  # type: ignore[assignment]


class SurabatGame(SpikeGame):
    """A game of Surabat Cycle."""

    options: SurabatOptions
    piles: ClassVar[tuple[str, ...]] = ("draw", "sun", "moon", "discard", "muck")
    observation_type: ClassVar[type] = SurabatObservation
    observation_extra = staticmethod(surabat_extra)  # type: ignore[assignment]

    # ------------------------------------------------------------------ hand state
    def _reset_hand_state(self) -> None:
        super()._reset_hand_state()
        self.sun: list[Card] = []  # face up; the newest card is the end of the list
        self.moon: list[Card] = []  # face down; the top is the end of the list
        self.moon_owner: list[int | None] = []  # who put each Moon card there (None: dealer)
        # seen[v]: ids of cards in *other* seats' hands that v alone (not everyone) knows about.
        self.seen: list[set[int]] = [set() for _ in range(self.n)]
        self.round_seats: list[int] = []  # seats dealt in, from the dealer's left
        self.starting_player: int | None = None

    def _start_hand_variant(self) -> None:
        self.draw = self._shuffled(self.deck.cards)
        self.round_seats = self._order_from(self._left_of(self.dealer))
        # Set the array (seed 001: before the deal), then deal two cards each.
        for _ in range(SUN_SIZE):
            self._add_sun()
        for _ in range(MOON_SIZE):
            self._add_moon("prime")
        order = self.round_seats
        for _ in range(2):
            for s in order:
                self.hands[s].append(self.draw.pop())
        if self.log:
            for s in order:
                self._emit(Dealt(s, 2, tuple(c.code for c in self.hands[s])))
        self.round = 1
        self._begin_card_phase()

    # ------------------------------------------------------------------ piles
    def _can_draw(self) -> bool:
        return bool(self.draw or self.discard or self.muck)

    def _reshuffle(self) -> None:
        """The whole discard stack (face-up discards and junked hands) becomes the draw deck."""
        pool = self._shuffled(self.discard + self.muck)
        self.discard = []
        self.muck = []
        self.draw = pool
        self._emit(Reshuffled(len(pool)))

    def _add_sun(self) -> None:
        if not self._can_draw():
            return
        card = self._draw()
        self.sun.append(card)
        if self.log:
            self._emit(Flipped(card.code, "sun"))

    def _add_moon(self, reason: str) -> None:
        if not self._can_draw():
            return
        card = self._draw()
        self.moon.append(card)
        self.moon_owner.append(None)
        if self.log:
            self._emit(MoonPlaced(None, card.code, reason))

    def _forget(self, ids: set[int]) -> None:
        """Nobody keeps private knowledge of these cards' whereabouts any more."""
        for known in self.seen:
            known -= ids

    def _take_from_hand(self, seat: int, value: int) -> Card:
        """Remove a card of ``value``: a copy everyone knows first, then one somebody knows.

        Taking the best-known copy means that a card shown leaving the hand (a discard) never
        tells anyone that an unknown copy of the same value is still there.
        """
        hand = self.hands[seat]
        public = self.public_ids[seat]
        idx, best = -1, -1
        for i, c in enumerate(hand):
            if c.value != value:
                continue
            if c.id in public:
                score = 2
            elif any(c.id in known for known in self.seen):
                score = 1
            else:
                score = 0
            if score > best:
                idx, best = i, score
                if score == 2:
                    break
        card = hand.pop(idx)
        public.discard(card.id)
        for known in self.seen:
            known.discard(card.id)
        return card

    # ------------------------------------------------------------------ card phase
    def _begin_card_phase(self) -> None:
        self.phase = "card"
        seats = self.round_seats
        start = seats[(self.round - 1) % len(seats)]
        # The start rotates among the seats dealt in; a junked seat passes it to its left.
        order = self._order_from(start)
        self.starting_player = order[0] if order else start
        self.card_queue = order
        self._next_card_turn()

    def _card_legal(self, seat: int) -> Legal:
        opts = self.options
        stack = self.stacks[seat]
        fixed: list[Action] = [STAND]
        if self.sun and stack >= opts.gain_fee:
            fixed.extend(gain_action(v) for v in sorted({c.value for c in self.sun}))
        if self.moon and stack >= opts.swap_fee:
            fixed.extend(
                swap_action("moon", v) for v in sorted({c.value for c in self.hands[seat]})
            )
        return Legal(tuple(fixed))

    def _discard_legal(self, seat: int) -> Legal:
        return Legal(tuple(discard_action(v) for v in sorted({c.value for c in self.hands[seat]})))

    def _card_act(self, seat: int, action: Action) -> None:
        t = type(action)
        if t is Stand:
            self._acted(seat, action)
        elif t is Gain:
            assert isinstance(action, Gain)
            self._gain(seat, action)
        else:
            assert isinstance(action, Swap)
            self._swap_moon(seat, action)

    def _gain(self, seat: int, action: Gain) -> None:
        self._acted(seat, action)
        self._pay(seat, self.options.gain_fee, "dead", "gain fee")
        sun = self.sun
        idx = max(i for i, c in enumerate(sun) if c.value == action.value)  # newest copy
        card = sun.pop(idx)
        self.hands[seat].append(card)
        self.public_ids[seat].add(card.id)
        if self.log:
            self._emit(CardTaken(seat, "sun", card.code, shown=True))
        if not sun:  # restock at once, so the next player has three Sun cards to choose from
            for _ in range(SUN_SIZE):
                self._add_sun()
        if len(self.hands[seat]) > self.options.hand_cap:
            self.phase = "discard"  # the same player must discard back to the cap

    def _swap_moon(self, seat: int, action: Swap) -> None:
        self._acted(seat, action, "swap moon")
        self._pay(seat, self.options.swap_fee, "dead", "swap fee")
        hand = self.hands[seat]
        given = self._take_from_hand(seat, action.value)
        # Nobody else can tell which card went face down: they forget what they knew of the hand.
        self.public_ids[seat].clear()
        self._forget({c.id for c in hand})
        taken = self.moon.pop()
        placer = self.moon_owner.pop()
        hand.append(taken)
        if placer is not None and placer != seat:
            self.seen[placer].add(taken.id)  # who put it there knows where it went
        self.moon.append(given)
        self.moon_owner.append(seat)
        if self.log:
            self._emit(CardTaken(seat, "moon", taken.code))
            self._emit(MoonPlaced(seat, given.code, "swap"))

    def _discard_act(self, seat: int, action: Action) -> None:
        assert isinstance(action, Discard)
        self._acted(seat, action)
        card = self._take_from_hand(seat, action.value)
        self.discard.append(card)
        if self.log:
            self._emit(CardDiscarded(seat, card.code, "discard"))
        self.phase = "card"

    # ------------------------------------------------------------------ betting, spike, cycle
    def _begin_betting(self) -> None:
        start = self.starting_player if self.starting_player is not None else self.round_seats[0]
        if not self._open_betting(start):
            self._spike_phase()

    def _fold(self, s: int) -> None:
        ids = {c.id for c in self.hands[s]}
        super()._fold(s)  # the hand goes face down into the discard stack (``muck``)
        self._forget(ids)

    def _sabacc_shift(self) -> None:
        super()._sabacc_shift()
        for known in self.seen:
            known.clear()

    def _flip_after_shift(self) -> None:
        """Surabat has no face-up discard top to restart: nothing is flipped after a shift."""

    def _end_of_round(self) -> None:
        self._cycle_phase()
        super()._end_of_round()

    def _cycle_phase(self) -> None:
        self.phase = "cycle"
        self.to_act = None
        self._add_sun()
        self._add_moon("cycle")

    # ------------------------------------------------------------------ protocol hooks
    def _compute_legal(self) -> Legal:
        seat = self.to_act
        assert seat is not None
        if self.phase == "betting":
            return self._betting_legal(seat)
        if self.phase == "discard":
            return self._discard_legal(seat)
        return self._card_legal(seat)

    def _perform(self, seat: int, action: Action) -> None:
        if self.phase == "betting":
            super()._perform(seat, action)
            return
        if self.phase == "discard":
            self._discard_act(seat, action)
        else:
            self._card_act(seat, action)
            if self.phase == "discard":
                self._legal = None
                return
        self._next_card_turn()

    # ------------------------------------------------------------------ observation
    def _known_cards(self, viewer: int | None, seat: int) -> list[Card]:
        """Besides the cards everybody saw, the ones ``viewer`` alone saw go into that hand."""
        if viewer is None or viewer == seat or not self.seen[viewer]:
            return super()._known_cards(viewer, seat)
        known = self.seen[viewer]
        public = self.public_ids[seat]
        return [c for c in self.hands[seat] if c.id in public or c.id in known]

    def _seen_ids(self) -> tuple[frozenset[int], ...]:
        return tuple([frozenset(k) for k in self.seen]) if any(self.seen) else ()

    def _observation_values(self) -> tuple[Any, ...]:
        """:func:`surabat_extra`'s values: ``(round, rounds, starting player, hand cap, Sun,
        Moon, Moon owners, discard pile, muck size, draw pile size, last dice)``, the cards as
        their codes."""
        dice = self.last_dice
        return (
            self.round,
            self._rounds(),
            self.starting_player,
            self.options.hand_cap,
            tuple([c.code for c in self.sun]),
            tuple([c.code for c in self.moon]),
            tuple(self.moon_owner),
            tuple([c.code for c in self.discard]),
            len(self.muck),
            len(self.draw),
            tuple(dice) if dice else None,
        )

    def _view_extra(self, seat: int) -> tuple[Any, ...]:
        """``(round, rounds, starting player (offset from ``seat``; -1: none), Sun ids, Moon
        size, Moon ids this seat put there (-1 elsewhere, bottom to top), discard ids, draw
        size, muck size, last dice doubles)``: read by :data:`SURABAT_FEATURES`."""
        dice = self.last_dice
        moon = self.moon
        starter = self.starting_player
        return (
            self.round,
            self._rounds(),
            -1 if starter is None else (starter - seat) % self.n,
            bytes([c.id for c in self.sun]),
            len(moon),
            tuple([c.id if o == seat else -1 for c, o in zip(moon, self.moon_owner, strict=True)]),
            bytes([c.id for c in self.discard]),
            len(self.draw),
            len(self.muck),
            dice is not None and dice[0] == dice[1],
        )

    def _hidden_extra(self) -> dict[str, Any]:
        return {
            "draw": [c.code for c in self.draw],
            "sun": [c.code for c in self.sun],
            "moon": [c.code for c in self.moon],
            "moon_owner": list(self.moon_owner),
            "discard": [c.code for c in self.discard],
            "muck": [c.code for c in self.muck],
            "seen": [sorted(k) for k in self.seen],
        }

    def _hidden_slots(self, viewer: int) -> list[tuple[list[Card], int]]:
        """Hidden from ``viewer``: other hands' cards it has not seen, the draw deck, junked
        hands and the Moon cards it did not put there."""
        known = self.seen[viewer]
        slots = [(pile, i) for pile, i in super()._hidden_slots(viewer) if pile[i].id not in known]
        slots.extend((self.moon, i) for i, o in enumerate(self.moon_owner) if o != viewer)
        return slots


def _surabat_writer(at: Layout) -> ExtraWriter:
    """Writes Surabat's blocks from :meth:`SurabatGame._view_extra`'s tuple."""
    o = at.offsets
    rnd_at, start_at, sun_at, moon_at = o["round"], o["starting_player"], o["sun"], o["moon"]
    known_at, top_at, pile_at, piles_at = (
        o["moon_known"],
        o["moon_top_known"],
        o["discard_pile"],
        o["piles"],
    )
    vid = at.value_of
    deck = at.deck_size

    def write(f: MutableSequence[float], extra: tuple[Any, ...]) -> None:
        rnd, rounds, starter, sun, moon, moon_known, discard, ndraw, nmuck, dbl = extra
        f[rnd_at] = rnd / rounds
        if rnd >= rounds:
            f[rnd_at + 1] = 1.0
        if starter >= 0:
            f[start_at + starter] = 1.0
        for c in sun:
            f[sun_at + vid[c]] += 1.0
        f[moon_at] = moon
        top = -1
        for c in moon_known:
            if c >= 0:
                top = vid[c]
                f[known_at + top] += 1.0
            else:
                top = -1
        if top >= 0:
            f[top_at + top] = 1.0
        for c in discard:
            f[pile_at + vid[c]] += 1.0
        f[piles_at] = ndraw / deck
        f[piles_at + 1] = nmuck / deck
        if dbl:
            f[piles_at + 2] = 1.0

    return write


def _surabat_from_observation(obs: Mapping[str, Any], ids: Mapping[str, int]) -> tuple[Any, ...]:
    starter = obs["starting_player"]
    return (
        obs["round"],
        obs["rounds"],
        -1 if starter is None else (starter - obs["seat"]) % len(obs["seats"]),
        card_ids(obs["sun"], ids),
        obs["moon_count"],
        tuple([ids[c] if c is not None else -1 for c in obs["moon_known"]]),
        card_ids(obs["discard_pile"], ids),
        obs["draw_pile"],
        obs["mucked"],
        doubles(obs["dice"]),
    )


#: Surabat Cycle's RL feature spec.
SURABAT_FEATURES = FeatureSpec(
    phases=("card", "discard", "betting"),
    ranks=13,
    total_scale=10.0,
    blocks=(
        Block("round", 2),  # round / rounds, last round
        Block("starting_player", "seats"),  # one-hot, from the observer
        Block("sun", "values", high="copies"),  # counts
        Block("moon", 1, high="deck"),  # Moon size
        # Moon cards this seat put there, and the Moon top when it put it there.
        Block("moon_known", "values", high="copies", private=True),
        Block("moon_top_known", "values", private=True),
        Block("discard_pile", "values", high="copies"),
        Block("piles", 2),  # draw and muck sizes / deck size
        Block("shift", 1),  # the last dice were doubles
    ),
    writer=_surabat_writer,
    from_observation=_surabat_from_observation,
    env_name="surabat",
)


SURABAT_RULES = """\
Surabat Cycle (Batuu, Galaxy's Edge). Corellian Spike's deck, ranks and tie-breakers with another
array. Goal: a hand totalling 0, or as close to 0 as you can. Buy-in 500; ante 5 to the hand pot
and 5 to the sabacc pot. The array: the draw deck; the Sun pile, 3 cards face up; the Moon pile,
2 cards face down. Everyone is dealt 2 cards.
Rounds per hand = the number of players (4 with two players); the starting player moves one seat
clockwise each round (round 1: left of the dealer). Each round:
- Card phase, from the starting player: stand; gain any face-up Sun card ("gain +3"; when the
  last Sun card is taken, 3 new ones are dealt at once); or swap a card with the Moon top
  ("swap moon +4": your card goes face down on the Moon pile, only you know it). Hand cap 5: a
  gain at the cap must be followed by a discard ("discard -2") onto the discard stack.
- Betting phase, from the starting player: check, bet, call, raise, junk.
- Spike phase: the dealer rolls two spike dice; doubles = Sabacc Shift, every hand is discarded
  and replaced by as many new cards.
- Cycle phase: the dealer adds a card face up to the Sun pile and one face down to the Moon pile.
When the draw deck runs out, the whole discard stack is shuffled into it.
Showdown: closest to 0 wins the hand pot (Spike ranks and tie-breakers); a winner totalling
exactly 0 also takes the sabacc pot, otherwise it carries over.
"""


def surabat_rounds(options: Options, players: int) -> int:
    """Rounds of a hand: the ``rounds`` option, else one per player dealt in (4 with two)."""
    rounds = getattr(options, "rounds", None)
    if rounds is not None:
        return int(rounds)
    return 4 if players == 2 else players


def load_compiled_core() -> type[Any]:
    """The compiled Surabat Cycle engine's game class (``SurabatCore``: the Spike family's
    compiled core built with Surabat's own rules); ImportError when it is not built."""
    from sabacc.variants.surabat_cycle._surabat_cycle_core import SurabatCore

    return SurabatCore


#: Tournament levels: both antes rise from the 500-credit buy-in's 5.
SURABAT_LEVELS = LevelPlan(
    schedule=tuple(
        {"ante": a, "sabacc_ante": a}
        for a in (5, 10, 15, 20, 25, 30, 40, 50, 60, 80, 100, 125, 150, 200)
    ),
    hands_per_level=12,
)

SurabatGame.info = register(
    VariantInfo(
        name="surabat_cycle",
        title="Surabat Cycle",
        levels=SURABAT_LEVELS,
        aliases=("surabat", "surabat-cycle"),
        deck=SPIKE_DECK,
        options_type=SurabatOptions,
        game_type=SurabatGame,
        evaluator=evaluate,
        rl_spec=SURABAT_FEATURES,
        actions=betting_kinds(GAIN_SUN_KIND, SWAP_MOON_KIND, DISCARD_KIND),
        fields=(
            # The discard pile is drawn as a pile here, not counted (its junked cards below it
            # are, as the discard stack).
            *(Field(f.key, f.show) if f.key == "discard_pile" else f for f in SPIKE_FIELDS),
            Field("sun", "pile"),
            Field("moon_count", "pile"),
            Field("moon_known", "hidden"),  # drawn on the Moon pile
            Field("discard_stack", "hidden", count="ui.discards_count"),
            Field("starting_player", "bar"),
            Field("hand_cap", "hidden"),
        ),
        summary="Corellian Spike with a Sun and a Moon pile; one round per player, 500 buy-in.",
        rules_text=SURABAT_RULES,
        piles=(
            Pile("draw", False, "draw_pile"),
            Pile("sun", True, "sun", spread=True),
            Pile("moon", False, "moon_count", known_key="moon_known"),
            Pile("discard", True, "discard_pile"),
        ),
        pots=SPIKE_POTS,
        rounds=surabat_rounds,
        odds=SurabatOdds(),
        bot=SurabatBot(SPIKE_DECK),
        compiled=load_compiled_core,
        card_art="spike_family/art.js",
        text=SURABAT_TEXT,
        tiebreaks=SPIKE_TIEBREAKS,
        true_ties=(BLIND_DRAW, SPLIT),
        true_tie_option="true_tie",
        chance=(
            ChanceEvent("shuffle", "the deck before the deal; the discard and muck at a reshuffle"),
            ChanceEvent("roll", "the two dice of each round (doubles: a Sabacc Shift)", 6),
        ),
    )
)
