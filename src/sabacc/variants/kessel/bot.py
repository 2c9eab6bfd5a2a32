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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from sabacc.core.actions import STAND, Action, Stand
from sabacc.engine.bots import BotModel, SearchWorld, View
from sabacc.variants.kessel.actions import (
    DISCARD_DRAWN,
    DRAWS,
    KEEP,
    ChooseImpostor,
    ChoosePrime,
    DiscardDrawn,
    Draw,
    Keep,
    PlayToken,
    token_action,
)
from sabacc.variants.kessel.hands import DIE, IMPOSTOR, SYLOP, Rules, _rank
from sabacc.variants.kessel.tokens import TARGETED

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


@functools.cache
def _pair_table(
    rules: Rules, counts: tuple[int, ...]
) -> dict[tuple[int, int], tuple[float, float]]:
    """(quality, expected penalty if it loses) of every (Sand, Blood) kind pair."""
    quality = _quality_table(rules, counts)
    return {pair: (q, _penalty(*pair, rules)) for pair, q in quality.items()}


def _rules(extra: Mapping[str, Any]) -> Rules:
    r = extra.get("rules") or {}
    return Rules(
        bool(r.get("major_fraud")),
        bool(r.get("markdown")),
        bool(r.get("cook_the_books")),
        r.get("prime"),
    )


@dataclass(slots=True)
class Situation:
    """What one seat's decision depends on, read from an observation (:class:`View`) or from
    a search world's C state (:mod:`sabacc.variants.kessel.search`, the fields in this order):
    own card kinds, the discard tops, the card drawn and not yet settled, chips, the round's
    rules and the public token facts."""

    me: int
    a: int | None  # own Sand card's kind (None: no hand)
    b: int | None
    sand_top: int | None
    blood_top: int | None
    drawn: int | None  # the drawn card's kind where this seat sees it
    drawn_fam: str | None  # "s" or "b"
    stacks: Sequence[int]
    pots: Sequence[int]
    alive: Sequence[int]
    rules: Rules
    counts: tuple[int, ...]
    turn: int
    turns: int
    stood: Sequence[bool]
    immune: Sequence[bool]
    tokens_left: Sequence[int]
    free: bool = False


def _utility(
    a: int, b: int, pot: float, k: int, table: Mapping[tuple[int, int], tuple[float, float]]
) -> float:
    q, pen = table[(a, b)]
    return -(1.0 - q**k) * (pot + pen)


def _unseen(fam_card: int, top: int | None, counts: tuple[int, ...]) -> list[tuple[int, int]]:
    """(kind, copies) of a family's cards a seat has not seen (approximately: the family minus
    its own card of that family and that family's discard top)."""
    left = dict(zip(_KINDS, counts, strict=True))
    for v in (fam_card, top):
        if v is not None:
            left[v] = max(0, left[v] - 1)
    return [(v, n) for v, n in left.items() if n]


#: The card actions in the order the engine lists them: stand, the four draws, keep, discard.
_CARD_ACTIONS: tuple[Action, ...] = (STAND, *DRAWS.values(), KEEP, DISCARD_DRAWN)
_DRAW_INDEX: dict[str, int] = {source: 1 + i for i, source in enumerate(DRAWS)}


def _card_index(act: Action) -> int:
    """``act``'s place in :data:`_CARD_ACTIONS`; -1 for any other action (by type, not hash:
    this is the rollouts' inner loop)."""
    t = type(act)
    if t is Draw:
        return _DRAW_INDEX[act.source]  # type: ignore[attr-defined]
    if t is Stand:
        return 0
    if t is Keep:
        return 5
    if t is DiscardDrawn:
        return 6
    return -1


@functools.lru_cache(maxsize=262_144)
def _card_part(
    a: int,
    b: int,
    sand_top: int | None,
    blood_top: int | None,
    drawn: int | None,
    drawn_fam: str | None,
    pot: int,
    k: int,
    rules: Rules,
    counts: tuple[int, ...],
    free: bool,
    mask: int,
) -> tuple[float, tuple[float, ...]]:
    """The stand utility and the utility of each card action (by :data:`_CARD_ACTIONS` index;
    0.0 outside ``mask``), cached: search rollouts ask the same few situations again and
    again."""
    table = _pair_table(rules, counts)
    stand = _utility(a, b, pot, k, table)
    out = [0.0] * len(_CARD_ACTIONS)
    for i, act in enumerate(_CARD_ACTIONS):
        if not mask & (1 << i):
            continue
        if act is STAND:
            u = stand
        elif isinstance(act, Draw):
            fam = act.source[0]
            top = sand_top if fam == "s" else blood_top
            cost = pot + (0.0 if free else 1.0)
            keep_now = _utility(a, b, cost, k, table)

            def best(
                v: int, fam: str = fam, cost: float = cost, keep_now: float = keep_now
            ) -> float:
                new = (v, b) if fam == "s" else (a, v)
                return max(keep_now, _utility(*new, cost, k, table))

            if act.source.endswith("discard") and top is not None:
                u = best(top)
            else:
                outcomes = _unseen(a if fam == "s" else b, top, counts)
                total = sum(n for _, n in outcomes)
                u = sum(n * best(v) for v, n in outcomes) / total if total else keep_now
        elif drawn is None:
            u = stand
        elif act is KEEP:
            new = (drawn, b) if drawn_fam == "s" else (a, drawn)
            u = _utility(*new, pot, k, table)
        else:
            u = stand
        out[i] = u
    return stand, tuple(out)


