"""Two simple bots: ``random`` (uniform over legal actions) and ``heuristic``.

The heuristic plays the Spike family (Corellian Spike, Surabat Cycle) by expected hand value
over the cards it has not seen, and bets by hand strength and pot odds; in other variants it
falls back to cautious play (check/call small bets, stand). Strong search bots live elsewhere.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from sabacc.actions import Action, Bet, Call, Check, Gain, Junk, Raise, Stand, Swap
from sabacc.bots.base import register_bot
from sabacc.hands import evaluate_spike


class RandomBot:
    """Chooses uniformly among the legal actions."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def act(self, observation: dict[str, Any], legal: Sequence[Action]) -> Action:
        return self.rng.choice(list(legal))


def spike_strength(values: Sequence[int]) -> float:
    """A scalar in [0, 1] for a Spike-family hand: 1 = Pure Sabacc, near 0 = far from 0."""
    v = evaluate_spike(values)
    if v.total == 0:
        return 1.0 - (v.rank - 1) * 0.02  # ranked sabaccs 1.0..0.78
    return max(0.0, 0.7 - 0.07 * abs(v.total))


_SPIKE_COUNTS = {**{v: 3 for v in range(-10, 11) if v}, 0: 2}


def _unseen(observation: dict[str, Any]) -> Counter[int]:
    """Values this seat has not seen (deck minus own hand and the face-up cards)."""
    counts = Counter(_SPIKE_COUNTS)
    seen = list(observation["you"]["values"])
    for code in observation.get("discard_pile", []) + observation.get("sun", []):
        seen.append(int(code.rstrip("cst") or 0))
    for v in seen:
        if counts[v] > 0:
            counts[v] -= 1
    return counts


class HeuristicBot:
    """Rule-based play: expected hand value for card actions, strength and pot odds for bets."""

    def __init__(self, seed: int | None = None, aggression: float = 0.6) -> None:
        self.name = "heuristic"
        self.rng = random.Random(seed)
        self.aggression = aggression

    def act(self, observation: dict[str, Any], legal: Sequence[Action]) -> Action:
        if "you" not in observation or not legal:
            return legal[0]
        if observation["variant"] in ("corellian_spike", "surabat_cycle"):
            return self._spike(observation, legal)
        return self._cautious(legal)

    # ------------------------------------------------------------------ Spike family
    def _spike(self, obs: dict[str, Any], legal: Sequence[Action]) -> Action:
        values: list[int] = list(obs["you"]["values"])
        if any(isinstance(a, Check | Call | Bet | Raise | Junk) for a in legal):
            return self._bet(obs, legal, spike_strength(values))
        unseen = _unseen(obs)
        total_unseen = sum(unseen.values()) or 1

        def expected(hand_without: list[int]) -> float:
            return sum(
                n * spike_strength([*hand_without, v]) for v, n in unseen.items() if n
            ) / total_unseen

        best: tuple[float, Action] = (-1.0, legal[0])
        for a in legal:
            if isinstance(a, Stand):
                score = spike_strength(values) + 0.01
            elif isinstance(a, Gain) and a.value is None:
                score = expected(values)
            elif isinstance(a, Gain) and a.value is not None:
                score = spike_strength([*values, a.value])
            elif isinstance(a, Swap):
                rest = list(values)
                rest.remove(a.value)
                if a.source == "discard" and obs.get("discard_top") is not None:
                    top = int(str(obs["discard_top"]).rstrip("cst") or 0)
                    score = spike_strength([*rest, top])
                else:
                    score = expected(rest)
            else:
                score = self.rng.random() * 0.1
            if score > best[0]:
                best = (score, a)
        return best[1]

    def _bet(self, obs: dict[str, Any], legal: Sequence[Action], strength: float) -> Action:
        to_call = int(obs["betting"]["to_call"])
        pot = int(obs["pots"]["main"])
        bet = next((a for a in legal if isinstance(a, Bet)), None)
        raise_ = next((a for a in legal if isinstance(a, Raise)), None)
        unit = int(obs["betting"]["unit"])
        if strength >= 0.9 and self.rng.random() < self.aggression:
            size = max(unit, pot // 2)
            if bet is not None and obs["legal"]["bet"]:
                lo, hi = obs["legal"]["bet"]
                return Bet(min(hi, max(lo, size)))
            if raise_ is not None and obs["legal"]["raise"]:
                lo, hi = obs["legal"]["raise"]
                return Raise(min(hi, max(lo, size)))
        if to_call == 0:
            return next(a for a in legal if isinstance(a, Check))
        pot_odds = to_call / max(1, pot + to_call)
        if strength >= pot_odds + 0.2 or to_call <= unit and strength > 0.3:
            return next(a for a in legal if isinstance(a, Call))
        return next(a for a in legal if isinstance(a, Junk))

    # ------------------------------------------------------------------ other variants
    def _cautious(self, legal: Sequence[Action]) -> Action:
        for kind in (Check, Stand, Call):
            for a in legal:
                if isinstance(a, kind):
                    return a
        return self.rng.choice(list(legal))


register_bot("random", RandomBot)
register_bot("heuristic", HeuristicBot)
