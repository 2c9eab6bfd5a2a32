"""Kessel's search worlds (``variants/kessel/search.py`` on the core's ``KesselSearchWorld``)
play exactly as the engine.

Random playouts (Hypothesis chooses the options, the seed and every action) copy a reference
game into a search world at a random point of a round and play both side by side to the end of
the round: the legal actions, every piece of round state after every action, and the stocks,
pots and lost chips after the payout must agree. A rollout is the reference game cloned with
the rollout's seed and played to the payout by the ``heuristic`` bot. The world's samples (what
``ismcts`` searches) keep what the seat knows and only reshuffle what it does not. Without the
compiled core the search samples the reference game.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sabacc
from sabacc.services.bots import decide, make_bot, sampler_for
from sabacc.variants.kessel.rules import KesselGame
from sabacc.variants.kessel.search import POLICY, ROUND_PHASES, search_sampler
from sabacc.variants.kessel.tokens import TOKENS

core = pytest.importorskip(
    "sabacc.variants.kessel._kessel_core", reason="the compiled Kessel core is not built"
)
World = core.KesselSearchWorld


def game_state(g: Any) -> tuple[Any, ...]:
    """The round's state of a ``KesselGame`` or a ``KesselCore`` (a world's ``as_core()``)."""
    return (
        list(g.order),
        g.pos,
        g.turn,
        list(g.stacks),
        list(g.committed),
        g.house,
        [[c.id for c in h] for h in g.hands],
        [[c.id for c in p] for p in (g.sand_draw, g.blood_draw)],
        [[c.id for c in p] for p in (g.sand_discard, g.blood_discard)],
        [c.id for c in g.drawn],
        g.drawn_from,
        list(g.stood),
        list(g.stood_now),
        list(g.embargoed),
        list(g.immune),
        g.must_stand,
        g.token_now,
        g.free_draw,
        g.rules,
        [list(t) for t in g.tokens_left],
        [list(t) for t in g.tokens_used],
        g.phase,
        g.to_act,
        g.dice,
        list(g.pending),
        dict(g.chosen),
    )


options_strategy = st.fixed_dictionaries(
    {
        "shift_tokens": st.sampled_from(["draft", ",".join(TOKENS), "none"]),
        "turns": st.integers(1, 4),
        "early_end": st.booleans(),
        "impostors": st.integers(0, 3),
        "sylops": st.integers(0, 3),
        "chips": st.integers(4, 10),
    }
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=options_strategy,
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    choices=st.randoms(use_true_random=False),
)
def test_world_plays_rounds_exactly_as_the_game(
    options: dict[str, Any], players: int, seed: int, choices: random.Random
) -> None:
    game = sabacc.new_game("kessel", players=players, seed=seed, engine="python", **options)
    assert isinstance(game, KesselGame)
    rounds = 0
    while not game.is_over and rounds < 4:
        if game.phase in ROUND_PHASES and choices.random() < 0.4:
            viewer = choices.randrange(players)
            world = World(game, viewer, POLICY)
            reseed = choices.getrandbits(64)
            world.reseed(reseed)  # its dice and reshuffles: random.Random(reseed)'s
            ref = game.clone(log=False, reseed=reseed)
            assert game_state(world.as_core()) == game_state(ref)
            hand_no = ref.hand_no
            while ref.hand_no == hand_no and not ref.is_over:
                legal = ref.legal_actions()
                assert world.legal_actions() == legal
                action = legal[choices.randrange(len(legal))]
                ref.apply(action)
                world.apply(action)
                if ref.hand_no == hand_no and not ref.is_over:
                    assert game_state(world.as_core()) == game_state(ref)
            # The round's payout: stocks, pots and the chips that left the game.
            assert world.round_over and world.legal_actions() == []
            after = world.as_core()
            assert after.stacks == list(ref.stacks)
            assert after.house == ref.house
            assert sum(after.committed) == 0
            rounds += 1
        legal = game.legal_actions()
        game.apply(legal[choices.randrange(len(legal))])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    # The heuristic bot assumes the standard deck (3 Impostors, 1 Sylop per family: an
    # observation does not give the make-up); a world's policy reads the game's own options.
    options=options_strategy.map(lambda o: {**o, "impostors": 3, "sylops": 1}),
    players=st.integers(2, 5),
    seed=st.integers(0, 2**32),
    choices=st.randoms(use_true_random=False),
)
def test_a_rollout_is_the_round_the_heuristic_plays_on_the_game(
    options: dict[str, Any], players: int, seed: int, choices: random.Random
) -> None:
    """``rollout(seat, action, s)``: the reference game cloned with ``reseed=s``, ``action``
    played, then the ``heuristic`` bot for every seat to the payout; the chips and the count of
    actions are the same."""
    bot = make_bot("heuristic", seed=0)
    game = sabacc.new_game("kessel", players=players, seed=seed, engine="python", **options)
    for _ in range(choices.randrange(20)):
        if game.is_over:
            return
        legal = game.legal_actions()
        game.apply(legal[choices.randrange(len(legal))])
    if game.is_over or game.phase not in ROUND_PHASES:
        return
    seat = game.current_player
    assert seat is not None
    world = World(game, seat, POLICY)
    for action in game.legal_actions()[:4]:
        rseed = choices.getrandbits(64)
        reward, steps = world.rollout(seat, action, rseed)
        ref = game.clone(log=False, reseed=rseed)
        hand_no, before = ref.hand_no, ref.stacks[seat]
        ref.apply(action)
        played = 1
        while ref.hand_no == hand_no and not ref.is_over:
            ref.apply(decide(bot, ref))
            played += 1
        assert (reward, steps) == (float(ref.stacks[seat] - before), played)
    assert game_state(world.as_core()) == game_state(game)  # a rollout plays on a copy


def _hidden_kinds(w: Any, seat: int, fam: int, game: KesselGame) -> Counter[int]:
    kinds: Counter[int] = Counter(c.value for c in (w.sand_draw, w.blood_draw)[fam])
    for s, hand in enumerate(game.hands):
        if s != seat and hand and hand[fam].id not in game.public_ids[s]:
            kinds[w.hands[s][fam].value] += 1
    return kinds


@pytest.mark.parametrize("seed", range(12))
def test_samples_keep_what_the_seat_knows_and_shuffle_the_rest(seed: int) -> None:
    rng = random.Random(seed)
    game = sabacc.new_game("kessel", players=4, seed=seed, engine="python")
    assert isinstance(game, KesselGame)
    for _ in range(rng.randrange(12)):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    if game.is_over or game.phase not in ROUND_PHASES:
        return
    seat = game.current_player
    assert seat is not None
    sampler: Any = search_sampler(game, seat)
    assert sampler is not None
    differ = 0
    for i in range(30):
        sampled = sampler(random.Random(i))
        w = sampled.as_core()
        assert w.hands[seat] == game.hands[seat]
        assert w.sand_discard == game.sand_discard and w.blood_discard == game.blood_discard
        assert len(w.sand_draw) == len(game.sand_draw)
        assert len(w.blood_draw) == len(game.blood_draw)
        assert w.stacks == game.stacks and w.committed == game.committed
        assert w.tokens_left[seat] == game.tokens_left[seat]
        for fam in (0, 1):  # the unseen cards are the same multiset, each family in itself
            assert _hidden_kinds(w, seat, fam, game) == _hidden_kinds(game, seat, fam, game)
        for s in range(game.n):
            assert len(w.tokens_left[s]) == len(game.tokens_left[s])
            assert not set(w.tokens_left[s]) & set(game.tokens_used[s])
        differ += (w.sand_draw, w.blood_draw) != (game.sand_draw, game.blood_draw)
        # The same rng gives the same world: it depends on the seat's information and rng only.
        assert game_state(sampler(random.Random(i)).as_core()) == game_state(w)
    assert differ > 0


def test_samples_from_the_core_equal_those_from_the_game() -> None:
    """A world sampled from a ``KesselCore`` is the one sampled from the reference game in
    the same state, draw for draw."""
    for seed in range(6):
        ref = sabacc.new_game("kessel", players=2 + seed % 3, seed=seed, engine="python")
        comp = sabacc.new_game("kessel", players=2 + seed % 3, seed=seed, engine="compiled")
        rng = random.Random(seed)
        for _ in range(40):
            if ref.is_over:
                break
            seat = ref.current_player
            assert seat is not None
            a, b = sampler_for(ref, seat), sampler_for(comp, seat)
            wa, wb = a(random.Random(seed)), b(random.Random(seed))
            assert isinstance(wa, World) and isinstance(wb, World)
            assert game_state(wa.as_core()) == game_state(wb.as_core())
            legal = ref.legal_actions()
            action = legal[rng.randrange(len(legal))]
            ref.apply(action)
            comp.apply(action)


def test_rollouts_play_the_heuristic() -> None:
    """A world's rollout policy chooses what the ``heuristic`` bot chooses on the game."""
    bot = make_bot("heuristic", seed=0)
    checked = 0
    for seed in range(25):
        game = sabacc.new_game("kessel", players=3, seed=seed, shift_tokens=",".join(TOKENS))
        hand_no = game.hand_no
        while not game.is_over and game.hand_no == hand_no:
            seat = game.current_player
            assert seat is not None
            action = decide(bot, game)
            assert World(game, seat, POLICY).policy_action() == action
            checked += 1
            game.apply(action)
    assert checked > 100