@functools.lru_cache(maxsize=262_144)
def best_card_action(
    a: int,
    b: int,
    sand_top: int | None,
    blood_top: int | None,
    drawn: int | None,
    drawn_fam: str | None,
    pot: int,
    k: int,
    rules: Rules,
    counts: tuple[int, ...],
    free: bool,
    mask: int,
) -> tuple[Action, float, float]:
    """The best of the card actions in ``mask`` (by :data:`_CARD_ACTIONS` index; the first of
    equals), with its score and the stand utility: what :func:`situation_choice` weighs tokens
    against. Cached."""
    stand, part = _card_part(
        a, b, sand_top, blood_top, drawn, drawn_fam, pot, k, rules, counts, free, mask
    )
    best = -1
    for i in range(len(_CARD_ACTIONS)):
        if mask & (1 << i) and (best < 0 or _score(part[i]) > _score(part[best])):
            best = i
    return _CARD_ACTIONS[best], _score(part[best]), stand


def best_token(
    sit: Situation, tokens: Sequence[str], order: Sequence[int], score: float, stand: float
) -> PlayToken | None:
    """The first token action (in the engine's order: ``tokens``, then targets in ``order``)
    scoring above ``score``, the best card action's: what :func:`situation_choice` picks over
    the card actions, or None."""
    context = _TokenContext(sit)
    me, immune, stood = sit.me, sit.immune, sit.stood
    best: PlayToken | None = None
    for token in tokens:
        if token not in TARGETED:
            value = _score(stand + _gain(context, token, None))
            if value > score:
                best, score = token_action(token), value
            continue
        for other in order:
            if other == me or immune[other] or (token == "target_audit" and not stood[other]):
                continue
            value = _score(stand + _gain(context, token, other))
            if value > score:
                best, score = token_action(token, other), value
    return best


def _score(u: float) -> float:
    return 1.0 + u / 10.0


def situation_scores(sit: Situation, legal: Sequence[Action]) -> list[tuple[float, Action]]:
    """Every legal action with its utility (chips: higher is better), as 1 + U/10."""
    if sit.a is None or sit.b is None:
        return [(0.0, a) for a in legal]
    index = [_card_index(act) for act in legal]
    mask = 0
    for i in index:
        if i >= 0:
            mask |= 1 << i
    a, b, me = sit.a, sit.b, sit.me
    k = max(1, len(sit.alive) - 1)
    stand, part = _card_part(
        a,
        b,
        sit.sand_top,
        sit.blood_top,
        sit.drawn,
        sit.drawn_fam,
        sit.pots[me],
        k,
        sit.rules,
        sit.counts,
        sit.free,
        mask,
    )
    out: list[tuple[float, Action]] = []
    context: _TokenContext | None = None
    for i, act in zip(index, legal, strict=True):
        if i >= 0:
            u = part[i]
        elif isinstance(act, ChooseImpostor | ChoosePrime):
            u = _die(sit, act)
        elif isinstance(act, PlayToken):
            if context is None:
                context = _TokenContext(sit)
            u = stand + _gain(context, act.token, act.target)
        else:
            u = stand - 1.0
        out.append((_score(u), act))
    return out


def situation_choice(sit: Situation, legal: Sequence[Action]) -> Action:
    """The best-scored legal action (the first of equals, in the engine's order)."""
    scored = situation_scores(sit, legal)
    best = scored[0]
    for item in scored[1:]:
        if item[0] > best[0]:
            best = item
    return best[1]


def _die(sit: Situation, act: ChooseImpostor | ChoosePrime) -> float:
    assert sit.a is not None and sit.b is not None
    rules, a, b = sit.rules, sit.a, sit.b
    k = max(1, len(sit.alive) - 1)
    d = act.value
    if isinstance(act, ChoosePrime):
        rules = Rules(rules.major_fraud, rules.markdown, rules.cook_the_books, d)
        return _utility(a, b, 0.0, k, _pair_table(rules, sit.counts))
    # The Sand Impostor chooses first (the reveal's order within a hand).
    if a == IMPOSTOR:
        a = d
    else:
        b = d
    return _utility(a, b, 0.0, k, _pair_table(rules, sit.counts))


