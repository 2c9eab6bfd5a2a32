"""Kessel Sabacc properties over random legal playouts (Hypothesis).

Chips are conserved (stock + round pots + chips lost), every hand is one Sand and one Blood
card, games end, replays are exact, illegal actions change nothing, and no observation shows a
seat anything it may not know: a state and its determinization for a seat (every card and token
that seat cannot see dealt anew) look the same to that seat.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sabacc
from sabacc.variants.kessel.rules import KesselGame
from sabacc.variants.kessel.tokens import TOKENS
from tests.support import check_cards, check_private, snapshot

EXAMPLES = int(os.environ.get("SABACC_PROP_EXAMPLES", "25"))
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
PROBES = [
    "stand",
    "draw sand",
    "draw blood discard",
    "keep",
    "discard",
    "impostor 1",
    "impostor 6",
    "prime 2",
    *(f"token {t}" for t in TOKENS),
    "token target_tariff 0",
    "token exhaustion 5",
    "bet 1",
    "junk",
]


@st.composite
def games(draw: st.DrawFn) -> tuple[KesselGame, random.Random]:
    options: dict[str, Any] = {
        "chips": draw(st.integers(4, 10)),
        "turns": draw(st.integers(1, 4)),
        "early_end": draw(st.booleans()),
        "game_end": draw(st.sampled_from(["last_standing", "rounds:2", "rounds:5"])),
        "shift_tokens": draw(
            st.sampled_from(["draft", "none", ",".join(TOKENS), "direct_transaction,embargo"])
        ),
        "impostors": draw(st.integers(0, 3)),
        "sylops": draw(st.integers(0, 3)),
    }
    g = sabacc.new_game(
        "kessel", players=draw(st.integers(2, 6)), seed=draw(st.integers(0, 2**32)), **options
    )
    assert isinstance(g, KesselGame)
    return g, random.Random(draw(st.integers(0, 999)))


def invariants(g: KesselGame, start: int) -> None:
    assert sum(g.stacks) + sum(g.committed) + g.house == start
    assert all(x >= 0 for x in (*g.stacks, *g.committed))
    if g.is_over:
        assert g.legal_actions() == [] and g.current_player is None
        return
    check_cards(g)
    for s in g.order:
        assert [c.suit for c in g.hands[s]] == ["s", "b"]
    for s in range(g.n):
        if s not in g.order:
            assert g.hands[s] == [] and g.out[s]
    assert g.current_player in g.order and g.legal().count() > 0


def run(g: KesselGame, rng: random.Random, check: Any = None) -> None:
    for _ in range(5000):
        if g.is_over:
            return
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
        if check is not None:
            check(g)
    raise AssertionError("the game did not end")


@SETTINGS
@given(case=games())
def test_invariants_and_termination(case: tuple[KesselGame, random.Random]) -> None:
    g, rng = case
    start = g.n * g.options.chips
    run(g, rng, lambda x: invariants(x, start))
    assert g.outcome is not None and sum(g.payoffs) == -g.house
    if g.options.game_end == "last_standing":
        assert sum(not o for o in g.out) <= 1
    else:
        assert g.hand_no <= int(g.options.game_end[7:])


@SETTINGS
@given(case=games())
def test_replay_is_exact(case: tuple[KesselGame, random.Random]) -> None:
    g, rng = case
    run(g, rng)
    again = sabacc.replay(json.loads(json.dumps(g.history())))
    assert again.events == g.events and again.full_state() == g.full_state()
    assert again.hand_results == g.hand_results


@SETTINGS
@given(case=games())
def test_illegal_actions_change_nothing(case: tuple[KesselGame, random.Random]) -> None:
    g, rng = case
    step = 0
    while not g.is_over:
        if step % 3 == 0:
            before = snapshot(g)
            for probe in PROBES:
                if not g.is_legal(probe):
                    with pytest.raises(sabacc.IllegalActionError):
                        g.apply(probe)
            seat = g.current_player
            assert seat is not None
            with pytest.raises(sabacc.IllegalActionError):
                g.apply(g.legal_actions()[0], seat=(seat + 1) % g.n)
            assert snapshot(g) == before
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
        step += 1


def strings(value: Any) -> set[str]:
    """Every text value (not key) in a JSON-like structure."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values()))
    if isinstance(value, list | tuple):
        return set().union(*(strings(v) for v in value))
    return set()


def same_for(g: KesselGame, viewer: int, twin: KesselGame) -> None:
    a, b = g.observation(viewer), twin.observation(viewer)
    assert a == b, viewer


@settings(SETTINGS, max_examples=max(1, EXAMPLES * 3 // 5))
@given(case=games(), twin_seed=st.integers(0, 2**16))
def test_no_observation_leaks(case: tuple[KesselGame, random.Random], twin_seed: int) -> None:
    g, rng = case
    twins = random.Random(twin_seed)
    for _ in range(5000):
        if g.is_over:
            break
        check_private(g)
        for viewer in range(g.n):
            twin = g.determinize(viewer, twins)
            assert isinstance(twin, KesselGame)
            same_for(g, viewer, twin)
            check_cards(twin)
            for s in twin.order:
                assert [c.suit for c in twin.hands[s]] == ["s", "b"]
        spectator = strings(g.observation(None))
        for s in range(g.n):  # unplayed tokens are never named to anyone but their owner
            for t in g.tokens_left[s]:
                if g.options.shift_tokens == "draft" and not any(
                    t in g.tokens_used[o] for o in range(g.n)
                ):
                    assert t not in spectator
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])


def test_determinize_deals_other_players_tokens_anew() -> None:
    g = sabacc.new_game("kessel", players=4, seed=3)
    assert isinstance(g, KesselGame)
    worlds = [g.determinize(0, random.Random(k)) for k in range(20)]
    deals = {tuple(map(tuple, w.tokens_left)) for w in worlds if isinstance(w, KesselGame)}
    assert len(deals) > 1
    assert all(d[0] == tuple(g.tokens_left[0]) for d in deals)
