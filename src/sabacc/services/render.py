"""The one renderer of events: every event's player-facing line, in English or Japanese.

Every front end (the plain prompt, the TUI log, ``sabacc replay``, the web client through the
server) gets its lines from here, so each event is phrased once. Templates come from the message
catalogue (:mod:`sabacc.services.messages`), overridden by the variant's own vocabulary
(:attr:`sabacc.engine.variant.VariantInfo.text`: classic folds and passes, Spike junks and
stands). Lines are written for a viewer: the viewer's own seat is "You" with second-person verbs.

Nothing is hidden: every event has a line, and every credit movement (ante, bet, call, raise,
fees and penalties with their reason, pot awards and splits, carries, returned bets, the final
split) says who moved how much and why. :func:`render_log` joins a betting action with the
payment it made into one line ("Ann calls 5"); :func:`describe_event` phrases a single event.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sabacc.core import events as ev
from sabacc.core.actions import Action, Bet, Call, Check, Junk, Raise, Stand
from sabacc.core.errors import SabaccError
from sabacc.engine.actions import ActionParser, betting_kinds
from sabacc.engine.variant import VariantInfo
from sabacc.services.messages import CATALOGUE, LANGUAGES
from sabacc.variants.classic.actions import CALL_HAND_KIND, EXCHANGE_KIND, CallHand
from sabacc.variants.coruscant_shift.actions import KEEP_KIND
from sabacc.variants.registry import lookup, variant_names
from sabacc.variants.spike_family.actions import (
    GAIN_KIND,
    SWAP_DISCARD_KIND,
    Discard,
    Gain,
    Swap,
)
from sabacc.variants.surabat_cycle.actions import DISCARD_KIND, GAIN_SUN_KIND, SWAP_MOON_KIND

#: The actions the log and the labels tell in the catalogue's words (a variant's other
#: actions are told by its own messages).
parse_action = ActionParser(
    betting_kinds(
        CALL_HAND_KIND,
        GAIN_KIND,
        GAIN_SUN_KIND,
        SWAP_DISCARD_KIND,
        EXCHANGE_KIND,
        SWAP_MOON_KIND,
        DISCARD_KIND,
        KEEP_KIND,
    )
)

__all__ = [
    "LANGUAGES",
    "Vocabulary",
    "action_key",
    "action_label",
    "award_reason",
    "describe_event",
    "event_texts",
    "events_json",
    "events_json_views",
    "glossary_lines",
    "legal_summary",
    "paid_reason",
    "render_log",
    "vocabulary",
]

_ALL_IN = " (all-in)"


@dataclass(frozen=True)
class Vocabulary:
    """The messages of one language for one variant (the variant's own terms first)."""

    lang: str
    variant: VariantInfo | None = None

    def has(self, key: str) -> bool:
        """Whether ``key`` has a template (in this language or, failing that, English)."""
        return key in self.templates

    def has_own(self, key: str) -> bool:
        """Whether this language itself has ``key`` (no English fallback)."""
        return key in self._own_keys

    def variant_has(self, key: str) -> bool:
        """Whether the variant itself declares ``key`` (in this language or in English)."""
        return key in self._variant_keys

    @functools.cached_property
    def _own_keys(self) -> frozenset[str]:
        """The keys of :meth:`has_own` (gathered once: the catalogues do not change)."""
        own = self.variant.text.messages if self.variant is not None else {}
        return frozenset(own.get(self.lang, {})) | frozenset(CATALOGUE.get(self.lang, {}))

    @functools.cached_property
    def _variant_keys(self) -> frozenset[str]:
        """The keys of :meth:`variant_has`."""
        own = self.variant.text.messages if self.variant is not None else {}
        return frozenset(own.get(self.lang, {})) | frozenset(own.get("en", {}))

    def text(self, key: str, **params: Any) -> str:
        """The template ``key`` filled with ``params`` (English, then the key, if untranslated)."""
        found = self.templates.get(key)
        if found is None:
            return key
        return found.format(**params)  # a missing field raises: never "{who}"

    def template(self, key: str) -> str:
        """The raw template of ``key`` (its ``{fields}`` unfilled), as :meth:`text` would use."""
        return self.templates.get(key, key)

    @functools.cached_property
    def templates(self) -> Mapping[str, str]:
        """Every template this vocabulary uses, the first of :meth:`tables` that has a key
        winning (merged once: the catalogues and the variants' texts do not change)."""
        merged: dict[str, str] = {}
        for table in reversed(self.tables()):
            merged.update(table)
        return merged

    def label(self, key: str, **params: Any) -> str:
        """The label of an action key (``"junk"``, ``"swap_draw"``...) in this variant's words."""
        return self.text(f"label.{key}", **params)

    def phase(self, phase: str) -> str:
        """The player-facing name of a phase."""
        key = f"phase.{phase}"
        return self.text(key) if self.has(key) else phase.replace("_", " ").title()

    def hand(self, name: str) -> str:
        """A hand name as this language writes it (classic totals such as ``23`` stay)."""
        key = f"hand.{name}"
        return self.text(key) if self.has(key) else name

    def key_for(self, action: str, default: str) -> str:
        """The keyboard key the variant binds to an action key."""
        if self.variant is not None:
            return self.variant.text.keys.get(action, default)
        return default

    def tables(self) -> list[Mapping[str, str]]:
        """The template tables searched, in order: the variant's, then the catalogue's."""
        own = self.variant.text.messages if self.variant is not None else {}
        tables: list[Mapping[str, str]] = []
        for lang in dict.fromkeys((self.lang, "en")):
            if lang in own:
                tables.append(own[lang])
            if lang in CATALOGUE:
                tables.append(CATALOGUE[lang])
        return tables


@functools.lru_cache(maxsize=64)
def _vocabulary(variant: str | None, lang: str) -> Vocabulary:
    info: VariantInfo | None = None
    if variant is not None:
        try:
            info = lookup(variant)
        except SabaccError:
            info = None
    return Vocabulary(lang if lang in LANGUAGES else "en", info)


def vocabulary(variant: VariantInfo | str | None = None, lang: str = "en") -> Vocabulary:
    """The vocabulary of a variant (its record or name; None: the generic one) in ``lang``."""
    name = variant.name if isinstance(variant, VariantInfo) else variant
    return _vocabulary(name, lang)


# ---------------------------------------------------------------------- reasons
#: Why a seat paid (a ``Paid`` event's ``reason``), by message key. Bets and raises give their
#: action text as the reason ("bet 5"), recognised by parsing it.
_PAID_REASONS: dict[str, str] = {
    "call": "paid.call",
    "gain fee": "paid.gain_fee",
    "swap fee": "paid.swap_fee",
    "fold fee": "paid.fold_fee",
    "bomb out": "paid.bomb_out",
    "caller did not win": "paid.caller_lost",
}

#: Why a pot was won (a ``PotAwarded`` event's ``reason``), as the engines word it.
_AWARD_REASONS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), key)
    for pattern, key in (
        (r"best hand: (?P<hand>.+)", "reason.best_hand"),
        (r"won with (?P<hand>.+)", "reason.won_with"),
        (r"everyone else junked", "reason.all_junked"),
        (r"pots left at game end are split", "reason.game_end"),
        (r"tie on (?P<hand>.+?), split \(no cards left for sudden demise\)", "reason.tie_no_cards"),
        (r"tie on (?P<hand>.+?), all bombed out in sudden demise: split", "reason.tie_all_bombed"),
        (r"tie on (?P<hand>.+?), sudden demise won with (?P<best>.+)", "reason.tie_demise_won"),
        (
            r"tie on (?P<hand>.+?), sudden demise still tied: split with (?P<best>.+)",
            "reason.tie_demise_split",
        ),
    )
)