class _TokenContext:
    """What every token's value reads, computed once per decision."""

    __slots__ = ("a", "b", "k", "last", "lead", "others", "pot", "q", "sit", "table")

    def __init__(self, sit: Situation) -> None:
        assert sit.a is not None and sit.b is not None
        self.sit = sit
        self.a, self.b = sit.a, sit.b
        self.k = max(1, len(sit.alive) - 1)
        self.table = _pair_table(sit.rules, sit.counts)
        self.q = self.table[(sit.a, sit.b)][0]
        self.last = sit.turn >= sit.turns
        immune = sit.immune
        self.others = [s for s in sit.alive if s != sit.me and not immune[s]]
        self.lead = max((sit.stacks[o] for o in self.others), default=0)
        self.pot = sit.pots[sit.me]


def _gain(c: _TokenContext, name: str, target: int | None) -> float:
    sit = c.sit
    a, b, q, pot, others = c.a, c.b, c.q, c.pot, c.others
    pots, stacks = sit.pots, sit.stacks
    hold = -0.3  # a token kept is an option for later
    if name in ("refund", "extra_refund"):
        back = min(2 if name == "refund" else 3, pot)
        return (back * (1.0 - q) if c.last or back >= 3 else 0.0) + hold
    if name == "embezzlement":
        return 0.6 * sum(1 for o in others if pots[o] > 0) + hold
    if name == "general_tariff":
        return q * sum(1 for o in others if stacks[o] > 0) * 0.8 + hold
    if name in ("target_tariff", "target_audit"):
        if target is None:
            return hold
        amount = 2 if name == "target_tariff" else 3
        weight = 1.0 if stacks[target] == c.lead else 0.6
        return float(q * min(amount, stacks[target]) * weight + hold)
    if name == "general_audit":
        stood = sit.stood
        return q * 2 * sum(1 for o in others if stood[o] and stacks[o] > 0) * 0.8 + hold
    if name in ("major_fraud", "markdown", "cook_the_books"):
        rules = sit.rules
        changed = Rules(
            rules.major_fraud or name == "major_fraud",
            rules.markdown or name == "markdown",
            rules.cook_the_books or name == "cook_the_books",
            rules.prime,
        )
        gain = _utility(a, b, pot, c.k, _pair_table(changed, sit.counts)) - _utility(
            a, b, pot, c.k, c.table
        )
        return gain + hold
    if name == "prime_sabacc":
        pair = a == b or SYLOP in (a, b)
        return (0.4 * (pot + 1) if pair and c.last else 0.0) + hold
    if name == "immunity":
        threatened = sum(sit.tokens_left[o] for o in others)
        return (0.1 * threatened * (pot + 1) * q if q > 0.6 else 0.0) + hold
    if name in ("exhaustion", "direct_transaction"):
        if target is None or not sit.stood[target]:
            return hold
        return (1.0 - q) * 2.0 - 0.7 + hold
    if name == "free_draw":
        return 0.5 if sit.turn >= 1 and q < 0.55 else hold
    if name == "embargo":
        return (0.5 if q > 0.6 and not c.last else 0.0) + hold
    return hold


