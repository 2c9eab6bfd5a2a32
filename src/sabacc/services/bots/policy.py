"""Fast rule-based play, shared by the ``heuristic`` bot and the rollouts of ``ismcts``.

A policy decides from a :class:`View`: the seat's own cards, the public cards and the betting
situation, nothing else. The ``heuristic`` bot builds its view from an observation
(:func:`view_from_observation`); the search bot builds views from the determinized states it
plays out (:func:`view_from_game`, which reads only what that seat could see: its own hand and
the public piles), so rollouts never let a seat peek at another seat's cards.

The decision rules here are generic (bets compare the chance of winning with the pot odds; card
actions take the best expected hand quality). What a hand is worth is variant knowledge: each
variant declares a :class:`~sabacc.engine.bots.BotModel` (``VariantInfo.bot``), asked here.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

from sabacc.core.actions import Action, Bet, Call, Check, Junk, Raise, Stand
from sabacc.engine.betting import Legal
from sabacc.engine.bots import BotModel, View, card_value, legal_from_actions
from sabacc.variants.classic.actions import CallHand
from sabacc.variants.coruscant_shift.actions import Keep
from sabacc.variants.registry import lookup
from sabacc.variants.spike_family.actions import Discard, Gain, Swap

__all__ = [
    "View",
    "bet_decision",
    "card_action",
    "card_value",
    "legal_from_actions",
    "policy_action",
    "rollout_action",
    "view_from_game",
    "view_from_observation",
    "win_chance",
]


def _model(variant: str) -> BotModel:
    return lookup(variant).bot


def _unseen_counts(deck: Mapping[int, int], seen: Iterable[int]) -> dict[int, int]:
    counts = dict(deck)
    for v in seen:
        if counts.get(v, 0) > 0:
            counts[v] -= 1
    return counts


def unseen_from_observation(obs: Mapping[str, Any]) -> dict[int, int]:
    """Copies of each value that ``obs``'s seat has not seen (own, face-up and known cards)."""
    info = lookup(str(obs.get("variant")))
    deck = info.deck.value_counts
    card_value = _code_values(info.name).get
    seen: list[int] = list(obs.get("you", {}).get("values", []))
    codes: list[str] = []
    for pile in info.piles:  # the declared piles: every face-up card, and the known ones
        if pile.face_up:
            codes += list(obs.get(pile.key) or [])
        if pile.known_key is not None:
            codes += [c for c in obs.get(pile.known_key) or [] if c]
    me = obs.get("seat")
    for s in obs.get("seats", []):
        if s.get("seat") != me:
            codes += list(s.get("known_cards", []))
    seen += [v for v in map(card_value, codes) if v is not None]
    return _unseen_counts(deck, seen)


@functools.cache
def _code_values(variant: str) -> dict[str, int]:
    """Each card code of the variant's deck and its value (``Is`` -> the Impostor's value)."""
    return {c.code: c.value for c in lookup(variant).deck.cards}


def view_from_observation(obs: Mapping[str, Any], legal: Sequence[Action]) -> View:
    """The :class:`View` of the observation's seat."""
    me = obs.get("seat")
    seats = obs.get("seats", [])
    stack = next((int(s["stack"]) for s in seats if s["seat"] == me), 0)
    opponents = sum(1 for s in seats if s["seat"] != me and s["status"] in ("active", "all_in"))
    variant = str(obs.get("variant"))
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
        unseen=unseen_from_observation(obs),
        calls_open=bool(obs.get("calls_open", False)),
        **_model(variant).view_extras(obs),
    )


def view_from_game(game: Any, seat: int) -> View:
    """The view of ``seat`` in a (sampled) game state, reading only what the seat could see.

    Used in rollouts, where speed matters: the variant's model reads the state directly, with
    the unseen-card counts approximated by the whole deck. Variants whose model does not read
    states fall back to the (slower) observation.
    """
    view: View | None = game.info.bot.view_from_game(game, seat)
    if view is not None:
        return view
    return view_from_observation(game.observation(seat), game.legal().actions())


# --------------------------------------------------------------------------------------------
# The variant's hand values
# --------------------------------------------------------------------------------------------


def card_scores(view: View) -> list[tuple[float, Action]]:
    """Card-phase actions scored by expected hand quality (higher is better)."""
    return _model(view.variant).card_scores(view)


def hand_quality(view: View) -> float:
    """``q`` of the seat's current hand."""
    if not view.values:
        return 0.0
    return _model(view.variant).hand_quality(view)


def win_chance(view: View) -> float:
    """Estimated chance to win the hand against every live opponent, from the current hand."""
    q = _model(view.variant).win_chance(view)
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
    if _model(view.variant).folds_hopeless(view):
        junk = _find(legal, Junk)
        if junk is not None:
            return junk
    p = win_chance(view)
    return bet_decision(p, legal, view.to_call, view.pot, view.unit, rng, aggression)


def calling_action(view: View) -> Action:
    """A calling phase (ask for the showdown or not): call with a strong enough hand."""
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
    own = _model(view.variant).choose(view, rng)
    if own is not None:
        return own
    if legal.bet is not None or legal.raise_ is not None or view.phase == "betting":
        return betting_action(view, rng, aggression)
    if view.phase == _model(view.variant).calling_phase:
        return calling_action(view)
    card_kinds = Stand | Gain | Swap | Discard | Keep
    if legal.fixed and any(isinstance(a, card_kinds) for a in legal.fixed):
        return card_action(view)
    for kind in (Check, Stand, Call):
        found = _find(legal, kind)
        if found is not None:
            return found
    return legal.fixed[0] if legal.fixed else legal.actions()[0]


_ROLLOUT_CACHE_LIMIT = 400_000
_CARD_CACHE: dict[Hashable, Action] = {}
_P_CACHE: dict[Hashable, float] = {}


def rollout_action(game: Any, seat: int, rng: random.Random) -> Action:
    """The policy's choice for ``seat`` in a sampled state (search rollouts).

    Reads only ``seat``'s own cards and public information. Where the variant's model gives
    cache keys (what a decision depends on: hand, face-up cards, round), decisions are cached by
    them, which makes rollouts cheap.
    """
    info = game.info
    model = info.bot
    betting = game.phase == "betting"
    key = model.rollout_key(game, seat, betting)
    if key is None:
        return policy_action(view_from_game(game, seat), rng)
    if betting:
        p = _P_CACHE.get(key)
        if p is None:
            p = win_chance(view_from_game(game, seat))
            if len(_P_CACHE) > _ROLLOUT_CACHE_LIMIT:
                _P_CACHE.clear()
            _P_CACHE[key] = p
        to_call = game.cur_bet - game.round_bet[seat]
        unit = info.bet_unit(game.options)
        return bet_decision(p, game.legal(), to_call, game.pot_total(), unit, rng)
    action = _CARD_CACHE.get(key)
    if action is None:
        action = card_action(view_from_game(game, seat))
        if len(_CARD_CACHE) > _ROLLOUT_CACHE_LIMIT:
            _CARD_CACHE.clear()
        _CARD_CACHE[key] = action
    return action
