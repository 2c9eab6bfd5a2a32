"""The heuristic bot's knowledge of classic sabacc.

Hand quality ``q`` estimates the chance that a hand beats one opponent at the showdown (23 is
nearly sure, a bomb out never wins); drawing is scored by the expected ``q`` after one more card
over the unseen cards (see benchmarks/bots-lab.md).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from sabacc.core.actions import Action, Stand
from sabacc.core.cards import Deck
from sabacc.engine.bots import BotModel, View
from sabacc.variants.spike_family.actions import Gain, Swap


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


class ClassicBot(BotModel):
    """Classic sabacc: draw towards 23, call the hand when strong, fold a hopeless bomb out."""

    calling_phase = "calling"

    def __init__(self, deck: Deck) -> None:
        self.pool: dict[int, int] = dict(deck.value_counts)
        self.cache: dict[tuple[tuple[int, ...], str], float] = {}

    def expected(self, values: list[int], unseen: Mapping[int, int] | None, scoring: str) -> float:
        """Expected ``q`` after one more card from ``unseen`` (None: the whole deck, cached)."""
        cache_key = (tuple(sorted(values)), scoring)
        if unseen is None:
            cached = self.cache.get(cache_key)
            if cached is not None:
                return cached
            pool: Mapping[int, int] = self.pool
        else:
            pool = unseen
        total = 0
        acc = 0.0
        for v, n in pool.items():
            if n > 0:
                acc += n * classic_q([*values, v], scoring)
                total += n
        result = acc / total if total else classic_q(values, scoring)
        if unseen is None and len(self.cache) < 200_000:
            self.cache[cache_key] = result
        return result

    def hand_quality(self, view: View) -> float:
        return classic_q(view.values, view.scoring) if view.values else 0.0

    def card_scores(self, view: View) -> list[tuple[float, Action]]:
        values = view.values
        out: list[tuple[float, Action]] = []
        for a in view.legal.fixed:
            t = type(a)
            if t is Stand:
                score = classic_q(values, view.scoring) + 0.004
            elif t is Gain:
                score = self.expected(values, view.unseen, view.scoring)
            elif t is Swap:
                assert isinstance(a, Swap)
                rest = list(values)
                rest.remove(a.value)
                score = self.expected(rest, view.unseen, view.scoring)
            else:
                score = -1.0
            out.append((score, a))
        return out

    def win_chance(self, view: View) -> float:
        q = self.hand_quality(view)
        if not view.late:
            potential = self.expected(view.values, None, view.scoring) if view.values else 0.0
            q = max(q, 0.85 * potential)
        return q

    def folds_hopeless(self, view: View) -> bool:
        # A bomb out in the last orbit: the fold fee beats the bomb-out penalty.
        return bool(
            view.late
            and view.to_call == 0
            and view.values
            and self.hand_quality(view) == 0.0
            and sum(view.values) != 0
        )

    def view_extras(self, observation: Mapping[str, Any]) -> dict[str, Any]:
        orbit = int(observation.get("orbit", 0))
        return {"late": orbit >= int(observation.get("max_orbits", 10)) - 1}

    def view_from_game(self, game: Any, seat: int) -> View:
        opts = game.options
        live = [s for s in range(game.n) if game.in_hand[s] and not game.folded[s]]
        to_call = game.cur_bet - game.round_bet[seat]
        return View(
            game.info.name,
            game.phase,
            [c.value for c in game.hands[seat]],
            game.legal(),
            to_call if to_call > 0 else 0,
            game.pot_total(),
            game.stacks[seat],
            1,
            max(1, len(live) - 1),
            calls_open=game.orbit >= opts.min_turns_before_call,
            scoring=opts.scoring,
            late=game.orbit >= opts.max_orbits - 1,
        )
