"""Exact odds: hand and total probabilities, and the odds of each card option.

Everything is exact (:class:`fractions.Fraction`), by enumerating *multisets of values* with
their multiplicities: a multiset taking ``m_v`` copies of value ``v`` out of ``c_v`` available
stands for ``prod comb(c_v, m_v)`` hands of distinct cards. Suits and staves never matter for
evaluation, so this is exact and far faster than enumerating card tuples.

* :func:`hand_distribution`: the chance of each hand name and of each total for ``k`` cards
  dealt from the deck minus the cards already seen.
* :func:`improve_odds`: for a hand and what the player can see, the exact outcome of each card
  option (stand, gain, swap with the draw or discard, Surabat's Sun and Moon, classic draw and
  exchange): the chance that it leaves the hand better, the same or worse, the chance of a
  Sabacc (Spike: total 0; classic: Pure Sabacc or Idiot's Array), and the resulting hand names.
* :func:`option_odds`: the same straight from a seat's observation (what ``sabacc play
  --hints``, the TUI and the web table show), and :func:`hand_odds` for the current hand.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from sabacc.core.cards import signed
from sabacc.core.errors import CardParseError, OptionError
from sabacc.core.hands import HandValue
from sabacc.engine.actions import STAND_KIND, ActionKind, Control
from sabacc.engine.bots import card_value
from sabacc.engine.variant import CardSituation, VariantInfo
from sabacc.variants.registry import lookup

#: Refuse enumerations with more multisets than this (they would take minutes).
MAX_MULTISETS = 250_000


# --------------------------------------------------------------------------------------------
# Decks and evaluation by value
# --------------------------------------------------------------------------------------------


def _info(variant: str) -> VariantInfo:
    return lookup(variant)


def deck_counts(variant: str) -> dict[int, int]:
    """Copies of each value in the variant's deck."""
    return dict(_info(variant).deck.value_counts)


def remove_values(counts: Mapping[int, int], values: Sequence[int]) -> dict[int, int]:
    """``counts`` minus ``values``; raises :class:`CardParseError` if a value runs out."""
    out = dict(counts)
    for v in values:
        if out.get(v, 0) <= 0:
            raise CardParseError(f"too many cards of value {v:+d}: the deck does not hold them")
        out[v] -= 1
    return out


Evaluator = Callable[[Sequence[int]], HandValue]


def value_evaluator(variant: str, options: Mapping[str, Any] | None = None) -> Evaluator:
    """A function evaluating a hand given by card values, for ``variant`` under ``options``."""
    info = _info(variant)
    opts = info.options_type.from_mapping(dict(options or {}))
    return info.odds.value_evaluator(info, opts)


def hand_label(variant: str, hv: HandValue) -> str:
    """The name a distribution groups a hand under (e.g. Spike's two kinds of Sabacc apart)."""
    return _info(variant).odds.hand_label(hv)


def is_sabacc(variant: str, hv: HandValue) -> bool:
    """Whether the hand would also win the sabacc pot (the variant's rule for that pot), or
    is a Sabacc by the variant's own word where no pot says so."""
    own = _info(variant).odds.is_sabacc(hv)
    if own is not None:
        return own
    rule = _info(variant).pot_rule("sabacc")
    return rule is not None and rule.takes(hv)


# --------------------------------------------------------------------------------------------
# Multisets
# --------------------------------------------------------------------------------------------


def count_multisets(counts: Mapping[int, int], k: int) -> int:
    """How many distinct multisets of ``k`` values ``counts`` allows (the enumeration size)."""
    ways = [1] + [0] * k
    for c in counts.values():
        new = [0] * (k + 1)
        for size, w in enumerate(ways):
            if w:
                for m in range(min(c, k - size) + 1):
                    new[size + m] += w
        ways = new
    return ways[k]


