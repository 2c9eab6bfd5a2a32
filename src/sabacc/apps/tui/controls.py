"""What the human can do now, as key-bound choices: a pure function of the observation.

Every legal action of the observation's compact ``legal`` form becomes reachable from one
:class:`Choice` with a key shown on screen:

* a *direct* choice applies one action (``s`` stand, ``c`` check/call, ``j`` junk...);
* a *pick* choice asks which card (``d`` swap with the discard: then ``1``-``5`` picks the card
  you give away; ``g`` in Surabat: which Sun card to take);
* a *size* choice opens the bet sizer (``b`` bet, ``r`` raise), clamped to the legal range;
* a *subset* choice (``k`` keep, for a variant whose action is "choose a subset of your
  cards"): ``1``-``5`` (or clicks) toggle cards, cards already kept stay, Enter confirms a
  legal subset.

Only legal actions are ever offered, so an illegal choice cannot be made.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from sabacc.apps.tui.view import card_value, side_item_help, side_item_name
from sabacc.core.actions import Action, Bet, Call, Check, Junk, Raise, Stand
from sabacc.core.errors import IllegalActionError
from sabacc.services.render import action_key, vocabulary
from sabacc.variants.classic.actions import CallHand
from sabacc.variants.coruscant_shift.actions import Keep
from sabacc.variants.registry import lookup
from sabacc.variants.spike_family.actions import Discard, Gain, Swap

#: Keys free for action kinds nobody planned for (a future variant's new action).
SPARE_KEYS = "fiklouvyz"


@dataclass(frozen=True)
class Option:
    """One pickable card: ``key`` (a digit), the card ``code`` and the ``action`` it makes."""

    key: str
    code: str
    action: Action
    where: str  # "hand" or "sun": which row of cards the digit refers to; "menu": a list
    index: int  # position in that row
    help: str = ""  # a menu entry's one-line effect


@dataclass(frozen=True)
class Choice:
    """An entry of the action bar."""

    key: str
    label: str
    kind: str  # "direct" | "pick" | "size" | "subset"
    action: Action | None = None
    options: tuple[Option, ...] = ()
    subsets: tuple[Keep, ...] = ()  # a subset choice: every legal subset
    prompt: str = ""
    size_kind: str = ""  # "bet" or "raise"
    low: int = 0
    high: int = 0


#: Keys of a menu's entries (a side-hand item to play).
MENU_KEYS = "1234567890abcdefgilmnopqruvwyz"


def build_choices(
    obs: Mapping[str, Any],
    lang: str = "en",
    parse: Callable[[str], Action] | None = None,
) -> list[Choice]:
    """The choices for the observing seat (empty when it is not its turn), labelled in the
    variant's words in ``lang``. ``parse`` reads the legal actions' texts (the game's own
    parser, for a variant with actions of its own)."""
    legal = obs.get("legal") or {}
    if parse is None:
        parse = lookup(str(obs["variant"])).parse_action
    actions: list[Action] = []
    for text in legal.get("actions") or []:
        try:
            actions.append(parse(str(text)))
        except IllegalActionError:  # pragma: no cover - the engine only lists valid actions
            continue
    vocab = vocabulary(str(obs.get("variant", "")) or None, lang)
    you = obs.get("you") or {}
    hand: list[str] = list(you.get("cards") or [])
    hand_values: list[int] = list(you.get("values") or [card_value(c) for c in hand])
    sun: list[str] = list(obs.get("sun") or [])
    to_call = int((obs.get("betting") or {}).get("to_call") or 0)
    legal_set = set(actions)
    choices: list[Choice] = []
    used: set[str] = set()

    def add(choice: Choice) -> None:
        key = choice.key
        if key in used:
            key = next(k for k in SPARE_KEYS if k not in used)
            choice = replace(choice, key=key)
        used.add(key)
        choices.append(choice)

    def hand_pick(make: Callable[[int], Action]) -> tuple[Option, ...]:
        opts = []
        for i, (code, value) in enumerate(zip(hand, hand_values, strict=False)):
            act = make(value)
            if act in legal_set:
                opts.append(Option(str(i + 1), code, act, "hand", i))
        return tuple(opts)

    def pick_or_direct(
        key: str, label: str, prompt: str, options: tuple[Option, ...], verb: str
    ) -> None:
        if not options:
            return
        distinct = {o.action for o in options}
        if len(distinct) == 1:
            only = options[0]
            add(Choice(key, f"{verb} {only.code}", "direct", action=only.action))
        else:
            add(Choice(key, label, "pick", options=options, prompt=prompt))

    for a in actions:
        if isinstance(a, Stand):
            add(Choice(vocab.key_for("stand", "s"), vocab.label("stand"), "direct", action=a))
            break
    if any(isinstance(a, Gain) and a.value is None for a in actions):
        gain = next(a for a in actions if a == Gain())
        add(Choice(vocab.key_for("gain", "g"), vocab.label("gain"), "direct", action=gain))
    sun_gains = [a for a in actions if isinstance(a, Gain) and a.value is not None]
    if sun_gains:
        opts = tuple(
            Option(str(i + 1), code, Gain(card_value(code)), "sun", i)
            for i, code in enumerate(sun)
            if Gain(card_value(code)) in legal_set
        )
        pick_or_direct(
            vocab.key_for("gain_sun", "g"),
            vocab.label("gain_sun"),
            vocab.text("ui.pick_sun"),
            opts,
            vocab.text("short.gain_sun"),
        )
    for source, key, prompt in (
        ("discard", "d", vocab.text("ui.pick_discard")),
        ("draw", "e", vocab.text("ui.pick_draw")),
        ("moon", "m", vocab.text("ui.pick_moon")),
    ):
        if any(isinstance(a, Swap) and a.source == source for a in actions):
            name = f"swap_{source}"
            opts = hand_pick(partial(Swap, source))
            verb = vocab.text(f"short.{name}")
            pick_or_direct(vocab.key_for(name, key), vocab.label(name), prompt, opts, verb)
    if any(isinstance(a, Discard) for a in actions):
        pick_or_direct(
            vocab.key_for("discard", "x"),
            vocab.label("discard"),
            vocab.text("ui.pick_discard_card"),
            hand_pick(Discard),
            vocab.text("short.discard"),
        )
    for a in actions:
        if isinstance(a, Check):
            add(Choice(vocab.key_for("check", "c"), vocab.label("check"), "direct", action=a))
        elif isinstance(a, Call):
            label = vocab.label("call_amount", amount=to_call) if to_call else vocab.label("call")
            add(Choice(vocab.key_for("call", "c"), label, "direct", action=a))
        elif isinstance(a, CallHand):
            key = vocab.key_for("call_hand", "c")
            add(Choice(key, vocab.label("call_hand"), "direct", action=a))
    for kind, key in (("bet", "b"), ("raise", "r")):
        rng = legal.get(kind)
        if rng:
            lo, hi = int(rng[0]), int(rng[1])
            key, label = vocab.key_for(kind, key), vocab.label(kind)
            if lo == hi:
                act: Action = Bet(lo) if kind == "bet" else Raise(lo)
                add(Choice(key, f"{label} {lo}", "direct", action=act))
            else:
                add(Choice(key, f"{label} {lo}-{hi}", "size", size_kind=kind, low=lo, high=hi))
    keeps = tuple(a for a in actions if isinstance(a, Keep))
    if keeps:
        label = vocab.text("short.keep") if vocab.has("short.keep") else "keep"
        add(Choice(vocab.key_for("keep", "k"), label, "subset", subsets=keeps))
    for a in actions:
        if isinstance(a, Junk):
            add(Choice(vocab.key_for("junk", "j"), vocab.label("junk"), "direct", action=a))
    # Anything not covered above (a variant's new action): one spare key each.
    covered = {
        a
        for c in choices
        for a in (
            [c.action] if c.action is not None else [*(o.action for o in c.options), *c.subsets]
        )
    }
    display = vocab.variant.display if vocab.variant is not None else None
    side = display.side_hand if display is not None else None
    names = [str(s.get("name", "")) for s in obs.get("seats") or []]
    menu: list[Option] = []
    for a in actions:
        if a in covered:
            continue
        text = str(a)
        words = text.split(" ")
        if side is not None and words[0] == side.action and len(words) >= 2:
            item = words[1]
            label = side_item_name(side, item, lang)
            target = getattr(a, "target", None)
            if isinstance(target, int) and 0 <= target < len(names):
                label += f" → {names[target]}"
            menu.append(
                Option(
                    MENU_KEYS[len(menu) % len(MENU_KEYS)],
                    label,
                    a,
                    "menu",
                    len(menu),
                    side_item_help(side, item, lang),
                )
            )
            continue
        own_key = display.keys.get(text) if display is not None else None
        kind = action_key(a)
        own = display.label(text, lang) if display is not None else None
        label = own or (vocab.label(kind) if vocab.has(f"label.{kind}") else text)
        add(Choice(own_key or vocab.key_for(kind, SPARE_KEYS[0]), label, "direct", action=a))
    if menu and side is not None:
        title = (display.label(side.action, lang) if display is not None else None) or side.action
        prompt = side.title.get(lang) or side.title.get("en", title)
        add(
            Choice(
                vocab.key_for(side.action, "t"),
                title,
                "pick",
                options=tuple(menu),
                prompt=f"{prompt}:",
            )
        )
    return choices


def locked_positions(choice: Choice, hand: Sequence[str]) -> set[int]:
    """Hand positions every legal subset keeps (cards kept before: they cannot be dropped)."""
    if not choice.subsets:
        return set()
    common = set(choice.subsets[0].cards)
    for keep in choice.subsets[1:]:
        common &= set(keep.cards)
    locked: set[int] = set()
    for code in common:
        for i, c in enumerate(hand):
            if c == code and i not in locked:
                locked.add(i)
                break
    return locked


def subset_action(choice: Choice, hand: Sequence[str], chosen: set[int]) -> Keep | None:
    """The legal :class:`Keep` of the chosen hand positions, or None if it is not legal."""
    codes = sorted(hand[i] for i in chosen if 0 <= i < len(hand))
    for keep in choice.subsets:
        if sorted(keep.cards) == codes:
            return keep
    return None


# ---------------------------------------------------------------------- bet sizing
#: The most digits the bet sizer takes (more than any stack; further digits are refused).
MAX_TYPED_DIGITS = 9


@dataclass
class Sizer:
    """The bet sizer: an amount kept inside ``[low, high]`` (typed digits may leave it there).

    ``typed`` holds digits being typed; while it is out of range the bet cannot be confirmed.
    """

    kind: str  # "bet" or "raise"
    low: int
    high: int
    unit: int = 1
    pot: int = 0
    to_call: int = 0
    amount: int = 0
    typed: str = ""
    presets: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.unit = max(1, self.unit)
        if not self.amount:
            self.amount = self.low
        self.amount = self.clamp(self.amount)
        pot_after = self.pot + self.to_call
        self.presets = {
            "min": self.low,
            "half": self.clamp(pot_after // 2),
            "pot": self.clamp(pot_after),
            "max": self.high,
        }

    def clamp(self, n: int) -> int:
        return max(self.low, min(self.high, n))

    @property
    def valid(self) -> bool:
        return not self.typed or self.low <= int(self.typed) <= self.high

    @property
    def value(self) -> int:
        """The amount shown: what is typed, else the stepped amount."""
        return int(self.typed) if self.typed else self.amount

    def step(self, units: int) -> None:
        base = self.clamp(self.value)
        self.typed = ""
        self.amount = self.clamp(base + units * self.unit)

    def preset(self, name: str) -> None:
        self.typed = ""
        self.amount = self.presets[name]

    def type_digit(self, digit: str) -> bool:
        """Append a typed digit; the amount is never changed behind the player's back: past
        the maximum it shows as out of range (and Enter is refused). A digit beyond
        :data:`MAX_TYPED_DIGITS` is refused (False)."""
        typed = (self.typed + digit).lstrip("0")
        if len(typed) > MAX_TYPED_DIGITS:
            return False
        self.typed = typed
        return True

    def backspace(self) -> None:
        self.typed = self.typed[:-1]

    def action(self) -> Action | None:
        """The sized action, or None while the typed amount is out of range."""
        if not self.valid:
            return None
        n = self.value
        return Bet(n) if self.kind == "bet" else Raise(n)


def sizer_for(choice: Choice, obs: Mapping[str, Any]) -> Sizer:
    betting = obs.get("betting") or {}
    return Sizer(
        kind=choice.size_kind,
        low=choice.low,
        high=choice.high,
        unit=int(betting.get("unit") or 1),
        pot=int((obs.get("pots") or {}).get("main") or 0),
        to_call=int(betting.get("to_call") or 0),
    )


def legal_texts(choices: Sequence[Choice]) -> list[str]:
    """Every action the choices can make, as text (sizes as ranges): for tests and help."""
    out: list[str] = []
    for c in choices:
        if c.kind == "direct" and c.action is not None:
            out.append(str(c.action))
        elif c.kind == "pick":
            out.extend(sorted({str(o.action) for o in c.options}))
        else:
            out.append(f"{c.size_kind} {c.low}-{c.high}")
    return out
