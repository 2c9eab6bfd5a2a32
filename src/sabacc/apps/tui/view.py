"""Pure rendering helpers for the terminal table: observation (and event) in, Rich text out.

Nothing here touches a game or a widget, so every function can be tested on a plain dict. Cards
are drawn from their notation (``+7c``, ``-3``, ``0``, ``11f``, ``-17``); the deck of the variant
(``sabacc.variant(name).deck``) supplies the face names.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.text import Text

import sabacc
from sabacc.core.cards import Card, Deck
from sabacc.core.errors import SabaccError
from sabacc.engine.actions import COMMON_FIELDS
from sabacc.engine.variant import SideHand, TableDisplay, VariantInfo
from sabacc.services.render import Vocabulary, action_label, vocabulary
from sabacc.variants.registry import lookup

#: Short names for the middle of a drawn card (five cells at most).
SHORT_NAMES = {
    "Commander": "Cmdr",
    "Mistress": "Mistr",
    "Master": "Mastr",
    "Endurance": "Endur",
    "Balance": "Balnc",
    "Moderation": "Moder",
    "Demise": "Demis",
    "Evil": "Evil",
}
DICE = "⚀⚁⚂⚃⚄⚅"

POSITIVE = "bold green"
NEGATIVE = "bold red"
ZERO = "bold yellow"

_CODE = re.compile(r"^([+-]?\d+)([a-z]?)$")
_TOKEN = re.compile(r"(?<![\w+-])([+-]\d{1,2}[cst]?|\d{1,2}[fcst])(?![\w])")


@functools.lru_cache(maxsize=16)
def deck_for(variant: str) -> Deck | None:
    """The deck of a variant by name, or None if the variant is unknown."""
    try:
        return sabacc.variant(variant).deck
    except SabaccError:
        return None


@functools.lru_cache(maxsize=16)
def display_for(variant: str) -> TableDisplay:
    """The variant's table layout facts (:class:`TableDisplay`; the default if unknown)."""
    try:
        return lookup(variant).display
    except SabaccError:
        return TableDisplay()


#: Suit colour names (``TableDisplay.suit_colours``) as terminal styles: (card, chip background).
SUIT_STYLES = {
    "gold": ("bold yellow", "on dark_goldenrod"),
    "red": ("bold red", "on dark_red"),
    "green": ("bold green", "on dark_green"),
    "blue": ("bold blue", "on dark_blue"),
}


def suit_style(variant: str, code: str) -> tuple[str, str] | None:
    """The (card, chip background) style of a card whose variant colours it by suit."""
    colours = display_for(variant).suit_colours
    if not colours:
        return None
    card = _card(variant, code)
    suit = card.suit if card is not None else card_suit(code)
    return SUIT_STYLES.get(colours.get(suit or "", ""))


@functools.lru_cache(maxsize=512)
def _card(variant: str, code: str) -> Card | None:
    deck = deck_for(variant)
    if deck is None:
        return None
    try:
        return deck.parse_cards([code])[0]
    except SabaccError:
        return None


def face(variant: str, code: str) -> tuple[str, str]:
    """A card's value as printed and its suit letter (``3s`` → ``("3", "s")``, ``Is`` → ``("I",
    "s")``), from the notation or, for codes the generic pattern does not read, the deck."""
    m = _CODE.match(code.strip())
    if m:
        return m.group(1), m.group(2) or ""
    card = _card(variant, code)
    deck = deck_for(variant)
    if card is not None and deck is not None:
        return deck.format_value(card.value), card.suit or ""
    return code[:3], ""


@functools.lru_cache(maxsize=16)
def _code_pattern(variant: str) -> re.Pattern[str] | None:
    """Every card code of a suit-coloured variant's deck, for colouring log lines."""
    deck = deck_for(variant)
    if deck is None or not display_for(variant).suit_colours:
        return None
    codes = sorted({c.code for c in deck.cards}, key=len, reverse=True)
    return re.compile(r"(?<![\w+-])(" + "|".join(re.escape(c) for c in codes) + r")(?![\w])")


def card_value(code: str) -> int:
    """The value of a card code: ``+7c`` → 7, ``-3`` → -3, ``11f`` → 11, ``0`` → 0."""
    m = _CODE.match(code.strip())
    return int(m.group(1)) if m else 0