def test_default_sampler_gives_kessel_search_worlds() -> None:
    game = sabacc.new_game("kessel", players=3, seed=4, engine="python")
    seat = game.current_player
    assert seat is not None
    assert isinstance(sampler_for(game, seat)(random.Random(0)), World)
    assert isinstance(sampler_for(game, seat, engine="python")(random.Random(0)), KesselGame)


def test_stub_matches_the_built_search_world() -> None:
    """The type stub lists exactly the public members of the built KesselSearchWorld."""
    from tests.variants.lockstep import assert_stub_matches

    assert_stub_matches("kessel/_kessel_core.pyi", World)


def test_a_world_refuses_an_illegal_action_and_a_game_between_rounds() -> None:
    from sabacc.core.errors import IllegalActionError, OptionError
    from sabacc.variants.kessel.actions import KEEP

    game = sabacc.new_game("kessel", players=2, seed=1, engine="python")
    seat = game.current_player
    assert seat is not None
    world = World(game, seat, POLICY)
    with pytest.raises(IllegalActionError):
        world.rollout(seat, KEEP, 1)  # nothing drawn: Keep is not legal
    with pytest.raises(IllegalActionError):
        world.apply(KEEP)
    with pytest.raises(IndexError):
        World(game, 2, POLICY)
    # A policy that chooses an illegal action is refused, not stepped.
    wrong = (lambda *args: (KEEP, 1e9, 0.0), POLICY[1], POLICY[2])  # no token beats it
    with pytest.raises(IllegalActionError):
        World(game, seat, wrong).policy_action()
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    with pytest.raises(OptionError):
        World(game, 0, POLICY)


