"""``Game.observations``: several viewers at once, each exactly its ``observation``, in every
variant (every seat and a spectator, at every decision of random play, with the seats' rows
that differ per viewer: Surabat's and Kessel's known cards)."""

from __future__ import annotations

import json
import random
import typing
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sabacc
from sabacc.variants.registry import variant_names


@settings(max_examples=12, deadline=None)
@given(
    variant=st.sampled_from(sorted(variant_names())),
    players=st.integers(2, 5),
    seed=st.integers(0, 2**31),
)
def test_observations_equal_each_viewers_observation(variant: str, players: int, seed: int) -> None:
    game = sabacc.new_game(variant, players=players, seed=seed)
    rng = random.Random(seed)
    viewers: list[int | None] = [None, *range(players)]
    for _ in range(120):
        together = game.observations(viewers)
        assert set(together) == set(viewers)
        for viewer in viewers:
            alone = game.observation(viewer)
            assert together[viewer] == alone
            # the same JSON, key order included (what the server sends)
            assert json.dumps(together[viewer]) == json.dumps(alone)
        if game.is_over:
            break
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])


def test_a_seat_sees_another_seat_as_a_spectator_does() -> None:
    """No viewer is shown more of another seat than a spectator: another seat's row is the
    spectator's, and only the viewer's own observation has its hand."""
    game = sabacc.new_game("corellian_spike", players=4, seed=5)
    rng = random.Random(5)
    for _ in range(40):
        seen = game.observations([None, 0, 1, 2, 3])
        assert "you" not in seen[None]
        for viewer in range(4):
            assert seen[viewer]["you"] == game.observation(viewer)["you"]
            for other in range(4):
                if other != viewer:
                    assert seen[viewer]["seats"][other] == seen[None]["seats"][other]
        if game.is_over:
            break
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])


def test_observations_refuse_a_seat_not_at_the_table() -> None:
    game = sabacc.new_game("classic", players=3, seed=1)
    with pytest.raises(IndexError):
        game.observations([0, 3])


def _scribble(value: object) -> None:
    """Change every dict and list inside ``value`` (what a careless caller might do)."""
    if isinstance(value, dict):
        for item in list(value.values()):
            _scribble(item)
        value["scribbled"] = True
    elif isinstance(value, list):
        for item in list(value):
            _scribble(item)
        value.append("scribbled")


@pytest.mark.parametrize("engine", ["python", "compiled"])
@pytest.mark.parametrize("variant", sorted(variant_names()))
def test_each_observation_call_gives_objects_of_its_own(variant: str, engine: str) -> None:
    """Observations of one state asked one by one share nothing mutable (the compiled cores keep
    the seats' public rows per state and hand out copies): changing one, deep inside, changes no
    other and no later one."""
    from sabacc.variants.compiled import available

    if engine == "compiled" and not available(variant):
        pytest.skip("the compiled core is not built")
    game = sabacc.new_game(variant, players=3, seed=11, engine=typing.cast(Any, engine))
    rng = random.Random(11)
    checked = 0
    for _ in range(200):
        if game.is_over:
            break
        viewers = [None, 0, 1, 2, 0, None]
        first = [game.observation(v) for v in viewers]
        texts = [json.dumps(o) for o in first]
        for obs in first[::2]:
            _scribble(obs)
        for viewer, obs, text in zip(viewers[1::2], first[1::2], texts[1::2], strict=True):
            assert json.dumps(obs) == text
            assert json.dumps(game.observation(viewer)) == text
        checked += 1
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    assert checked > 10
