"""Reference opponents: simple players written from public strategy descriptions.

They exist to measure our bots against play that nobody here tuned them against, so they share
nothing with :mod:`sabacc.services.bots.policy` (no hand-quality table, no calibration): each
reads only the public observation (its own cards and total, the face-up discard or Sun cards,
the betting situation) and the legal actions, and follows a rule a player would describe in a
sentence or two:

==================  ==============================================================================
name                the strategy
==================  ==============================================================================
``ref-zero``        *draw to zero*: take a face-up card that brings the total closer to zero, draw
                    while far from zero; bet at zero, call moderate bets, junk far from zero
``ref-minimizer``   *minimizer*: the card action with the smallest expected distance from zero
                    (unknown cards averaged over the deck's values it has not seen); calls small
                    bets, bets small totals
``ref-potodds``     *pot-odds caller*: a fixed guess of the chance to win from the distance to
                    zero; calls when it beats the pot odds, bets half the pot when it is above 60%
``ref-station``     *calling station*: plays its cards to zero, never bets, never folds, always
                    checks or calls
``ref-maniac``      *maniac*: plays its cards to zero, bets or raises the pot whenever it can
``ref-shover``      *shover*: plays its cards to zero, moves all in (the largest bet or raise it
                    may) at every betting decision, from the first hand, whatever it holds;
                    the only one that plays every variant (its cards at random where there is
                    no total to aim at): a test of any bot's first-hand defence
``ref-tight``       *tight folder*: plays its cards to zero, bets only at zero, folds to any bet
                    unless its total is within 1 of zero
``ref-rule``        *the simple rule bot* of issue 19: bet and raise with zero hands, call with a
                    small total at good pot odds, junk weak hands facing big bets
==================  ==============================================================================

The "distance from zero" they aim at is the variant's :meth:`BotModel.target_total` (0 in the
Spike family: Corellian Spike and Surabat Cycle). In a variant without such a target they refuse
to play, with an :class:`~sabacc.core.errors.OptionError`, instead of playing nonsense
(``ref-shover`` excepted: its betting needs no target).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sabacc.core.actions import Action, Bet, Call, Check, Junk, Raise, Stand
from sabacc.core.errors import OptionError
from sabacc.engine.bots import card_value
from sabacc.engine.observation import Observation
from sabacc.services.bots.base import check_turn, register_bot
from sabacc.variants.registry import lookup
from sabacc.variants.spike_family.actions import Discard, Gain, Swap


class Table:
    """What a reference bot reads of one decision: public facts only."""

    def __init__(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> None:
        info = lookup(str(obs.get("variant")))
        target = info.bot.target_total(obs)
        if target is None:
            raise OptionError(
                f"the reference opponents play closest-to-a-total games (the Spike family); "
                f"{info.name} is not one"
            )
        self.target = target
        self.legal = list(legal)
        you = obs.get("you", {})
        self.values: list[int] = list(you.get("values", []))
        self.total = sum(self.values)
        self.distance = abs(self.total - target)
        betting = obs.get("betting", {})
        self.to_call = int(betting.get("to_call", 0))
        self.unit = max(1, int(betting.get("unit", 1)))
        self.pot = max(1, int(obs.get("pots", {}).get("main", 0)))
        top = obs.get("discard_top")
        self.discard_top = card_value(top) if top else None
        # Every value the seat has not seen, one entry per copy: the deck minus its own cards
        # and the face-up ones.
        counts = dict(info.deck.value_counts)
        seen = list(self.values)
        seen += [card_value(c) for c in obs.get("discard_pile", [])]
        seen += [card_value(c) for c in obs.get("sun", [])]
        for v in seen:
            if counts.get(v, 0) > 0:
                counts[v] -= 1
        self.unseen = counts

    # ------------------------------------------------------------------ finding actions
    def find(self, kind: type) -> Action | None:
        for a in self.legal:
            if type(a) is kind:
                return a
        return None

    def sized(self, kind: type, want: int) -> Action | None:
        """The bet (or raise) of ``kind`` nearest to ``want`` credits, if any is legal."""
        amounts = [a.amount for a in self.legal if type(a) is kind and hasattr(a, "amount")]
        if not amounts:
            return None
        amount = min(amounts, key=lambda x: (abs(x - want), x))
        return Bet(amount) if kind is Bet else Raise(amount)

    @property
    def betting(self) -> bool:
        return any(type(a) in (Bet, Raise, Check, Call, Junk) for a in self.legal)

    def passive(self) -> Action:
        """Check if possible, else call, else the first legal action."""
        return self.find(Check) or self.find(Call) or self.legal[0]

    def fold(self) -> Action:
        """Junk when facing a bet (checking is free otherwise)."""
        if self.to_call > 0:
            junk = self.find(Junk)
            if junk is not None:
                return junk
        return self.passive()

    @property
    def pot_odds(self) -> float:
        return self.to_call / (self.pot + self.to_call) if self.to_call else 0.0

    # ------------------------------------------------------------------ card arithmetic
    def after(self, action: Action) -> list[int] | None:
        """The distances from the target the action can lead to (one per unseen copy when the
        card taken is unknown); None: not a card action."""
        if type(action) is Stand:
            return [self.distance]
        t = self.target
        if type(action) is Gain:
            assert isinstance(action, Gain)
            if action.value is not None:  # a face-up Sun card
                return [abs(self.total + action.value - t)]
            return self._unknown(self.total)
        if type(action) is Swap:
            assert isinstance(action, Swap)
            rest = self.total - action.value
            if action.source == "discard" and self.discard_top is not None:
                return [abs(rest + self.discard_top - t)]
            return self._unknown(rest)
        if type(action) is Discard:
            assert isinstance(action, Discard)
            return [abs(self.total - action.value - t)]
        return None

    def _unknown(self, base: int) -> list[int]:
        out: list[int] = []
        for v, n in self.unseen.items():
            out += [abs(base + v - self.target)] * max(0, n)
        return out or [abs(base - self.target)]


def _mean(xs: Sequence[int]) -> float:
    return sum(xs) / len(xs)


def draw_to_zero_card(t: Table) -> Action:
    """Draw to zero: stand at zero; take a face-up card that gets closer; draw when far."""
    if t.distance == 0:
        return t.find(Stand) or t.legal[0]
    best: Action | None = None
    best_d = t.distance
    for a in t.legal:
        if type(a) is Discard:  # over the hand cap: drop the card that leaves the best total
            d = t.after(a)
            assert d is not None
            if best is None or d[0] < best_d:
                best, best_d = a, d[0]
            continue
        known = (type(a) is Swap and getattr(a, "source", "") == "discard") or (
            type(a) is Gain and getattr(a, "value", None) is not None
        )
        if known:
            d = t.after(a)
            assert d is not None
            if d[0] < best_d:
                best, best_d = a, d[0]
    if best is not None:
        return best
    if t.distance >= 4:
        # Far from zero: draw a card if the hand is small, else replace the card that pulls the
        # total furthest from zero with the draw.
        gain = next((a for a in t.legal if type(a) is Gain and a.value is None), None)
        if gain is not None and len(t.values) < 3:
            return gain
        sign = 1 if t.total > t.target else -1
        swaps = [a for a in t.legal if type(a) is Swap and a.source != "discard"]
        if swaps:
            return max(swaps, key=lambda a: sign * a.value)
        if gain is not None:
            return gain
    return t.find(Stand) or t.legal[0]


def minimizer_card(t: Table) -> Action:
    """The card action with the smallest expected distance from the target (stand on ties)."""
    best = t.find(Stand)
    best_d = float(t.distance) if best is not None else float("inf")
    for a in t.legal:
        d = t.after(a)
        if d is None or type(a) is Stand:
            continue
        m = _mean(d)
        if m < best_d - 1e-9:
            best, best_d = a, m
    return best or t.legal[0]


def _guess_win(distance: int) -> float:
    """The pot-odds caller's rule of thumb: zero wins most showdowns, each step away less."""
    return (0.9, 0.7, 0.55, 0.42, 0.3, 0.2)[distance] if distance < 6 else 0.1


