"""Fast rule-based play, shared by the ``heuristic`` bot and the rollouts of ``ismcts``.

A policy decides from a :class:`View`: the seat's own cards, the public cards and the betting
situation, nothing else. The ``heuristic`` bot builds its view from an observation
(:func:`view_from_observation`); the search bot builds views from the determinized states it
plays out (:func:`view_from_game`, which reads only what that seat could see: its own hand and
the public piles), so rollouts never let a seat peek at another seat's cards.

Hand quality ``q`` is an estimate of the chance that a final hand wins a showdown against one
opponent (calibrated on heuristic self-play, see docs/bots.md). Card actions are scored by the
expected ``q`` after the action, over the cards the seat has not seen (exactly, from value
counts); bets compare the chance of winning with the pot odds.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sabacc.core.actions import (
    Action,
    Bet,
    Call,
    CallHand,
    Check,
    Discard,
    Gain,
    Junk,
    Raise,
    Stand,
    Swap,
)
from sabacc.core.cards import CLASSIC_DECK, SPIKE_DECK
from sabacc.core.hands import HandValue
from sabacc.engine.betting import Legal
from sabacc.variants.spike_hands import SPIKE_CODES, evaluate_spike_key, spike_key

SPIKE_FAMILY = ("corellian_spike", "surabat_cycle")

_SPIKE_CODE = {v: SPIKE_CODES[v + 10] for v in range(-10, 11)}
SPIKE_POOL: dict[int, int] = dict(SPIKE_DECK.value_counts)
CLASSIC_POOL: dict[int, int] = dict(CLASSIC_DECK.value_counts)

# Chance that a final hand beats one opponent's final hand at showdown, by rank for hands
# totalling 0 (index = rank; ranks 1..12), and by distance for Nulrhek (index = |total|,
# [negative, positive]). Calibrated on heuristic self-play (docs/bots.md).
_SABACC_Q = (0.0, 1.0, 1.0, 0.995, 0.99, 0.985, 0.985, 0.98, 0.975, 0.97, 0.96, 0.91, 0.84)
_NULRHEK_Q = (
    (0.0, 0.0),
    (0.6, 0.74),
    (0.39, 0.49),
    (0.23, 0.3),
    (0.15, 0.18),
    (0.125, 0.135),
    (0.11, 0.12),
    (0.09, 0.1),
    (0.078, 0.084),
    (0.064, 0.071),
    (0.054, 0.059),
)


def spike_q(hv: HandValue) -> float:
    """Estimated chance that this Spike-family hand wins a showdown against one opponent."""
    t = hv.total
    if t == 0:
        return _SABACC_Q[hv.rank]
    d = -t if t < 0 else t
    if d > 10:
        return max(0.002, 0.05 - 0.004 * (d - 10))
    return _NULRHEK_Q[d][1 if t > 0 else 0]


def classic_q(values: Sequence[int], scoring: str = "signed") -> float:
    """Estimated chance that a classic hand wins a showdown against one opponent."""
    n = len(values)
    total = sum(values)
    if n == 3 and sorted(values) == [0, 2, 3]:
        return 1.0
    if total > 23 or total < -23 or total == 0:
        return 0.0
    if total == 23:
        return 0.97
    if scoring == "absolute":
        if total == -23:
            return 0.95
        d = abs(total)
        return 0.02 + 0.9 * math.pow(d / 22.0, 2.2) + (0.005 if total > 0 else 0.0)
    if total < 0:
        return 0.01
    return 0.02 + 0.9 * math.pow(total / 22.0, 2.2)


# --------------------------------------------------------------------------------------------
# The view: what one seat knows, in the form the policies use
# --------------------------------------------------------------------------------------------


@dataclass(slots=True)
class View:
    """What one seat knows at a decision (built from an observation or a sampled state)."""

    variant: str
    phase: str
    values: list[int]
    legal: Legal
    to_call: int = 0
    pot: int = 0
    stack: int = 0
    unit: int = 1
    opponents: int = 1
    round: int = 1
    rounds: int = 1
    hand_cap: int = 5
    discard_top: int | None = None
    sun: tuple[int, ...] = ()
    moon_top: int | None = None
    #: Copies of each value the seat has not seen; ``None``: approximate by the whole deck.
    unseen: Mapping[int, int] | None = None
    calls_open: bool = False
    scoring: str = "signed"
    late: bool = False  # classic: the last orbit before the forced call
    extra: dict[str, Any] = field(default_factory=dict)


def card_value(code: str) -> int:
    """The value of a card code of any variant (``+4c`` -> 4, ``11f`` -> 11, ``0`` -> 0)."""
    text = code.rstrip("cstf")
    return int(text) if text not in ("", "+", "-") else 0


def legal_from_actions(legal: Sequence[Action]) -> Legal:
    """The compact :class:`Legal` form of an expanded legal-action list."""
    fixed: list[Action] = []
    bets: list[int] = []
    raises: list[int] = []
    for a in legal:
        if type(a) is Bet:
            bets.append(a.amount)
        elif type(a) is Raise:
            raises.append(a.amount)
        else:
            fixed.append(a)
    return Legal(
        tuple(fixed),
        (min(bets), max(bets)) if bets else None,
        (min(raises), max(raises)) if raises else None,
    )


def _unseen_counts(deck: Mapping[int, int], seen: Iterable[int]) -> dict[int, int]:
    counts = dict(deck)
    for v in seen:
        if counts.get(v, 0) > 0:
            counts[v] -= 1
    return counts


def unseen_from_observation(obs: Mapping[str, Any]) -> dict[int, int]:
    """Copies of each value that ``obs``'s seat has not seen (own, face-up and known cards)."""
    variant = obs.get("variant")
    deck = CLASSIC_POOL if variant == "classic" else SPIKE_POOL
    seen: list[int] = list(obs.get("you", {}).get("values", []))
    codes: list[str] = list(obs.get("discard_pile", [])) + list(obs.get("sun", []))
    codes += [c for c in obs.get("moon_known", []) if c]
    me = obs.get("seat")
    for s in obs.get("seats", []):
        if s.get("seat") != me:
            codes += list(s.get("known_cards", []))
    seen += [card_value(c) for c in codes]
    return _unseen_counts(deck, seen)


