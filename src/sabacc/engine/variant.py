"""What a variant declares to the engine and to everything above it: :class:`VariantInfo`.

The engine defines the record; each variant module in :mod:`sabacc.variants` fills one in and
registers it (:mod:`sabacc.variants.registry`). Apps (bots, odds, the CLI, the TUI, the web
server and client) ask the record instead of comparing variant names: the piles and which are
face up, the rounds of a hand, which hands take which pot, the betting unit, the exact-odds model
(:class:`OddsModel`), the heuristic bot's knowledge (:class:`sabacc.engine.bots.BotModel`), the
compiled core if there is one, and the web card art.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sabacc.engine.actions import (
    COMMON_FIELDS,
    ActionKind,
    ActionParser,
    Field,
    betting_kinds,
)
from sabacc.engine.bots import BotModel
from sabacc.engine.chance import ChanceEvent
from sabacc.engine.text import VariantText

if TYPE_CHECKING:
    from sabacc.core.actions import Action
    from sabacc.core.cards import Card, Deck
    from sabacc.core.events import Event
    from sabacc.core.hands import HandValue
    from sabacc.core.options import Options
    from sabacc.engine.features import FeatureSpec
    from sabacc.engine.game import Game

#: A hand given by its card values, evaluated (the odds enumerations work on values).
ValueEvaluator = Callable[[Sequence[int]], "HandValue"]
#: One card option's outcomes: (action text, [(resulting hand, weight)], card known).
CardOption = tuple[str, list[tuple["HandValue", int]], bool]


@dataclass(frozen=True)
class Pile:
    """A pile on the table besides the hands, as apps draw it from an observation.

    A face-up pile's ``key`` holds its card codes, bottom to top (its top is the last); a
    face-down pile's ``key`` holds its card count, and ``known_key`` (if any) the codes this seat
    knows in it (``None`` where unknown). ``spread``: show every card, not only the top.
    """

    name: str  # a generic pile name: "draw", "discard", "sun", "moon", "out"...
    face_up: bool
    key: str
    known_key: str | None = None
    spread: bool = False


@dataclass(frozen=True)
class SeatFact:
    """A per-seat observation field the tables show on each seat: ``obs["seats"][s][key]``, or
    ``obs[key][s]`` where the observation lists it per seat.

    ``label`` per language: a template with ``{value}`` (``"pot {value}"``) for a number, or a
    word for a flag (``flag=True``: shown only while the field is true).
    """

    key: str
    label: Mapping[str, str]
    flag: bool = False


@dataclass(frozen=True)
class SideHand:
    """Things a player holds besides cards and plays by an action (Kessel's shift tokens).

    ``key``: the field of ``obs["you"]`` (or of the observation) listing the seat's unplayed
    items; ``action``: the
    action kind playing one (``"<action> <item>"`` or ``"<action> <item> <target seat>"``);
    ``used_key``: the per-seat field listing played items (public). ``title``, ``names`` and
    ``help`` (a one-line effect) per language; ``help`` is what a button's tooltip says.
    """

    key: str
    action: str
    used_key: str = ""
    title: Mapping[str, str] = field(default_factory=dict)
    names: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    help: Mapping[str, Mapping[str, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class TableDisplay:
    """How the tables (terminal and web) lay out what is the variant's own.

    * ``seat_facts``: per-seat fields shown at each seat (a round pot, a flag such as stood);
    * ``side_hand``: a hand of playable items besides the cards (:class:`SideHand`);
    * ``suit_colours``: suit letter -> colour name (``"gold"``, ``"red"``): the suit colours the
      cards instead of their sign;
    * ``declared_piles``: draw :attr:`VariantInfo.piles` as they are declared (face-down piles as
      a card back with their count, face-up piles by their top card);
    * ``pile_actions``: pile ``key`` -> the action taking from it (a click on the pile);
    * ``keys``: action text -> keyboard key; ``labels``: language -> action text -> label;
    * ``dice_shift``: whether doubles in ``obs["dice"]`` are a Sabacc Shift (Spike) or only
      dice to choose from;
    * ``lost_key``: the observation key counting credits that have left the game (shown beside
      the pots), if the variant has one;
    * ``shown_keys``: observation keys the table already shows elsewhere (the top bar, the
      piles, the pots), so they are not listed again among the other facts;
    * ``kept_key``: the observation key listing the viewer's kept cards (the first cards of
      its hand, Coruscant Shift's kept set), marked in the hand; the hand's value (``you.hand``,
      the kept set's) gives the total shown, not the sum of every card held.
    """

    seat_facts: tuple[SeatFact, ...] = ()
    side_hand: SideHand | None = None
    suit_colours: Mapping[str, str] = field(default_factory=dict)
    declared_piles: bool = False
    pile_actions: Mapping[str, str] = field(default_factory=dict)
    keys: Mapping[str, str] = field(default_factory=dict)
    labels: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    dice_shift: bool = True
    lost_key: str | None = None
    shown_keys: tuple[str, ...] = ()
    kept_key: str | None = None

    def label(self, action: str, lang: str) -> str | None:
        """The declared label of an action text in ``lang`` (English if untranslated)."""
        for table in (self.labels.get(lang, {}), self.labels.get("en", {})):
            if action in table:
                return table[action]
        return None


@dataclass(frozen=True)
class PotRule:
    """Who takes a pot at the showdown: ``takes(hand)`` says whether a showdown winner holding
    ``hand`` takes it (the main pot: every winner); ``rule`` says it in one line.

    ``per_seat``: there is one such pot per seat, named ``"<pot> <seat>"`` in hand results,
    which only its own seat can take (Kessel's round pots: a best hand takes its own back, the
    others' leave the game); the observation's ``pots.side`` lists them, each with its one
    eligible seat.

    ``sabacc``: taking this pot is what players count as "sabacc pots won" (the pot only a
    Sabacc or a special hand takes), in profiles and stats.
    """

    pot: str
    rule: str
    takes: Callable[[HandValue], bool] = field(repr=False)
    per_seat: bool = False
    sabacc: bool = False


def _always(hand: HandValue) -> bool:
    return True


@dataclass(frozen=True)
class TrueTie:
    """How the showdown breaks a true tie (tied hands of equal value for a pot): one of the
    engine's ways, :data:`TRUE_TIES`, which :meth:`sabacc.engine.game.Game._showdown` applies.

    ``name`` is also the message key ``tiebreak.<name>`` players read; ``rule`` says it in one
    line; ``cards``: the way deals cards (the game supplies them: ``Game._tie_card``).
    """

    name: str
    rule: str
    cards: bool = False


#: The tied hands split the pot, odd credits from the dealer's left.
SPLIT = TrueTie("split", "the tied hands split the pot (odd credits from the dealer's left)")
#: Each tied player draws a card blind: closest to 0 wins, + beats -; again while tied; a split
#: when the cards run out (Corellian Spike's official rule).
BLIND_DRAW = TrueTie(
    "blind_draw",
    "each tied player draws a card blind: the closest to 0 wins, + beats -; again while tied",
    cards=True,
)
#: Each tied player is dealt one more card (once per hand) and the best resulting hand that can
#: still win takes the pot; a split if still tied, if all are out, or if the cards run out.
SUDDEN_DEMISE = TrueTie(
    "sudden_demise",
    "each tied player gets one more card; the best resulting hand wins, else a split",
    cards=True,
)
#: Every way the engine breaks a true tie, by name.
TRUE_TIES: Mapping[str, TrueTie] = {t.name: t for t in (SPLIT, BLIND_DRAW, SUDDEN_DEMISE)}


#: The default tournament schedule (:class:`LevelPlan`): antes that rise level by level.
DEFAULT_ANTES: tuple[int, ...] = (1, 2, 3, 4, 6, 8, 10, 15, 20, 30, 40, 60, 80, 100)


@dataclass(frozen=True)
class LevelPlan:
    """What rises from one tournament level to the next (:mod:`sabacc.services.tournament`):
    data a variant declares, never code.

    * ``options``: the options a level may set (``ante``, Coruscant's ``rising_ante``,
      Kessel's ``chips`` and ``game_end``); a level's game is played with them;
    * ``antes``: the options whose sum a seat must hold to be dealt a hand (the bust line);
    * ``stack_option``: the option that is an entry's starting stack (``buy_in``, ``chips``);
    * ``schedule``: the default levels, each the values of (some of) ``options``;
    * ``hands_per_level``: the default length of a level in hands (levels by hands);
    * ``minutes_per_level``: the default length for live play (levels by minutes);
    * ``moving_seat``: the player table balancing moves: ``next_dealer`` (the player who would
      deal next, who has had every position's turn) or ``last_dealer`` (the one who just dealt).
    """

    options: tuple[str, ...] = ("ante", "sabacc_ante")
    antes: tuple[str, ...] = ("ante", "sabacc_ante")
    stack_option: str = "buy_in"
    schedule: tuple[Mapping[str, Any], ...] = tuple(
        {"ante": a, "sabacc_ante": a} for a in DEFAULT_ANTES
    )
    hands_per_level: int = 12
    minutes_per_level: float = 15.0
    moving_seat: str = "next_dealer"


def _no_rounds(options: Options, players: int) -> int | None:
    return None


def _unit_from_options(options: Options) -> int:
    unit = getattr(options, "min_bet", None)
    return int(unit) if unit else max(1, options.ante)


@dataclass(frozen=True)
class CardSituation:
    """What the odds model needs to list a seat's card options (see :class:`OddsModel`).

    ``drawn(base)`` is every ``base + [unseen card]`` hand with its weight (how many unseen
    cards give it); ``want(action)`` says whether an option is asked for (skip the others).
    """

    hand: list[int]
    options: Options
    discard_top: int | None
    sun: tuple[int, ...]
    moon_top: int | None
    evaluate: ValueEvaluator
    drawn: Callable[[list[int]], list[tuple[HandValue, int]]]
    want: Callable[[str], bool]

    @property
    def distinct(self) -> list[int]:
        return sorted(set(self.hand))

    def without(self, value: int) -> list[int]:
        rest = list(self.hand)
        rest.remove(value)
        return rest


class OddsModel:
    """The exact-odds knowledge of a variant, used by :mod:`sabacc.services.odds`.

    The defaults fit any variant: hands are evaluated through the variant's evaluator, grouped
    by name, and the only card option is to draw. A variant overrides what it knows better.
    """

    #: A fast path for enumerations: each value's code in an additive multiset key (index
    #: ``value - key_offset``), and the evaluator of such keys.
    key_codes: Sequence[int] | None = None
    key_offset: int = 0

    def evaluate_key(self, key: int) -> HandValue:  # pragma: no cover - only with key_codes
        raise NotImplementedError

    def value_evaluator(self, info: VariantInfo, options: Options) -> ValueEvaluator:
        """A function evaluating a hand given by its card values under ``options``."""
        by_value: dict[int, list[Card]] = {}
        for card in info.deck.cards:
            by_value.setdefault(card.value, []).append(card)

        def generic(values: Sequence[int]) -> HandValue:
            used: dict[int, int] = {}
            cards = []
            for v in values:
                i = used.get(v, 0)
                used[v] = i + 1
                cards.append(by_value[v][i])
            return info.evaluator(options, cards)

        return generic

    def hand_label(self, hand: HandValue) -> str:
        """The name a distribution groups a hand under."""
        return hand.name

    def card_options(self, situation: CardSituation) -> list[CardOption]:
        """Every card option besides standing, with its outcomes."""
        if situation.want("gain"):
            return [("gain", situation.drawn(list(situation.hand)), False)]
        return []

    # ---- variants whose hands are not multisets of values (Kessel: one card per family)
    # compute from card codes themselves; None (the default): the value-based enumeration.

    #: Face-up discard tops a seat can take (``sabacc odds --discard``): one per discard pile.
    discard_piles: int = 1

    def is_sabacc(self, hand: HandValue) -> bool | None:
        """Whether ``hand`` is a Sabacc where no pot says so (None: ask the sabacc pot rule)."""
        return None

    def deal_weights(
        self, info: VariantInfo, options: Options, cards: int, seen: Sequence[str]
    ) -> list[tuple[HandValue, int]] | None:
        """Every dealt hand of ``cards`` cards, given the codes ``seen``, with its weight."""
        return None

    def observed_hand(
        self, info: VariantInfo, observation: Mapping[str, Any], seen: Sequence[str]
    ) -> tuple[HandValue, list[tuple[HandValue, int]]] | None:
        """The seat's hand valued as the observation stands (the round's rules, the choices
        made, the dice rolled) and every hand it may be up against under the same rules, with
        its weight, given the codes ``seen``; None: the variant's evaluator and deal suffice."""
        return None

    def code_options(
        self,
        info: VariantInfo,
        options: Options,
        hand: Sequence[str],
        seen: Sequence[str],
        tops: Sequence[str] = (),
        rules: Mapping[str, Any] | None = None,
        wanted: Sequence[str] | None = None,
    ) -> tuple[HandValue, list[CardOption]] | None:
        """The current hand and each card option's outcomes (stand first), from codes:
        ``tops`` the face-up cards that can be taken, ``rules`` the variant's round rules."""
        return None

    def observation_options(
        self, info: VariantInfo, observation: Mapping[str, Any]
    ) -> tuple[HandValue, list[CardOption]] | None:
        """As :meth:`code_options`, for the legal card options of an observation."""
        return None


@dataclass(frozen=True)
class VariantInfo:
    """A registered variant: its deck, options type, game class and hand evaluator, and the
    facts every app asks instead of testing the variant's name."""

    name: str
    title: str
    aliases: tuple[str, ...]
    deck: Deck
    options_type: type[Options]
    game_type: type[Game]
    evaluator: Callable[[Options, list[Card]], HandValue]
    min_players: int = 2
    max_players: int = 8
    summary: str = ""
    rules_text: str = field(default="", repr=False)

    # ---- structural facts for apps (bots, odds, CLI, TUI, web) -------------------------------
    #: The piles on the table besides the hands, as the observation shows them.
    piles: tuple[Pile, ...] = ()
    #: Who takes each pot at the showdown, which settles them as declared
    #: (:meth:`sabacc.engine.game.Game._showdown`). The first is the hand pot: ``"main"`` (the
    #: main pot and the side pots, each to the best eligible hand if that hand ``takes`` it,
    #: else carried to the next hand) or a per-seat pot (``per_seat``: each best hand takes its
    #: own back, the others' leave the game). The others go to the hand's overall winners if
    #: their hand ``takes`` it, else carry over; ``"sabacc"``, the game's sabacc pot, is the only
    #: other pot a game keeps.
    pots: tuple[PotRule, ...] = (PotRule("main", "the best hand", _always),)
    #: Rounds of a hand for these options and this many players dealt in (None: the hand is
    #: not played in a fixed number of rounds); the game reads it (:attr:`Game.rounds`).
    rounds: Callable[[Options, int], int | None] = field(default=_no_rounds, repr=False)
    #: The minimum bet and raise increment for these options.
    bet_unit: Callable[[Options], int] = field(default=_unit_from_options, repr=False)
    #: The exact-odds model (:mod:`sabacc.services.odds`).
    odds: OddsModel = field(default_factory=OddsModel, repr=False)
    #: The heuristic bot's knowledge of the variant (:mod:`sabacc.services.bots.policy`).
    bot: BotModel = field(default_factory=BotModel, repr=False)
    #: The compiled engine, if the variant has one: a loader returning its game class, called
    #: as ``cls(options, seed=..., players=...)``; it raises ImportError when it is not built.
    compiled: Callable[[], Callable[..., Any]] | None = field(default=None, repr=False)
    #: The vectorized compiled engine, if the variant has one (:mod:`sabacc.apps.rl.vector`): a
    #: loader returning its class, called as ``cls(num_envs, options, players, game_episode,
    #: table, encoder)`` with the RL action table and observation encoder it must reproduce;
    #: it raises ImportError when it is not built.
    vector: Callable[[], Callable[..., Any]] | None = field(default=None, repr=False)
    #: The web client's card-art ES module: its path under ``sabacc/variants/`` (the variant's
    #: package, or its family's: ``"kessel/art.js"``), served as ``/art/<variant>.js``.
    card_art: str = ""
    #: The variant's player-facing vocabulary (labels, phases, hand names, glossary), EN and JA.
    text: VariantText = field(default_factory=VariantText, repr=False)
    #: What decides between two hands at each position of their :class:`HandValue` key, best
    #: first: ``"rank"`` then the tie-breaks (``"lower_pair"``, ``"closer_to_zero"``...), each a
    #: message key ``tiebreak.<name>`` the showdown explanation (:mod:`sabacc.services.explain`)
    #: says when that position decided.
    tiebreaks: tuple[str, ...] = ("rank",)
    #: How the showdown breaks a true tie (:class:`TrueTie`, one of :data:`TRUE_TIES`): the
    #: first, unless the option named :attr:`true_tie_option` chooses another by its name.
    true_ties: tuple[TrueTie, ...] = (SPLIT,)
    #: The option choosing among :attr:`true_ties` by name (Corellian Spike's ``true_tie``), or
    #: ``""``: the first always.
    true_tie_option: str = ""
    #: The variant's own event classes that are penalties, which a hand's explanation lists
    #: besides penalty payments (Kessel's ``ChipsLost``: a loser's pot and penalty).
    penalty_events: tuple[type[Event], ...] = ()
    #: The RL feature spec (:mod:`sabacc.engine.features`): None, no RL observation layout.
    rl_spec: FeatureSpec | None = field(default=None, repr=False)
    #: How the tables lay out the variant's own things (:class:`TableDisplay`).
    display: TableDisplay = field(default_factory=TableDisplay, repr=False)
    #: The variant's random events (chance mode, :mod:`sabacc.engine.chance`): every chance
    #: node of its games is one of them.
    chance: tuple[ChanceEvent, ...] = ()
    #: The variant's action kinds (:class:`sabacc.engine.actions.ActionKind`), in RL action
    #: table order: its one text parser, the tables' controls, keys and labels come from them.
    actions: tuple[ActionKind, ...] = field(default=betting_kinds(), repr=False)
    #: The observation fields the variant adds and how the tables show each
    #: (:class:`sabacc.engine.actions.Field`).
    fields: tuple[Field, ...] = field(default=(), repr=False)
    #: Its tournament levels: what rises from level to level and the default schedule
    #: (:class:`LevelPlan`; :mod:`sabacc.services.tournament`).
    levels: LevelPlan = field(default_factory=LevelPlan, repr=False)

    @functools.cached_property
    def parser(self) -> ActionParser:
        """The variant's one text parser, built from :attr:`actions`."""
        return ActionParser(self.actions)

    def parse_action(self, text: str | Action) -> Action:
        """The action of ``text`` in this variant; :class:`IllegalActionError` if malformed
        or not one of its kinds."""
        return self.parser(text)

    def action_kind(self, name: str) -> ActionKind | None:
        """The declared kind named ``name``, or None."""
        return next((kind for kind in self.actions if kind.name == name), None)

    def field_show(self, key: str) -> str | None:
        """How the tables show observation field ``key`` (None: not declared)."""
        return next((f.show for f in self.fields if f.key == key), None)

    @functools.cached_property
    def placed_fields(self) -> frozenset[str]:
        """The observation keys the tables show in a place of their own (or not at all): every
        observation's common keys and the declared fields not shown as a fact. Any other
        scalar key is listed among the table's facts."""
        return COMMON_FIELDS | {f.key for f in self.fields if f.show != "fact"}

    def true_tie(self, options: Options) -> TrueTie:
        """The true tie-break these options play."""
        if self.true_tie_option:
            chosen = getattr(options, self.true_tie_option)
            for tie in self.true_ties:
                if tie.name == chosen:
                    return tie
        return self.true_ties[0]

    def pot_rule(self, pot: str) -> PotRule | None:
        """The rule of ``pot``, or None if the variant has no such pot."""
        return next((rule for rule in self.pots if rule.pot == pot), None)