# ---------------------------------------------------------------------- the strategies
def zero_bet(t: Table, rng: random.Random) -> Action:
    if t.distance == 0:
        return t.sized(Raise, t.pot) or t.sized(Bet, t.pot) or t.passive()
    if t.to_call > 0 and t.distance > 5:
        return t.fold()
    return t.passive()


def minimizer_bet(t: Table, rng: random.Random) -> Action:
    if t.to_call == 0:
        if t.distance <= 1:
            return t.sized(Bet, max(t.unit, t.pot // 2)) or t.passive()
        return t.passive()
    if t.to_call <= max(t.unit, t.pot // 4) or t.distance <= 2:
        return t.passive()
    return t.fold()


def potodds_bet(t: Table, rng: random.Random) -> Action:
    p = _guess_win(t.distance)
    if t.to_call == 0:
        if p > 0.6:
            return t.sized(Bet, max(t.unit, t.pot // 2)) or t.passive()
        return t.passive()
    return t.passive() if p > t.pot_odds else t.fold()


def station_bet(t: Table, rng: random.Random) -> Action:
    return t.passive()


def maniac_bet(t: Table, rng: random.Random) -> Action:
    return t.sized(Raise, t.pot) or t.sized(Bet, t.pot) or t.passive()


def shove(legal: Sequence[Action]) -> Action | None:
    """All in: the largest raise, else the largest bet, else a call, else a check; None when
    the decision is not a betting one."""
    for kind in (Raise, Bet):
        sized = [a for a in legal if type(a) is kind]
        if sized:
            return max(sized, key=lambda a: getattr(a, "amount", 0))
    return next((a for a in legal if type(a) is Call), None) or next(
        (a for a in legal if type(a) is Check), None
    )


def shover_bet(t: Table, rng: random.Random) -> Action:
    """All in at every decision (:func:`shove`)."""
    return shove(t.legal) or t.passive()


def tight_bet(t: Table, rng: random.Random) -> Action:
    if t.to_call == 0:
        if t.distance == 0:
            return t.sized(Bet, max(t.unit, t.pot // 2)) or t.passive()
        return t.passive()
    return t.passive() if t.distance <= 1 else t.fold()


def rule_bet(t: Table, rng: random.Random) -> Action:
    """Bet and raise with zero hands, call small totals at good pot odds, junk weak hands
    facing big bets (and call small bets with anything not hopeless)."""
    if t.distance == 0:
        return t.sized(Raise, t.pot) or t.sized(Bet, (3 * t.pot) // 4) or t.passive()
    if t.to_call == 0:
        return t.passive()
    big = t.to_call > t.pot // 2
    if t.distance <= 2 and t.pot_odds <= 0.4:
        return t.passive()
    if big or t.distance > 6:
        return t.fold()
    return t.passive()


CardRule = Callable[[Table], Action]
BetRule = Callable[[Table, random.Random], Action]

#: name -> (card rule, betting rule, one line of what it does)
REFERENCE: dict[str, tuple[CardRule, BetRule, str]] = {
    "ref-zero": (draw_to_zero_card, zero_bet, "draw to zero"),
    "ref-minimizer": (minimizer_card, minimizer_bet, "minimize the expected distance from zero"),
    "ref-potodds": (draw_to_zero_card, potodds_bet, "call when a rule-of-thumb beats pot odds"),
    "ref-station": (draw_to_zero_card, station_bet, "calling station: never bets, never folds"),
    "ref-maniac": (draw_to_zero_card, maniac_bet, "maniac: bets or raises the pot when it can"),
    "ref-shover": (draw_to_zero_card, shover_bet, "shover: all in at every betting decision"),
    "ref-tight": (draw_to_zero_card, tight_bet, "tight folder: folds to bets unless near zero"),
    "ref-rule": (minimizer_card, rule_bet, "the simple rule bot of issue 19"),
}


class ReferenceBot:
    """One of the :data:`REFERENCE` strategies (see the module docstring)."""

    def __init__(self, name: str, seed: int | None = None) -> None:
        if name not in REFERENCE:
            raise OptionError(f"unknown reference bot {name!r}")
        self.name = name
        self.rng = random.Random(seed)
        self._card, self._bet, self.about = REFERENCE[name]

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        check_turn(observation, legal)
        if len(legal) == 1:
            return legal[0]
        if (
            self.name == "ref-shover"
            and lookup(str(observation.get("variant"))).bot.target_total(observation) is None
        ):
            # No total to aim at: shove whenever betting, play the cards at random (never junk).
            cards = [a for a in legal if type(a) is not Junk]
            return shove(legal) or self.rng.choice(cards or list(legal))
        t = Table(observation, legal)
        if t.betting:
            return self._bet(t, self.rng)
        return self._card(t)


def _factory(name: str) -> Callable[..., ReferenceBot]:
    def make(seed: int | None = None, arg: str | None = None, **params: Any) -> ReferenceBot:
        if arg is not None or params:
            raise OptionError(f"the {name} bot takes no parameters")
        return ReferenceBot(name, seed)

    return make


for _name in REFERENCE:
    register_bot(_name, _factory(_name))