def _declared(key: str) -> bool:
    """Whether some registered variant declares the message ``key`` (its own reasons)."""
    from sabacc.variants.registry import variant_names

    names = tuple(variant_names())
    found = _DECLARED.get((key, names))
    if found is None:
        found = any(key in lookup(name).text.messages.get("en", {}) for name in names)
        _DECLARED[(key, names)] = found
    return found


#: :func:`_declared`'s answers, per key and set of registered variants.
_DECLARED: dict[tuple[str, tuple[str, ...]], bool] = {}


def paid_reason(reason: str) -> str | None:
    """The message key of a payment's reason, or None for a reason the catalogue lacks (a
    variant's own reasons are its ``paid.<reason>`` messages, spaces as ``_``)."""
    if reason in _PAID_REASONS:
        return _PAID_REASONS[reason]
    own = "paid." + reason.replace(" ", "_")
    if _declared(own):
        return own
    try:
        action = parse_action(reason)
    except SabaccError:
        return None
    if isinstance(action, Bet):
        return "paid.bet"
    if isinstance(action, Raise):
        return "paid.raise"
    return None


def award_reason(reason: str) -> tuple[str, dict[str, str]] | None:
    """The message key and fields of why a pot was won, or None for an unknown reason."""
    for pattern, key in _AWARD_REASONS:
        m = pattern.fullmatch(reason)
        if m:
            return key, m.groupdict()
    own = "reason." + reason.replace(" ", "_")
    return (own, {}) if _declared(own) else None