def view_from_observation(obs: Mapping[str, Any], legal: Sequence[Action]) -> View:
    """The :class:`View` of the observation's seat."""
    me = obs.get("seat")
    seats = obs.get("seats", [])
    stack = next((int(s["stack"]) for s in seats if s["seat"] == me), 0)
    opponents = sum(1 for s in seats if s["seat"] != me and s["status"] in ("active", "all_in"))
    top = obs.get("discard_top")
    moon_known = obs.get("moon_known") or []
    moon_top = moon_known[-1] if moon_known else None
    variant = str(obs.get("variant"))
    last_orbit = False
    if variant == "classic":
        last_orbit = int(obs.get("orbit", 0)) >= int(obs.get("max_orbits", 10)) - 1
    return View(
        variant=variant,
        phase=str(obs.get("phase")),
        values=list(obs.get("you", {}).get("values", [])),
        legal=legal_from_actions(legal),
        to_call=int(obs.get("betting", {}).get("to_call", 0)),
        pot=int(obs.get("pots", {}).get("main", 0)),
        stack=stack,
        unit=int(obs.get("betting", {}).get("unit", 1)),
        opponents=max(1, opponents),
        round=int(obs.get("round") or 1),
        rounds=int(obs.get("rounds") or 1),
        hand_cap=int(obs.get("hand_cap") or 5),
        discard_top=card_value(top) if top else None,
        sun=tuple(card_value(c) for c in obs.get("sun", [])),
        moon_top=card_value(moon_top) if moon_top else None,
        unseen=unseen_from_observation(obs),
        calls_open=bool(obs.get("calls_open", False)),
        late=last_orbit,
    )


def view_from_game(game: Any, seat: int) -> View:
    """The view of ``seat`` in a (sampled) game state, reading only what the seat could see.

    Used in rollouts, where speed matters: the unseen-card counts are approximated by the whole
    deck. Unknown variants fall back to the (slower) observation.
    """
    variant = game.variant
    legal = game.legal()
    hand = game.hands[seat]
    stacks = game.stacks
    live = [s for s in range(game.n) if game.in_hand[s] and not game.folded[s]]
    opponents = max(1, len(live) - 1)
    to_call = game.cur_bet - game.round_bet[seat]
    if variant in SPIKE_FAMILY:
        discard_top: int | None = None
        sun: tuple[int, ...] = ()
        moon_top: int | None = None
        if variant == "corellian_spike":
            discard = game.discard
            discard_top = discard[-1].value if discard else None
        else:  # Surabat Cycle: the Sun cards, and the Moon top if this seat put it there
            moon = game.moon
            moon_top = moon[-1].value if moon and game.moon_owner[-1] == seat else None
            sun = tuple(c.value for c in game.sun)
        return View(
            variant,
            game.phase,
            [c.value for c in hand],
            legal,
            to_call if to_call > 0 else 0,
            game.pot_total(),
            stacks[seat],
            game._bet_unit(),
            opponents,
            game.round,
            game._rounds(),
            game.options.hand_cap,
            discard_top,
            sun,
            moon_top,
        )
    if variant == "classic":
        opts = game.options
        return View(
            variant,
            game.phase,
            [c.value for c in hand],
            legal,
            to_call if to_call > 0 else 0,
            game.pot_total(),
            stacks[seat],
            1,
            opponents,
            calls_open=game.orbit >= opts.min_turns_before_call,
            scoring=opts.scoring,
            late=game.orbit >= opts.max_orbits - 1,
        )
    obs = game.observation(seat)
    return view_from_observation(obs, legal.actions())


