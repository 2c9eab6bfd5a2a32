"""The heuristic bot's knowledge of Kessel Sabacc (RULES.md §4): a value function and token use.

A hand's *quality* is the chance it beats one random opponent hand at the reveal (ties count
half), over the family make-up of the deck, under the round's token rules, with each Impostor
taking the better of its two dice (exactly, by enumeration; cached per rules and deck).

Decisions weigh chips, not only ranks: a loser loses their round pot and pays a penalty (1 for a
Sabacc, else the difference), so a hand's *utility* with pot ``p`` against ``k`` opponents is
``-(1 - q**k) * (p + penalty)``; a draw is worth the expected utility of the better of keeping
and discarding the drawn card (the chip it costs goes into the pot at risk). Tokens are played
by simple rules: Refunds when the own pot is big, Tariffs and Audits when the hand is good
(they swell pots the others are likely to lose) against the stock leader, Markdown, Major
Fraud and Cook the Books when they raise the own hand's quality, Immunity when a good hand is
threatened by unplayed tokens, Exhaustion and Direct Transaction on a player who stood when the
own hand is poor, Free Draw before a draw worth making, Embargo with a good hand.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from typing import Any, ClassVar

from sabacc.core.actions import Action, Stand
from sabacc.engine.bots import BotModel, View
from sabacc.variants.kessel_actions import (
    ChooseImpostor,
    ChoosePrime,
    DiscardDrawn,
    Draw,
    Keep,
    PlayToken,
)
from sabacc.variants.kessel_hands import DIE, IMPOSTOR, SYLOP, Rules, _rank

#: Card kinds of one family by their value: 1-6, the Impostor (-1), the Sylop (0).
_KINDS: tuple[int, ...] = (1, 2, 3, 4, 5, 6, IMPOSTOR, SYLOP)
_DICE: tuple[tuple[int, int], ...] = tuple((a, b) for a in DIE for b in DIE)


def _code_value(code: str) -> int:
    head = code[:-1]
    return IMPOSTOR if head == "I" else int(head)


@functools.cache
def _resolve(a: int, b: int, rules: Rules) -> list[tuple[tuple[int, ...], float]]:
    """The rank keys a (Sand, Blood) kind pair ends with at the reveal, with their chances:
    each Impostor rolls two dice and takes the one that ranks the hand best."""
    if a == SYLOP and b == SYLOP:
        return [((4, 0, 0), 1.0)]
    if rules.major_fraud:
        a = 6 if a == IMPOSTOR else a
        b = 6 if b == IMPOSTOR else b
    if a != IMPOSTOR and b != IMPOSTOR:
        return [(_rank(a, b, rules).key, 1.0)]
    out: dict[tuple[int, ...], float] = {}
    w = 1.0 / len(_DICE)
    if a == IMPOSTOR and b == IMPOSTOR:
        w = 1.0 / len(_DICE) ** 2
        for da in _DICE:
            for db in _DICE:
                key = max(_rank(x, y, rules).key for x in da for y in db)
                out[key] = out.get(key, 0.0) + w
        return list(out.items())
    for d in _DICE:
        if a == IMPOSTOR:
            key = max(_rank(x, b, rules).key for x in d)
        else:
            key = max(_rank(a, y, rules).key for y in d)
        out[key] = out.get(key, 0.0) + w
    return list(out.items())


@functools.cache
def _quality_table(rules: Rules, counts: tuple[int, ...]) -> dict[tuple[int, int], float]:
    """Quality of every (Sand, Blood) kind pair against one opponent hand drawn from a deck
    with ``counts`` copies of each kind in each family (``_KINDS`` order)."""
    total = sum(counts) ** 2
    dist: dict[tuple[int, ...], float] = {}
    for a, na in zip(_KINDS, counts, strict=True):
        for b, nb in zip(_KINDS, counts, strict=True):
            if not na or not nb:
                continue
            for key, p in _resolve(a, b, rules):
                dist[key] = dist.get(key, 0.0) + p * na * nb / total
    keys = sorted(dist)
    below: dict[tuple[int, ...], float] = {}
    acc = 0.0
    for key in keys:
        below[key] = acc + dist[key] / 2  # ties count half
        acc += dist[key]
    table = {}
    for a in _KINDS:
        for b in _KINDS:
            table[(a, b)] = sum(
                p * (below[key] if key in below else _below(keys, dist, key))
                for key, p in _resolve(a, b, rules)
            )
    return table


def _below(
    keys: list[tuple[int, ...]], dist: dict[tuple[int, ...], float], key: tuple[int, ...]
) -> float:
    return sum(dist[k] for k in keys if k < key)


@functools.cache
def _penalty(a: int, b: int, rules: Rules) -> float:
    """The expected penalty of a kind pair if it loses (1 for a Sabacc, else the difference)."""
    out = 0.0
    for key, p in _resolve(a, b, rules):
        out += p * (1 if key[0] >= 2 else -key[1])
    return out


def _rules(extra: Mapping[str, Any]) -> Rules:
    r = extra.get("rules") or {}
    return Rules(
        bool(r.get("major_fraud")),
        bool(r.get("markdown")),
        bool(r.get("cook_the_books")),
        r.get("prime"),
    )


class KesselBot(BotModel):
    """Kessel's value function and token sense (see the module docstring)."""

    #: ``hard``'s 800 worlds take 1-5 s per decision here (Spike: about 0.5 s); 200 worlds
    #: think about as long as Spike's hard bot (under 1 s at 4 players).
    level_bots: ClassVar[Mapping[str, str]] = {"hard": "ismcts:200"}

    def __init__(self, impostors: int = 3, sylops: int = 1) -> None:
        self.counts = (3, 3, 3, 3, 3, 3, impostors, sylops)

    # ------------------------------------------------------------------ reading the table
    def view_extras(self, observation: Mapping[str, Any]) -> dict[str, Any]:
        obs = observation
        me = obs.get("seat")
        seats = obs.get("seats", [])
        alive = [s["seat"] for s in seats if s["status"] in ("active", "all_in")]
        drawn = obs.get("drawn") or {}
        # The observation does not give the deck's make-up: the bot assumes its own (the
        # standard 3 Impostors and 1 Sylop unless built for other options).
        options_counts = self.counts
        return {
            "extra": {
                "seat": me,
                "cards": list(obs.get("you", {}).get("cards", [])),
                "alive": alive,
                "stacks": [int(s["stack"]) for s in seats],
                "pots": [int(s["committed"]) for s in seats],
                "sand_top": obs.get("sand_discard"),
                "blood_top": obs.get("blood_discard"),
                "drawn": drawn.get("card"),
                "drawn_from": drawn.get("from"),
                "dice": list(obs.get("dice") or []),
                "rules": obs.get("rules") or {},
                "turn": int(obs.get("turn") or 1),
                "turns": int(obs.get("turns") or 1),
                "stood": list(obs.get("stood") or []),
                "immune": list(obs.get("immune") or []),
                "tokens_left": list(obs.get("tokens_left") or []),
                "counts": options_counts,
            }
        }

    # ------------------------------------------------------------------ values
    def _q(self, a: int, b: int, rules: Rules, counts: tuple[int, ...]) -> float:
        return _quality_table(rules, counts)[(a, b)]

    def _utility(self, a: int, b: int, pot: float, view: View, rules: Rules | None = None) -> float:
        extra = view.extra
        rules = rules or _rules(extra)
        q = self._q(a, b, rules, extra["counts"])
        k = max(1, len(extra["alive"]) - 1)
        return -(1.0 - q**k) * (pot + _penalty(a, b, rules))

    def _hand(self, view: View) -> tuple[int, int]:
        sand, blood = view.extra["cards"]
        return _code_value(sand), _code_value(blood)

    def _family_unseen(self, view: View, fam: str) -> list[tuple[int, int]]:
        """(value, copies) of a family's cards this seat has not seen (approximately: the
        family minus its own card and that family's discard top)."""
        counts = dict(zip(_KINDS, view.extra["counts"], strict=True))
        seen = [c for c in view.extra["cards"] if c.endswith(fam)]
        top = view.extra["sand_top" if fam == "s" else "blood_top"]
        if top:
            seen.append(top)
        for code in seen:
            v = _code_value(code)
            counts[v] = max(0, counts[v] - 1)
        return [(v, n) for v, n in counts.items() if n]

    def _draw_value(self, view: View, fam: str, card: int | None, pot: float) -> float:
        a, b = self._hand(view)
        keep_now = self._utility(a, b, pot, view)

        def best(v: int) -> float:
            new = (v, b) if fam == "s" else (a, v)
            return max(keep_now, self._utility(*new, pot, view))

        if card is not None:
            return best(card)
        outcomes = self._family_unseen(view, fam)
        total = sum(n for _, n in outcomes)
        return sum(n * best(v) for v, n in outcomes) / total if total else keep_now

    def hand_quality(self, view: View) -> float:
        extra = view.extra
        if not extra.get("cards"):
            return 0.0
        a, b = self._hand(view)
        return self._q(a, b, _rules(extra), extra["counts"])

    # ------------------------------------------------------------------ decisions
    def card_scores(self, view: View) -> list[tuple[float, Action]]:
        """Every legal action with its utility (chips: higher is better), as 1 + U/10."""
        extra = view.extra
        if not extra.get("cards"):
            return [(0.0, a) for a in view.legal.fixed]
        me = extra["seat"]
        pot = float(extra["pots"][me])
        a, b = self._hand(view)
        stand = self._utility(a, b, pot, view)
        out: list[tuple[float, Action]] = []
        free = False
        for act in view.legal.fixed:
            if isinstance(act, Stand):
                u = stand
            elif isinstance(act, Draw):
                fam = act.source[0]
                top = extra["sand_top" if fam == "s" else "blood_top"]
                known = _code_value(top) if act.source.endswith("discard") and top else None
                cost = 0.0 if free else 1.0
                u = self._draw_value(view, fam, known, pot + cost)
            elif isinstance(act, Keep | DiscardDrawn):
                u = self._settle(view, act, pot)
            elif isinstance(act, ChooseImpostor | ChoosePrime):
                u = self._die(view, act)
            elif isinstance(act, PlayToken):
                u = stand + self._token_gain(view, act)
            else:
                u = stand - 1.0
            out.append((1.0 + u / 10.0, act))
        return out

    def _settle(self, view: View, act: Action, pot: float) -> float:
        extra = view.extra
        a, b = self._hand(view)
        drawn = extra.get("drawn")
        if drawn is None:
            return self._utility(a, b, pot, view)
        v = _code_value(drawn)
        if isinstance(act, Keep):
            a, b = (v, b) if drawn.endswith("s") else (a, v)
        return self._utility(a, b, pot, view)

    def _die(self, view: View, act: Action) -> float:
        extra = view.extra
        rules = _rules(extra)
        a, b = self._hand(view)
        assert isinstance(act, ChooseImpostor | ChoosePrime)
        d = act.value
        if isinstance(act, ChoosePrime):
            rules = Rules(rules.major_fraud, rules.markdown, rules.cook_the_books, d)
            return self._utility(a, b, 0.0, view, rules)
        # The Sand Impostor chooses first (the reveal's order within a hand).
        if a == IMPOSTOR:
            a = d
        else:
            b = d
        return self._utility(a, b, 0.0, view)

    def _token_gain(self, view: View, act: PlayToken) -> float:
        """The rough chip value of playing a token now (negative: keep it for later)."""
        extra = view.extra
        me = extra["seat"]
        name, target = act.token, act.target
        pots, stacks = extra["pots"], extra["stacks"]
        rules = _rules(extra)
        a, b = self._hand(view)
        q = self.hand_quality(view)
        last = extra["turn"] >= extra["turns"]
        immune = extra["immune"] or [False] * len(stacks)
        stood = extra["stood"] or [False] * len(stacks)
        others = [s for s in extra["alive"] if s != me and not immune[s]]
        hold = -0.3  # a token kept is an option for later
        if name in ("refund", "extra_refund"):
            back = min(2 if name == "refund" else 3, pots[me])
            return (back * (1.0 - q) if last or back >= 3 else 0.0) + hold
        if name == "embezzlement":
            return 0.6 * sum(1 for o in others if pots[o] > 0) + hold
        if name == "general_tariff":
            return q * sum(1 for o in others if stacks[o] > 0) * 0.8 + hold
        if name in ("target_tariff", "target_audit"):
            if target is None:
                return hold
            lead = max((stacks[o] for o in others), default=0)
            amount = 2 if name == "target_tariff" else 3
            weight = 1.0 if stacks[target] == lead else 0.6
            return float(q * min(amount, stacks[target]) * weight + hold)
        if name == "general_audit":
            return q * 2 * sum(1 for o in others if stood[o] and stacks[o] > 0) * 0.8 + hold
        if name in ("major_fraud", "markdown", "cook_the_books"):
            changed = Rules(
                rules.major_fraud or name == "major_fraud",
                rules.markdown or name == "markdown",
                rules.cook_the_books or name == "cook_the_books",
                rules.prime,
            )
            gain = self._utility(a, b, pots[me], view, changed) - self._utility(
                a, b, pots[me], view
            )
            return gain + hold
        if name == "prime_sabacc":
            pair = a == b or SYLOP in (a, b)
            return (0.4 * (pots[me] + 1) if pair and last else 0.0) + hold
        if name == "immunity":
            threatened = sum(extra["tokens_left"][o] for o in others)
            return (0.1 * threatened * (pots[me] + 1) * q if q > 0.6 else 0.0) + hold
        if name in ("exhaustion", "direct_transaction"):
            if target is None or not stood[target]:
                return hold
            return (1.0 - q) * 2.0 - 0.7 + hold
        if name == "free_draw":
            return 0.5 if extra["turn"] >= 1 and q < 0.55 else hold
        if name == "embargo":
            return (0.5 if q > 0.6 and not last else 0.0) + hold
        return hold

    def choose(self, view: View, rng: random.Random) -> Action | None:
        """The best-scored legal action (Kessel has no betting)."""
        scored = self.card_scores(view)
        if not scored:
            return None
        best = scored[0]
        for item in scored[1:]:
            if item[0] > best[0]:
                best = item
        return best[1]


def kessel_bot(impostors: int = 3, sylops: int = 1) -> KesselBot:
    return KesselBot(impostors, sylops)


__all__ = ["KesselBot", "kessel_bot"]