# ---------------------------------------------------------------------- actions
def action_key(action: Action) -> str:
    """The vocabulary key of an action: its declared kind's name (``stand``, ``gain``,
    ``gain_sun``, ``swap_draw``...), else its kind word."""
    kind = parse_action.kind_of(action)
    if kind is None:
        for name in variant_names():
            kind = lookup(name).parser.kind_of(action)
            if kind is not None:
                break
    return kind.name if kind is not None else action.kind.replace(" ", "_")


def _signed(n: int) -> str:
    return f"{n:+d}"


# ---------------------------------------------------------------------- events
def pot_name(v: Vocabulary, pot: str, owner: Callable[[int], str]) -> str:
    """A pot's name in ``v``'s language: a side pot by its number, a named pot, or a per-seat
    pot ("round 2") with its owner as ``owner(seat)`` names them; else the engine's name."""
    if pot.startswith("side "):
        return v.text("pot.side", n=pot.split(" ", 1)[1])
    key = f"pot.{pot}"
    if v.has(key):
        return v.text(key)
    name, _, seat = pot.rpartition(" ")
    if seat.isdigit() and v.has(f"pot.{name}"):
        return v.text(f"pot.{name}", owner=owner(int(seat)))
    return pot


class _Writer:
    """Phrases events for one viewer, in one vocabulary."""

    def __init__(self, names: Sequence[str], viewer: int | None, vocab: Vocabulary) -> None:
        self.names = names
        self.viewer = viewer
        self.v = vocab
        #: The seats compared with the viewer in the current line (the only way the viewer
        #: enters a line; see :func:`events_json_views`).
        self.named: set[int] = set()
        #: While an event says the action before it (``said_by``): that action's first word,
        #: and the payment it says with it (see :func:`_sayers`).
        self.saying: str | None = None
        self.paying: ev.Paid | None = None

    def own_key(self, key: str) -> tuple[str, dict[str, Any]]:
        """``key`` as the variant says it for the action it tells (``<key>.<action>``) and
        with the payment it tells (``<key>.paid``, the amount as ``amount``)."""
        params: dict[str, Any] = {}
        if self.saying and self.v.variant_has(f"{key}.{self.saying}"):
            key = f"{key}.{self.saying}"
        if self.paying is not None and self.v.variant_has(f"{key}.paid"):
            key = f"{key}.paid"
            params["amount"] = self.paying.amount
        return key, params

    def who(self, seat: int | None, *, subject: bool = True) -> str:
        if seat is None:
            return self.v.text("the_dealer")
        self.named.add(seat)
        if seat == self.viewer:
            return self.v.text("you" if subject else "you.object")
        if 0 <= seat < len(self.names):
            return self.names[seat]
        return self.v.text("seat", n=seat)

    def say(self, key: str, seat: int | None, **params: Any) -> str:
        """``key`` with ``seat`` as subject (the ``.you`` form when it is the viewer)."""
        if seat is not None:
            self.named.add(seat)
        if seat is not None and seat == self.viewer and self.v.has_own(f"{key}.you"):
            key = f"{key}.you"
        return self.v.text(key, who=self.who(seat), **params)

    def cards(self, cards: Sequence[str] | None, count: int) -> str:
        if cards:
            return " ".join(cards)
        return self.v.text("a_card") if count == 1 else self.v.text("cards.count", n=count)

    def card(self, card: str | None) -> str:
        return card if card else self.v.text("a_card")

    def pile(self, pile: str) -> str:
        key = f"pile.{pile}"
        return self.v.text(key) if self.v.has(key) else pile

    def pot(self, pot: str) -> str:
        return pot_name(self.v, pot, lambda seat: self.who(seat, subject=False))

    def term(self, word: str) -> str:
        """A variant's word (a token, a family, a card's role) in this language."""
        key = f"term.{word}"
        return self.v.text(key) if self.v.has(key) else word

    def listing(self, items: Sequence[str]) -> str:
        return self.v.text("list.sep").join(items)

    def award_reason(self, reason: str) -> str:
        found = award_reason(reason)
        if found is None:
            return reason
        key, fields = found
        return self.v.text(key, **{k: self.v.hand(val) for k, val in fields.items()})

    # -------------------------------------------------------------- per event
    def acted(self, event: ev.Acted, paid: int | None = None) -> str:
        text = event.action or event.public
        all_in = text.endswith(_ALL_IN)
        if all_in:
            text = text[: -len(_ALL_IN)]
        line = self._action_line(event.seat, text, paid)
        return line + self.v.text("all_in") if all_in else line

    def _variant_action(self, seat: int, words: list[str]) -> str | None:
        """A variant's own action (``did.<words joined by _>``, or ``did.<first word>`` with
        ``{n}`` a number, ``{target}`` a target seat and ``{arg}`` the rest as a term)."""
        whole = "did." + "_".join(words)
        if self.v.variant_has(whole):
            return self.say(whole, seat)
        key = f"did.{words[0]}"
        if len(words) < 2 or not self.v.variant_has(key):
            return None
        args = words[1:]
        params: dict[str, Any] = {}
        if args[-1].isdigit() and len(args) >= 2 and self.v.variant_has(f"{key}_target"):
            key += "_target"
            params["target"] = self.who(int(args.pop()), subject=False)
        elif args[-1].isdigit() and len(args) == 1:
            params["n"] = args.pop()
        params["arg"] = self.term(" ".join(args)) if args else ""
        return self.say(key, seat, **params)

    def _action_line(self, seat: int, text: str, paid: int | None) -> str:
        words = text.split(" ")
        if text == "exchange":  # a draw-pile swap whose given card stays hidden
            return self.say("did.swap_hidden", seat, pile=self.pile("draw"))
        if len(words) == 2 and words[0] == "swap":  # a swap whose card is not shown
            return self.say("did.swap_hidden", seat, pile=self.pile(words[1]))
        try:
            action = parse_action(text)
        except SabaccError:  # not a core action: the variant's own, or told as it is
            own = self._variant_action(seat, words)
            return own if own is not None else self.say("did.other", seat, action=text)
        if isinstance(action, Gain):
            if action.value is None:
                return self.say("did.gain", seat)
            return self.say("did.gain_card", seat, card=_signed(action.value))
        if isinstance(action, Swap):
            return self.say(
                "did.swap", seat, card=_signed(action.value), pile=self.pile(action.source)
            )
        if isinstance(action, Discard):
            return self.say("did.discard", seat, card=_signed(action.value))
        if isinstance(action, Call):
            if paid is not None:
                return self.say("did.call_paid", seat, paid=paid)
            return self.say("did.call", seat)
        if isinstance(action, Bet):
            return self.say("did.bet", seat, amount=action.amount)
        if isinstance(action, Raise):
            if paid is not None:
                return self.say("did.raise_paid", seat, amount=action.amount, paid=paid)
            return self.say("did.raise", seat, amount=action.amount)
        if isinstance(action, Stand | Check | Junk | CallHand):
            return self.say(f"did.{action_key(action)}", seat)
        return self.say("did.other", seat, action=text)  # pragma: no cover - every kind above

    def paid(self, event: ev.Paid) -> str:
        key = paid_reason(event.reason)
        if key is None:
            return self.say(
                "paid.other", event.seat, amount=event.amount, pot=self.pot(event.pot),
                reason=event.reason,
            )  # fmt: skip
        return self.say(key, event.seat, amount=event.amount)

    def describe(self, event: ev.Event) -> str:
        e = event
        if isinstance(e, ev.HandStarted):
            return self.say("hand_started", e.dealer, hand=e.hand)
        if isinstance(e, ev.Anted):
            part = (
                ""
                if e.main and e.sabacc
                else ".main"
                if e.main
                else ".sabacc"
                if e.sabacc
                else ".none"
            )
            return self.say(f"anted{part}", e.seat, main=e.main, sabacc=e.sabacc)
        if isinstance(e, ev.Dealt):
            key = f"dealt.{e.reason}" if self.v.has(f"dealt.{e.reason}") else "dealt.deal"
            return self.say(key, e.seat, cards=self.cards(e.cards, e.count))
        if isinstance(e, ev.Flipped):
            return self.v.text("flipped", card=e.card, pile=self.pile(e.pile))
        if isinstance(e, ev.Acted):
            return self.acted(e)
        if isinstance(e, ev.CardTaken):
            key, extra = self.own_key("card_taken")
            return self.say(key, e.seat, card=self.card(e.card), pile=self.pile(e.source), **extra)
        if isinstance(e, ev.CardDiscarded):
            key, extra = self.own_key("card_discarded")
            return self.say(key, e.seat, card=e.card, pile=self.pile(e.pile), **extra)
        if isinstance(e, ev.Paid):
            return self.paid(e)
        if isinstance(e, ev.BetReturned):
            return self.say("bet_returned", e.seat, amount=e.amount)
        if isinstance(e, ev.DiceRolled):
            dice = " ".join(map(str, e.dice))
            if e.shift:
                dice = self.v.text("dice.shift", roll=dice)
            return self.say("dice_rolled", e.roller, dice=dice)
        if isinstance(e, ev.Reshuffled):
            return self.v.text("reshuffled", n=e.cards)
        if isinstance(e, ev.Revealed):
            # A hand named by its total (classic's "19") is not said twice ("19 (+19)").
            key = "revealed.total" if e.name == str(e.total) else "revealed"
            return self.say(
                key, e.seat, cards=" ".join(e.cards), hand=self.v.hand(e.name),
                total=_signed(e.total),
            )  # fmt: skip
        if isinstance(e, ev.BlindDraw):
            return self.say("blind_draw", e.seat, card=e.card)
        if isinstance(e, ev.PotAwarded):
            reason = self.award_reason(e.reason)
            pot = self.pot(e.pot)
            if len(e.seats) == 1:
                return self.say("awarded", e.seats[0], pot=pot, amount=e.amount, reason=reason)
            shares = self.listing(
                [
                    self.v.text("share", who=self.who(s, subject=False), amount=share)
                    for s, share in zip(e.seats, e.shares, strict=True)
                ]
            )
            return self.v.text(
                "awarded.split", pot=pot, amount=e.amount, shares=shares, reason=reason
            )
        if isinstance(e, ev.PotCarried):
            if e.pot == "house":
                return self.v.text("carried.house", amount=e.amount)
            return self.v.text("carried", pot=self.pot(e.pot), amount=e.amount)
        if isinstance(e, ev.Eliminated):
            return self.say("eliminated", e.seat, stack=e.stack)
        if isinstance(e, ev.SeatJoined):
            return self.say("seat_joined", e.seat, stack=e.stack)
        if isinstance(e, ev.SeatLeft):
            return self.say("seat_left", e.seat, stack=e.stack)
        if isinstance(e, ev.ChipsAdded):
            return self.say(f"chips_added.{e.reason}", e.seat, amount=e.amount)
        if isinstance(e, ev.HandEnded):
            net = [
                self.v.text("share", who=self.who(s, subject=False), amount=_signed(n))
                for s, n in enumerate(e.net)
                if n
            ]
            if not net:
                return self.v.text("hand_ended.even", hand=e.hand)
            return self.v.text("hand_ended", hand=e.hand, net=self.listing(net))
        if isinstance(e, ev.GameEnded):
            stacks = [
                self.v.text("share", who=self.who(s, subject=False), amount=n)
                for s, n in enumerate(e.stacks)
            ]
            return self.v.text("game_ended", stacks=self.listing(stacks))
        return self.generic(e)

    def generic(self, event: ev.Event) -> str:
        """A variant's own event: template ``<type>.<reason>`` (or ``<type>``) from its text."""
        fields = event.to_dict()
        fields.pop("type")
        reason = fields.get("reason")
        key = f"{event.type}.{reason}" if self.v.has(f"{event.type}.{reason}") else event.type
        seat = fields.pop("seat", None)
        if any(fields.get(name) is None for name in event.private) and self.v.has(f"{key}.hidden"):
            key = f"{key}.hidden"
        lost = fields.get("lost")
        if lost is not None and lost == fields.get("got") and self.v.has(f"{key}.same"):
            key = f"{key}.same"  # a card lost and dealt back: not "11♥ becomes 11♥"
        if fields.get("target") is not None and self.v.has(f"{key}.target"):
            key = f"{key}.target"  # a seat the event acts on
        if fields.get("count") == 1 and seat != self.viewer and self.v.has_own(f"{key}.one"):
            key = f"{key}.one"  # "keeps 1 card", not "1 cards"
        params: dict[str, Any] = {k: "" if v is None else v for k, v in fields.items()}
        for name, value in fields.items():
            if isinstance(value, str):  # a variant's word: its name in this language
                params[name] = self.term(value)
                if self.v.has(f"effect.{value}"):
                    params[f"{name}_effect"] = self.v.text(f"effect.{value}")
            elif isinstance(value, list | tuple) and all(isinstance(x, int) for x in value):
                params[name] = " ".join(map(str, value))
        if isinstance(fields.get("target"), int):
            params["target"] = self.who(fields["target"], subject=False)
        if "card" in fields:
            params["card"] = self.card(fields["card"])
        if not self.v.has(key):
            what = ", ".join(f"{k} {v}" for k, v in params.items() if v != "")
            return self.say("did.other", seat, action=f"{event.type.replace('_', ' ')} {what}")
        return self.say(key, seat, **params)