# --------------------------------------------------------------------------------------------
# Card phase: expected hand quality of each option
# --------------------------------------------------------------------------------------------

_DRAW_CACHE: dict[int, float] = {}
_CLASSIC_DRAW_CACHE: dict[tuple[tuple[int, ...], str], float] = {}


def _spike_expected(key: int, size: int, unseen: Mapping[int, int] | None, cap: int) -> float:
    """Expected ``spike_q`` of the hand ``key`` plus one card from ``unseen``.

    With ``unseen=None`` the whole deck stands for it, and the answer is cached by key.
    """
    if unseen is None:
        cached = _DRAW_CACHE.get(key)
        if cached is not None:
            return cached
        pool: Mapping[int, int] = SPIKE_POOL
    else:
        pool = unseen
    total = 0
    acc = 0.0
    for v, n in pool.items():
        if n <= 0:
            continue
        k2 = key + _SPIKE_CODE[v]
        if size + 1 > cap:
            acc += n * _best_discard_q(k2, size + 1)
        else:
            acc += n * spike_q(evaluate_spike_key(k2))
        total += n
    result = acc / total if total else spike_q(evaluate_spike_key(key)) if size else 0.0
    if unseen is None:
        _DRAW_CACHE[key] = result
    return result


def _best_discard_q(key: int, size: int) -> float:
    """The best ``spike_q`` after discarding one card of the hand ``key`` (Surabat at the cap)."""
    best = 0.0
    for i, code in enumerate(SPIKE_CODES):
        if (key >> (4 * i)) & 15:
            q = spike_q(evaluate_spike_key(key - code))
            if q > best:
                best = q
    return best


def _key_values(key: int) -> list[int]:
    out: list[int] = []
    for i in range(21):
        out.extend([i - 10] * ((key >> (4 * i)) & 15))
    return out


def spike_card_scores(view: View) -> list[tuple[float, Action]]:
    """Each card-phase (or discard-phase) action with its expected hand quality afterwards."""
    values = view.values
    size = len(values)
    key = spike_key(values) if values else 0
    code = _SPIKE_CODE
    unseen = view.unseen
    cap = view.hand_cap
    out: list[tuple[float, Action]] = []
    current = spike_q(evaluate_spike_key(key)) if size else 0.0
    for a in view.legal.fixed:
        t = type(a)
        if t is Stand:
            score = current + 0.004
        elif t is Gain:
            assert isinstance(a, Gain)
            if a.value is None:
                score = _spike_expected(key, size, unseen, 99)
            else:
                k2 = key + code[a.value]
                if size + 1 > cap:
                    score = _best_discard_q(k2, size + 1)
                else:
                    score = spike_q(evaluate_spike_key(k2))
        elif t is Swap:
            assert isinstance(a, Swap)
            rest = key - code[a.value]
            if a.source == "discard" and view.discard_top is not None:
                score = spike_q(evaluate_spike_key(rest + code[view.discard_top]))
            elif a.source == "moon" and view.moon_top is not None:
                score = spike_q(evaluate_spike_key(rest + code[view.moon_top]))
            else:
                score = _spike_expected(rest, size - 1, unseen, 99)
        elif t is Discard:
            assert isinstance(a, Discard)
            score = spike_q(evaluate_spike_key(key - code[a.value]))
        else:
            score = -1.0
        out.append((score, a))
    return out


def _classic_expected(values: list[int], unseen: Mapping[int, int] | None, scoring: str) -> float:
    cache_key = (tuple(sorted(values)), scoring)
    if unseen is None:
        cached = _CLASSIC_DRAW_CACHE.get(cache_key)
        if cached is not None:
            return cached
        pool: Mapping[int, int] = CLASSIC_POOL
    else:
        pool = unseen
    total = 0
    acc = 0.0
    for v, n in pool.items():
        if n > 0:
            acc += n * classic_q([*values, v], scoring)
            total += n
    result = acc / total if total else classic_q(values, scoring)
    if unseen is None and len(_CLASSIC_DRAW_CACHE) < 200_000:
        _CLASSIC_DRAW_CACHE[cache_key] = result
    return result