class KesselBot(BotModel):
    """Kessel's value function and token sense (see the module docstring)."""

    #: ``hard``'s 800 worlds take 1-5 s per decision here (Spike: about 0.5 s); 200 worlds
    #: think about as long as Spike's hard bot (under 1 s at 4 players). ``expert`` is the same
    #: search: sharp only differs in betting, which Kessel has none of.
    level_bots: ClassVar[Mapping[str, str]] = {"hard": "ismcts:200", "expert": "ismcts:200"}
    #: Declared: ``hard`` and ``expert`` are the same bot here (three bot strengths).
    same_levels: ClassVar[tuple[tuple[str, ...], ...]] = (("hard", "expert"),)

    def __init__(self, impostors: int = 3, sylops: int = 1) -> None:
        self.counts = (3, 3, 3, 3, 3, 3, impostors, sylops)

    # ------------------------------------------------------------------ reading the table
    def view_extras(self, observation: Mapping[str, Any]) -> dict[str, Any]:
        """The :class:`Situation` of the observation's seat, as ``View.extra["sit"]``."""
        obs = observation
        me = obs.get("seat")
        seats = obs.get("seats", [])
        n = len(seats)
        cards = list(obs.get("you", {}).get("cards", []))
        kinds = [_code_value(c) for c in cards]
        for imp in obs.get("impostors") or []:  # an Impostor whose die is chosen has its value
            if imp["seat"] == me and imp["card"] in cards:
                kinds[cards.index(imp["card"])] = int(imp["value"])
        drawn = obs.get("drawn") or {}
        drawn_card = drawn.get("card")
        sand_top, blood_top = obs.get("sand_discard"), obs.get("blood_discard")
        # The observation does not give the deck's make-up: the bot assumes its own (the
        # standard 3 Impostors and 1 Sylop unless built for other options).
        sit = Situation(
            me=int(me) if me is not None else 0,
            a=kinds[0] if len(kinds) == 2 else None,
            b=kinds[1] if len(kinds) == 2 else None,
            sand_top=_code_value(sand_top) if sand_top else None,
            blood_top=_code_value(blood_top) if blood_top else None,
            drawn=_code_value(drawn_card) if drawn_card else None,
            drawn_fam=drawn_card[-1] if drawn_card else None,
            stacks=[int(s["stack"]) for s in seats],
            pots=[int(s["committed"]) for s in seats],
            alive=[s["seat"] for s in seats if s["status"] in ("active", "all_in")],
            rules=_rules(obs),
            counts=self.counts,
            turn=int(obs.get("turn") or 1),
            turns=int(obs.get("turns") or 1),
            stood=list(obs.get("stood") or [False] * n),
            immune=list(obs.get("immune") or [False] * n),
            tokens_left=list(obs.get("tokens_left") or [0] * n),
            free=bool(obs.get("draw_is_free")),
        )
        return {"extra": {"sit": sit}}

    def view_from_game(self, game: Any, seat: int) -> View:
        """The :class:`View` :meth:`view_extras` gives from ``seat``'s observation, read from the
        game's state (either engine's): what search rollouts on the reference game (a
        pure-Python install) read at each step instead of building an observation."""
        hand = game.hands[seat]
        chosen = game.chosen
        kinds = [chosen.get(c.id, c.value) for c in hand]
        sand, blood = game.sand_discard, game.blood_discard
        drawn = game.drawn
        source = game.drawn_from
        shown = bool(drawn) and (str(source).endswith("discard") or seat == game.to_act)
        sit = Situation(
            me=seat,
            a=kinds[0] if len(kinds) == 2 else None,
            b=kinds[1] if len(kinds) == 2 else None,
            sand_top=sand[-1].value if sand else None,
            blood_top=blood[-1].value if blood else None,
            drawn=drawn[0].value if shown else None,
            drawn_fam=drawn[0].suit if shown else None,
            stacks=list(game.stacks),
            pots=list(game.committed),
            alive=[s for s in range(game.n) if game.in_hand[s] and not game.out[s]],
            rules=game.rules,
            counts=self.counts,
            turn=game.turn or 1,
            turns=game.options.turns or 1,
            stood=list(game.stood),
            immune=list(game.immune),
            tokens_left=[len(t) for t in game.tokens_left],
            free=bool(game.free_draw),
        )
        return View(
            variant="kessel",
            phase=game.phase,
            values=[c.value for c in hand],
            legal=game.legal(),
            extra={"sit": sit},
        )

    # ------------------------------------------------------------------ values
    def hand_quality(self, view: View) -> float:
        sit: Situation | None = view.extra.get("sit")
        if sit is None or sit.a is None or sit.b is None:
            return 0.0
        return _quality_table(sit.rules, sit.counts)[(sit.a, sit.b)]

    # ------------------------------------------------------------------ decisions
    def card_scores(self, view: View) -> list[tuple[float, Action]]:
        """Every legal action with its utility (chips: higher is better), as 1 + U/10."""
        sit: Situation | None = view.extra.get("sit")
        if sit is None:
            return [(0.0, a) for a in view.legal.fixed]
        return situation_scores(sit, view.legal.fixed)

    def choose(self, view: View, rng: random.Random) -> Action | None:
        """The best-scored legal action (Kessel has no betting)."""
        if not view.legal.fixed:
            return None
        sit: Situation | None = view.extra.get("sit")
        if sit is None:
            return view.legal.fixed[0]
        return situation_choice(sit, view.legal.fixed)

    def search_sampler(self, game: Any, seat: int) -> Callable[[random.Random], SearchWorld] | None:
        """Kessel's search worlds on the compiled core
        (:func:`sabacc.variants.kessel.search.search_sampler`); None without the core."""
        from sabacc.variants.kessel.search import search_sampler

        return search_sampler(game, seat)


def kessel_bot(impostors: int = 3, sylops: int = 1) -> KesselBot:
    return KesselBot(impostors, sylops)


__all__ = ["KesselBot", "kessel_bot"]