def describe_event(
    event: ev.Event,
    names: Sequence[str],
    *,
    viewer: int | None = None,
    lang: str = "en",
    variant: VariantInfo | str | None = None,
) -> str:
    """The line of one event, as ``viewer`` (a seat; None: a spectator) reads it in ``lang``."""
    return _Writer(names, viewer, vocabulary(variant, lang)).describe(event)


def _joins(event: ev.Event, nxt: ev.Event | None) -> bool:
    """A bet, call or raise payment that the next event (its action) says with it."""
    if not isinstance(event, ev.Paid) or not isinstance(nxt, ev.Acted) or nxt.seat != event.seat:
        return False
    text = nxt.action or nxt.public
    text = text[: -len(_ALL_IN)] if text.endswith(_ALL_IN) else text
    return event.reason == text or (event.reason == "call" and text == "call")


def _sayers(events: Sequence[ev.Event], vocab: Vocabulary) -> dict[int, tuple[int, int | None]]:
    """The events that say the action before them in full: ``{sayer: (action, payment)}``.

    An action is said by the variant's event ``said_by.<action>`` of the same seat right after
    it (Kessel: ``said_by.token`` is ``token_played``, whose line names the token and its
    effect), or right after that seat's one payment for it when the variant says the two
    together (``<event>.paid``: "You pay 1 chip into your round pot and take 6s from the Sand
    draw pile"): one line per action, the payment's amount in it.
    """
    out: dict[int, tuple[int, int | None]] = {}
    for i, event in enumerate(events):
        if not isinstance(event, ev.Acted):
            continue
        key = "said_by." + (event.action or event.public).split(" ", 1)[0]
        if not vocab.variant_has(key):
            continue
        want = vocab.template(key)
        j, paid = i + 1, None
        if (
            j < len(events)
            and isinstance(events[j], ev.Paid)
            and events[j].seat == event.seat  # type: ignore[attr-defined]
            and vocab.variant_has(f"{want}.paid")
        ):
            j, paid = j + 1, j
        if (
            j < len(events)
            and events[j].type == want
            and getattr(events[j], "seat", None) == event.seat
        ):
            out[j] = (i, paid)
    return out


