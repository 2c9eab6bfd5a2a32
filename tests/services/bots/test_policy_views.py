"""The heuristic bot's view of a seat is the same whether it reads the observation (a live
game, the server) or the game state (rollouts): the face-up cards it may take come from the
variant's model, not from pile names the policy knows."""

from __future__ import annotations

import random
from typing import Any

import pytest

import sabacc
from sabacc.services.bots.policy import unseen_from_observation, view_from_observation


@pytest.mark.parametrize("variant", ["corellian_spike", "surabat_cycle"])
def test_the_public_cards_match_on_both_paths(variant: str) -> None:
    rng = random.Random(7)
    checked = 0
    surabat_moon = 0
    for seed in range(40):
        game = sabacc.new_game(variant, players=3, seed=seed, engine="python")
        for _ in range(400):
            if game.is_over:
                break
            seat = game.current_player
            assert seat is not None
            obs = game.observation(seat)
            legal = game.legal_actions()
            seen = view_from_observation(obs, legal)
            direct = game.info.bot.view_from_game(game, seat)
            assert direct is not None
            public = (seen.discard_top, seen.sun, seen.moon_top)
            assert public == (direct.discard_top, direct.sun, direct.moon_top), (seed, obs)
            surabat_moon += seen.moon_top is not None
            checked += 1
            game.apply(rng.choice(legal))
    assert checked > 500
    if variant == "surabat_cycle":
        assert surabat_moon > 0  # a seat's own Moon top was seen, on both paths


def test_every_face_up_and_known_card_is_seen() -> None:
    # Surabat: the Sun's cards, the discard pile and the Moon cards this seat put there are
    # not unseen (the policy reads the declared piles).
    rng = random.Random(3)
    game = sabacc.new_game("surabat_cycle", players=2, seed=4, engine="python")
    full = dict(game.info.deck.value_counts)
    for _ in range(300):
        if game.is_over:
            break
        seat = game.current_player
        assert seat is not None
        obs: dict[str, Any] = dict(game.observation(seat))
        unseen = unseen_from_observation(obs)
        public = list(obs.get("sun") or []) + list(obs.get("discard_pile") or [])
        public += [c for c in obs.get("moon_known") or [] if c]
        mine = len(obs["you"]["values"])
        assert sum(full.values()) - sum(unseen.values()) >= mine + len(public)
        game.apply(rng.choice(game.legal_actions()))
