"""Shared test helpers: invariant checks and random playouts for every variant."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import sabacc
from sabacc.engine.game import Game


def check_credits(game: Game) -> None:
    """Credits are conserved and no stack is negative."""
    assert game.total_credits() == game.n * game.options.starting_stack
    assert all(s >= 0 for s in game.stacks), game.stacks


def check_cards(game: Game) -> None:
    """Every card of the deck is somewhere, exactly once (during a hand)."""
    if game.is_over:
        return
    cards = game.card_locations()  # type: ignore[attr-defined]
    deck = type(game).info.deck
    assert len(cards) == len(deck), (len(cards), len(deck))
    assert len({c.id for c in cards}) == len(deck)


def hidden_codes(game: Game, owner: int) -> set[str]:
    """Codes of ``owner``'s cards that nobody else may see (unique codes only)."""
    deck = type(game).info.deck
    counts = Counter(c.code for c in deck.cards)
    return {
        c.code
        for c in game.hands[owner]
        if c.id not in game.public_ids[owner] and counts[c.code] == 1
    }


def check_no_leak(game: Game, since: int = 0) -> None:
    """No observation or event stream shows a seat another seat's hidden cards."""
    if game.phase == "over":
        return
    for viewer in [*range(game.n), None]:
        obs = json.dumps(game.observation(viewer))
        evs = json.dumps([e.to_dict() for e in game.events_for(viewer, since)])
        for owner in range(game.n):
            if owner == viewer:
                continue
            for code in hidden_codes(game, owner):
                assert f'"{code}"' not in obs, (viewer, owner, code)
                assert f'"{code}"' not in evs, (viewer, owner, code)


def choose(rng: random.Random, game: Game) -> sabacc.Action:
    """A random legal action, biased toward check/call so hands reach the showdown."""
    legal = game.legal_actions()
    if rng.random() < 0.6:
        passive = [a for a in legal if isinstance(a, sabacc.Check | sabacc.Call)]
        if passive:
            return passive[0]
    return rng.choice(legal)


def playout(
    game: Game,
    rng: random.Random,
    *,
    check: Callable[[Game], None] | None = None,
    max_actions: int = 20000,
) -> int:
    """Play random legal actions to the end; returns the number of actions."""
    count = 0
    while not game.is_over:
        game.apply(choose(rng, game))
        count += 1
        if check is not None:
            check(game)
        assert count < max_actions, "game did not terminate"
    return count


def snapshot(game: Game) -> dict[str, Any]:
    """Everything observable about a state, for exact-equality comparisons."""
    return {
        "full": game.full_state(),
        "stacks": list(game.stacks),
        "events": len(game.events),
        "actions": list(game.actions),
        "legal": [str(a) for a in game.legal_actions()],
        "rng": game.rng.getstate(),
    }
