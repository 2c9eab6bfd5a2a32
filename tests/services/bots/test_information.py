"""Bots never read hidden state.

For many decision points of every variant we build a *twin* of the game: the same state as the
deciding seat sees it (identical observation) but other hidden cards and another RNG. Every
bot, built with the same seed, must decide the same in both. Search bots get their sampler
from the harness (``decide``), so this also checks that a sampled state depends only on the
seat's information.

The twin shuffles the cards of every place the seat cannot see. Which places those are is
checked independently of the engine's own bookkeeping: every card of the game that does not
show in the seat's observation must be one of the places the sampler reshuffles.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import sabacc
import sabacc.lab
from sabacc.core.cards import Card
from sabacc.engine.game import Game
from sabacc.services.bots import decide, make_bot

BOTS = ["random", "heuristic", "ismcts:8", "sharp", "shark", "shrewd", "wily", "canny", "sharpmc:8"]


def card_places(game: Game) -> list[tuple[list[Card], int]]:
    """Every (list, index) of the game's state that holds a card (hands and piles)."""
    places: list[tuple[list[Card], int]] = []
    for value in vars(game).values():
        if type(value) is not list:
            continue
        for item in value:
            if type(item) is list:
                places.extend((item, i) for i, c in enumerate(item) if isinstance(c, Card))
        places.extend((value, i) for i, c in enumerate(value) if isinstance(c, Card))
    return places


def visible_strings(obs: Any) -> set[str]:
    """Every string in an observation (this hand's part: the last hand's reveals excluded)."""
    out: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, str):
            out.add(x)
        elif isinstance(x, dict):
            for k, v in x.items():
                if k != "last_hand":
                    walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(obs)
    return out


def check_hidden_places_complete(game: Game, seat: int) -> None:
    hidden = {(id(pile), i) for pile, i in game._hidden_slots(seat)}
    shown = visible_strings(game.observation(seat))
    own = game.hands[seat]
    for pile, i in card_places(game):
        card = pile[i]
        if pile is own or card.code in shown:
            continue
        assert (id(pile), i) in hidden, (
            f"{game.variant}: card {card.code} is not visible to seat {seat} "
            "but determinize() would not reshuffle it (missing from _hidden_slots)"
        )


def twin(game: Game, seat: int, rng: random.Random) -> Game:
    """The same game as ``seat`` sees it, with other hidden cards and another RNG and seed."""
    other = game.clone(log=False, reseed=rng.getrandbits(64))
    slots = other._hidden_slots(seat)
    cards = [pile[i] for pile, i in slots]
    for _ in range(10):
        rng.shuffle(cards)
        if len(cards) < 2 or any(
            c is not pile[i] for c, (pile, i) in zip(cards, slots, strict=True)
        ):
            break
    for (pile, i), card in zip(slots, cards, strict=True):
        pile[i] = card
    other._legal = None
    other.seed = rng.getrandbits(62)
    return other


def decision_points(variant: str, count: int, seed: int) -> list[Game]:
    """Games stopped at varied decision points (random play from varied seeds)."""
    rng = random.Random(seed)
    points: list[Game] = []
    while len(points) < count:
        players = rng.choice([2, 3, 4])
        game = sabacc.new_game(
            variant, players=players, seed=rng.randrange(10**9), log=False, game_end="hands:2"
        )
        stop = rng.randrange(1, 40)
        for _ in range(stop):
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
        if not game.is_over:
            points.append(game)
    return points


@pytest.mark.parametrize("variant", sabacc.variant_names())
def test_samplers_reshuffle_every_unseen_card(variant: str) -> None:
    for game in decision_points(variant, 30, 1):
        for seat in range(game.n):
            check_hidden_places_complete(game, seat)


@pytest.mark.parametrize("variant", sabacc.variant_names())
def test_same_information_same_decision(variant: str) -> None:
    rng = random.Random(7)
    for k, game in enumerate(decision_points(variant, 12, 2)):
        seat = game.current_player
        assert seat is not None
        other = twin(game, seat, rng)
        obs = game.observation(seat)
        assert json.dumps(obs, sort_keys=True) == json.dumps(
            other.observation(seat), sort_keys=True
        )
        for name in BOTS:
            a = decide(make_bot(name, 100 + k), game, seat)
            b = decide(make_bot(name, 100 + k), other, seat)
            assert a == b, (variant, name, game.phase, a, b)


@pytest.mark.parametrize("variant", sabacc.variant_names())
def test_sampled_states_depend_only_on_the_information(variant: str) -> None:
    rng = random.Random(3)
    for game in decision_points(variant, 10, 3):
        seat = game.current_player
        assert seat is not None
        other = twin(game, seat, rng)
        a = game.determinize(seat, random.Random(99))
        b = other.determinize(seat, random.Random(99))
        assert a.full_state() == b.full_state()
        assert a.rng.getstate() == b.rng.getstate()
