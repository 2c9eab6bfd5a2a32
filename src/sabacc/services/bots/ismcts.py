"""``ismcts``: determinized Monte Carlo search over the seat's information set.

At each decision the bot:

1. lists its *candidate* actions: every card action worth considering (the best few by
   expected hand quality, see :mod:`sabacc.services.bots.policy`), and for betting check/call, junk
   and a
   few bet or raise sizes (minimum, half pot, pot, all-in when it is small), plus the
   heuristic's own choice;
2. samples *worlds*: full game states consistent with what the seat knows, from the
   :data:`~sabacc.services.bots.base.Sampler` the harness gives it (``game.determinize(seat, rng)``:
   other hands, the draw pile and face-down piles are shuffled, face-up cards and the seat's
   own cards stay);
3. in each world, plays every remaining candidate and then the rest of the hand with the fast
   rule-based policy for every seat (each seat deciding from its own cards and the public ones
   only), and scores the credits the seat ends the hand with, relative to now;
4. keeps the better half of the candidates after each stage (*sequential halving*) and returns
   the best mean. All candidates of a stage are scored on the same worlds and the same rollout
   seeds (common random numbers), so they are compared on equal luck.

The budget is a number of playouts (rollouts) per decision (``ismcts:200``), which keeps the
bot deterministic for a seed, or a time (``ismcts:0.5s``), which does not. Without a sampler
(``bot.act(observation, legal)``) it plays the heuristic's move.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any

from sabacc.core.actions import Action, Bet, Call, Check, Junk, Raise
from sabacc.core.errors import OptionError
from sabacc.engine.bots import SearchWorld
from sabacc.engine.observation import Observation
from sabacc.engine.protocol import GameProtocol
from sabacc.services.bots.base import Sampler, register_bot
from sabacc.services.bots.policy import (
    View,
    card_scores,
    policy_action,
    rollout_action,
    view_from_game,
    view_from_observation,
    win_chance,
)
from sabacc.variants.registry import lookup

#: Playouts per decision of a plain ``ismcts`` (``sabacc play``'s default opponent): well under
#: a second per decision on one core.
DEFAULT_PLAYOUTS = 800
#: Rollouts end at the end of the hand; this bounds a runaway rollout (never reached in practice).
MAX_ROLLOUT_ACTIONS = 400


class IsmctsBot:
    """Determinized search with rollouts (see the module docstring)."""

    uses_sampler = True

    def __init__(
        self,
        seed: int | None = None,
        playouts: int = DEFAULT_PLAYOUTS,
        seconds: float | None = None,
        max_candidates: int | None = None,
        confidence: float = 1.0,
        name: str = "ismcts",
    ) -> None:
        if playouts < 1:
            raise OptionError("ismcts needs at least 1 playout per decision")
        if seconds is not None and seconds <= 0:
            raise OptionError("ismcts needs a positive time per decision")
        self.name = name
        self.rng = random.Random(seed)
        self.playouts = playouts
        self.seconds = seconds
        self.max_candidates = max_candidates
        self.confidence = confidence
        self.last_stats: dict[str, Any] = {}
        self._hand: tuple[Any, Any] = (None, None)
        self._bets: dict[int, str] = {}

    # ------------------------------------------------------------------ protocol
    def act(
        self,
        observation: Observation,
        legal: Sequence[Action],
        sampler: Sampler | None = None,
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        view = view_from_observation(observation, legal)
        self._remember(observation)
        default = policy_action(view, self.rng)
        seat = observation["seat"]
        if sampler is None or seat is None:  # no sampler, or a spectator's view
            return default
        candidates = self.candidates(view, default)
        if len(candidates) == 1:
            return candidates[0]
        signals = self._signals(observation)
        return self.search(seat, candidates, sampler, default, signals)

    # ------------------------------------------------------------------ reading the table
    def _remember(self, obs: Observation) -> None:
        """Keep each opponent's latest betting action of this hand (from ``last_action``)."""
        hand = (obs["hand"], obs["dealer"])
        if hand != self._hand:
            self._hand = hand
            self._bets = {}
        for s in obs["seats"]:
            text = s["last_action"] or ""
            if s["seat"] != obs["seat"] and text.split(" ")[0] in BETTING_WORDS:
                self._bets[s["seat"]] = text

    def _signals(self, obs: Observation) -> dict[int, str]:
        """Live opponents' latest betting actions this hand (what the sampler is weighted by)."""
        live = {
            s["seat"]
            for s in obs["seats"]
            if s["status"] in ("active", "all_in") and s["seat"] != obs["seat"]
        }
        return {s: a for s, a in self._bets.items() if s in live}

    # ------------------------------------------------------------------ candidates
    def _card_limit(self) -> int:
        if self.max_candidates is not None:
            return max(1, self.max_candidates)
        budget = self.playouts if self.seconds is None else 1000
        return max(2, min(6, 1 + budget // 60))

    def candidates(self, view: View, default: Action) -> list[Action]:
        """The actions worth searching at this decision (the heuristic's choice first)."""
        legal = view.legal
        out: list[Action] = []

        def add(a: Action | None) -> None:
            if a is not None and legal.contains(a) and a not in out:
                out.append(a)

        add(default)
        if legal.bet is not None or legal.raise_ is not None or view.phase == "betting":
            for a in legal.fixed:
                if type(a) in (Check, Call):
                    add(a)
            if view.to_call > 0:
                for a in legal.fixed:
                    if type(a) is Junk:
                        add(a)
            pot = max(1, view.pot + view.to_call)
            for kind, span in ((Bet, legal.bet), (Raise, legal.raise_)):
                if span is None:
                    continue
                lo, hi = span
                sizes = [(pot + 1) // 2, pot] if self.playouts >= 200 else [(pot + 1) // 2]
                for size in sizes:
                    amount = min(hi, max(lo, size))
                    add(Bet(amount) if kind is Bet else Raise(amount))
            for a in legal.fixed:  # anything else (classic "call hand" is not a bet)
                if type(a) not in (Check, Call, Junk):
                    add(a)
            return out
        if view.phase == lookup(view.variant).bot.calling_phase:  # call the hand or not
            for a in legal.fixed:
                add(a)
            return out
        scored = card_scores(view)
        scored.sort(key=lambda item: -item[0])
        if not scored:
            return out
        top = scored[0][0]
        for score, a in scored[: self._card_limit()]:
            if score >= top - CARD_MARGIN:
                add(a)
        return out

    # ------------------------------------------------------------------ search
    def rollout(
        self, world: GameProtocol | SearchWorld, seat: int, action: Action, seed: int
    ) -> tuple[float, int]:
        """One playout of ``action`` in ``world`` (:func:`rollout`; a subclass may play its
        own seat differently)."""
        return rollout(world, seat, action, seed)

    def _world(
        self, sampler: Sampler, seat: int, signals: dict[int, str]
    ) -> tuple[GameProtocol | SearchWorld, int]:
        """A sampled state, kept with the chance that opponents' bets fit their sampled hands
        (rejection sampling). Returns the state and the number of samples drawn."""
        rng = self.rng
        world = sampler(random.Random(rng.getrandbits(64)))
        if not signals or hasattr(world, "rollout"):  # a compact world: no betting to weigh
            return world, 1
        for tries in range(1, MAX_REJECTIONS + 1):
            assert not isinstance(world, SearchWorld)
            weight = 1.0
            for opp, text in signals.items():
                weight *= signal_likelihood(world, opp, text)
            if rng.random() < weight:
                return world, tries
            world = sampler(random.Random(rng.getrandbits(64)))
        return world, MAX_REJECTIONS + 1

    def search(
        self,
        seat: int,
        candidates: list[Action],
        sampler: Sampler,
        default: Action,
        signals: dict[int, str] | None = None,
    ) -> Action:
        """Score ``candidates`` on common sampled worlds; leave the heuristic's choice only for
        an alternative that beats it clearly (paired difference over the same worlds)."""
        rng = self.rng
        signals = signals or {}
        remaining = list(candidates)
        rewards: dict[Action, list[float]] = {a: [] for a in remaining}
        stages = max(1, math.ceil(math.log2(len(remaining)))) if len(remaining) > 3 else 1
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        start = time.perf_counter()
        budget = self.playouts * PLAYOUT_COST
        used = 0
        playouts = 0
        for stage in range(stages):
            stage_budget = budget * (stage + 1) // stages
            stage_end = (
                0.0 if deadline is None else start + (deadline - start) * (stage + 1) / stages
            )
            worlds = 0
            while worlds < MAX_WORLDS:
                if worlds >= 2:
                    if deadline is None and used >= stage_budget:
                        break
                    if deadline is not None and time.perf_counter() >= stage_end:
                        break
                world, tries = self._world(sampler, seat, signals)
                used += tries * SAMPLE_COST
                seed = rng.getrandbits(64)
                for a in remaining:
                    reward, steps = self.rollout(world, seat, a, seed)
                    rewards[a].append(reward)
                    used += steps + CLONE_COST
                    playouts += 1
                worlds += 1
            if stage < stages - 1:
                # Keep the better half, and the heuristic's choice, on the worlds seen so far.
                n = len(rewards[default])
                ranked = sorted(remaining, key=lambda a: -sum(rewards[a][-n:]))
                keep = ranked[: (len(ranked) + 1) // 2]
                remaining = [default, *[a for a in keep if a != default]]
                for a in remaining:
                    del rewards[a][:-n]
        best = default
        best_gain = 0.0
        base = rewards[default]
        for a in remaining:
            if a == default:
                continue
            diffs = [x - y for x, y in zip(rewards[a], base, strict=False)]
            n = len(diffs)
            if n < 2:
                continue
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
            se = math.sqrt(var / n)
            if mean > best_gain and mean > self.confidence * se:
                best, best_gain = a, mean
        self.last_stats = {
            "playouts": playouts,
            "candidates": {str(a): sum(r) / len(r) for a, r in rewards.items() if r},
            "chosen": str(best),
        }
        return best


BETTING_WORDS = ("bet", "raise", "call", "check")
#: The budget is counted in engine actions: a playout is worth this many (a typical rollout of
#: a heads-up hand from its middle), so late decisions, whose rollouts are short, get more
#: sampled worlds than early ones for the same budget. Deterministic, unlike a time budget.
PLAYOUT_COST = 14
#: What cloning a world for a rollout, and sampling a world, cost in engine actions.
CLONE_COST = 2
SAMPLE_COST = 3
#: Most worlds per search stage (a decision whose rollouts are all one action long).
MAX_WORLDS = 2000
#: Card actions whose expected quality is this close to the best are searched.
CARD_MARGIN = 0.04
#: Tries to find a world whose opponents' hands fit their bets before taking one anyway.
MAX_REJECTIONS = 12


def signal_likelihood(world: GameProtocol, seat: int, text: str) -> float:
    """How likely a (heuristic-like) player holding ``seat``'s sampled hand was to ``text``."""
    view = view_from_game(world, seat)
    p = win_chance(view)
    word = text.split(" ")[0]
    if word in ("bet", "raise"):
        return 0.06 + 0.94 / (1.0 + math.exp(-(p - 0.5) / 0.06))
    if word == "call":
        return 0.15 + 0.85 / (1.0 + math.exp(-(p - 0.25) / 0.08))
    return 1.0 - 0.5 / (1.0 + math.exp(-(p - 0.65) / 0.06))


def rollout(
    world: GameProtocol | SearchWorld, seat: int, action: Action, seed: int
) -> tuple[float, int]:
    """Play ``action`` then the rest of the hand by the policy.

    Returns ``seat``'s credit change from now to the end of the hand, and the actions played.
    A variant's compact world plays its own rollout.
    """
    own = getattr(world, "rollout", None)  # (not isinstance: a Protocol check is slow)
    if own is not None:
        reward, steps = own(seat, action, seed)
        return float(reward), int(steps)
    assert not isinstance(world, SearchWorld)
    g = world.clone(log=False, reseed=seed)
    stack_now = g.stacks[seat]
    hand_start = g.hand_start_stacks[seat]
    hand_no = g.hand_no
    g.apply(action)
    rng = random.Random(seed)
    steps = 1
    while not g.over and g.hand_no == hand_no and steps < MAX_ROLLOUT_ACTIONS:
        actor = g.to_act
        assert actor is not None
        g.apply(rollout_action(g, actor, rng))
        steps += 1
    if g.over or g.hand_no == hand_no:
        return float(g.stacks[seat] - stack_now), steps
    # hand_nets, not hand_results: the compiled core builds HandResult objects only on demand.
    net = g.hand_nets[-1][3][seat]
    return float(hand_start + net - stack_now), steps


def _ismcts(seed: int | None = None, arg: str | None = None, **params: Any) -> IsmctsBot:
    name = "ismcts"
    if arg is not None:
        name = f"ismcts:{arg}"
        text = arg.strip().lower()
        try:
            if text.endswith("s"):
                params["seconds"] = float(text[:-1])
            else:
                params["playouts"] = int(text)
        except ValueError:
            raise OptionError(
                f"ismcts:{arg}: the parameter is playouts per decision (ismcts:200) "
                "or seconds per decision (ismcts:0.5s)"
            ) from None
    params.setdefault("name", name)
    try:
        return IsmctsBot(seed, **params)
    except TypeError as exc:
        raise OptionError(f"ismcts bot: {exc}") from None


register_bot("ismcts", _ismcts)
