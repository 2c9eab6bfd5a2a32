"""``sharpmc``: ``sharp``'s move, checked by determinized search (the ``expert`` level).

``sharp`` (:mod:`sabacc.lab.sharp`) reads opponents well and bets for value, but it
never looks ahead; ``ismcts`` looks ahead but starts from the heuristic's weaker move. This bot
does both, at every decision:

1. ``sharp`` decides first (its per-seat opponent model sees every observation, so it keeps
   learning who bluffs, who calls and who folds);
2. the search candidates are ``ismcts``'s (check/call, junk, half-pot and pot bets or raises,
   the best few card actions) with ``sharp``'s move as the *default*;
3. worlds are sampled from the seat's information set and weighted by the opponents' bets this
   hand (rejection sampling, as ``ismcts``), every candidate is played out on the same worlds
   with the same rollout seeds, and an alternative replaces ``sharp``'s move only when its mean
   paired advantage is positive and above ``confidence`` standard errors.

So a small budget degrades to ``sharp``, never to noise, and a larger one corrects the spots
where ``sharp``'s rules are wrong (mostly card play and bet sizing, where the rollouts see the
rest of the hand). ``sharpmc:N`` spends about ``N`` playouts per decision (deterministic, as
``ismcts:N``); ``sharpmc:0.25s`` a time instead. Without a sampler it plays ``sharp``'s move.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

from sabacc.core.actions import Action, Bet, Call, Check, Junk, Raise
from sabacc.core.errors import OptionError
from sabacc.engine.bots import SearchWorld
from sabacc.engine.observation import Observation
from sabacc.engine.protocol import GameProtocol
from sabacc.services.bots import ismcts
from sabacc.services.bots._expert import Params, SharpBot
from sabacc.services.bots.base import Sampler, register_bot
from sabacc.services.bots.ismcts import IsmctsBot
from sabacc.services.bots.policy import (
    _find,
    _model,
    _sized,
    rollout_action,
    view_from_game,
    view_from_observation,
)

#: Playouts per decision of a plain ``sharpmc`` (the ``expert`` level).
DEFAULT_PLAYOUTS = 200


class SharpSearchBot(IsmctsBot):
    """See the module docstring."""

    uses_sampler = True
    _narrow: dict[int, float]

    def __init__(
        self,
        seed: int | None = None,
        playouts: int = DEFAULT_PLAYOUTS,
        seconds: float | None = None,
        max_candidates: int | None = None,
        confidence: float = 1.0,
        name: str = "sharpmc",
        sharp: Params | None = None,
        own_rollouts: bool = True,
        search_bets: bool = True,
        sharp_opponents: bool = False,
        rejections: int = ismcts.MAX_REJECTIONS,
    ) -> None:
        super().__init__(seed, playouts, seconds, max_candidates, confidence, name)
        self.own_rollouts = own_rollouts
        self.search_bets = search_bets
        #: The opponents' rollout bets by sharp's rules too (instead of the heuristic's).
        self.sharp_opponents = sharp_opponents
        #: Tries to find a world whose opponents' hands fit their bets; when none is accepted
        #: the best-fitting one is kept (``ismcts`` keeps the last one drawn).
        self.rejections = rejections
        # Its own seed stream, so the search's random draws do not change sharp's.
        self.sharp = SharpBot(None if seed is None else seed ^ 0x5A5A5A5A, sharp)

    def act(
        self,
        observation: Observation,
        legal: Sequence[Action],
        sampler: Sampler | None = None,
    ) -> Action:
        default = self.sharp.act(observation, legal)  # sharp always sees the table
        if len(legal) == 1:
            return legal[0]
        self._remember(observation)
        seat = observation["seat"]
        if sampler is None or seat is None:
            return default
        view = view_from_observation(observation, legal)
        if not self.search_bets and (
            view.legal.bet is not None or view.legal.raise_ is not None or view.phase == "betting"
        ):
            return default  # sharp's bet, unsearched
        candidates = self.candidates(view, default)
        if len(candidates) == 1:
            return candidates[0]
        # What sharp believes of each live opponent's bets this hand, for its own rollouts.
        self._narrow = {
            s: self.sharp.params.narrowing * n * self.sharp.credibility(s)
            for s, n in self.sharp._hand_aggr.items()
        }
        return self.search(seat, candidates, sampler, default, self._signals(observation))

    def _world(
        self, sampler: Sampler, seat: int, signals: dict[int, str]
    ) -> tuple[GameProtocol | SearchWorld, int]:
        if self.rejections == ismcts.MAX_REJECTIONS:
            return super()._world(sampler, seat, signals)
        rng = self.rng
        world = sampler(random.Random(rng.getrandbits(64)))
        if not signals or hasattr(world, "rollout"):
            return world, 1
        best, best_weight = world, -1.0
        for tries in range(1, self.rejections + 1):
            assert not isinstance(world, SearchWorld)
            weight = 1.0
            for opp, text in signals.items():
                weight *= ismcts.signal_likelihood(world, opp, text)
            if rng.random() < weight:
                return world, tries
            if weight > best_weight:
                best, best_weight = world, weight
            world = sampler(random.Random(rng.getrandbits(64)))
        return best, self.rejections + 1

    def rollout(
        self, world: GameProtocol | SearchWorld, seat: int, action: Action, seed: int
    ) -> tuple[float, int]:
        """Play ``action``, then the rest of the hand: the opponents by the heuristic policy
        (as ``ismcts``), this seat's own bets by ``sharp``'s rules (its future self), so the
        search compares candidates under the play that will follow them."""
        if not self.own_rollouts or hasattr(world, "rollout"):
            return ismcts.rollout(world, seat, action, seed)
        assert not isinstance(world, SearchWorld)
        g = world.clone(log=False, reseed=seed)
        stack_now = g.stacks[seat]
        hand_start = g.hand_start_stacks[seat]
        hand_no = g.hand_no
        narrow = dict(self._narrow)
        aggressive = bool(narrow)
        step = self.sharp.params.narrowing
        # Bets and raises made inside the rollout, per seat (what a sharp-like opponent
        # narrows this seat's range by).
        raised: dict[int, float] = {}
        if type(action) is Bet or type(action) is Raise:
            raised[seat] = step
        g.apply(action)
        rng = random.Random(seed)
        steps = 1
        while not g.over and g.hand_no == hand_no and steps < ismcts.MAX_ROLLOUT_ACTIONS:
            actor = g.to_act
            assert actor is not None
            betting = g.phase == "betting"
            if actor == seat and betting:
                a = self._sharp_bet(g, seat, narrow, aggressive, rng)
            elif betting and self.sharp_opponents:
                theirs = {s: n for s, n in raised.items() if s != actor}
                a = self._sharp_bet(g, actor, theirs, bool(theirs), rng)
            else:
                a = rollout_action(g, actor, rng)
            if type(a) is Bet or type(a) is Raise:
                raised[actor] = raised.get(actor, 0.0) + step
                if actor != seat:
                    narrow[actor] = narrow.get(actor, 0.0) + step
                    aggressive = True
            g.apply(a)
            steps += 1
        if g.over or g.hand_no == hand_no:
            return float(g.stacks[seat] - stack_now), steps
        net = g.hand_nets[-1][3][seat]
        return float(hand_start + net - stack_now), steps

    def _sharp_bet(
        self,
        g: Any,
        seat: int,
        narrow: dict[int, float],
        aggressive: bool,
        rng: random.Random | None = None,
    ) -> Action:
        """``sharp``'s betting rules in a sampled state (no bluffs: the rollout opponents do
        not adapt): value bets and raises, the small lead when nobody bet, calls by pot odds."""
        prm = self.sharp.params
        legal = g.legal()
        model = _model(g.info.name)
        hand_key = model.rollout_key(g, seat, True)
        if hand_key is None:  # a variant without cached rollouts: the heuristic's bet
            return rollout_action(g, seat, rng or random.Random(0))
        key: Hashable = ("sharpmc", hand_key)
        q = _Q_CACHE.get(key)
        if q is None:
            q = min(0.999, max(0.001, model.win_chance(view_from_game(g, seat))))
            if len(_Q_CACHE) > _CACHE_LIMIT:
                _Q_CACHE.clear()
            _Q_CACHE[key] = q
        in_hand = g.in_hand
        folded = g.folded
        live = [s for s in range(g.n) if s != seat and in_hand[s] and not folded[s]]
        shares = max(1, sum(1 for s in live if narrow.get(s)))
        p = 1.0
        for s in live:
            p *= q ** (1.0 + narrow.get(s, 0.0) / shares)
        to_call = g.cur_bet - g.round_bet[seat]
        pot = max(1, g.pot_total())
        unit = max(1, g.info.bet_unit(g.options))
        if to_call > 0:
            odds = to_call / (pot + to_call)
            if legal.raise_ is not None and p > prm.raise_value + 0.3 * odds:
                return _sized(Raise, legal.raise_, max(unit, int(pot * (0.5 + p))))
            call = _find(legal, Call)
            if call is not None and p >= odds + prm.call_margin:
                return call
            return _find(legal, Junk) or call or legal.fixed[0]
        if legal.bet is not None and p > prm.value:
            return _sized(Bet, legal.bet, max(unit, int(pot * (0.4 + 0.6 * p))))
        if legal.bet is not None and not aggressive and p > prm.probe_floor:
            return _sized(Bet, legal.bet, max(unit, pot // 3))
        return _find(legal, Check) or _find(legal, Call) or legal.fixed[0]


_Q_CACHE: dict[Hashable, float] = {}
_CACHE_LIMIT = 400_000


def _sharpmc(seed: int | None = None, arg: str | None = None, **params: Any) -> SharpSearchBot:
    name = "sharpmc"
    if arg is not None:
        name = f"sharpmc:{arg}"
        text = arg.strip().lower()
        try:
            if text.endswith("s"):
                params["seconds"] = float(text[:-1])
            else:
                params["playouts"] = int(text)
        except ValueError:
            raise OptionError(
                f"sharpmc:{arg}: the parameter is playouts per decision (sharpmc:200) "
                "or seconds per decision (sharpmc:0.25s)"
            ) from None
    params.setdefault("name", name)
    try:
        return SharpSearchBot(seed, **params)
    except TypeError as exc:
        raise OptionError(f"sharpmc bot: {exc}") from None


register_bot("sharpmc", _sharpmc)
