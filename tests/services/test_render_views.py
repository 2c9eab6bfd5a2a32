"""``events_json_views``: several viewers' event runs at once, each exactly ``events_json``."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import sabacc
from sabacc.engine.game import Game
from sabacc.services.render import events_json, events_json_views
from sabacc.variants.registry import variant_names

NAMES = ["Han", "Lando", "Qi'ra", "Beckett", "Chewie", "Rio"]


def _random_game(variant: str, seed: int, steps: int) -> Game:
    rng = random.Random(seed)
    game = sabacc.new_game(variant, players=NAMES[: rng.choice([2, 3, 4, 6])], seed=seed)
    for _ in range(steps):
        if game.is_over:
            break
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return game


@settings(max_examples=60, deadline=None)
@given(
    variant=st.sampled_from(variant_names()),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 400),
    cut=st.tuples(st.floats(0, 1), st.floats(0, 1)),
)
def test_every_viewer_gets_exactly_its_own_events_json(
    variant: str, seed: int, steps: int, cut: tuple[float, float]
) -> None:
    game = _random_game(variant, seed, steps)
    n = len(game.events)
    lo, hi = sorted(round(c * n) for c in cut)
    run = game.events[lo:hi]
    viewers: list[int | None] = [None, *range(len(game.names))]
    views = events_json_views(run, game.names, viewers, variant=game.info)
    assert set(views) == set(viewers)
    for viewer in viewers:
        assert views[viewer] == events_json(run, game.names, viewer=viewer, variant=game.info), (
            viewer
        )


def test_a_bystander_shares_the_spectators_list_and_the_actor_does_not() -> None:
    game = sabacc.new_game("corellian_spike", players=NAMES[:4], seed=3)
    before = len(game.events)
    actor = game.current_player
    assert actor is not None
    game.apply(game.legal_actions()[0])
    run = game.events[before:]
    views = events_json_views(run, game.names, [None, *range(4)], variant=game.info)
    bystander = next(s for s in range(4) if s != actor)
    assert views[bystander] is views[None]
    assert views[actor] is not views[None]
    assert views[actor] == events_json(run, game.names, viewer=actor, variant=game.info)