def render_log(
    events: Sequence[ev.Event],
    names: Sequence[str],
    *,
    viewer: int | None = None,
    lang: str = "en",
    variant: VariantInfo | str | None = None,
) -> list[str | None]:
    """The lines of a run of events, one per event (None: said by the next event's line).

    A betting action's payment and the action itself make one line ("Ann calls 5"); an action
    the variant's next event says in full (``said_by.<action>``) is said by that line; every
    other event has its own line.
    """
    return _render_log(events, names, viewer, vocabulary(variant, lang))


def _render_log(
    events: Sequence[ev.Event],
    names: Sequence[str],
    viewer: int | None,
    vocab: Vocabulary,
    named: list[set[int]] | None = None,
    only: Collection[int] | None = None,
) -> list[str | None]:
    """:func:`render_log`; ``named``, if given, receives for each line the seats it names
    (the viewers who would read it differently: "You" instead of a name); ``only``, if given,
    are the lines to write (the others are None)."""
    writer = _Writer(names, viewer, vocab)
    out: list[str | None] = []
    paid: int | None = None
    sayers = _sayers(events, vocab)
    said = {k for action, payment in sayers.values() for k in (action, payment) if k is not None}
    for i, event in enumerate(events):
        writer.named = set()
        if named is not None:
            named.append(writer.named)
        nxt = events[i + 1] if i + 1 < len(events) else None
        if _joins(event, nxt):
            assert isinstance(event, ev.Paid)
            paid = event.amount
            out.append(None)
            continue
        if (only is not None and i not in only) or i in said:
            out.append(None)
        elif isinstance(event, ev.Acted):
            out.append(writer.acted(event, paid))
        elif i in sayers:
            action, payment = sayers[i]
            acted = events[action]
            assert isinstance(acted, ev.Acted)
            writer.saying = (acted.action or acted.public).split(" ", 1)[0]
            writer.paying = events[payment] if payment is not None else None  # type: ignore[assignment]
            try:
                out.append(writer.describe(event))
            finally:
                writer.saying = writer.paying = None
        else:
            out.append(writer.describe(event))
        paid = None
    return out