def multisets(counts: Mapping[int, int], k: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every multiset of ``k`` values drawn from ``counts``, with its number of card hands.

    Yields ``(values, weight)``; the weights add up to ``comb(sum(counts), k)``.
    """
    items = sorted((v, c) for v, c in counts.items() if c > 0)
    n = len(items)
    suffix = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix[i] = suffix[i + 1] + items[i][1]
    chosen: list[int] = []

    def rec(i: int, left: int, weight: int) -> Iterator[tuple[tuple[int, ...], int]]:
        if left == 0:
            yield tuple(chosen), weight
            return
        if i == n or suffix[i] < left:
            return
        v, c = items[i]
        yield from rec(i + 1, left, weight)
        for m in range(1, min(c, left) + 1):
            chosen.append(v)
            yield from rec(i + 1, left - m, weight * math.comb(c, m))
        del chosen[len(chosen) - min(c, left) :]

    yield from rec(0, k, 1)


def _check_size(counts: Mapping[int, int], k: int) -> None:
    if k < 1:
        raise OptionError("the number of cards must be at least 1")
    if k > sum(counts.values()):
        raise OptionError(f"cannot deal {k} cards: only {sum(counts.values())} are left")
    size = count_multisets(counts, k)
    if size > MAX_MULTISETS:
        raise OptionError(
            f"{k} cards is too many to enumerate exactly ({size:,} value combinations)"
        )


def value_weights(
    variant: str,
    counts: Mapping[int, int],
    k: int,
    options: Mapping[str, Any] | None = None,
) -> list[tuple[HandValue, int]]:
    """How many ``k``-card hands from ``counts`` have each hand value (exact, fast).

    A depth-first walk over the distinct values with a running multiset key (Spike family) or
    value list (other variants), as the variant's odds model says; each multiset is evaluated
    once. Hands are grouped by key,
    total and name (classic bomb outs compare equal but differ in total).
    """
    info = _info(variant)
    name = info.name
    model = info.odds
    items = sorted((v, c) for v, c in counts.items() if c > 0)
    n = len(items)
    suffix = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix[i] = suffix[i + 1] + items[i][1]
    combs = [[math.comb(c, m) for m in range(c + 1)] for _, c in items]
    acc: dict[HandValue, int] = {}  # Spike: HandValue keys are unique per total
    groups: dict[tuple[Any, ...], list[Any]] = {}
    if model.key_codes is not None:  # a running multiset key (Spike family)
        key_codes = model.key_codes
        offset = model.key_offset
        evaluate_key = model.evaluate_key
        codes = [key_codes[v - offset] for v, _ in items]
        caps = [c for _, c in items]

        def walk(i: int, left: int, weight: int, key: int) -> None:
            if left == 0:
                hv = evaluate_key(key)
                acc[hv] = acc.get(hv, 0) + weight
                return
            if suffix[i] < left:
                return
            code = codes[i]
            row = combs[i]
            for m in range(min(caps[i], left), -1, -1):
                walk(i + 1, left - m, weight * row[m], key + m * code)

        walk(0, k, 1, 0)
        return list(acc.items())
    evaluate = value_evaluator(name, options)
    chosen: list[int] = []

    def walk_values(i: int, left: int, weight: int) -> None:
        if left == 0:
            hv = evaluate(chosen)
            group = (hv.key, hv.total, hv.name)
            entry = groups.get(group)
            if entry is None:
                groups[group] = [hv, weight]
            else:
                entry[1] += weight
            return
        if suffix[i] < left:
            return
        v, c = items[i]
        row = combs[i]
        top = min(c, left)
        chosen.extend([v] * top)
        for m in range(top, -1, -1):
            walk_values(i + 1, left - m, weight * row[m])
            if m:
                chosen.pop()

    walk_values(0, k, 1)
    return [(hv, w) for hv, w in groups.values()]


# --------------------------------------------------------------------------------------------
# Distributions of dealt hands
# --------------------------------------------------------------------------------------------


def _fraction_dict(p: Fraction) -> dict[str, Any]:
    return {"p": f"{p.numerator}/{p.denominator}", "probability": float(p)}


@dataclass
class Distribution:
    """The exact distribution of a ``cards``-card hand dealt from the unseen cards."""

    variant: str
    cards: int
    seen: tuple[int, ...]
    outcomes: int  # comb(unseen cards, cards): every hand of distinct cards
    names: dict[str, int] = field(default_factory=dict)  # best first
    ranks: dict[str, int] = field(default_factory=dict)
    totals: dict[int, int] = field(default_factory=dict)

    def p_name(self, name: str) -> Fraction:
        return Fraction(self.names.get(name, 0), self.outcomes)

    def p_total(self, total: int) -> Fraction:
        return Fraction(self.totals.get(total, 0), self.outcomes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "cards": self.cards,
            "seen": list(self.seen),
            "outcomes": self.outcomes,
            "hands": [
                {
                    "name": name,
                    "rank": self.ranks[name],
                    "count": count,
                    **_fraction_dict(Fraction(count, self.outcomes)),
                }
                for name, count in self.names.items()
            ],
            "totals": [
                {"total": t, "count": c, **_fraction_dict(Fraction(c, self.outcomes))}
                for t, c in sorted(self.totals.items())
            ],
        }


def hand_distribution(
    variant: str,
    cards: int = 2,
    seen: Sequence[int] = (),
    options: Mapping[str, Any] | None = None,
    seen_codes: Sequence[str] = (),
) -> Distribution:
    """Exact chances of each hand name and total for ``cards`` cards from the unseen deck
    (``seen_codes``: the same cards as codes, for a variant that counts cards by code)."""
    info = _info(variant)
    name = info.name
    opts = info.options_type.from_mapping(dict(options or {}))
    own = info.odds.deal_weights(info, opts, cards, seen_codes)
    if own is not None:
        weights = own
        outcomes = sum(w for _, w in own)
    else:
        counts = remove_values(deck_counts(name), seen)
        _check_size(counts, cards)
        weights = value_weights(name, counts, cards, options)
        outcomes = math.comb(sum(counts.values()), cards)
    names: dict[str, int] = {}
    best: dict[str, HandValue] = {}
    totals: dict[int, int] = {}
    for hv, weight in weights:
        label = hand_label(name, hv)
        names[label] = names.get(label, 0) + weight
        if label not in best or hv > best[label]:
            best[label] = hv
        totals[hv.total] = totals.get(hv.total, 0) + weight
    order = sorted(names, key=lambda n: (best[n].rank, tuple(-x for x in best[n].key)))
    return Distribution(
        name,
        cards,
        tuple(seen),
        outcomes,
        {n: names[n] for n in order},
        {n: best[n].rank for n in order},
        totals,
    )


# --------------------------------------------------------------------------------------------
# Card options
# --------------------------------------------------------------------------------------------


@dataclass
class OptionOdds:
    """The exact outcome of one card option."""

    action: str
    outcomes: int  # equally likely cards the option may bring (1 for a known card)
    better: Fraction
    same: Fraction
    worse: Fraction
    sabacc: Fraction  # the resulting hand would win the sabacc pot
    names: dict[str, Fraction] = field(default_factory=dict)
    known: bool = False  # the card it brings is known (discard top, Sun card, own Moon card)

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "outcomes": self.outcomes,
            "known": self.known,
            "better": _fraction_dict(self.better),
            "same": _fraction_dict(self.same),
            "worse": _fraction_dict(self.worse),
            "sabacc": _fraction_dict(self.sabacc),
            "hands": {n: _fraction_dict(p) for n, p in self.names.items()},
        }


def _option(
    variant: str,
    action: str,
    current: HandValue,
    results: Sequence[tuple[HandValue, int]],
    known: bool = False,
) -> OptionOdds:
    total = sum(w for _, w in results)
    better = same = worse = sab = 0
    names: dict[str, int] = {}
    best: dict[str, HandValue] = {}
    for hv, w in results:
        if hv > current:
            better += w
        elif hv == current:
            same += w
        else:
            worse += w
        if is_sabacc(variant, hv):
            sab += w
        label = hand_label(variant, hv)
        names[label] = names.get(label, 0) + w
        if label not in best or hv > best[label]:
            best[label] = hv
    order = sorted(names, key=lambda n: (best[n].rank, tuple(-x for x in best[n].key)))
    return OptionOdds(
        action,
        total,
        Fraction(better, total),
        Fraction(same, total),
        Fraction(worse, total),
        Fraction(sab, total),
        {n: Fraction(names[n], total) for n in order},
        known,
    )


def improve_odds(
    variant: str,
    hand: Sequence[int],
    seen: Sequence[int] = (),
    *,
    discard_top: int | None = None,
    sun: Sequence[int] = (),
    moon_top: int | None = None,
    options: Mapping[str, Any] | None = None,
    actions: Sequence[str] | None = None,
) -> list[OptionOdds]:
    """Exact odds of each card option for ``hand``, given the cards the player has seen.

    ``seen`` are other cards the player can see (the discard pile, known cards in other hands);
    ``discard_top``, ``sun`` and ``moon_top`` (a Moon card the player put there) are seen too
    and add the options that take them. An unknown card (the draw top, a Moon card) is equally
    likely to be any card the player has not seen. ``actions`` (text forms) limits the options
    to those, e.g. the legal actions of an observation.
    """
    info = _info(variant)
    name = info.name
    if not hand:
        raise CardParseError("a hand needs at least one card")
    opts = info.options_type.from_mapping(dict(options or {}))
    visible = [*hand, *seen]
    if discard_top is not None:
        visible.append(discard_top)
    visible.extend(sun)
    if moon_top is not None:
        visible.append(moon_top)
    unseen = remove_values(deck_counts(name), visible)
    pool = [(v, c) for v, c in sorted(unseen.items()) if c > 0]
    evaluate = value_evaluator(name, options)
    current = evaluate(hand)

    def drawn(base: list[int]) -> list[tuple[HandValue, int]]:
        return [(evaluate([*base, v]), c) for v, c in pool]

    wanted = None if actions is None else {a.strip().lower() for a in actions}

    def want(action: str) -> bool:
        return wanted is None or action in wanted

    out: list[OptionOdds] = []
    if want("stand"):
        out.append(_option(name, "stand", current, [(current, 1)], True))
    situation = CardSituation(
        list(hand), opts, discard_top, tuple(sun), moon_top, evaluate, drawn, want
    )
    for action, results, known in info.odds.card_options(situation):
        if results:
            out.append(_option(name, action, current, results, known))
    return out


# --------------------------------------------------------------------------------------------
# From an observation
# --------------------------------------------------------------------------------------------


def seen_values(observation: Mapping[str, Any]) -> list[int]:
    """Values of the cards the observation's seat can see, other than its own hand: the
    variant's face-up piles, the cards it knows in face-down piles, others' shown cards."""
    info = _info(str(observation["variant"]))
    codes: list[str] = []
    for pile in info.piles:
        if pile.face_up:
            codes += list(observation.get(pile.key) or [])
        if pile.known_key is not None:
            codes += [c for c in observation.get(pile.known_key) or [] if c]
    me = observation.get("seat")
    for s in observation.get("seats", []):
        if s.get("seat") != me:
            codes += list(s.get("known_cards") or [])
    return [card_value(c) for c in codes]


def improve_odds_codes(
    variant: str,
    hand: Sequence[str],
    seen: Sequence[str] = (),
    tops: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
) -> list[OptionOdds] | None:
    """As :func:`improve_odds` from card codes, for a variant that counts cards by code
    (``tops``: the face-up cards that can be taken); None for the others."""
    info = _info(variant)
    opts = info.options_type.from_mapping(dict(options or {}))
    found = info.odds.code_options(info, opts, hand, seen, tops)
    if found is None:
        return None
    current, listed = found
    return [_option(info.name, a, current, results, known) for a, results, known in listed]


def option_odds(observation: Mapping[str, Any]) -> list[OptionOdds]:
    """Exact odds of each legal card option in ``observation`` (empty outside card phases).

    Pure function of the observation: usable by the terminal table, the TUI and the web UI.
    """
    info = _info(str(observation["variant"]))
    found = info.odds.observation_options(info, observation)
    if found is not None:
        current, listed = found
        return [_option(info.name, a, current, results, known) for a, results, known in listed]
    you = observation.get("you")
    legal = [str(a) for a in (observation.get("legal") or {}).get("actions", [])]
    if not you or not you.get("values"):
        return []
    kinds = {a: info.parser.kind_of(info.parse_action(a)) for a in legal}
    if not any(_card_option(k) for k in kinds.values()):
        return []  # not a card decision
    variant = str(observation["variant"])
    hand = list(you["values"])
    seen = seen_values(observation)
    if any(_gives_a_card(k) for k in kinds.values()):  # a discard decision (back to the cap)
        return _discard_odds(variant, hand, [a for a, k in kinds.items() if _gives_a_card(k)])
    # The piles the options take from, as the variant declares them: the top of its face-up
    # pile, every card of a spread one (the Sun), a face-down one's known top (own Moon card).
    discard_top: int | None = None
    moon_top: int | None = None
    sun_codes: list[str] = []
    for pile in info.piles:
        value = observation.get(pile.key)
        if pile.face_up and pile.spread:
            sun_codes = list(value or [])
        elif pile.face_up and discard_top is None and value:
            discard_top = card_value(value[-1])
        elif pile.known_key is not None:
            known = observation.get(pile.known_key) or []
            moon_top = card_value(known[-1]) if known and known[-1] else None
    # The discard top, Sun cards and own Moon card are already in ``seen``: pass them apart.
    if discard_top is not None and discard_top in seen:
        seen.remove(discard_top)
    sun = [card_value(c) for c in sun_codes]
    for v in sun:
        if v in seen:
            seen.remove(v)
    if moon_top is not None and moon_top in seen:
        seen.remove(moon_top)
    return improve_odds(
        variant,
        hand,
        seen,
        discard_top=discard_top,
        sun=sun,
        moon_top=moon_top,
        actions=[_normal(a, kinds[a]) for a in legal],
    )


def _card_option(kind: ActionKind | None) -> bool:
    """A kind the value-based odds list: standing pat, or taking or giving a card."""
    if kind is None:
        return False
    takes = kind.control is Control.DIRECT and bool(kind.source)
    return kind is STAND_KIND or takes or "<card>" in kind.form


def _gives_a_card(kind: ActionKind | None) -> bool:
    """A kind giving up a hand card and taking none (a discard back down to the hand cap)."""
    return kind is not None and kind.control is Control.CARD and not kind.source


def _normal(action: str, kind: ActionKind | None) -> str:
    """Action text with card values in ``+4`` form (legal lists may carry stave letters)."""
    words = action.strip().lower().split()
    if len(words) >= 2 and kind is not None and "<card>" in kind.form:
        try:
            value = card_value(words[-1])
        except ValueError:
            return " ".join(words)
        return " ".join([*words[:-1], signed(value)])
    return " ".join(words)


def _discard_odds(variant: str, hand: list[int], legal: list[str]) -> list[OptionOdds]:
    evaluate = value_evaluator(variant)
    current = evaluate(hand)
    out = []
    for action in legal:
        words = action.split()
        rest = list(hand)
        rest.remove(card_value(words[-1]))
        normal = " ".join([*words[:-1], signed(card_value(words[-1]))])
        out.append(_option(variant, normal, current, [(evaluate(rest), 1)], True))
    return out


@dataclass
class HandOdds:
    """The current hand against a random hand of the same size from the unseen cards."""

    name: str
    total: int
    cards: int
    win: Fraction
    tie: Fraction
    lose: Fraction

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "total": self.total,
            "cards": self.cards,
            "win": _fraction_dict(self.win),
            "tie": _fraction_dict(self.tie),
            "lose": _fraction_dict(self.lose),
        }


def hand_odds(observation: Mapping[str, Any], max_cards: int = 5) -> HandOdds | None:
    """How the seat's hand compares with a random hand of as many cards from the unseen cards
    (exact); ``None`` without a hand or for hands over ``max_cards`` cards."""
    you = observation.get("you")
    if not you or not you.get("values"):
        return None
    variant = str(observation["variant"])
    hand = list(you["values"])
    if len(hand) > max_cards:
        return None
    info = _info(variant)
    codes = [str(c) for c in you.get("cards", [])]
    face_up = [p.key for p in info.piles if p.face_up]
    others = [c for k in face_up for c in observation.get(k) or []]
    for s in observation.get("seats", []):
        if s.get("seat") != observation.get("seat"):
            others += list(s.get("known_cards") or [])
    observed = info.odds.observed_hand(info, observation, [*codes, *others])
    if observed is not None:  # valued as the table stands (round rules, dice rolled)
        mine, against = observed
        return _compare(hand_label(variant, mine), mine, len(hand), against)
    own = info.odds.deal_weights(info, info.options_type(), len(hand), [*codes, *others])
    if own is not None:
        mine = info.evaluator(info.options_type(), info.deck.parse_cards(codes))
        return _compare(hand_label(variant, mine), mine, len(hand), own)
    unseen = remove_values(deck_counts(variant), [*hand, *seen_values(observation)])
    evaluate = value_evaluator(variant)
    mine = evaluate(hand)
    k = len(hand)
    if k > sum(unseen.values()) or count_multisets(unseen, k) > MAX_MULTISETS:
        return None
    return _compare(hand_label(variant, mine), mine, k, value_weights(variant, unseen, k))


def _compare(
    name: str, mine: HandValue, k: int, others: Sequence[tuple[HandValue, int]]
) -> HandOdds:
    win = tie = lose = 0
    for other, weight in others:
        if mine > other:
            win += weight
        elif mine == other:
            tie += weight
        else:
            lose += weight
    total = win + tie + lose
    return HandOdds(
        name, mine.total, k, Fraction(win, total), Fraction(tie, total), Fraction(lose, total)
    )