def classic_card_scores(view: View) -> list[tuple[float, Action]]:
    """Each drawing-phase action with its expected classic hand quality afterwards."""
    values = view.values
    out: list[tuple[float, Action]] = []
    for a in view.legal.fixed:
        t = type(a)
        if t is Stand:
            score = classic_q(values, view.scoring) + 0.004
        elif t is Gain:
            score = _classic_expected(values, view.unseen, view.scoring)
        elif t is Swap:
            assert isinstance(a, Swap)
            rest = list(values)
            rest.remove(a.value)
            score = _classic_expected(rest, view.unseen, view.scoring)
        else:
            score = -1.0
        out.append((score, a))
    return out


def card_scores(view: View) -> list[tuple[float, Action]]:
    """Card-phase actions scored by expected hand quality (higher is better)."""
    if view.variant == "classic":
        return classic_card_scores(view)
    if view.variant in SPIKE_FAMILY:
        return spike_card_scores(view)
    return [(1.0 if isinstance(a, Stand) else 0.0, a) for a in view.legal.fixed]


def hand_quality(view: View) -> float:
    """``q`` of the seat's current hand."""
    if not view.values:
        return 0.0
    if view.variant == "classic":
        return classic_q(view.values, view.scoring)
    if view.variant in SPIKE_FAMILY:
        return spike_q(evaluate_spike_key(spike_key(view.values)))
    return 0.5


def spike_potential(view: View) -> float:
    """The best expected ``q`` one more card action could reach (gain or swap with the draw)."""
    values = view.values
    size = len(values)
    if not size:
        return 0.0
    key = spike_key(values)
    best = spike_q(evaluate_spike_key(key))
    if size < view.hand_cap:
        best = max(best, _spike_expected(key, size, view.unseen, 99))
    for v in set(values):
        best = max(best, _spike_expected(key - _SPIKE_CODE[v], size - 1, view.unseen, 99))
    return best


def win_chance(view: View) -> float:
    """Estimated chance to win the hand against every live opponent, from the current hand."""
    q = hand_quality(view)
    if view.variant in SPIKE_FAMILY:
        cards_left = view.rounds - view.round  # card phases after this betting phase
        spikes_left = cards_left + 1  # this round's Spike phase is still to come
        if cards_left > 0:
            q = max(q, spike_potential(view))
        shift = 1.0 - (5.0 / 6.0) ** spikes_left  # a Sabacc Shift deals everyone new cards
        q = (1.0 - shift) * q + shift * 0.45
    elif view.variant == "classic" and not view.late:
        potential = _classic_expected(view.values, None, view.scoring) if view.values else 0.0
        q = max(q, 0.85 * potential)
    return float(q ** max(1, view.opponents))


# --------------------------------------------------------------------------------------------
# Decisions
# --------------------------------------------------------------------------------------------


def _find(legal: Legal, kind: type) -> Action | None:
    for a in legal.fixed:
        if type(a) is kind:
            return a
    return None


def _sized(kind: type, span: tuple[int, int], want: int) -> Action:
    lo, hi = span
    amount = min(hi, max(lo, want))
    return Bet(amount) if kind is Bet else Raise(amount)


