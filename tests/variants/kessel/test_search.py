"""The compact Kessel search world (``variants/kessel/search.py``) plays exactly as the engine.

Random playouts (Hypothesis chooses the options, the seed and every action) copy a game into a
:class:`KesselWorld` at a random point of a round and play both side by side to the end of the
round: the legal actions, every piece of round state after every action, and the stocks, pots
and lost chips after the payout must agree. The world's samples (what ``ismcts`` searches) keep
what the seat knows and only reshuffle what it does not; the heuristic's rollout choices on a
world are the heuristic's own choices on the game.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sabacc
from sabacc.services.bots import decide, make_bot, sampler_for
from sabacc.variants.kessel.rules import KesselGame
from sabacc.variants.kessel.search import KesselWorld, search_sampler
from sabacc.variants.kessel.tokens import TOKENS

ROUND_PHASES = ("turn", "draw", "impostor", "prime")


def game_state(g: KesselGame) -> tuple[Any, ...]:
    chosen = {}
    for s, hand in enumerate(g.hands):
        for i, c in enumerate(hand):
            if c.id in g.chosen:
                chosen[(s, i)] = g.chosen[c.id]
    ids = {c.id: (s, i) for s, h in enumerate(g.hands) for i, c in enumerate(h)}
    return (
        list(g.order),
        g.pos,
        g.turn,
        list(g.stacks),
        list(g.committed),
        g.house,
        [[c.value for c in h] for h in g.hands],
        [[c.value for c in p] for p in (g.sand_draw, g.blood_draw)],
        [[c.value for c in p] for p in (g.sand_discard, g.blood_discard)],
        g.drawn[0].value if g.drawn else None,
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
        [ids[c] for _, c in g.pending],
        chosen,
    )


def world_state(w: KesselWorld) -> tuple[Any, ...]:
    return (
        list(w.order),
        w.pos,
        w.turn,
        list(w.stacks),
        list(w.pots),
        w.house,
        [list(h) for h in w.hands],
        [list(p) for p in w.piles[:2]],
        [list(p) for p in w.piles[2:]],
        w.drawn,
        list(w.stood),
        list(w.stood_now),
        list(w.embargoed),
        list(w.immune),
        w.must_stand,
        w.token_now,
        w.free_draw,
        w.rules,
        [list(t) for t in w.tokens_left],
        [list(t) for t in w.tokens_used],
        w.phase,
        w.to_act,
        w.dice,
        list(w.pending),
        dict(w.chosen),
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
    game = sabacc.new_game("kessel", players=players, seed=seed, **options)
    assert isinstance(game, KesselGame)
    rounds = 0
    while not game.is_over and rounds < 4:
        if game.phase in ROUND_PHASES and choices.random() < 0.4:
            world = KesselWorld.from_game(game)
            hand_no = game.hand_no
            assert world_state(world) == game_state(game)
            while game.hand_no == hand_no and not game.is_over:
                legal = game.legal_actions()
                assert world.legal() == legal
                action = legal[choices.randrange(len(legal))]
                game.apply(action)
                world.apply(action)
                if game.hand_no == hand_no and not game.is_over:
                    assert world_state(world) == game_state(game)
            # The round's payout: stocks, pots and the chips that left the game.
            assert world.phase == "end" and world.to_act is None
            assert world.stacks == list(game.stacks)
            assert world.house == game.house
            assert sum(world.pots) == 0
            rounds += 1
            continue
        legal = game.legal_actions()
        game.apply(legal[choices.randrange(len(legal))])


def _hidden_kinds(w: KesselWorld, seat: int, fam: int, game: KesselGame) -> Counter[int]:
    kinds: Counter[int] = Counter(w.piles[fam])
    for s, hand in enumerate(game.hands):
        if s != seat and hand and hand[fam].id not in game.public_ids[s]:
            kinds[w.hands[s][fam]] += 1
    return kinds


@pytest.mark.parametrize("seed", range(12))
def test_samples_keep_what_the_seat_knows_and_shuffle_the_rest(seed: int) -> None:
    rng = random.Random(seed)
    game = sabacc.new_game("kessel", players=4, seed=seed)
    assert isinstance(game, KesselGame)
    for _ in range(rng.randrange(12)):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    if game.is_over or game.phase not in ROUND_PHASES:
        return
    seat = game.current_player
    assert seat is not None
    sampler = search_sampler(game, seat)
    assert sampler is not None
    exact = KesselWorld.from_game(game)
    differ = 0
    for i in range(30):
        w = sampler(random.Random(i))
        assert w.hands[seat] == exact.hands[seat]
        assert w.piles[2:] == exact.piles[2:]  # discards are face up
        assert [len(p) for p in w.piles] == [len(p) for p in exact.piles]
        assert w.stacks == exact.stacks and w.pots == exact.pots
        assert w.tokens_left[seat] == exact.tokens_left[seat]
        for fam in (0, 1):  # the unseen cards are the same multiset, each family in itself
            assert _hidden_kinds(w, seat, fam, game) == _hidden_kinds(exact, seat, fam, game)
        for s in range(game.n):
            assert len(w.tokens_left[s]) == len(exact.tokens_left[s])
            assert not set(w.tokens_left[s]) & set(game.tokens_used[s])
        differ += w.piles[:2] != exact.piles[:2]
        # The same rng gives the same world: it depends on the seat's information and rng only.
        again = sampler(random.Random(i))
        assert world_state(again) == world_state(w)
    assert differ > 0


def test_rollouts_play_the_heuristic() -> None:
    """A world's rollout policy chooses what the ``heuristic`` bot chooses on the game."""
    bot = make_bot("heuristic", seed=0)
    checked = 0
    for seed in range(25):
        game = sabacc.new_game("kessel", players=3, seed=seed)
        assert isinstance(game, KesselGame)
        hand_no = game.hand_no
        while not game.is_over and game.hand_no == hand_no:
            seat = game.current_player
            assert seat is not None
            world = KesselWorld.from_game(game)
            action = decide(bot, game)
            assert world._choice(seat) == action
            checked += 1
            game.apply(action)
    assert checked > 100