def event_texts(
    events: Sequence[ev.Event],
    names: Sequence[str],
    *,
    viewer: int | None = None,
    variant: VariantInfo | str | None = None,
) -> list[dict[str, str | None]]:
    """Each event's line in every language: ``[{"en": ..., "ja": ...}, ...]``."""
    return _event_texts(events, names, viewer, variant)


def _event_texts(
    events: Sequence[ev.Event],
    names: Sequence[str],
    viewer: int | None,
    variant: VariantInfo | str | None,
    named: list[set[int]] | None = None,
    only: Collection[int] | None = None,
) -> list[dict[str, str | None]]:
    """:func:`event_texts`, with :func:`_render_log`'s ``named`` (the union over the
    languages) and ``only``."""
    per_lang: dict[str, list[str | None]] = {}
    for lang in LANGUAGES:
        seen: list[set[int]] | None = [] if named is not None else None
        per_lang[lang] = _render_log(events, names, viewer, vocabulary(variant, lang), seen, only)
        if named is not None and seen is not None:
            if not named:
                named.extend(set() for _ in seen)
            for mine, theirs in zip(named, seen, strict=True):
                mine |= theirs
    return [{lang: per_lang[lang][i] for lang in LANGUAGES} for i in range(len(events))]


def events_json(
    events: Sequence[ev.Event],
    names: Sequence[str],
    *,
    viewer: int | None = None,
    variant: VariantInfo | str | None = None,
) -> list[dict[str, Any]]:
    """Events as ``viewer`` may see them, as JSON dicts with their rendered ``text`` per language.

    This is what the web protocol sends: the client shows ``text[lang]`` and never phrases an
    event itself (a ``None`` text is said by the next event's line).
    """
    shown = [e.visible_to(viewer) for e in events]
    texts = event_texts(shown, names, viewer=viewer, variant=variant)
    return [dict(e.to_dict(), text=t) for e, t in zip(shown, texts, strict=True)]