def bet_decision(
    p: float,
    legal: Legal,
    to_call: int,
    pot: int,
    unit: int,
    rng: random.Random,
    aggression: float = 0.7,
) -> Action:
    """Check, bet, call, raise or junk, given ``p`` the chance of winning the hand."""
    pot = max(1, pot)
    unit = max(1, unit)
    fixed = legal.fixed
    if to_call > 0:
        odds = to_call / (pot + to_call)
        # Raise with a strong hand; the bigger the bet faced, the stronger it must be (this
        # keeps two strong hands from raising each other all-in every time).
        if legal.raise_ is not None and p > 0.7 + 0.6 * odds and rng.random() < aggression:
            return _sized(Raise, legal.raise_, max(unit, int(pot * (0.5 + p))))
        call = _find(legal, Call)
        if call is not None and (p >= odds + 0.03 or (to_call <= unit and p >= odds * 0.6)):
            return call
        junk = _find(legal, Junk)
        if junk is not None:
            return junk
        return call if call is not None else fixed[0]
    if legal.bet is not None and p > 0.58 and rng.random() < aggression:
        return _sized(Bet, legal.bet, max(unit, int(pot * (0.3 + 0.6 * p))))
    if legal.bet is not None and p < 0.12 and rng.random() < 0.04:
        return _sized(Bet, legal.bet, max(unit, pot // 2))  # an occasional bluff
    check = _find(legal, Check)
    if check is not None:
        return check
    return fixed[0]


def betting_action(view: View, rng: random.Random, aggression: float = 0.7) -> Action:
    """Check, bet, call, raise or junk by the chance of winning against the pot odds."""
    legal = view.legal
    if (
        view.variant == "classic"
        and view.late
        and view.to_call == 0
        and view.values
        and hand_quality(view) == 0.0
        and sum(view.values) != 0
    ):
        junk = _find(legal, Junk)
        if junk is not None:
            return junk  # a hopeless bomb out: the fold fee beats the bomb-out penalty
    p = win_chance(view)
    return bet_decision(p, legal, view.to_call, view.pot, view.unit, rng, aggression)


def calling_action(view: View) -> Action:
    """Classic calling phase: call the hand with a strong enough hand, else stand."""
    legal = view.legal
    call = _find(legal, CallHand)
    stand = _find(legal, Stand)
    q = hand_quality(view)
    p = q ** max(1, view.opponents)
    if call is not None and (p >= 0.62 or (view.late and p >= 0.4)):
        return call
    return stand if stand is not None else legal.fixed[0]


def card_action(view: View) -> Action:
    """The card action with the best expected hand quality (stand on ties)."""
    scored = card_scores(view)
    if not scored:
        return view.legal.fixed[0]
    best = scored[0]
    for item in scored[1:]:
        if item[0] > best[0]:
            best = item
    return best[1]


def policy_action(view: View, rng: random.Random, aggression: float = 0.7) -> Action:
    """The heuristic's choice for any decision of any variant."""
    legal = view.legal
    if legal.bet is not None or legal.raise_ is not None or view.phase == "betting":
        return betting_action(view, rng, aggression)
    if view.phase == "calling":
        return calling_action(view)
    if legal.fixed and any(isinstance(a, Stand | Gain | Swap | Discard) for a in legal.fixed):
        return card_action(view)
    for kind in (Check, Stand, Call):
        found = _find(legal, kind)
        if found is not None:
            return found
    return legal.fixed[0] if legal.fixed else legal.actions()[0]


_ROLLOUT_CACHE_LIMIT = 400_000
_CARD_CACHE: dict[tuple[Any, ...], Action] = {}
_P_CACHE: dict[tuple[Any, ...], float] = {}


def rollout_action(game: Any, seat: int, rng: random.Random) -> Action:
    """The policy's choice for ``seat`` in a sampled state (search rollouts).

    Reads only ``seat``'s own cards and public information. Spike-family decisions are cached
    by what they depend on (hand, face-up cards, round), which makes rollouts cheap.
    """
    variant = game.variant
    if variant not in SPIKE_FAMILY:
        return policy_action(view_from_game(game, seat), rng)
    legal = game.legal()
    hand = game.hands[seat]
    code = _SPIKE_CODE
    key = 0
    for c in hand:
        key += code[c.value]
    phase = game.phase
    if phase == "betting":
        in_hand = game.in_hand
        folded = game.folded
        opponents = sum(1 for s in range(game.n) if in_hand[s] and not folded[s]) - 1
        rounds = game._rounds()
        pkey = (variant, key, game.round, rounds, opponents)
        p = _P_CACHE.get(pkey)
        if p is None:
            view = View(
                variant,
                phase,
                [c.value for c in hand],
                legal,
                opponents=max(1, opponents),
                round=game.round,
                rounds=rounds,
                hand_cap=game.options.hand_cap,
            )
            p = win_chance(view)
            if len(_P_CACHE) > _ROLLOUT_CACHE_LIMIT:
                _P_CACHE.clear()
            _P_CACHE[pkey] = p
        to_call = game.cur_bet - game.round_bet[seat]
        return bet_decision(p, legal, to_call, game.pot_total(), game._bet_unit(), rng)
    if variant == "corellian_spike":
        discard = game.discard
        ckey: tuple[Any, ...] = (key, discard[-1].value if discard else None, legal.fixed)
    else:
        moon = game.moon
        moon_top = moon[-1].value if moon and game.moon_owner[-1] == seat else None
        ckey = (key, phase, tuple(c.value for c in game.sun), moon_top, legal.fixed)
    action = _CARD_CACHE.get(ckey)
    if action is None:
        action = card_action(view_from_game(game, seat))
        if len(_CARD_CACHE) > _ROLLOUT_CACHE_LIMIT:
            _CARD_CACHE.clear()
        _CARD_CACHE[ckey] = action
    return action
