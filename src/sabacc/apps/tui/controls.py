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
from typing import Any

from sabacc.apps.tui.view import card_value, side_item_help, side_item_name
from sabacc.core.actions import Action, Bet, Call, Raise
from sabacc.core.cards import signed
from sabacc.core.errors import IllegalActionError
from sabacc.engine.actions import JUNK_KIND, STAND_KIND, ActionKind, Control
from sabacc.services.render import action_key, vocabulary
from sabacc.variants.registry import lookup

#: Keys free for action kinds nobody planned for (a future variant's new action).
SPARE_KEYS = "fiklouvyz"


@dataclass(frozen=True)
class Option:
    """One pickable card: ``key`` (a digit), the card ``code`` and the ``action`` it makes."""

    key: str
    code: str
    action: Action
    where: str  # "hand", or the pile's name ("sun"): the row the digit refers to; "menu": a list
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
    subsets: tuple[Action, ...] = ()  # a subset choice: every legal subset
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
    variant's words in ``lang``. ``parse`` reads the legal actions' texts (default: the
    variant's parser).

    Each legal action is sorted under its declared kind (:class:`ActionKind`), whose control
    shape makes the choice: stand first, then the card kinds in the variant's order (a hand or
    pile card to pick, or one direct action), the betting ones, the amounts, a subset, junk
    last; a kind the shapes above do not cover (a variant's own) gets one key per action.
    """
    info = lookup(str(obs["variant"]))
    if parse is None:
        parse = info.parse_action
    legal = obs.get("legal") or {}
    actions: list[Action] = []
    for text in legal.get("actions") or []:
        try:
            actions.append(parse(str(text)))
        except IllegalActionError:  # pragma: no cover - the engine only lists valid actions
            continue
    vocab = vocabulary(info, lang)
    you = obs.get("you") or {}
    hand: list[str] = list(you.get("cards") or [])
    hand_values: list[int] = list(you.get("values") or [card_value(c) for c in hand])
    to_call = int((obs.get("betting") or {}).get("to_call") or 0)
    legal_set = set(actions)
    by_kind: dict[str, list[Action]] = {}
    kind_of: dict[Action, ActionKind] = {}
    for a in actions:
        kind = info.parser.kind_of(a)
        if kind is not None:
            by_kind.setdefault(kind.name, []).append(a)
            kind_of[a] = kind
    choices: list[Choice] = []
    used: set[str] = set()

    def add(choice: Choice) -> None:
        key = choice.key
        if key in used:
            key = next(k for k in SPARE_KEYS if k not in used)
            choice = replace(choice, key=key)
        used.add(key)
        choices.append(choice)

    def card_action(kind: ActionKind, value: int) -> Action | None:
        return kind.parse((signed(value),), signed(value))

    def hand_pick(kind: ActionKind) -> tuple[Option, ...]:
        opts = []
        for i, (code, value) in enumerate(zip(hand, hand_values, strict=False)):
            act = card_action(kind, value)
            if act is not None and act in legal_set:
                opts.append(Option(str(i + 1), code, act, "hand", i))
        return tuple(opts)

    def pile_pick(kind: ActionKind) -> tuple[Option, ...]:
        opts = []
        for i, code in enumerate(obs.get(kind.pile) or []):
            act = card_action(kind, card_value(code))
            if act is not None and act in legal_set:
                opts.append(Option(str(i + 1), code, act, kind.source, i))
        return tuple(opts)

    def pick_or_direct(kind: ActionKind, prompt: str, options: tuple[Option, ...]) -> None:
        if not options:
            return
        key, label = vocab.key_for(kind.name, kind.key), vocab.label(kind.name)
        distinct = {o.action for o in options}
        if len(distinct) == 1:
            only = options[0]
            verb = vocab.text(f"short.{kind.name}")
            add(Choice(key, f"{verb} {only.code}", "direct", action=only.action))
        else:
            add(Choice(key, label, "pick", options=options, prompt=prompt))

    def direct(kind: ActionKind, action: Action) -> None:
        label = vocab.label(kind.name)
        if isinstance(action, Call) and to_call:
            label = vocab.label("call_amount", amount=to_call)
        add(Choice(vocab.key_for(kind.name, kind.key), label, "direct", action=action))

    def picks_a_card(kind: ActionKind) -> bool:
        return "<card>" in kind.form and kind.control in (Control.CARD, Control.PILE)

    if "stand" in by_kind:
        direct(STAND_KIND, by_kind["stand"][0])
    for kind in info.actions:  # the card kinds, in the variant's order
        if kind.betting or kind.name not in by_kind or kind.name in ("stand", "junk"):
            continue
        if picks_a_card(kind) and kind.control is Control.PILE:
            prompt = vocab.text(f"ui.pick_{kind.source}")
            pick_or_direct(kind, prompt, pile_pick(kind))
        elif picks_a_card(kind):
            which = kind.source or f"{kind.name}_card"
            pick_or_direct(kind, vocab.text(f"ui.pick_{which}"), hand_pick(kind))
        elif kind.control is Control.DIRECT and kind.source:  # take from a pile (gain)
            direct(kind, by_kind[kind.name][0])
    for a in actions:  # check, call and the like, as the engine lists them
        kind = kind_of.get(a)
        if kind is not None and kind.betting and kind.control is Control.DIRECT:
            direct(kind, a)
    for kind in info.actions:
        rng = legal.get(kind.name) if kind.control is Control.AMOUNT else None
        if rng:
            lo, hi = int(rng[0]), int(rng[1])
            key, label = vocab.key_for(kind.name, kind.key), vocab.label(kind.name)
            if lo == hi:
                act = kind.parse((str(lo),), str(lo))
                add(Choice(key, f"{label} {lo}", "direct", action=act))
            else:
                size = kind.name
                add(Choice(key, f"{label} {lo}-{hi}", "size", size_kind=size, low=lo, high=hi))
    for kind in info.actions:
        subsets = by_kind.get(kind.name) if kind.control is Control.SUBSET else None
        if subsets:
            short = f"short.{kind.name}"
            label = vocab.text(short) if vocab.has(short) else kind.name
            add(Choice(vocab.key_for(kind.name, kind.key), label, "subset", subsets=tuple(subsets)))
    if "junk" in by_kind:
        direct(JUNK_KIND, by_kind["junk"][0])
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
        word = action_key(a)
        own = display.label(text, lang) if display is not None else None
        label = own or (vocab.label(word) if vocab.has(f"label.{word}") else text)
        add(Choice(own_key or vocab.key_for(word, SPARE_KEYS[0]), label, "direct", action=a))
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


def subset_cards(action: Action) -> tuple[str, ...]:
    """The card codes a subset action keeps (its ``cards``, see :attr:`Control.SUBSET`)."""
    return tuple(getattr(action, "cards", ()))


def locked_positions(choice: Choice, hand: Sequence[str]) -> set[int]:
    """Hand positions every legal subset keeps (cards kept before: they cannot be dropped)."""
    if not choice.subsets:
        return set()
    common = set(subset_cards(choice.subsets[0]))
    for keep in choice.subsets[1:]:
        common &= set(subset_cards(keep))
    locked: set[int] = set()
    for code in common:
        for i, c in enumerate(hand):
            if c == code and i not in locked:
                locked.add(i)
                break
    return locked


def subset_action(choice: Choice, hand: Sequence[str], chosen: set[int]) -> Action | None:
    """The legal subset action of the chosen hand positions, or None if it is not legal."""
    codes = sorted(hand[i] for i in chosen if 0 <= i < len(hand))
    for keep in choice.subsets:
        if sorted(subset_cards(keep)) == codes:
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