def events_json_views(
    events: Sequence[ev.Event],
    names: Sequence[str],
    viewers: Iterable[int | None],
    *,
    variant: VariantInfo | str | None = None,
) -> dict[int | None, list[dict[str, Any]]]:
    """:func:`events_json` for several viewers at once: ``{viewer: events_json(..., viewer)}``,
    each exactly what :func:`events_json` gives, computed with much less work.

    The run is rendered once for a spectator. A viewer enters a line only where the line names
    a seat and compares it with the viewer, so a viewer reads the spectator's line wherever
    the event shown is the spectator's and the line does not name the viewer's seat (a line's
    payment joins only its neighbour: those lines are rewritten too). Only the other lines
    are written for that viewer (the actor's, a card owner's); the unchanged event dicts are
    the spectator's (the same objects), and a viewer with no changed line gets the
    spectator's whole list (the same object: encode it once).
    """
    named: list[set[int]] = []
    public = [e.visible_to(None) for e in events]
    texts = _event_texts(public, names, None, variant, named)
    base = [dict(e.to_dict(), text=t) for e, t in zip(public, texts, strict=True)]
    out: dict[int | None, list[dict[str, Any]]] = {}
    last = len(events) - 1
    for viewer in viewers:
        if viewer in out:
            continue
        if viewer is None:
            out[viewer] = base
            continue
        # A private field is known only to the event's seat (core.events): every other viewer
        # is shown the spectator's event, so only the viewer's own events are asked again
        # (and compared only where they came out a different object).
        shown = [
            e.visible_to(viewer) if e.private and getattr(e, "seat", None) == viewer else p
            for e, p in zip(events, public, strict=True)
        ]
        changed = {
            i
            for i, (mine, theirs) in enumerate(zip(shown, public, strict=True))
            if viewer in named[i] or (mine is not theirs and mine != theirs)
        }
        if not changed:
            out[viewer] = base
            continue
        redo = {j for i in changed for j in (i - 1, i, i + 1) if 0 <= j <= last}
        own = _event_texts(shown, names, viewer, variant, None, redo)
        out[viewer] = [
            dict(shown[i].to_dict(), text=own[i]) if i in redo else base[i]
            for i in range(len(events))
        ]
    return out