def card_suit(code: str) -> str:
    m = _CODE.match(code.strip())
    return m.group(2) if m else ""


def card_style(code: str) -> str:
    """Green for positive, red for negative, gold for zero (Sylop, The Idiot)."""
    v = card_value(code)
    return POSITIVE if v > 0 else NEGATIVE if v < 0 else ZERO


@functools.lru_cache(maxsize=512)
def card_name(variant: str, code: str) -> str:
    """The face or ranked name of a card (``Sylop``, ``The Idiot``, ``Ace of Coins``) or ''."""
    deck = deck_for(variant)
    if deck is None:
        return ""
    try:
        return deck.parse_cards([code])[0].name
    except SabaccError:
        return ""


def card_symbol(variant: str, code: str) -> str:
    """The stave/suit symbol of a card, or '' (Sylops, classic face cards, value-only codes)."""
    suit = face(variant, code)[1]
    if not suit:
        return ""
    deck = deck_for(variant)  # each deck declares its suits' one-cell symbols
    return deck.symbols.get(suit, suit) if deck is not None else suit


def short_name(name: str, cells: int = 5) -> str:
    """A card name cut to five cells: ``The Evil One`` → ``Evil``, ``Commander of X`` → ``Cmdr``
    (``cells=7``: ``Command``, ``Enduran``)."""
    words = [w for w in name.split() if w not in ("The", "the")]
    if not words:
        return ""
    first = words[0]
    if cells <= 5:
        return SHORT_NAMES.get(first, first[:5])
    return first[:cells]


def chip(variant: str, code: str) -> Text:
    """A card as a one-line coloured chip: `` +7● ``."""
    value = face(variant, code)[0]
    sym = card_symbol(variant, code)
    by_suit = suit_style(variant, code)
    if by_suit is not None:
        return Text(f"{value}{sym}", style=f"bold bright_white {by_suit[1]}")
    v = card_value(code)
    bg = "on dark_green" if v > 0 else "on dark_red" if v < 0 else "on dark_goldenrod"
    colour = "bold bright_white" if v else "bold black"
    return Text(f"{value}{sym}", style=f"{colour} {bg}")


def chips(variant: str, codes: Sequence[str], sep: str = " ") -> Text:
    """Several chips separated by ``sep``."""
    out = Text()
    for i, code in enumerate(codes):
        if i:
            out.append(sep)
        out.append_text(chip(variant, code))
    return out


#: A drawn card's width and height: normal, and big (a roomy terminal, 120×40 and up).
CARD_SIZE = {False: (7, 5), True: (9, 7)}


