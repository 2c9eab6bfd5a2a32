"""The heuristic bot's knowledge of the Spike family (Corellian Spike's; Surabat Cycle's and
Coruscant Shift's build on it in their packages).

Hand quality ``q`` estimates the chance that a final hand beats one opponent at the showdown
(calibrated on heuristic self-play, see benchmarks/bots-lab.md). Card actions are scored by
the expected ``q`` after the action, over the cards the seat has not seen (exactly, from value
counts), on the additive multiset keys of :mod:`sabacc.variants.spike_family.hands`.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from sabacc.core.actions import Action, Stand
from sabacc.core.cards import Deck
from sabacc.core.hands import HandValue
from sabacc.engine.bots import BotModel, View, card_value
from sabacc.variants.spike_family.actions import Discard, Gain, Swap
from sabacc.variants.spike_family.hands import (
    SPIKE_CODES,
    SPIKE_MAX_VALUE,
    SPIKE_MIN_VALUE,
    evaluate_spike_key,
    spike_key,
)

_SPIKE_CODE = {
    v: SPIKE_CODES[v - SPIKE_MIN_VALUE] for v in range(SPIKE_MIN_VALUE, SPIKE_MAX_VALUE + 1)
}

# Chance that a final hand beats one opponent's final hand at showdown, by rank for hands
# totalling 0 (index = rank; ranks 1..12), and by distance for Nulrhek (index = |total|,
# [negative, positive]). Calibrated on heuristic self-play (benchmarks/bots-lab.md).
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


class _Deck:
    """The whole deck's value counts, and the cache of expected draws from it."""

    def __init__(self, deck: Deck) -> None:
        self.pool: dict[int, int] = dict(deck.value_counts)
        self.cache: dict[int, float] = {}


def _spike_expected(
    deck: _Deck, key: int, size: int, unseen: Mapping[int, int] | None, cap: int
) -> float:
    """Expected ``spike_q`` of the hand ``key`` plus one card from ``unseen``.

    With ``unseen=None`` the whole deck stands for it, and the answer is cached by key.
    """
    if unseen is None:
        cached = deck.cache.get(key)
        if cached is not None:
            return cached
        pool: Mapping[int, int] = deck.pool
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
        deck.cache[key] = result
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


def spike_card_scores(deck: _Deck, view: View) -> list[tuple[float, Action]]:
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
                score = _spike_expected(deck, key, size, unseen, 99)
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
                score = _spike_expected(deck, rest, size - 1, unseen, 99)
        elif t is Discard:
            assert isinstance(a, Discard)
            score = spike_q(evaluate_spike_key(key - code[a.value]))
        else:
            score = -1.0
        out.append((score, a))
    return out


def spike_potential(deck: _Deck, view: View) -> float:
    """The best expected ``q`` one more card action could reach (gain or swap with the draw)."""
    values = view.values
    size = len(values)
    if not size:
        return 0.0
    key = spike_key(values)
    best = spike_q(evaluate_spike_key(key))
    if size < view.hand_cap:
        best = max(best, _spike_expected(deck, key, size, view.unseen, 99))
    for v in set(values):
        best = max(best, _spike_expected(deck, key - _SPIKE_CODE[v], size - 1, view.unseen, 99))
    return best


def _hand_key(game: Any, seat: int) -> int:
    key = 0
    code = _SPIKE_CODE
    for c in game.hands[seat]:
        key += code[c.value]
    return key


class SpikeBot(BotModel):
    """Corellian Spike: the discard top is the one face-up card a seat can take."""

    def __init__(self, deck: Deck) -> None:
        self.deck = _Deck(deck)

    def target_total(self, observation: Mapping[str, Any]) -> int | None:
        return 0

    def hand_quality(self, view: View) -> float:
        if not view.values:
            return 0.0
        return spike_q(evaluate_spike_key(spike_key(view.values)))

    def card_scores(self, view: View) -> list[tuple[float, Action]]:
        return spike_card_scores(self.deck, view)

    def win_chance(self, view: View) -> float:
        q = self.hand_quality(view)
        cards_left = view.rounds - view.round  # card phases after this betting phase
        spikes_left = cards_left + 1  # this round's Spike phase is still to come
        if cards_left > 0:
            q = max(q, spike_potential(self.deck, view))
        shift = 1.0 - (5.0 / 6.0) ** spikes_left  # a Sabacc Shift deals everyone new cards
        return (1.0 - shift) * q + shift * 0.45

    def _public(self, game: Any, seat: int) -> tuple[int | None, tuple[int, ...], int | None]:
        """(discard top, Sun cards, own Moon top) as ``seat`` sees them."""
        discard = game.discard
        return (discard[-1].value if discard else None), (), None

    def view_extras(self, observation: Mapping[str, Any]) -> dict[str, Any]:
        """The discard pile's top: the one face-up card a seat can take."""
        top = observation.get("discard_top")
        return {"discard_top": card_value(top) if top else None}

    def view_from_game(self, game: Any, seat: int) -> View:
        info = game.info
        legal = game.legal()
        live = [s for s in range(game.n) if game.in_hand[s] and not game.folded[s]]
        to_call = game.cur_bet - game.round_bet[seat]
        discard_top, sun, moon_top = self._public(game, seat)
        players = sum(1 for s in range(game.n) if game.in_hand[s]) or game.n
        return View(
            info.name,
            game.phase,
            [c.value for c in game.hands[seat]],
            legal,
            to_call if to_call > 0 else 0,
            game.pot_total(),
            game.stacks[seat],
            info.bet_unit(game.options),
            max(1, len(live) - 1),
            game.round,
            info.rounds(game.options, players) or 1,
            game.options.hand_cap,
            discard_top,
            sun,
            moon_top,
        )

    def rollout_key(self, game: Any, seat: int, betting: bool) -> Hashable:
        key = _hand_key(game, seat)
        if betting:
            in_hand = game.in_hand
            folded = game.folded
            opponents = sum(1 for s in range(game.n) if in_hand[s] and not folded[s]) - 1
            players = sum(1 for s in range(game.n) if in_hand[s]) or game.n
            rounds = game.info.rounds(game.options, players)
            return (game.info.name, key, game.round, rounds, opponents)
        discard_top, sun, moon_top = self._public(game, seat)
        return (game.info.name, key, game.phase, discard_top, sun, moon_top, game.legal().fixed)
