"""Kessel Sabacc's exact odds (RULES.md §4): hands are one Sand and one Blood card, not a multiset
of values, so this model counts card kinds per family itself (the odds service asks it through
the code-based hooks of :class:`~sabacc.engine.variant.OddsModel`).

Impostors are valued by their dice: every outcome of the two dice of each Impostor is counted
(36 per Impostor), each Impostor taking the die that ranks the hand best (two Impostors: the best
pair of choices), so the figures are exact fractions over cards and dice. The dealt hand's
chances come out as RULES.md gives them: Pure Sabacc 1/484, any Sabacc (total 0) 1077/3872.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from sabacc.core.errors import CardParseError
from sabacc.core.hands import HandValue
from sabacc.engine.variant import CardOption, OddsModel
from sabacc.variants.kessel.hands import (
    DIE,
    IMPOSTOR,
    SYLOP,
    Rules,
    _rank,
    hand_value,
    is_sabacc,
    rolling_impostor,
)

if TYPE_CHECKING:
    from sabacc.core.options import Options
    from sabacc.engine.variant import VariantInfo

_DICE: tuple[tuple[int, int], ...] = tuple((a, b) for a in DIE for b in DIE)
#: Every weight is scaled to this many dice outcomes (two Impostors' four dice).
_SCALE = len(_DICE) ** 2
_PURE = HandValue((4, 0, 0), "Pure Sabacc", 0, 1, 2)


def _kind(code: str) -> int:
    head = code[:-1]
    return IMPOSTOR if head == "I" else int(head)


def outcomes(a: int, b: int, rules: Rules) -> list[tuple[HandValue, int]]:
    """The hands a (Sand, Blood) pair of card kinds ends as at the reveal, with their weights
    out of ``_SCALE`` dice outcomes."""
    if a == SYLOP and b == SYLOP:
        return [(_PURE, _SCALE)]
    if rules.major_fraud:
        a = 6 if a == IMPOSTOR else a
        b = 6 if b == IMPOSTOR else b
    if a != IMPOSTOR and b != IMPOSTOR:
        return [(_rank(a, b, rules), _SCALE)]
    out: dict[HandValue, int] = {}
    if a == IMPOSTOR and b == IMPOSTOR:
        for da in _DICE:
            for db in _DICE:
                hv = max(_rank(x, y, rules) for x in da for y in db)
                out[hv] = out.get(hv, 0) + 1
        return list(out.items())
    each = _SCALE // len(_DICE)
    for d in _DICE:
        hv = (
            max(_rank(x, b, rules) for x in d)
            if a == IMPOSTOR
            else max(_rank(a, y, rules) for y in d)
        )
        out[hv] = out.get(hv, 0) + each
    return list(out.items())


def family_counts(options: Options) -> dict[str, dict[int, int]]:
    """Copies of each card kind in each family for these options."""
    base = {v: 3 for v in DIE}
    base[IMPOSTOR] = int(getattr(options, "impostors", 3))
    base[SYLOP] = int(getattr(options, "sylops", 1))
    return {"s": dict(base), "b": dict(base)}


def _without(counts: dict[str, dict[int, int]], codes: Sequence[str]) -> dict[str, dict[int, int]]:
    out = {fam: dict(c) for fam, c in counts.items()}
    for code in codes:
        fam, kind = code[-1], _kind(code)
        if out[fam].get(kind, 0) <= 0:
            raise CardParseError(f"too many {code} cards: the deck does not hold them")
        out[fam][kind] -= 1
    return out


def _rules_of(rules: Mapping[str, Any] | None) -> Rules:
    r = rules or {}
    return Rules(
        bool(r.get("major_fraud")), bool(r.get("markdown")), bool(r.get("cook_the_books")),
        r.get("prime"),
    )  # fmt: skip


class KesselOdds(OddsModel):
    """Exact odds over card kinds per family, and dice (see the module docstring)."""

    discard_piles = 2  # Sand and Blood

    def is_sabacc(self, hand: HandValue) -> bool | None:
        return is_sabacc(hand)

    def deal_weights(
        self, info: VariantInfo, options: Options, cards: int, seen: Sequence[str]
    ) -> list[tuple[HandValue, int]] | None:
        if cards != 2:
            raise CardParseError("a Kessel hand is two cards, one Sand and one Blood (--cards 2)")
        return _weights(_without(family_counts(options), seen), Rules())

    def observed_hand(
        self, info: VariantInfo, observation: Mapping[str, Any], seen: Sequence[str]
    ) -> tuple[HandValue, list[tuple[HandValue, int]]] | None:
        """The hand under the round's rules (shift tokens), its Impostors' chosen dice, and
        the dice being chosen from at the reveal; the others under the same rules."""
        obs = observation
        codes = [str(c) for c in (obs.get("you") or {}).get("cards") or []]
        if len(codes) != 2:
            return None
        rule = _rules_of(obs.get("rules"))
        cards = info.deck.parse_cards(codes)
        me = obs.get("seat")
        picked = {i["card"]: int(i["value"]) for i in obs.get("impostors") or [] if i["seat"] == me}
        chosen = {c.id: picked[c.code] for c in cards if c.code in picked}
        rolled: dict[int, tuple[int, ...]] = {}
        dice = obs.get("dice")
        if obs.get("phase") == "impostor" and dice and obs.get("current_player") == me:
            card = rolling_impostor(cards, chosen)
            if card is not None:
                rolled[card.id] = tuple(int(d) for d in dice)
        mine = hand_value(cards, rule, chosen, rolled)
        counts = _without(family_counts(info.options_type()), seen)
        return mine, _weights(counts, rule)

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
        """The current hand and each draw's outcomes: the card drawn is kept or discarded,
        whichever leaves the better hand; ``tops`` are the discard tops (one per family)."""
        if len(hand) != 2 or {c[-1] for c in hand} != {"s", "b"}:
            raise CardParseError("a Kessel hand is one Sand and one Blood card, e.g. '3s 5b'")
        rule = _rules_of(rules)
        counts = _without(family_counts(options), [*hand, *seen, *tops])
        mine = {c[-1]: _kind(c) for c in hand}

        def results(fam: str, kind_weights: list[tuple[int, int]]) -> list[tuple[HandValue, int]]:
            out: list[tuple[HandValue, int]] = []
            for kind, n in kind_weights:
                new = dict(mine)
                new[fam] = kind
                # The choice to keep is made before the reveal's dice: the better in expectation.
                kept = outcomes(new["s"], new["b"], rule)
                held = outcomes(mine["s"], mine["b"], rule)
                best = kept if _mean(kept) >= _mean(held) else held
                out.extend((hv, w * n) for hv, w in best)
            return out

        current = outcomes(mine["s"], mine["b"], rule)
        out: list[CardOption] = []
        want = set(wanted) if wanted is not None else None
        for fam, word in (("s", "sand"), ("b", "blood")):
            pile = [(k, n) for k, n in counts[fam].items() if n]
            if pile and (want is None or f"draw {word}" in want):
                out.append((f"draw {word}", results(fam, pile), False))
        for top in tops:
            word = "sand" if top.endswith("s") else "blood"
            if want is None or f"draw {word} discard" in want:
                out.append((f"draw {word} discard", results(top[-1], [(_kind(top), 1)]), True))
        stand = ("stand", current, True)
        if want is None or "stand" in want:
            out.insert(0, stand)
        return max(hv for hv, _ in current), out

    def _keep_or_discard(
        self, hand: Sequence[str], card: str, rules: Mapping[str, Any] | None
    ) -> tuple[HandValue, list[CardOption]]:
        """Keep the drawn card (known) or discard it."""
        rule = _rules_of(rules)
        mine = {c[-1]: _kind(c) for c in hand}
        held = outcomes(mine["s"], mine["b"], rule)
        new = dict(mine)
        new[card[-1]] = _kind(card)
        kept = outcomes(new["s"], new["b"], rule)
        current = max(hv for hv, _ in held)
        return current, [("keep", kept, True), ("discard", held, True)]

    def observation_options(
        self, info: VariantInfo, observation: Mapping[str, Any]
    ) -> tuple[HandValue, list[CardOption]] | None:
        obs = observation
        you = obs.get("you") or {}
        legal = [str(a) for a in (obs.get("legal") or {}).get("actions", [])]
        draws = [a for a in legal if a == "stand" or a.startswith("draw ")]
        drawn = obs.get("drawn") or {}
        if you.get("cards") and "keep" in legal and drawn.get("card"):
            return self._keep_or_discard(you["cards"], drawn["card"], obs.get("rules"))
        if not you.get("cards") or not draws:
            return None
        tops = [t for t in (obs.get("sand_discard"), obs.get("blood_discard")) if t]
        seen = list(obs.get("sand_discard_pile") or [])[:-1]
        seen += list(obs.get("blood_discard_pile") or [])[:-1]
        me = obs.get("seat")
        for s in obs.get("seats", []):
            if s.get("seat") != me:
                seen += list(s.get("known_cards") or [])
        options = info.options_type()  # the deck make-up is not in the observation
        return self.code_options(info, options, you["cards"], seen, tops, obs.get("rules"), draws)


def _weights(counts: dict[str, dict[int, int]], rule: Rules) -> list[tuple[HandValue, int]]:
    """Every (Sand, Blood) hand the ``counts`` can make, valued under ``rule`` with its dice,
    with its weight."""
    acc: dict[HandValue, int] = {}
    for a, na in counts["s"].items():
        for b, nb in counts["b"].items():
            if na and nb:
                for hv, w in outcomes(a, b, rule):
                    acc[hv] = acc.get(hv, 0) + na * nb * w
    return list(acc.items())


def _mean(results: list[tuple[HandValue, int]]) -> float:
    """A hand's expected strength for choosing between two (the rank key, weighted)."""
    total = sum(w for _, w in results)
    return sum(w * _strength(hv) for hv, w in results) / total


def _strength(hv: HandValue) -> float:
    cat, a, b = hv.key
    return cat * 100 + a * 10 + b * 0.1


__all__ = ["KesselOdds", "family_counts", "outcomes"]
