"""Kessel Sabacc (RULES.md §4; Star Wars Outlaws, 2024): two families, no betting, shift tokens.

A **round**: fresh shuffles of the Sand and Blood families; each player gets one card of each face
down; one card of each family starts its discard pile. Up to ``turns`` turns; in each, every
player acts once, clockwise from the round's starting player: optionally one shift token
(``token <name> [seat]``), then ``stand`` or ``draw <pile>`` (1 chip from stock into the player's
own round pot; ``draw sand``, ``draw blood``, ``draw sand discard``, ``draw blood discard``),
then ``keep`` (the held card of that family goes face up on its discard pile) or ``discard``
(the drawn card does). Everyone standing in one turn ends the round (``early_end``).

**Reveal**: every hand is shown; each Impostor's owner rolls two dice (the game's seeded RNG) and
chooses one (``impostor 4``); then the best hand(s) take their pot back and every other player
loses their pot and pays a penalty (1 for a Sabacc, else the difference), capped at the stock.
Lost chips leave the game (kept in :attr:`Game.house`, so stock + pots + lost chips is
constant). A player with no chips is eliminated; ``game_end`` is ``last_standing`` or
``rounds:N`` (most chips wins).

The engine's betting machinery is unused: ``committed[s]`` is seat ``s``'s round pot. Token
effects are below (:meth:`KesselGame._play_token`); every decision §4 leaves open is written in
``docs/variants/kessel.md``.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypedDict, TypeVar

from sabacc.core.actions import STAND, Action, Stand
from sabacc.core.cards import Card
from sabacc.core.errors import OptionError
from sabacc.core.events import (
    CardDiscarded,
    CardTaken,
    Dealt,
    Eliminated,
    Flipped,
    HandStarted,
    Paid,
    Reshuffled,
)
from sabacc.core.hands import HandValue
from sabacc.core.options import Options
from sabacc.engine.actions import Field
from sabacc.engine.betting import Legal, Pot
from sabacc.engine.chance import ChanceEvent
from sabacc.engine.game import Game, PotResult
from sabacc.engine.observation import Observation, OwnHandObservation, SeatStatus
from sabacc.engine.observe import ObservationSnapshot, ValueMemo, own_hand
from sabacc.engine.variant import LevelPlan, Pile, PotRule, VariantInfo
from sabacc.variants.kessel.actions import (
    DISCARD_DRAWN,
    DRAWS,
    IMPOSTOR_CHOICES,
    KEEP,
    KESSEL_KINDS,
    PRIME_CHOICES,
    ChipsLost,
    ChipsMoved,
    ChooseImpostor,
    ChoosePrime,
    DiceChoice,
    DiscardDrawn,
    Draw,
    Keep,
    PlayToken,
    TokenPlayed,
    token_actions,
)
from sabacc.variants.kessel.bot import KesselBot
from sabacc.variants.kessel.hands import (
    FAMILIES,
    IMPOSTOR,
    KESSEL_TIEBREAKS,
    PLAIN_RULES,
    KesselDeck,
    Rules,
    hand_value,
    kessel_deck,
    penalty,
    rolling_impostor,
)
from sabacc.variants.kessel.odds import KesselOdds
from sabacc.variants.kessel.rl import KESSEL_FEATURES, kessel_extra
from sabacc.variants.kessel.table import KESSEL_DISPLAY
from sabacc.variants.kessel.text import KESSEL_TEXT
from sabacc.variants.kessel.tokens import (
    TARGETED,
    TOKENS,
    deal_tokens,
    parse_token_setting,
)
from sabacc.variants.registry import register

KesselOptionsT = TypeVar("KesselOptionsT", bound="KesselOptions")


# ------------------------------------------------------------------ observation
#: The card drawn and not yet kept or discarded: the pile it came from, and its face only where
#: it is public (a discard pile) or the viewer drew it.
KesselDrawn = TypedDict("KesselDrawn", {"from": str, "card": str | None})


class KesselRules(TypedDict):
    """The ranking rules of this round, as the tokens played so far left them."""

    major_fraud: bool
    markdown: bool
    cook_the_books: bool
    prime: int | None


class KesselImpostor(TypedDict):
    seat: int
    card: str
    value: int


class KesselPart(TypedDict):
    """Kessel Sabacc's own part of the observation (``docs/variants/kessel.md``).

    Each seat's round pot is its ``committed`` (and ``pots.side`` lists the pots, each with its
    one eligible seat); the lists below are per seat (index = seat). Other seats' unplayed
    tokens are only counted; ``my_tokens`` names this seat's own (None: a spectator).
    """

    turn: int
    turns: int
    starting_player: int
    sand_discard: str | None
    blood_discard: str | None
    sand_discard_pile: list[str]
    blood_discard_pile: list[str]
    draw_sizes: list[int]
    sand_draw: int
    blood_draw: int
    drawn: KesselDrawn | None
    draw_is_free: bool
    rules: KesselRules
    dice: list[int] | None
    impostors: list[KesselImpostor]
    revealed: dict[str, list[str]] | None
    chips_lost: int
    tokens_left: list[int]
    tokens_used: list[list[str]]
    stood: list[bool]
    immune: list[bool]
    embargoed: list[bool]
    my_tokens: list[str] | None


class KesselObservation(Observation, KesselPart):
    """A Kessel Sabacc observation (:meth:`KesselGame.observation`)."""


def kessel_part(
    values: tuple[Any, ...],
    hands: Sequence[Sequence[Card]],
    dealer: int,
    phase: str,
    seat: int | None,
) -> KesselPart:
    """Kessel's keys of ``seat``'s observation from :meth:`KesselGame._observation_values`'s
    tuple (the snapshot's ``part``; both engines fill it) and the hands, button and phase."""
    (turn, turns, sand_pile, blood_pile, sand_draw, blood_draw, drawn_card, drawn_from, to_act,
     free, rules, dice, order, chosen, house, tokens_left, tokens_used, stood, immune,
     embargoed) = values  # fmt: skip
    drawn: KesselDrawn | None = None
    if drawn_card is not None:
        shown = str(drawn_from).endswith("discard") or seat == to_act
        drawn = {"from": str(drawn_from), "card": drawn_card.code if shown else None}
    picks = dict(chosen)
    return {
        "turn": turn,
        "turns": turns,
        "starting_player": dealer,
        "sand_discard": sand_pile[-1] if sand_pile else None,
        "blood_discard": blood_pile[-1] if blood_pile else None,
        # Every card on the discard piles went there face up: all of them are public.
        "sand_discard_pile": list(sand_pile),
        "blood_discard_pile": list(blood_pile),
        "draw_sizes": [sand_draw, blood_draw],
        "sand_draw": sand_draw,  # face down: only the count
        "blood_draw": blood_draw,
        "drawn": drawn,
        "draw_is_free": free,
        "rules": {
            "major_fraud": rules.major_fraud,
            "markdown": rules.markdown,
            "cook_the_books": rules.cook_the_books,
            "prime": rules.prime,
        },
        "dice": list(dice) if dice else None,
        "impostors": [
            {"seat": s, "card": c.code, "value": picks[c.id]}
            for s in order
            for c in hands[s]
            if c.id in picks
        ],
        "revealed": (
            {str(s): [c.code for c in hands[s]] for s in order} if phase == "impostor" else None
        ),
        "chips_lost": house,
        # Per seat (index = seat); a seat's round pot is its ``committed``.
        "tokens_left": [len(t) for t in tokens_left],
        "tokens_used": [list(t) for t in tokens_used],
        "stood": list(stood),
        "immune": list(immune),
        "embargoed": list(embargoed),
        "my_tokens": list(tokens_left[seat]) if seat is not None else None,
    }


def kessel_obs_extra(snap: ObservationSnapshot, seat: int | None) -> KesselPart:
    """Kessel's keys of an observation (:func:`kessel_part` of the snapshot)."""
    return kessel_part(snap.part, snap.hands, snap.dealer, snap.phase, seat)


#: The values the observations' ``you`` and the seat views worked out (a pure function of the
#: cards, the round's rules and the dice chosen for them; the options enter only through the
#: deck, which the cards' codes name).
_VALUES = ValueMemo()


def own_value(cards: Sequence[Card], rules: Rules, chosen: Sequence[tuple[int, int]]) -> HandValue:
    """:func:`hand_value` of ``cards`` under ``rules`` and the Impostor choices ``chosen``
    (``(card id, die)`` pairs), remembered."""
    ids = tuple([c.id for c in cards])
    # The codes too: which card an id names depends on the deck (the options' Impostors, Sylops).
    key = (
        ids,
        tuple([c.code for c in cards]),
        rules,
        tuple([p for p in chosen if p[0] in ids]) if chosen else (),
    )
    value = _VALUES.get(None, key)
    if value is None:
        value = _VALUES.put(None, key, hand_value(list(cards), rules, dict(chosen)))
    return value


def shown_value(
    cards: Sequence[Card],
    rules: Rules,
    chosen: Sequence[tuple[int, int]],
    phase: str,
    dice: Sequence[int] | None,
    rolling: bool,
) -> HandValue:
    """The value a seat is shown for its hand (the observation's ``you`` and the RL seat view
    alike): :func:`own_value`, except while this seat's Impostor has its dice rolled (``rolling``:
    the seat is to act), when that Impostor is valued only among those dice."""
    if phase == "impostor" and dice and rolling:
        card = rolling_impostor(cards, dict(chosen))  # the dice are this Impostor's
        if card is not None:
            return hand_value(list(cards), rules, dict(chosen), {card.id: tuple(dice)})
    return own_value(cards, rules, chosen)


def kessel_you(snap: ObservationSnapshot, seat: int) -> OwnHandObservation:
    """The viewer's hand under this round's rules and Impostor choices: a two-card hand's
    ``total`` is its value's (the difference, 0 for a Sabacc), not the cards' sum."""
    cards = snap.hands[seat]
    if not cards:
        return own_hand(cards, None)
    part = snap.part
    value = shown_value(
        cards, part[10], part[13], snap.phase, part[11], snap.current_player == seat
    )
    own = own_hand(cards, value)
    if len(cards) == 2:
        own["total"] = value.total
    return own


# ------------------------------------------------------------------ options
@dataclass(frozen=True)
class KesselOptions(Options):
    """Kessel Sabacc options (RULES.md §4). No buy-in, antes or final pot: chips only."""

    help: ClassVar[dict[str, str]] = {
        "chips": "starting chips per player (4-10)",
        "turns": "turns per round (each player acts once per turn)",
        "early_end": "the round ends at once when every player stands in the same turn",
        "game_end": "last_standing (the last player with chips wins) | rounds:N (most chips; "
        "hands:N is the same)",
        "shift_tokens": "draft (3 tokens each, dealt by the seed) | none | a comma list of tokens "
        "every player holds (" + ", ".join(TOKENS) + ")",
        "impostors": "Impostors per family (0-3; some tables play 2)",
        "sylops": "Sylops per family (0-3; some tables play 2)",
    }
    unused: ClassVar[tuple[str, ...]] = ("buy_in", "ante", "sabacc_ante", "max_hands", "final_pot")
    presets: ClassVar[dict[str, tuple[str, ...]]] = {
        "game_end": ("last_standing", "rounds:N"),
        "shift_tokens": ("draft", "none"),
    }
    #: shift_tokens: a list of the sixteen tokens every player holds (checkboxes).
    multi: ClassVar[dict[str, tuple[str, ...]]] = {"shift_tokens": TOKENS}
    #: Whole-number options: (smallest, largest) allowed value.
    bounds: ClassVar[dict[str, tuple[int, int | None]]] = {
        "chips": (4, 10),
        "turns": (1, 20),
        "impostors": (0, 3),
        "sylops": (0, 3),
    }

    ante: int = 0
    sabacc_ante: int = 0
    game_end: str = "last_standing"
    chips: int = 8
    turns: int = 3
    early_end: bool = True
    shift_tokens: str = "draft"
    impostors: int = 3
    sylops: int = 1

    def __post_init__(self) -> None:
        for name, (low, high) in self.bounds.items():
            assert high is not None
            _in_range(name, getattr(self, name), low, high)
        if not isinstance(self.early_end, bool):
            raise OptionError(f"option early_end={self.early_end!r}: must be true or false")
        end = self.game_end
        if isinstance(end, str) and end.startswith("hands:"):  # the other variants' spelling
            end = "rounds:" + end[6:]
            object.__setattr__(self, "game_end", end)
        if end != "last_standing" and not (
            end.startswith("rounds:") and end[7:].isdigit() and int(end[7:]) >= 1
        ):
            raise OptionError(f"option game_end={end!r}: must be last_standing or rounds:N")
        for name in self.unused:
            if getattr(self, name) != getattr(KesselOptions, name):
                raise OptionError(f"Kessel Sabacc has no option {name!r}")
        object.__setattr__(self, "shift_tokens", parse_token_setting(self.shift_tokens))

    @classmethod
    def from_mapping(
        cls: type[KesselOptionsT], values: Mapping[str, Any]
    ) -> KesselOptionsT:  # a token list given from Python becomes its text form first
        tokens = values.get("shift_tokens") if values else None
        if isinstance(tokens, list | tuple):
            values = {**values, "shift_tokens": parse_token_setting(tokens)}
        return super().from_mapping(values)

    @property
    def starting_stack(self) -> int:
        return self.chips

    @property
    def hand_limit(self) -> int | None:
        return int(self.game_end[7:]) if self.game_end.startswith("rounds:") else None


def _in_range(name: str, value: object, low: int, high: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise OptionError(
            f"option {name}={value!r}: must be a whole number, at least {low} and {high} or less"
        )


@functools.cache
def _families(deck: KesselDeck) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    return (
        tuple(c for c in deck.cards if c.suit == "s"),
        tuple(c for c in deck.cards if c.suit == "b"),
    )


def _pile(source: str) -> str:
    fam = source.split(" ")[0]
    return f"{fam}_discard" if source.endswith("discard") else f"{fam}_draw"


# ------------------------------------------------------------------ the game
class KesselGame(Game):
    """A game of Kessel Sabacc. ``hands[s]`` is always ``[sand, blood]``."""

    options: KesselOptions
    max_seats: ClassVar[int] = 6
    piles: ClassVar[tuple[str, ...]] = (
        "sand_draw",
        "blood_draw",
        "sand_discard",
        "blood_discard",
        "drawn",
    )
    face_down_piles: ClassVar[tuple[str, ...]] = ("sand_draw", "blood_draw")
    observation_type: ClassVar[type] = KesselObservation
    observation_extra = staticmethod(kessel_obs_extra)  # type: ignore[assignment]
    observation_you = staticmethod(kessel_you)  # type: ignore[assignment]
    #: Per game (not reset each round): each seat's unplayed and played tokens.
    tokens_left: list[list[str]]
    tokens_used: list[list[str]]
    #: The round's ranking rules are a :class:`Rules` (what ``save()`` writes and reads back).
    saved_types: ClassVar[tuple[type, ...]] = (Rules,)

    @property
    def deck(self) -> KesselDeck:
        return kessel_deck(self.options.impostors, self.options.sylops)

    # ------------------------------------------------------------------ round state
    def _reset_hand_state(self) -> None:
        super()._reset_hand_state()
        n = self.n
        self.sand_draw: list[Card] = []
        self.blood_draw: list[Card] = []
        self.sand_discard: list[Card] = []  # face up; the top is the end of the list
        self.blood_discard: list[Card] = []
        self.drawn: list[Card] = []  # the card drawn and not yet kept or discarded
        self.drawn_from: str | None = None
        # seen[v]: ids of cards in other seats' hands that v alone knows (Direct Transaction).
        self.seen: list[set[int]] = [set() for _ in range(n)]
        self.order: list[int] = []  # this round's players, from the starting player
        self.pos = 0
        self.turn = 0
        self.stood = [False] * n  # stood at least once this round
        self.stood_now = [False] * n  # stood in the current turn
        self.embargoed = [False] * n
        self.immune = [False] * n
        self.must_stand = False
        self.token_now = False  # the player to act played a token this turn
        self.free_draw = False
        self.rules: Rules = PLAIN_RULES
        self.chosen: dict[int, int] = {}  # Impostor card id -> chosen die
        self.pending: list[tuple[int, int]] = []  # (seat, Impostor id) still to choose
        self.dice: tuple[int, int] | None = None
        self.end_reason = ""

    def _ante_due(self, seat: int) -> tuple[int, int]:
        return 0, 0

    def _start_hand(self) -> None:
        """Eliminate players without chips, check game end, rotate the start, deal."""
        first = self.hand_no == 0
        if first:
            self.dealer = self.rng.randrange(self.n)
            self.tokens_left = deal_tokens(self.options.shift_tokens, self.n, self.rng)
            self.tokens_used = [[] for _ in range(self.n)]
        for s in range(self.n):
            if not self.out[s] and self.stacks[s] == 0:
                self.out[s] = True
                self._emit(Eliminated(s, 0))
        alive = [s for s in range(self.n) if not self.out[s]]
        limit = self.options.hand_limit
        if len(alive) < 2 or (limit is not None and self.hand_no >= limit):
            self._end_game()
            return
        if not first:
            step = 1
            while self.out[(self.dealer + step) % self.n]:
                step += 1
            self.dealer = (self.dealer + step) % self.n
        self.hand_no += 1
        self._reset_hand_state()
        for s in alive:
            self.in_hand[s] = True
        self._emit(HandStarted(self.hand_no, self.dealer, tuple(alive)))
        self._start_hand_variant()

    def _seat_joined(self, seat: int) -> None:
        """A player who sits down between rounds is dealt shift tokens as the others were at
        the start (the ``draft`` draws them now) and has played none."""
        tokens = deal_tokens(self.options.shift_tokens, 1, self.rng)[0]
        if seat == len(self.tokens_left):
            self.tokens_left.append(tokens)
            self.tokens_used.append([])
        else:
            self.tokens_left[seat] = tokens
            self.tokens_used[seat] = []

    def _start_hand_variant(self) -> None:
        sand_cards, blood_cards = _families(self.deck)
        sand = self._shuffled(sand_cards)
        blood = self._shuffled(blood_cards)
        self.order = self._order_from(self.dealer)
        for s in self.order:
            self.hands[s] = [sand.pop(), blood.pop()]
            if self.log:
                self._emit(Dealt(s, 2, tuple(c.code for c in self.hands[s])))
        self.sand_discard = [sand.pop()]
        self.blood_discard = [blood.pop()]
        self.sand_draw = sand
        self.blood_draw = blood
        if self.log:
            self._emit(Flipped(self.sand_discard[0].code, "sand_discard"))
            self._emit(Flipped(self.blood_discard[0].code, "blood_discard"))
        self.turn = 1
        self.pos = 0
        self._begin_player_turn(self.order[0])

    # ------------------------------------------------------------------ turns
    def _begin_player_turn(self, seat: int) -> None:
        self.phase = "turn"
        self.to_act = seat
        self.token_now = False
        self.free_draw = False
        self.must_stand = self.embargoed[seat]
        self.embargoed[seat] = False
        self._legal = None

    def _next_turn(self) -> None:
        self.pos += 1
        if self.pos >= len(self.order):
            if self.options.early_end and all(self.stood_now[s] for s in self.order):
                self._reveal("all_stood")
                return
            if self.turn >= self.options.turns:
                self._reveal("turns")
                return
            self.turn += 1
            self.pos = 0
            self.stood_now = [False] * self.n
        self._begin_player_turn(self.order[self.pos])

    def _next_player_of(self, seat: int) -> int | None:
        """Who acts after ``seat`` (the player to act) this round; None if nobody does."""
        if self.pos + 1 < len(self.order):
            return self.order[self.pos + 1]
        return self.order[0] if self.turn < self.options.turns else None

    def _drawable(self) -> list[Action]:
        """The draw actions possible now (a pile to draw from), in ``DRAW_SOURCES`` order."""
        sand, blood = self.sand_discard, self.blood_discard
        out: list[Action] = []
        if self.sand_draw or len(sand) >= 2:
            out.append(DRAWS["sand"])
        if self.blood_draw or len(blood) >= 2:
            out.append(DRAWS["blood"])
        if sand:
            out.append(DRAWS["sand discard"])
        if blood:
            out.append(DRAWS["blood discard"])
        return out

    def _turn_legal(self, seat: int) -> Legal:
        fixed: list[Action] = [STAND]
        if not self.must_stand and (self.stacks[seat] >= 1 or self.free_draw):
            fixed.extend(self._drawable())
        if not self.token_now:
            fixed.extend(
                token_actions(seat, self.tokens_left[seat], self.order, self.immune, self.stood)
            )
        return Legal(tuple(fixed))

    def _compute_legal(self) -> Legal:
        seat = self.to_act
        assert seat is not None
        phase = self.phase
        if phase == "turn":
            return self._turn_legal(seat)
        if phase == "draw":
            return Legal((KEEP, DISCARD_DRAWN))
        assert self.dice is not None
        values = sorted(set(self.dice))
        if phase == "impostor":
            return Legal(tuple(IMPOSTOR_CHOICES[v] for v in values))
        return Legal(tuple(PRIME_CHOICES[v] for v in values))

    def _perform(self, seat: int, action: Action) -> None:
        t = type(action)
        if t is PlayToken:
            assert isinstance(action, PlayToken)
            self._play_token(seat, action)
        elif t is Stand:
            self._acted(seat, action)
            self.stood[seat] = True
            self.stood_now[seat] = True
            self._next_turn()
        elif t is Draw:
            assert isinstance(action, Draw)
            self._draw(seat, action)
        elif t is Keep or t is DiscardDrawn:
            self._acted(seat, action)
            self._settle_draw(seat, keep=t is Keep)
            self._next_turn()
        elif t is ChoosePrime:
            assert isinstance(action, ChoosePrime)
            self._acted(seat, action)
            self.rules = dataclasses.replace(self.rules, prime=action.value)
            self.dice = None
            self.phase = "turn"
        else:
            assert isinstance(action, ChooseImpostor)
            self._acted(seat, action)
            _, card_id = self.pending.pop(0)
            self.chosen[card_id] = action.value
            self.dice = None
            self._next_impostor()

    # ------------------------------------------------------------------ cards
    def _family_piles(self, fam: str) -> tuple[list[Card], list[Card]]:
        """(draw pile, discard pile) of a family (``"s"`` or ``"b"``)."""
        if fam == "s":
            return self.sand_draw, self.sand_discard
        return self.blood_draw, self.blood_discard

    def _take_from_draw(self, fam: str) -> Card:
        """The top of a family's draw pile, refilled first if empty (discards but the top)."""
        draw, discard = self._family_piles(fam)
        if not draw:
            top = discard.pop()
            pool = self._shuffled(discard)
            discard[:] = [top]
            draw.extend(pool)
            self._emit(Reshuffled(len(pool)))
        return draw.pop()

    def _discard_card(self, seat: int, card: Card) -> None:
        sand = card.suit == "s"
        (self.sand_discard if sand else self.blood_discard).append(card)
        for known in self.seen:
            known.discard(card.id)
        if self.log:
            self._emit(CardDiscarded(seat, card.code, "sand_discard" if sand else "blood_discard"))

    def _draw(self, seat: int, action: Draw) -> None:
        self._acted(seat, action)
        if not self.free_draw:
            self._to_pot(seat, 1, "draw")
        self.free_draw = False
        fam = action.source[0]
        from_discard = action.source.endswith("discard")
        card = self._family_piles(fam)[1].pop() if from_discard else self._take_from_draw(fam)
        self.drawn = [card]
        self.drawn_from = action.source
        if self.log:
            self._emit(CardTaken(seat, _pile(action.source), card.code, shown=from_discard))
        self.phase = "draw"

    def _settle_draw(self, seat: int, *, keep: bool) -> None:
        card = self.drawn.pop()
        shown = str(self.drawn_from).endswith("discard")
        self.drawn_from = None
        if not keep:
            self._discard_card(seat, card)
            return
        hand = self.hands[seat]
        idx = 0 if card.suit == "s" else 1
        old = hand[idx]
        hand[idx] = card
        self.public_ids[seat].discard(old.id)
        if shown:
            self.public_ids[seat].add(card.id)
        self._discard_card(seat, old)

    # ------------------------------------------------------------------ chips
    def _to_pot(self, seat: int, amount: int, reason: str) -> int:
        """Move up to ``amount`` from ``seat``'s stock into its round pot (capped at stock)."""
        amount = min(amount, self.stacks[seat])
        if amount <= 0:
            return 0
        self.stacks[seat] -= amount
        self.committed[seat] += amount
        if self.log:
            self._emit(Paid(seat, amount, "pot", reason))
        return amount

    def _move(self, seat: int, amount: int, source: str, to: str, reason: str) -> None:
        if amount > 0 and self.log:
            self._emit(ChipsMoved(seat, amount, source, to, reason))

    # ------------------------------------------------------------------ tokens
    def _play_token(self, seat: int, action: PlayToken) -> None:
        """Apply a shift token's effect (RULES.md §4); its decisions are in the docs."""
        name, target = action.token, action.target
        self.tokens_left[seat].remove(name)
        self.tokens_used[seat].append(name)
        self.token_now = True
        self._acted(seat, action)
        self._emit(TokenPlayed(seat, name, target))
        others = [o for o in self.order if o != seat and not self.immune[o]]
        if name == "free_draw":
            self.free_draw = True
        elif name in ("refund", "extra_refund"):
            back = min(2 if name == "refund" else 3, self.committed[seat])
            self.committed[seat] -= back
            self.stacks[seat] += back
            self._move(seat, back, f"round {seat}", f"stock {seat}", name)
        elif name == "embezzlement":
            for o in others:
                if self.committed[o] > 0:
                    self.committed[o] -= 1
                    self.committed[seat] += 1
                    self._move(o, 1, f"round {o}", f"round {seat}", name)
        elif name == "general_tariff":
            for o in others:
                self._to_pot(o, 1, name)
        elif name == "general_audit":
            for o in others:
                if self.stood[o]:
                    self._to_pot(o, 2, name)
        elif name in ("target_tariff", "target_audit"):
            assert target is not None
            self._to_pot(target, 2 if name == "target_tariff" else 3, name)
        elif name == "major_fraud":
            self.rules = dataclasses.replace(self.rules, major_fraud=True)
        elif name == "markdown":
            self.rules = dataclasses.replace(self.rules, markdown=True)
        elif name == "cook_the_books":
            self.rules = dataclasses.replace(self.rules, cook_the_books=True)
        elif name == "prime_sabacc":
            self._roll(seat, name)
            self.phase = "prime"
        elif name == "immunity":
            self.immune[seat] = True
            self.must_stand = False  # an Embargo on this turn no longer binds
            self.embargoed[seat] = False
        elif name == "exhaustion":
            assert target is not None
            self._exhaust(target)
        elif name == "direct_transaction":
            assert target is not None
            self._swap_hands(seat, target)
        else:
            assert name == "embargo"
            nxt = self._next_player_of(seat)
            if nxt is not None and nxt != seat and not self.immune[nxt]:
                self.embargoed[nxt] = True

    def _roll(self, seat: int, purpose: str) -> None:
        rand = self.rng.randrange
        self.dice = (rand(6) + 1, rand(6) + 1)
        self.to_act = seat
        self._emit(DiceChoice(seat, purpose, self.dice))

    def _exhaust(self, target: int) -> None:
        hand = self.hands[target]
        for card in hand:
            self._discard_card(target, card)
        self.public_ids[target].clear()
        self.hands[target] = [self._take_from_draw("s"), self._take_from_draw("b")]
        if self.log:
            self._emit(Dealt(target, 2, tuple(c.code for c in self.hands[target]), "exhaustion"))

    def _swap_hands(self, seat: int, target: int) -> None:
        hands, public = self.hands, self.public_ids
        hands[seat], hands[target] = hands[target], hands[seat]
        public[seat], public[target] = public[target], public[seat]
        # Each of the two knows the hand the other now holds (it was their own).
        self.seen[seat].update(c.id for c in hands[target])
        self.seen[target].update(c.id for c in hands[seat])

    # ------------------------------------------------------------------ reveal and payout
    def _reveal(self, reason: str) -> None:
        self.end_reason = reason
        for s in self.order:
            self.public_ids[s] = {c.id for c in self.hands[s]}
        if not self.rules.major_fraud:
            self.pending = [
                (s, c.id) for s in self.order for c in self.hands[s] if c.value == IMPOSTOR
            ]
        self._next_impostor()

    def _next_impostor(self) -> None:
        if self.pending:
            seat, card_id = self.pending[0]
            self.phase = "impostor"
            card = next(c for c in self.hands[seat] if c.id == card_id)
            self._roll(seat, card.code)
            return
        self._payout()

    def _payout(self) -> None:
        self.dice = None
        self._showdown(self.end_reason)

    def _showdown_seats(self) -> list[int]:
        """This round's players, from the starting player."""
        return list(self.order)

    def _lose_own_pot(self, seat: int, pot: str, amount: int, value: HandValue) -> PotResult:
        """A losing hand's round pot leaves the game, with the hand's penalty (capped at the
        seat's chips)."""
        pen = min(penalty(value), self.stacks[seat])
        self.stacks[seat] -= pen
        self.house += amount + pen
        if self.log:
            self._emit(ChipsLost(seat, amount, pen))
        return PotResult(pot, amount, (), (), f"lost; penalty {pen}")

    # ------------------------------------------------------------------ messages
    def _illegal_message(self, action: Action, legal: Legal) -> str:
        """The engine's message, with the Kessel reason first where there is a specific one."""
        message = super()._illegal_message(action, legal)
        seat = self.to_act
        reason = None
        if seat is not None and type(action) is PlayToken:
            assert isinstance(action, PlayToken)
            reason = self._token_refusal(seat, action)
        elif seat is not None and type(action) is Draw and self.phase == "turn":
            if self.must_stand:
                reason = "an Embargo is on you: you must stand this turn"
            elif self.stacks[seat] == 0 and not self.free_draw:
                reason = "you have no chips left: you must stand"
        if reason is None:
            return message
        return f"{reason}; " + message.split("; ", 1)[1]

    def _token_refusal(self, seat: int, action: PlayToken) -> str | None:
        name, target = action.token, action.target
        if self.phase != "turn":
            return "a token is played at the start of your turn, before you stand or draw"
        if name in self.tokens_used[seat] and name not in self.tokens_left[seat]:
            return f"you have already played {name} (each token is played once per game)"
        if name not in self.tokens_left[seat]:
            return f"you do not hold {name}"
        if self.token_now:
            return "you have played a token this turn already (one per turn)"
        if name not in TARGETED:
            return f"{name} takes no target" if target is not None else None
        if target is None:
            return f"{name} needs a target seat, e.g. 'token {name} {self.order[-1]}'"
        if target == seat or target not in self.order:
            return f"seat {target} is not another player in this round"
        if self.immune[target]:
            return f"{self.names[target]} is immune to other players' tokens this round"
        if name == "target_audit" and not self.stood[target]:
            return f"{self.names[target]} has not stood this round (Target Audit needs that)"
        return None

    # ------------------------------------------------------------------ protocol hooks
    def evaluate(self, cards: Sequence[Card]) -> HandValue:
        """The value of a hand under this round's token rules and Impostor choices."""
        return hand_value(list(cards), self.rules, self.chosen)

    def pots(self) -> list[Pot]:
        """Each player's round pot, which only that player can win back."""
        return [Pot(self.committed[s], (s,)) for s in self.order]

    def _status(self, s: int) -> SeatStatus:
        if self.out[s]:
            return "out"
        if not self.in_hand[s]:
            return "waiting"
        return "all_in" if self.stacks[s] == 0 else "active"  # no chips left to draw with

    def _view_extra(self, seat: int) -> tuple[Any, ...]:
        """Kessel's part of :meth:`seat_view` (:func:`kessel_rl.kessel_extra` of its public
        observation part: the same function reads a JSON observation)."""
        part = kessel_part(self._observation_values(), self.hands, self.dealer, self.phase, seat)
        return kessel_extra(part, seat, self.n)

    def seat_view(self, seat: int) -> Any:
        """As :meth:`Game.seat_view`, with the own total the observation gives (the hand's
        difference, not a sum of card values)."""
        view = super().seat_view(seat)
        hand = self.hands[seat]
        total = (
            shown_value(
                hand,
                self.rules,
                tuple(self.chosen.items()),
                self.phase,
                self.dice,
                self.current_player == seat,
            ).total
            if len(hand) == 2
            else 0
        )
        return (*view[:6], total, *view[7:])

    def _bet_structure(self) -> str:
        return "none"

    def _bet_unit(self) -> int:
        return 1

    def _known_cards(self, viewer: int | None, seat: int) -> list[Card]:
        """Cards everybody saw go into ``seat``'s hand, and those ``viewer`` alone saw there
        (a Direct Transaction: each of the two knows the hand the other now holds)."""
        known = self.seen[viewer] if viewer is not None and viewer != seat else set()
        public = self.public_ids[seat]
        return [c for c in self.hands[seat] if c.id in public or c.id in known]

    def _seen_ids(self) -> tuple[frozenset[int], ...]:
        return tuple([frozenset(k) for k in self.seen]) if any(self.seen) else ()

    def _observation_values(self) -> tuple[Any, ...]:
        """:func:`kessel_part`'s values: ``(turn, turns, Sand discard pile, Blood discard pile (the
        piles' codes),
        Sand draw size, Blood draw size, drawn card, where from, seat to act, free draw, rules,
        dice, order, Impostor choices (id, value) by id, chips lost, tokens left, tokens used,
        stood, immune, embargoed)``."""
        n = self.n
        to_act = self.to_act
        return (
            self.turn,
            self.options.turns,
            tuple([c.code for c in self.sand_discard]),
            tuple([c.code for c in self.blood_discard]),
            len(self.sand_draw),
            len(self.blood_draw),
            self.drawn[0] if self.drawn else None,
            None if self.drawn_from is None else str(self.drawn_from),
            to_act,
            self.free_draw,
            self.rules,
            tuple(self.dice) if self.dice else None,
            tuple(self.order),
            tuple(sorted(self.chosen.items())),
            self.house,
            tuple([tuple(t) for t in self.tokens_left]),
            tuple([tuple(t) for t in self.tokens_used]),
            tuple(self.stood),
            tuple(self.immune),
            tuple([bool(self.embargoed[s] or (s == to_act and self.must_stand)) for s in range(n)]),
        )

    def _hidden_extra(self) -> dict[str, Any]:
        return {
            "sand_draw": [c.code for c in self.sand_draw],
            "blood_draw": [c.code for c in self.blood_draw],
            "sand_discard": [c.code for c in self.sand_discard],
            "blood_discard": [c.code for c in self.blood_discard],
            "drawn": [c.code for c in self.drawn],
            "tokens_left": [list(t) for t in self.tokens_left],
            "seen": [sorted(k) for k in self.seen],
            "state": [
                self.pos,
                self.turn,
                list(self.stood),
                list(self.stood_now),
                list(self.embargoed),
                self.must_stand,
                self.token_now,
                self.pending,
                sorted(self.chosen.items()),
            ],
        }

    def _hidden_slots(self, viewer: int) -> list[tuple[list[Card], int]]:
        """Hidden from ``viewer``: other hands' cards it has not seen, both draw piles and a
        card another player drew face down and has not settled yet."""
        known = self.seen[viewer]
        slots = [(p, i) for p, i in super()._hidden_slots(viewer) if p[i].id not in known]
        if self.drawn and self.to_act != viewer and not str(self.drawn_from).endswith("discard"):
            slots.append((self.drawn, 0))
        return slots

    def _place_family(self, pile: list[Card], i: int) -> str:
        """The family of the card a place holds, as everyone knows it."""
        if pile is self.sand_draw:
            return "s"
        if pile is self.blood_draw:
            return "b"
        if pile is self.drawn:
            return str(self.drawn_from)[0]
        return "s" if i == 0 else "b"  # a hand: [sand, blood]

    def determinize(self, viewer: int, rng: random.Random) -> Game:
        """As :meth:`Game.determinize`, shuffling each family within itself, and dealing the
        other players' unplayed tokens anew (under ``draft``, where they are secret)."""
        new = self.clone(log=False, reseed=rng.getrandbits(64))
        assert isinstance(new, KesselGame)
        slots = new._hidden_slots(viewer)
        unseen = [p[i] for p, i in slots]
        for fam in FAMILIES:
            # A place's family is public (hand position, pile, the pile drawn from).
            places = [(p, i) for p, i in slots if new._place_family(p, i) == fam]
            cards = sorted((c for c in unseen if c.suit == fam), key=lambda c: c.id)
            rng.shuffle(cards)
            for (pile, i), card in zip(places, cards, strict=True):
                pile[i] = card
        if self.options.shift_tokens == "draft":
            for s in range(self.n):
                left = new.tokens_left[s]
                if s != viewer and left:
                    pool = [t for t in TOKENS if t not in new.tokens_used[s]]
                    new.tokens_left[s] = rng.sample(pool, len(left))
        new._legal = None
        return new


def evaluate(options: Options, cards: list[Card]) -> HandValue:
    """The variant's evaluator: a hand under the plain rules (an unrolled Impostor at best)."""
    return hand_value(cards)


@functools.cache
def load_compiled_core() -> type[Any]:
    """The compiled Kessel Sabacc engine's game class (ImportError when it is not built; kept
    once found: a game is made per call in simulations)."""
    from sabacc.variants.kessel._kessel_core import KesselCore

    return KesselCore


def _takes_own_pot(hand: HandValue) -> bool:
    return True  # every best hand takes its own round pot back, whatever it is


#: Kessel's pots: one round pot per player (``round S`` in hand results), which only its owner
#: can win back, with a best hand; a loser's pot leaves the game with the penalty.
KESSEL_POTS = PotRule(
    "round",
    "your own round pot: back to you if yours is a best hand, else lost with a penalty",
    _takes_own_pot,
    per_seat=True,
)


KESSEL_RULES = """\
Kessel Sabacc (Star Wars Outlaws). Two families of 22 cards, Sand and Blood: three of each value
1-6, 3 Impostors (I) and 1 Sylop (0). A hand is one Sand and one Blood card. No betting: you
start with 8 chips; drawing costs 1 chip into your own round pot.
A round: each player is dealt one card of each family; one of each starts its discard pile. Up to
3 turns, each player acting once per turn from the starting player: optionally play one shift
token, then stand, or draw (1 chip) the top of the Sand or Blood draw or discard pile and keep it
(your card of that family is discarded) or discard it. If everyone stands in one turn, the round
ends. Reveal: each Impostor rolls two dice and its owner picks one; a lone Sylop copies the other
card; two Sylops are Pure Sabacc.
Ranking: Pure Sabacc; Sabacc (equal values, 1/1 best, 6/6 worst); then the smaller difference,
then the lower card; equal hands all win. Winners take their pot back; losers lose their pot and
pay 1 chip (Sabacc) or the difference, capped at their stock. No chips: eliminated; the last
player with chips wins.
Shift tokens (3 each, once per game, at the start of your turn, one per turn, effects until the
round ends): free_draw, refund, extra_refund, embezzlement, general_tariff, target_tariff,
general_audit, target_audit, major_fraud, markdown, cook_the_books, prime_sabacc, immunity,
exhaustion, direct_transaction, embargo.
"""

#: Tournament levels: no antes; a level sets the starting chips of the games it starts
#: (a Swiss round, an Arena table) and a round cap on them, both tighter level by level. A
#: freezeout's stacks carry over: its pressure is the chips every round takes out of play.
KESSEL_LEVELS = LevelPlan(
    options=("chips", "game_end"),
    antes=(),
    stack_option="chips",
    schedule=(
        {"chips": 8, "game_end": "last_standing"},
        {"chips": 8, "game_end": "rounds:16"},
        {"chips": 7, "game_end": "rounds:12"},
        {"chips": 6, "game_end": "rounds:10"},
        {"chips": 5, "game_end": "rounds:8"},
        {"chips": 4, "game_end": "rounds:6"},
    ),
    hands_per_level=8,
)

KesselGame.info = register(
    VariantInfo(
        name="kessel",
        title="Kessel Sabacc",
        levels=KESSEL_LEVELS,
        aliases=("kessel-sabacc", "kessel_sabacc"),
        deck=kessel_deck(),
        options_type=KesselOptions,
        game_type=KesselGame,
        evaluator=evaluate,
        min_players=2,
        max_players=6,
        summary="Sand and Blood, one card each; chips on draws, penalties, sixteen shift tokens.",
        rules_text=KESSEL_RULES,
        piles=(
            Pile("sand draw", False, "sand_draw"),
            Pile("blood draw", False, "blood_draw"),
            Pile("sand discard", True, "sand_discard_pile"),
            Pile("blood discard", True, "blood_discard_pile"),
        ),
        pots=(KESSEL_POTS,),
        bet_unit=lambda options: 1,
        card_art="kessel/art.js",
        tiebreaks=KESSEL_TIEBREAKS,
        penalty_events=(ChipsLost,),
        text=KESSEL_TEXT,
        chance=(
            ChanceEvent("shuffle", "the Sand and Blood decks of each round; reshuffles"),
            ChanceEvent("roll", "the dice of an Impostor or a Prime Sabacc choice", 6),
            ChanceEvent("roll", "the starting player of the first round (one of the seats)"),
            ChanceEvent("sample", "each player's shift tokens, drafted at the start"),
        ),
        bot=KesselBot(),
        odds=KesselOdds(),
        compiled=load_compiled_core,
        rl_spec=KESSEL_FEATURES,
        display=KESSEL_DISPLAY,
        actions=KESSEL_KINDS,
        fields=(Field("dice", "dice"), Field("starting_player", "bar"), Field("turn", "bar")),
    )
)