def mark_timer(text: Mapping[str, str | None]) -> dict[str, str | None]:
    """A rendered line (per language) marked as a move the turn timer played."""
    return {
        lang: None if line is None else f"{line} {CATALOGUE[lang]['mark.timer']}"
        for lang, line in text.items()
    }


def legal_summary(legal: Mapping[str, Any]) -> list[str]:
    """The legal actions as short phrases (bet ranges folded): ``["check", "bet 1-97"]``."""
    out = list(legal.get("actions", []))
    for kind in ("bet", "raise"):
        rng = legal.get(kind)
        if rng:
            lo, hi = rng
            out.append(f"{kind} {lo}" if lo == hi else f"{kind} {lo}-{hi}")
    return out


def action_label(text: str, vocab: Vocabulary, *, to_call: int = 0) -> str:
    """A legal action's text (``"junk"``, ``"swap discard -3"``, ``"bet 1-97"``) in the variant's
    words (``"fold"``, ``"swap with discard -3"``, ``"bet 1-97"``)."""
    words = text.split(" ")
    if words[0] in ("bet", "raise") and len(words) == 2:
        return f"{vocab.label(words[0])} {words[1]}"
    try:
        action = parse_action(text)
    except SabaccError:  # not a core action: the variant's own ("draw sand", "impostor 4")
        if vocab.variant_has("label." + "_".join(words)):
            return vocab.label("_".join(words))
        head = "_".join(words[:-1])
        if len(words) >= 2 and words[-1].isdigit() and vocab.variant_has(f"label.{head}"):
            return f"{vocab.label(head)} {words[-1]}"
        return text
    key = action_key(action)
    if isinstance(action, Call) and to_call:
        return vocab.label("call_amount", amount=to_call)
    if isinstance(action, Gain) and action.value is not None:
        return f"{vocab.label(key)} {_signed(action.value)}"
    if isinstance(action, Swap | Discard):
        return f"{vocab.label(key)} {_signed(action.value)}"
    return vocab.label(key)


def vocabulary_json(variant: VariantInfo | str) -> dict[str, Any]:
    """A variant's terms for a client, per language: action labels, phase names, pile names,
    the names of its own observation facts (``fact.<key>``), glossary.

    ``{"labels": {"en": {"junk": "fold", ...}, "ja": {...}}, "phases": {...}, "glossary":
    {"en": [{"name", "definition", "example"}, ...]}}`` (the web client's buttons read it).
    """
    out: dict[str, Any] = {"labels": {}, "phases": {}, "piles": {}, "facts": {}, "glossary": {}}
    sections = (("label.", "labels"), ("phase.", "phases"), ("pile.", "piles"), ("fact.", "facts"))
    for lang in LANGUAGES:
        vocab = vocabulary(variant, lang)
        keys = {k for table in vocab.tables() for k in table}
        for prefix, section in sections:
            out[section][lang] = {
                k[len(prefix) :]: vocab.template(k) for k in sorted(keys) if k.startswith(prefix)
            }
        entries = vocab.variant.text.glossary.get(lang, ()) if vocab.variant else ()
        out["glossary"][lang] = [
            {"name": e.name, "definition": e.definition, "example": e.example} for e in entries
        ]
    return out


def glossary_lines(variant: VariantInfo | str, lang: str = "en") -> list[str]:
    """The variant's named hands as lines for a rules page: a title, then one line per hand."""
    vocab = vocabulary(variant, lang)
    entries = vocab.variant.text.glossary.get(lang, ()) if vocab.variant else ()
    if not entries:
        return []
    return [vocab.text("glossary.title")] + [
        vocab.text("glossary.entry", name=e.name, definition=e.definition, example=e.example)
        for e in entries
    ]