def card_lines(
    variant: str,
    code: str,
    *,
    index: int | None = None,
    highlight: bool = False,
    big: bool = False,
    kept: bool = False,
) -> list[Text]:
    """A card drawn in a 7×5 box (``big``: 9×7, the symbol between blank rows; the index, when
    given, sits in the top border; a ``kept`` card has a green edge and a ✓ in its bottom
    border)::

    ╭1────╮   ╭1──────╮
    │+7  ●│   │+7    ●│
    │  ●  │   │       │
    │   +7│   │   ●   │
    ╰─────╯   │       │
              │     +7│
              ╰───────╯
    """
    value = face(variant, code)[0]
    sym = card_symbol(variant, code)
    name = card_name(variant, code)
    deck = deck_for(variant)
    if name and deck is not None:  # "Sand Sylop": the suit is in the colour and symbol
        name = " ".join(w for w in name.split() if w not in deck.suits.values())
    middle = short_name(name) if name else sym or "·"
    by_suit = suit_style(variant, code)
    style = by_suit[0] if by_suit is not None else card_style(code)
    edge = "bold yellow" if highlight else "bold green" if kept else "grey62"
    inner = CARD_SIZE[big][0] - 2
    top = Text("╭", style=edge)
    if index is not None:
        top.append(str(index)[-1], style="bold reverse yellow" if highlight else "bold")
        top.append("─" * (inner - 1) + "╮", style=edge)
    else:
        top.append("─" * inner + "╮", style=edge)
    if big:
        middle = short_name(name, 7) if name else sym or "·"
        rows = [f"{value:<6}{sym or ' '}", "", f"{middle:^7}", "", f"{value:>7}"]
    else:
        rows = [f"{value:<4}{sym or ' '}", f"{middle:^5}", f"{value:>5}"]
    lines = [top]
    for row in rows:
        line = Text("│", style=edge)
        line.append(row[:inner].ljust(inner), style=style)
        line.append("│", style=edge)
        lines.append(line)
    bottom = "─" * (inner // 2) + "✓" + "─" * (inner - inner // 2 - 1) if kept else "─" * inner
    lines.append(Text("╰" + bottom + "╯", style=edge))
    return lines


def card_back_lines(big: bool = False) -> list[Text]:
    """A face-down card in the same box (7×5, or 9×7 when ``big``)."""
    edge = "grey50"
    width, height = CARD_SIZE[big]
    lines = [Text("╭" + "─" * (width - 2) + "╮", style=edge)]
    for _ in range(height - 2):
        line = Text("│", style=edge)
        line.append("░" * (width - 2), style="blue")
        line.append("│", style=edge)
        lines.append(line)
    lines.append(Text("╰" + "─" * (width - 2) + "╯", style=edge))
    return lines


def join_columns(columns: Sequence[Sequence[Text]], gap: int = 1, width: int = 7) -> Text:
    """Lay equal-height blocks of lines side by side into one multi-line Text."""
    if not columns:
        return Text()
    height = max(len(c) for c in columns)
    out = Text()
    for row in range(height):
        if row:
            out.append("\n")
        for i, col in enumerate(columns):
            if i:
                out.append(" " * gap)
            if row < len(col):
                out.append_text(col[row])
            else:
                out.append(" " * width)
    return out


def colour_cards(variant: str, line: str) -> Text:
    """A log line with every card code in it coloured and written as the cards on the table
    show it: the suit letter becomes the deck's symbol (``+4c`` → ``+4●``, ``11f`` → ``11♥``,
    Kessel's ``3s`` → ``3◆``), so the log and the cards use one notation."""
    text = Text()
    at = 0
    own = _code_pattern(variant)  # a suit-coloured deck: its own codes
    for m in (own or _TOKEN).finditer(line):
        text.append(line[at : m.start(1)])
        code = m.group(1)
        value, suit = face(variant, code)
        shown = value + card_symbol(variant, code) if suit else code
        by_suit = suit_style(variant, code)
        text.append(shown, style=by_suit[0] if by_suit is not None else card_style(code))
        at = m.end(1)
    text.append(line[at:])
    return text


def signed_amount(n: int) -> str:
    return f"{n:+d}" if n else "±0"


def dice_text(dice: Sequence[int]) -> str:
    """``[3, 5]`` → ``⚂ ⚄ (3·5)``."""
    faces = " ".join(DICE[d - 1] if 1 <= d <= 6 else str(d) for d in dice)
    return f"{faces} ({'·'.join(str(d) for d in dice)})"


def phase_title(phase: str) -> str:
    return phase.replace("_", " ").capitalize()


# ---------------------------------------------------------------------- table facts
def words(obs: Mapping[str, Any], lang: str = "en") -> Vocabulary:
    """The table's words for the observation's variant in ``lang`` (the catalogue's ``ui.*``
    keys and the variant's own terms)."""
    return vocabulary(_info(obs), lang)


def _name(obs: Mapping[str, Any], seat: Any) -> str:
    seats = obs.get("seats", [])
    if isinstance(seat, int) and 0 <= seat < len(seats):
        return str(seats[seat]["name"])
    return str(seat)


def phase_said_by(phase: str, counts: Iterable[str]) -> bool:
    """Whether a phase's name only repeats the word of a count already said (Kessel's "Turn"
    beside "turn 1/3" or "Your turn"): such a phase is not said again."""
    return any(count.casefold().startswith(phase.casefold()) for count in counts)


def status_line(obs: Mapping[str, Any], title: str, lang: str = "en") -> Text:
    """The top bar: variant, hand, round/turn and phase."""
    v = words(obs, lang)
    parts = [v.text("ui.hand", n=obs.get("hand", "?"))]
    if obs.get("rounds"):
        parts.append(v.text("ui.round", n=obs.get("round"), of=obs["rounds"]))
    if "orbit" in obs and obs.get("max_orbits"):
        parts.append(v.text("ui.orbit", n=int(obs["orbit"]) + 1, of=obs["max_orbits"]))
    if obs.get("turns") and obs.get("turn") is not None:
        parts.append(v.text("ui.turn", n=obs["turn"], of=obs["turns"]))
    phase = v.phase(str(obs.get("phase", "")))
    if not phase_said_by(phase, parts[1:]):
        parts.append(phase)
    text = Text(f" {title} ", style="bold black on gold3")
    text.append("  " + " · ".join(parts), style="bold")
    return text


def review_status_line(result: Mapping[str, Any], title: str, vocab: Vocabulary) -> Text:
    """The top bar while a finished hand is summarised."""
    text = Text(f" {title} ", style="bold black on gold3")
    head = vocab.text("ended.title", hand=result.get("hand"))
    text.append(f"  {head} ({review_reason(result, vocab)})", style="bold")
    return text


def betting_now(obs: Mapping[str, Any]) -> bool:
    """Whether the seats' round bets are live: in a betting phase. The engine keeps the last
    round's bets until the next betting round starts; shown after it, "bet 5" reads as a move
    of the phase now under way (the web table shows them only then too)."""
    return obs.get("phase") == "betting"


def pot_lines(obs: Mapping[str, Any], lang: str = "en") -> list[Text]:
    """The pots and the bet to match on one line; side pots on a second when there are any."""
    v = words(obs, lang)
    pots = obs.get("pots", {})
    info = _info(obs)
    own = next((rule for rule in info.pots if rule.per_seat), None) if info else None
    if own is not None:  # one pot per seat (Kessel's round pots), each shown at its seat
        line = Text(v.text("ui.own_pots"), style="bold")
        total = sum(int(p.get("amount", 0)) for p in pots.get("side") or [])
        line.append(str(total or pots.get("main", 0)), style="bold bright_white")
        lost = info.display.lost_key if info is not None else None
        if lost and obs.get(lost):  # credits that left the game, in the variant's words
            label = v.text(f"fact.{lost}") if v.variant_has(f"fact.{lost}") else lost
            line.append(f"  {label.replace('_', ' ')} {obs[lost]}", style="dim")
        return [line]
    line = Text(v.text("ui.pot"), style="bold")
    line.append(str(pots.get("main", 0)), style="bold bright_white")
    if "sabacc" in pots and any(rule.pot == "sabacc" for rule in (info.pots if info else ())):
        line.append(v.text("ui.sabacc_pot"), style="bold")
        line.append(str(pots.get("sabacc", 0)), style="bold gold3")
    betting = obs.get("betting") or {}
    if betting.get("current_bet") and betting_now(obs):
        line.append(v.text("ui.to_match", n=betting["current_bet"]), style="cyan")
    out = [line]
    side = pots.get("side") or []
    if len(side) > 1:
        parts = []
        for i, pot in enumerate(side):
            label = v.text("ui.side_main") if i == 0 else v.text("ui.side_n", n=i)
            who = ", ".join(_name(obs, s) for s in pot.get("eligible", []))
            parts.append(f"{label} {pot.get('amount', 0)} ({who})")
        out.append(Text("; ".join(parts), style="dim"))
    return out


@dataclass(frozen=True)
class Pile:
    """A shared pile as the table draws it: face-up cards, face-down cards, a label."""

    name: str  # "discard", "draw", "sun", "moon", "deck"
    label: str
    codes: tuple[str, ...] = ()
    backs: int = 0


def piles(obs: Mapping[str, Any], info: VariantInfo, lang: str = "en") -> list[Pile]:
    """The piles drawn as cards, as the variant declares them (:attr:`VariantInfo.piles`).

    A spread face-up pile (Surabat's Sun) shows every card; another face-up pile its top card,
    when it has one; a face-down pile whose cards this seat may know (the Moon) one card, face
    up when the seat knows its top. Other face-down piles (draw pile, deck) are only counted,
    in :func:`pile_counts`.
    """
    out: list[Pile] = []
    v = vocabulary(info, lang)
    if info.display.declared_piles:  # every pile labelled with its key, drawn as cards
        keys = info.display.keys
        for pile in info.piles:
            action = info.display.pile_actions.get(pile.key, "")
            hint = f"[{keys[action]}] " if action in keys else ""
            words_key = "pilelabel." + pile.name.replace(" ", "_")  # two short lines
            if v.has(words_key):
                template = v.template(words_key)
            else:
                first, _, rest = pile.name.partition(" ")  # "sand draw": "Sand" / "draw 16"
                template = f"{{hint}}{first.capitalize()}\n{rest} {{count}}"
            if pile.face_up:
                top_codes = [str(c) for c in obs.get(pile.key) or []]
                label = template.format(hint=hint, count=len(top_codes))
                out.append(Pile(pile.key, label, tuple(top_codes[-1:])))
            else:
                count = int(obs.get(pile.key) or 0)
                label = template.format(hint=hint, count=count)
                out.append(Pile(pile.key, label, (), min(count, 1)))
        return out
    for pile in info.piles:
        key = f"pile.{pile.name}"
        named = v.text(key) if v.has(key) else pile.name.replace("_", " ")
        named = named.removeprefix("the ").removesuffix(" pile")  # "the Sun pile": "Sun"
        title = named[:1].upper() + named[1:]
        if pile.face_up:
            codes = tuple(str(c) for c in obs.get(pile.key) or [])
            if pile.spread:
                out.append(Pile(pile.name, f"{title} ({len(codes)})", codes))
            elif codes:
                out.append(Pile(pile.name, title, codes[-1:]))
        elif pile.known_key is not None:
            count = int(obs.get(pile.key) or 0)
            known = obs.get(pile.known_key) or []
            top = str(known[-1]) if known and known[-1] else None
            label = f"{title} ({count})" + (v.text("ui.top_is_yours") if top else "")
            out.append(Pile(pile.name, label, (top,) if top else (), 0 if top else min(count, 1)))
    return out


def _info(obs: Mapping[str, Any]) -> VariantInfo | None:
    try:
        return lookup(str(obs.get("variant", "")))
    except SabaccError:
        return None


def pile_counts(obs: Mapping[str, Any], lang: str = "en") -> Text | None:
    """Pile sizes in one dim line (``Draw 53 · Discard pile 4``): the fields the variant
    declares counted (:attr:`~sabacc.engine.actions.Field.count`), in their declared order."""
    info = _info(obs)
    if info is None:
        return None
    v = words(obs, lang)
    counts = []
    for field in info.fields:
        value = obs.get(field.key)
        if field.count is None or value is None or value == []:
            continue
        counts.append(v.text(field.count, n=len(value) if isinstance(value, list) else value))
    return Text(" · ".join(counts), style="dim") if counts else None


def dice_line(obs: Mapping[str, Any], lang: str = "en") -> tuple[Text, bool] | None:
    """The last roll of this hand and whether it shifted: spike dice, or classic's shift die."""
    if obs.get("dice"):
        dice = [int(d) for d in obs["dice"]]
        shift = len(dice) == 2 and dice[0] == dice[1]
        shift = shift and display_for(str(obs.get("variant", ""))).dice_shift
        text = Text(words(obs, lang).text("ui.dice"))
    elif obs.get("roll"):
        dice = [int(obs["roll"])]
        shift = bool(obs.get("shift"))
        text = Text(words(obs, lang).text("ui.shift_die"))
    else:
        return None
    text.append(dice_text(dice), style="bold")
    return text, shift


def shift_banner(vocab: Vocabulary) -> Text:
    """What a shift did, in the variant's words (``banner.shift``)."""
    return Text(f" {vocab.text('banner.shift')} ", style="bold black on yellow")


def info_parts(obs: Mapping[str, Any], lang: str = "en") -> list[str]:
    """Variant facts without a dedicated place: turn, calls, limits, then unknown scalar keys."""
    v = words(obs, lang)
    me = obs.get("seat")
    out: list[str] = []
    if obs.get("turn") is not None and "orbit" in obs:
        # the turn player (who draws); a bet or a call in that turn is another seat's to make
        if obs["turn"] == me:
            whose = v.text("ui.your_turn_short")
        else:
            whose = v.text("ui.whose_turn", who=_name(obs, obs["turn"]))
        actor = obs.get("current_player")
        if actor is not None and actor != obs["turn"]:
            key = "ui.you_to_act" if actor == me else "ui.to_act"
            phased = f"{key}.{obs.get('phase')}"  # "your bet": what the actor is to do
            acting = v.text(phased if v.has(phased) else key, who=_name(obs, actor))
            whose = f"{whose} · {acting}"
        out.append(whose)
    if "calls_open" in obs:
        out.append(v.text("ui.calls_open") if obs["calls_open"] else v.text("ui.no_calls"))
    if obs.get("starting_player") is not None:
        if obs["starting_player"] == me:
            out.append(v.text("ui.you_start"))
        else:
            out.append(v.text("ui.starts", who=_name(obs, obs["starting_player"])))
    if obs.get("caller") is not None:
        out.append(v.text("ui.called_by", who=_name(obs, obs["caller"])))
    info = _info(obs)
    piles = [p.key for p in info.piles] if info is not None and info.display.declared_piles else []
    shown = info.display.shown_keys if info is not None else ()
    placed = info.placed_fields if info is not None else COMMON_FIELDS
    for key, value in obs.items():
        if key in placed or value is None or isinstance(value, dict | list):
            continue
        if v.variant_has(f"fact.{key}"):
            continue  # the variant words it: key_facts
        if key in shown or any(p.startswith(key) for p in piles):
            continue  # in the top bar, the pot line, or drawn as a pile
        if isinstance(value, bool):
            if value:
                out.append(key.replace("_", " "))
            continue
        out.append(f"{key.replace('_', ' ')} {value}")
    return out


def key_facts(obs: Mapping[str, Any], lang: str = "en") -> Text | None:
    """The facts a variant words itself (``fact.<key>`` in its text: Coruscant's target and
    suit), in bold on a line of their own; None if it words none."""
    v = words(obs, lang)
    info = _info(obs)
    shown = (*info.display.shown_keys, info.display.lost_key) if info is not None else ()
    placed = info.placed_fields if info is not None else COMMON_FIELDS
    parts = []
    for key, value in obs.items():
        if value is None or isinstance(value, dict | list) or not v.variant_has(f"fact.{key}"):
            continue
        if key in placed or key in shown or value is False:
            continue  # the top bar or the pot line says it; a flag that is off says nothing
        term = v.text(f"choice.{value}") if v.has(f"choice.{value}") else str(value)
        text = v.text(f"fact.{key}", value=value, term=term)
        template = v.template(f"fact.{key}")
        if not isinstance(value, bool) and "{value" not in template and "{term" not in template:
            text = f"{text} {value}"  # a label: its value after it
        parts.append(text)
    return Text(" · ".join(parts), style="bold yellow") if parts else None


# ---------------------------------------------------------------------- seats
def seat_fact(obs: Mapping[str, Any], seat: Mapping[str, Any], key: str) -> Any:
    """A seat's fact: its own field, or its entry in a per-seat list of the observation."""
    if key in seat:
        return seat[key]
    listed = obs.get(key)
    s = seat.get("seat")
    if isinstance(listed, list) and isinstance(s, int) and 0 <= s < len(listed):
        return listed[s]
    return None


def hand_label(name: str, vocab: Vocabulary | None = None) -> str:
    """A hand's name as said at the table, in ``vocab``'s language: classic totals read
    ``total 6``."""
    v = vocab or vocabulary(None, "en")
    return v.text("ui.hand_total", total=name) if name.lstrip("+-").isdigit() else v.hand(name)


def seat_title(seat: Mapping[str, Any], to_act: bool) -> str:
    mark = "▶ " if to_act else ""
    dealer = " (D)" if seat.get("dealer") else ""
    name = "" if seat.get("vacant") else seat["name"]  # an empty seat: its player left
    return f"{mark}{name}{dealer}"


def seat_body(
    obs: Mapping[str, Any],
    seat: Mapping[str, Any],
    *,
    thinking: bool = False,
    reveal: Mapping[str, Any] | None = None,
    net: int | None = None,
    lang: str = "en",
) -> Text:
    """Two lines for an opponent's seat: stack, hand size and bet; then action or reveal."""
    variant = str(obs.get("variant", ""))
    v = words(obs, lang)
    if seat.get("vacant"):  # its player left the table: nobody sits there
        return Text(v.text("ui.empty_seat"), style="dim")
    line = Text()
    line.append(f"{seat['stack']}", style="bold")
    # The stack's unit, short (four seats share 80 columns); none where the variant's word
    # does not fit (Kessel's chips: "cr" beside "chips" in your box was a contradiction).
    unit = v.text("ui.cr")
    line.append(f" {unit} " if unit else " ")
    status = str(seat.get("status", ""))
    if reveal is not None:
        line.append_text(chips(variant, list(reveal.get("cards", []))))
    else:
        count = int(seat.get("cards", 0))
        line.append("▮" * min(count, 8), style="blue")
        if count:
            line.append(f"{count}", style="dim")
        if seat.get("round_bet") and betting_now(obs):
            line.append(" " + v.text("ui.bet", n=seat["round_bet"]), style="cyan")
    for fact in display_for(variant).seat_facts if reveal is None else ():
        value = seat_fact(obs, seat, fact.key)
        label = fact.label.get(lang) or fact.label.get("en", fact.key)
        if fact.flag:
            if value:
                line.append(f" {label}", style="bold magenta")
        elif value is not None:
            line.append(" " + label.format(value=value), style="cyan")
    line.append("\n")
    if reveal is not None:
        line.append(hand_label(str(reveal.get("name", "")), v), style="bold")
        if net is not None:
            line.append(f" {signed_amount(net)}", style="green" if net > 0 else "red")
    elif thinking:
        line.append(v.text("ui.thinking", who="").strip(), style="italic yellow")
    elif status in ("junked", "out", "waiting", "all_in"):
        line.append(v.text(f"ui.status.{status}"), style="bold magenta")
        if net is not None:
            line.append(f" {signed_amount(net)}", style="green" if net > 0 else "red")
        elif status == "all_in" and seat.get("last_action"):
            line.append(f" {action_words(str(seat['last_action']), v)}", style="dim")
    elif seat.get("known_cards"):
        line.append(v.text("ui.shows"))
        line.append_text(chips(variant, list(seat["known_cards"])))
    elif seat.get("last_action"):
        line.append(action_words(str(seat["last_action"]), v), style="italic")
    return line


# ---------------------------------------------------------------------- your hand
def kept_cards(obs: Mapping[str, Any]) -> int:
    """How many of your cards (the first ones of your hand) are kept, where the variant keeps
    a set (``TableDisplay.kept_key``: Coruscant Shift); 0 elsewhere."""
    info = _info(obs)
    key = info.display.kept_key if info is not None else None
    kept = obs.get(key) if key else None
    return len(kept) if isinstance(kept, list) else 0


def you_summary(obs: Mapping[str, Any], lang: str = "en") -> Text:
    """Your total and hand name, on one line (a variant whose hand names say it all, Kessel's
    "difference 2", words ``ui.total`` as blank: no total). The total is your hand's value's
    (a kept set's, never the cards set aside), with how many cards are kept first."""
    v = words(obs, lang)
    you = obs.get("you") or {}
    if not you.get("cards"):
        return Text(v.text("ui.no_cards"), style="dim")
    hand = you.get("hand") or {}
    total = int(hand.get("total", you.get("total", 0)))
    name = str(hand.get("name", ""))
    shown = bool(v.text("ui.total").strip())
    kept = kept_cards(obs)
    text = Text()
    if kept:
        text.append(v.text("ui.kept", n=kept), style="bold green")
    if shown:
        text.append(v.text("ui.total"))
        text.append(f"{total:+d}" if total else "0", style=card_style(str(total)))
    if name and name != str(total):
        if shown:
            text.append(" · ")
        text.append(v.hand(name), style="bold")
    return text


def action_words(text: str, vocab: Vocabulary) -> str:
    """A seat's last action (``swap draw +9``, ``bet 5``) in the variant's words and language."""
    try:
        return action_label(text, vocab)
    except (KeyError, IndexError, ValueError):  # an action text the renderer does not know
        return text


# ---------------------------------------------------------------------- results
def _who(names: Sequence[str], seats: Sequence[int], human: int | None) -> str:
    out = []
    for s in seats:
        if s == human:
            out.append("You")
        elif 0 <= s < len(names):
            out.append(names[s])
        else:
            out.append(f"seat {s}")
    return " and ".join(out)


def review_reason(result: Mapping[str, Any], vocab: Vocabulary) -> str:
    """How a hand ended, in the variant's words ("everyone else folded" in classic)."""
    reason = str(result.get("reason", ""))
    key = f"ended.{reason}"
    return vocab.text(key) if vocab.has(key) else reason.replace("_", " ")


def result_lines(
    result: Mapping[str, Any], explanation: Sequence[str], variant: str, vocab: Vocabulary
) -> list[Text]:
    """The summary of a finished hand: how it ended, then the explanation
    (:func:`sabacc.services.explain.explain_hand`: who won which pot and why, penalties,
    carries or the final settlement, everyone's net)."""
    head = Text(vocab.text("ended.title", hand=result.get("hand")) + ": ", style="bold")
    head.append(review_reason(result, vocab), style="bold")
    out = [head]
    out.extend(colour_cards(variant, line) for line in explanation)
    return out


def standings_lines(
    outcome: Mapping[str, Any],
    names: Sequence[str],
    human: int | None,
    vocab: Vocabulary | None = None,
) -> list[Text]:
    """Final standings, best first, with stacks and net results."""
    v = vocab or vocabulary(None, "en")
    out: list[Text] = []
    stacks = list(outcome.get("stacks") or [])
    payoffs = list(outcome.get("payoffs") or [])
    winners = set(outcome.get("winners") or [])
    place = 0
    previous: int | None = None
    for i, s in enumerate(outcome.get("standings") or []):
        if previous is None or stacks[s] != previous:
            place = i + 1  # tied stacks share a place: 1, 2, 2, 4
        previous = stacks[s]
        who = v.text("you") if s == human else names[s]
        line = Text(f"{place}. ", style="bold")
        line.append(f"{who:<14}", style="bold green" if s in winners else "")
        line.append(f"{stacks[s]:>6} {v.text('ui.credits')}  ")
        delta = payoffs[s]
        line.append(signed_amount(delta), style="green" if delta > 0 else "red" if delta else "")
        if s in winners:
            line.append(v.text("ui.winner"), style="bold gold3")
        out.append(line)
    return out


def side_item_name(side: SideHand, item: str, lang: str) -> str:
    """A side-hand item's name in ``lang`` (English, then the item's own text)."""
    for table in (side.names.get(lang, {}), side.names.get("en", {})):
        if item in table:
            return table[item]
    return item.replace("_", " ")


def side_item_help(side: SideHand, item: str, lang: str) -> str:
    """A side-hand item's one-line effect in ``lang`` (English if untranslated)."""
    for table in (side.help.get(lang, {}), side.help.get("en", {})):
        if item in table:
            return table[item]
    return ""


def side_hand_text(obs: Mapping[str, Any], lang: str, pick: Any = None) -> Text | None:
    """The seat's side hand (Kessel's shift tokens): one line of names, or, while one is being
    picked, one line per entry with its key and one-line effect. None without a side hand."""
    info = _info(obs)
    side = info.display.side_hand if info is not None else None
    if side is None:
        return None
    title = side.title.get(lang) or side.title.get("en", side.action)
    entries = [o for o in getattr(pick, "options", ()) if o.where == "menu"]
    if entries:
        lines = []
        for o in entries:
            line = Text(f"{o.key} ", style="bold reverse")
            line.append(f" {o.code}", style="bold")
            if o.help:
                line.append(f" — {o.help}", style="dim")
            lines.append(line)
        return Text("\n").join(lines)
    items = list((obs.get("you") or {}).get(side.key) or obs.get(side.key) or [])
    key = lookup(str(obs["variant"])).text.keys.get(side.action, "t")
    out = Text(f"{title} [{key}]", style="bold")
    names = [side_item_name(side, item, lang) for item in items]
    if len(names) > 4:  # a long fixed list: one wrapped paragraph
        out.append("\n" + " · ".join(names))
    for name in names if len(names) <= 4 else ():
        out.append("\n• " + name, style="")
    if not names:
        out.append("\n—", style="dim")
    return out
