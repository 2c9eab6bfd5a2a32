"""Property tests over random legal playouts, for every registered variant.

Each example draws a variant, a table size, a combination of options and seeds, then plays a
whole game with random legal actions, checking the invariants after every action.
Sized so the whole file runs in well under a minute on two cores.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import sabacc
from sabacc.engine.game import Game
from tests.support import check_cards, check_credits, check_private, choose_small, snapshot

VARIANTS = [
    v for v in ("corellian_spike", "classic", "surabat_cycle") if v in sabacc.variant_names()
]
MAX_ACTIONS = 20_000
#: Examples per property (raise it locally for a deeper search: SABACC_PROP_EXAMPLES=200).
EXAMPLES = int(os.environ.get("SABACC_PROP_EXAMPLES", "12"))

SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@dataclass(frozen=True)
class Config:
    variant: str
    players: int
    options: dict[str, Any]
    seed: int
    play_seed: int

    def new_game(self, **kw: Any) -> Game:
        return sabacc.new_game(
            self.variant, players=self.players, seed=self.seed, **self.options, **kw
        )


def _option_strategies(defaults: Any) -> dict[str, st.SearchStrategy[Any]]:
    sab = getattr(defaults, "sabacc_ante", 1)
    return {
        "rounds": st.integers(1, 4),
        "betting": st.sampled_from(["no_limit", "pot_limit", "fixed"]),
        "min_bet": st.none() | st.integers(1, 3),
        "max_raises": st.integers(0, 3),
        "gain_fee": st.integers(0, 2),
        "swap_fee": st.integers(0, 2),
        "hand_cap": st.integers(3, 6),
        "true_tie": st.sampled_from(["blind_draw", "split"]),
        "game_end": st.sampled_from(["orbit", "last_standing", "hands:1", "hands:2", "hands:3"]),
        "final_pot": st.sampled_from(["split", "house"]),
        "sabacc_ante": (
            st.sampled_from(["if_empty", "always"]) if isinstance(sab, str) else st.integers(0, 2)
        ),
        "scoring": st.sampled_from(["signed", "absolute"]),
        "bet_limit": st.integers(1, 3),
        "fold_fee": st.integers(0, 2),
        "allow_exchange_at_two": st.booleans(),
        "max_orbits": st.integers(1, 3),
    }


@st.composite
def configs(draw: st.DrawFn, variants: Sequence[str] = VARIANTS) -> Config:
    name = draw(st.sampled_from(variants))
    v = sabacc.variant(name)
    info = v.info
    players = draw(st.integers(info.min_players, info.max_players))
    defaults = v.options
    pool = _option_strategies(defaults)
    options: dict[str, Any] = {}
    for opt in defaults.names():
        if opt in pool and draw(st.booleans()):
            options[opt] = draw(pool[opt])
    # Small buy-ins: all-ins, side pots and eliminations happen, and games stay short.
    ante = defaults.ante
    sab = options.get("sabacc_ante", defaults.sabacc_ante)
    per_hand = ante + (sab if isinstance(sab, int) else getattr(defaults, "sabacc_ante_amount", 1))
    options["buy_in"] = max(1, per_hand) * draw(st.integers(2, 12))
    try:
        sabacc.variant(name, **options)
    except sabacc.OptionError:
        assume(False)
    return Config(name, players, options, draw(st.integers(0, 2**32)), draw(st.integers(0, 999)))


def play(
    cfg: Config, *, check: Any = None, game: Game | None = None
) -> tuple[Game, list[tuple[int, str]]]:
    g = game or cfg.new_game()
    rng = random.Random(cfg.play_seed)
    count = 0
    while not g.is_over:
        g.apply(choose_small(rng, g))
        count += 1
        if check is not None:
            check(g)
        assert count < MAX_ACTIONS, "game did not terminate"
    return g, list(g.actions)


def invariants(g: Game) -> None:
    check_credits(g)
    check_cards(g)
    assert all(s >= 0 for s in g.stacks)
    if g.is_over:
        assert g.current_player is None and g.legal_actions() == []
    else:
        seat = g.current_player
        assert seat is not None and 0 <= seat < g.n
        assert not g.out[seat]
        assert g.legal().count() == len(g.legal_actions()) > 0


@pytest.mark.parametrize("variant", VARIANTS)
@SETTINGS
@given(data=st.data())
def test_invariants_hold_after_every_action(variant: str, data: st.DataObject) -> None:
    cfg = data.draw(configs([variant]))
    g = cfg.new_game()
    invariants(g)
    g, _ = play(cfg, game=g, check=invariants)
    assert g.is_over and g.outcome is not None
    assert sum(g.payoffs) == -g.house
    if cfg.options.get("final_pot", "split") == "split":
        assert sum(g.payoffs) == 0
    assert sorted(g.outcome.standings) == list(range(g.n))
    game_end = cfg.options.get("game_end", "orbit")
    if game_end.startswith("hands:"):
        assert g.hand_no <= int(game_end[6:])
    if game_end == "last_standing":
        assert sum(1 for s in range(g.n) if not g.out[s]) <= 1


@pytest.mark.parametrize("variant", VARIANTS)
@SETTINGS
@given(cfg=st.data())
def test_same_seed_same_actions_same_game(variant: str, cfg: st.DataObject) -> None:
    c = cfg.draw(configs([variant]))
    a, actions = play(c)
    # Replay the same actions on a fresh game, disturbing the global random module between
    # actions: the engine must only use its own seeded RNG.
    b = c.new_game()
    disturb = random.Random(c.play_seed + 1)
    for seat, action in actions:
        random.seed(disturb.random())
        random.random()
        random.shuffle(list(range(10)))
        b.apply(action, seat=seat)
    assert b.events == a.events
    assert b.full_state() == a.full_state()
    assert b.stacks == a.stacks and b.payoffs == a.payoffs
    assert b.hand_results == a.hand_results
    r = sabacc.replay(a.history())
    assert r.events == a.events and r.full_state() == a.full_state()


@pytest.mark.parametrize("variant", VARIANTS)
@SETTINGS
@given(cfg=st.data())
def test_global_random_has_no_effect(variant: str, cfg: st.DataObject) -> None:
    c = cfg.draw(configs([variant]))
    random.seed(1)
    a, _ = play(c)
    random.seed(2)
    b = c.new_game()
    rng = random.Random(c.play_seed)
    while not b.is_over:
        random.random()
        b.apply(choose_small(rng, b))
    assert b.events == a.events and b.stacks == a.stacks


ILLEGAL_PROBES = [
    "stand",
    "gain",
    "check",
    "call",
    "junk",
    "bet 1",
    "bet 100000",
    "raise 1",
    "raise 100000",
    "swap draw +10",
    "swap discard -10",
    "swap moon +1",
    "discard +1",
    "call hand",
    "gain +3",
]


@pytest.mark.parametrize("variant", VARIANTS)
@SETTINGS
@given(cfg=st.data())
def test_illegal_actions_leave_the_state_unchanged(variant: str, cfg: st.DataObject) -> None:
    c = cfg.draw(configs([variant]))
    g = c.new_game()
    rng = random.Random(c.play_seed)
    step = 0
    while not g.is_over:
        if step % 7 == 0:
            before = snapshot(g)
            for probe in ILLEGAL_PROBES:
                if not g.is_legal(probe):
                    with pytest.raises(sabacc.IllegalActionError):
                        g.apply(probe)
            seat = g.current_player
            assert seat is not None
            with pytest.raises(sabacc.IllegalActionError):
                g.apply(g.legal_actions()[0], seat=(seat + 1) % g.n)
            with pytest.raises(sabacc.IllegalActionError):
                g.apply("not an action")
            assert snapshot(g) == before
        g.apply(choose_small(rng, g))
        step += 1
    before = snapshot(g)
    for probe in ILLEGAL_PROBES:
        with pytest.raises(sabacc.IllegalActionError):
            g.apply(probe)
    assert snapshot(g) == before


@pytest.mark.parametrize("variant", VARIANTS)
@settings(SETTINGS, max_examples=max(1, EXAMPLES * 2 // 3))
@given(cfg=st.data())
def test_no_observation_shows_another_seats_hidden_cards(variant: str, cfg: st.DataObject) -> None:
    c = cfg.draw(configs([variant]))
    g = c.new_game()
    check_private(g)
    play(c, game=g, check=check_private)


@pytest.mark.parametrize("variant", VARIANTS)
@settings(SETTINGS, max_examples=max(1, EXAMPLES * 2 // 3))
@given(cfg=st.data(), at=st.integers(0, 200))
def test_clone_is_independent_and_plays_on_identically(
    variant: str, cfg: st.DataObject, at: int
) -> None:
    c = cfg.draw(configs([variant]))
    g = c.new_game()
    rng = random.Random(c.play_seed)
    for _ in range(at):
        if g.is_over:
            break
        g.apply(choose_small(rng, g))
    before = snapshot(g)
    clone = g.clone()
    assert snapshot(clone) == before
    # Playing the clone on leaves the original untouched.
    other = random.Random(c.play_seed + 7)
    while not clone.is_over:
        clone.apply(choose_small(other, clone))
    assert snapshot(g) == before
    # Given the same actions, a fresh clone and the original play on identically.
    twin = g.clone()
    r1, r2 = random.Random(3), random.Random(3)
    while not g.is_over:
        a, b = choose_small(r1, g), choose_small(r2, twin)
        assert a == b
        assert g.apply(a) == twin.apply(b)
    assert twin.full_state() == g.full_state() and twin.stacks == g.stacks