def test_without_the_core_the_search_samples_the_reference_game() -> None:
    """A pure-Python install (no compiled core): no search worlds, the search samples
    ``KesselGame.determinize`` and an ``ismcts`` decision plays on the reference game."""
    code = (
        "import random, sys\n"
        "sys.modules['sabacc.variants.kessel._kessel_core'] = None\n"
        "import sabacc\n"
        "from sabacc.services.bots import decide, make_bot, sampler_for\n"
        "from sabacc.variants.kessel.search import search_sampler\n"
        "game = sabacc.new_game('kessel', players=2, seed=3)\n"
        "seat = game.current_player\n"
        "assert search_sampler(game, seat) is None\n"
        "print(type(sampler_for(game, seat)(random.Random(0))).__name__)\n"
        "print(decide(make_bot('ismcts:8', seed=1), game) in game.legal_actions())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=dict(os.environ)
    )
    assert out.stdout.split() == ["KesselGame", "True"], out.stderr


def test_heuristic_pairs_a_second_impostor_with_the_first_ones_die() -> None:
    """Two Impostors: the Sand one's die is chosen first; the Blood one takes the same value
    when its dice offer it (a Sabacc), in the heuristic and in the search's rollouts alike."""
    bot = make_bot("heuristic", seed=0)
    found = 0
    for seed in range(3000):
        game = sabacc.new_game("kessel", players=6, seed=seed, shift_tokens="none", turns=1)
        assert isinstance(game, KesselGame)
        rng = random.Random(seed)
        while game.hand_no == 1 and not game.is_over:
            if game.phase == "impostor" and game.pending:
                seat, card_id = game.pending[0]
                sand, blood = game.hands[seat]
                if card_id == blood.id and sand.id in game.chosen:
                    die = game.chosen[sand.id]
                    assert game.dice is not None
                    if die in game.dice:
                        assert str(decide(bot, game)) == f"impostor {die}"
                        world = World(game, seat, POLICY)
                        assert str(world.policy_action()) == f"impostor {die}"
                        found += 1
            legal = game.legal_actions()
            game.apply(legal[0] if game.phase == "impostor" else legal[rng.randrange(len(legal))])
        if found >= 3:
            return
    raise AssertionError(f"only {found} reveals with two Impostors and a matching die")