def test_default_sampler_gives_kessel_search_worlds() -> None:
    game = sabacc.new_game("kessel", players=3, seed=4)
    seat = game.current_player
    assert seat is not None
    assert isinstance(sampler_for(game, seat)(random.Random(0)), KesselWorld)
    assert isinstance(sampler_for(game, seat, engine="python")(random.Random(0)), KesselGame)


def test_world_ranks_and_penalises_every_hand_as_the_engine() -> None:
    """Every (Sand, Blood) pair, under every rule a token can set, Impostors chosen or not."""
    import itertools

    from sabacc.variants.kessel.hands import IMPOSTOR, Rules, hand_value, kessel_deck, penalty
    from sabacc.variants.kessel.search import _key

    deck = kessel_deck(3, 3)
    sand = {c.value: c for c in deck.cards if c.suit == "s"}
    blood = {c.value: c for c in deck.cards if c.suit == "b"}
    for fraud, markdown, cook in itertools.product((False, True), repeat=3):
        for prime in (None, 1, 4, 6):
            rules = Rules(fraud, markdown, cook, prime)
            for a, b in itertools.product(sand, blood):
                for da, db in itertools.product((None, 2, 5), repeat=2):
                    chosen: dict[int, int] = {}
                    if a == IMPOSTOR and da is not None:
                        chosen[sand[a].id] = da
                    if b == IMPOSTOR and db is not None:
                        chosen[blood[b].id] = db
                    value = hand_value([sand[a], blood[b]], rules, chosen)
                    ra = 6 if a == IMPOSTOR and rules.major_fraud else chosen.get(sand[a].id, a)
                    rb = 6 if b == IMPOSTOR and rules.major_fraud else chosen.get(blood[b].id, b)
                    if a == 0 and b == 0:
                        ra = rb = 0
                    assert _key(ra, rb, rules) == (value.key, penalty(value))


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
                        assert str(KesselWorld.from_game(game)._choice(seat)) == f"impostor {die}"
                        found += 1
            legal = game.legal_actions()
            game.apply(legal[0] if game.phase == "impostor" else legal[rng.randrange(len(legal))])
        if found >= 3:
            return
    raise AssertionError(f"only {found} reveals with two Impostors and a matching die")
