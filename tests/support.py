"""Shared test helpers: invariant checks and random playouts for every variant."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, ClassVar

import sabacc
from sabacc.engine.game import Game
from sabacc.variants.kessel.rules import KesselGame, KesselObservation
from sabacc.variants.registry import lookup, register, unregister


def check_credits(game: Game) -> None:
    """Credits are conserved and no stack is negative."""
    assert game.total_credits() == game.n * game.options.starting_stack
    assert all(s >= 0 for s in game.stacks), game.stacks


def check_cards(game: Game) -> None:
    """Every card of the deck is somewhere, exactly once (during a hand)."""
    if game.is_over:
        return
    cards = game.card_locations()
    deck = game.deck
    assert len(cards) == len(deck), (len(cards), len(deck))
    assert len({c.id for c in cards}) == len(deck)


def hidden_codes(game: Game, owner: int) -> set[str]:
    """Codes of ``owner``'s cards that nobody else may see (unique codes only)."""
    deck = game.deck
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


# --------------------------------------------------------------------------------------------
# Scripting helpers for Spike-like games (draw pile, discard pile, muck).
# --------------------------------------------------------------------------------------------


def _candidates(game: Game, token: str) -> list[Any]:
    """The deck cards a token may stand for: an exact code, else every card of its value."""
    deck = type(game).info.deck
    exact = [c for c in deck.cards if c.code == token]
    if exact:
        return exact
    value = deck.parse_value(token)
    return [c for c in deck.cards if c.value == value]


def arrange(
    game: Game,
    hands: Mapping[int, str | list[str]] | None = None,
    draw: str | list[str] | None = None,
    discard: str | list[str] | None = None,
    *,
    rest: str = "draw",
) -> None:
    """Rearrange the cards of a live Spike-like game, keeping all cards exactly once.

    ``hands`` maps seats to their new hands (card notation; value-only tokens pick any free
    copy). ``draw`` lists the top of the draw pile, first card drawn first. ``discard`` lists the
    discard pile bottom to top (the last card is the top); when omitted the current top stays
    if it is free. Every other card goes to the ``rest`` pile (``"draw"``: under the given draw
    cards; ``"discard"``: under the given discard cards). The muck is emptied into ``rest``.
    Seats not in ``hands`` keep their cards, except a card asked for elsewhere, which is replaced
    by a free one. Fails (AssertionError) if a card is asked for twice.
    """
    hands = dict(hands or {})

    def tokens(x: str | list[str] | None) -> list[str]:
        if x is None:
            return []
        return x.replace(",", " ").split() if isinstance(x, str) else list(x)

    want_hands = {s: tokens(h) for s, h in hands.items()}
    want_draw = tokens(draw)
    want_discard = tokens(discard)
    kept = {s: list(game.hands[s]) for s in range(game.n) if s not in want_hands}
    kept_ids = {c.id for h in kept.values() for c in h}
    used: set[int] = set()

    def pick(token: str) -> Any:
        cands = [c for c in _candidates(game, token) if c.id not in used]
        assert cands, f"no free card for {token!r}"
        free = [c for c in cands if c.id not in kept_ids]
        card = (free or cands)[0]
        used.add(card.id)
        return card

    new_hands = {s: [pick(t) for t in toks] for s, toks in want_hands.items()}
    new_draw_top = [pick(t) for t in want_draw]
    new_discard = [pick(t) for t in want_discard]
    if discard is None:
        top = game.discard[-1] if game.discard else None  # type: ignore[attr-defined]
        if top is not None and top.id not in used and top.id not in kept_ids:
            used.add(top.id)
            new_discard = [top]
    # Order of the remaining cards: the current draw pile from the top, then the rest.
    current = (
        list(reversed(game.draw))  # type: ignore[attr-defined]
        + list(reversed(game.discard))  # type: ignore[attr-defined]
        + list(game.muck)  # type: ignore[attr-defined]
        + [c for s in range(game.n) for c in game.hands[s]]
    )
    pool = [c for c in current if c.id not in used]
    # Unlisted seats: replace any card that was asked for elsewhere.
    for h in kept.values():
        for i, c in enumerate(h):
            if c.id in used:
                replacement = next(x for x in pool if x.id not in kept_ids)
                pool.remove(replacement)
                h[i] = replacement
        used.update(c.id for c in h)
    pool = [c for c in pool if c.id not in used]
    for s, h in kept.items():
        new_hands[s] = h
    if not new_discard and rest != "discard":
        new_discard = [pool.pop()]
    if rest == "draw":
        draw_top_first = new_draw_top + pool
    else:
        draw_top_first = new_draw_top
        new_discard = list(reversed(pool)) + new_discard
    for s in range(game.n):
        game.hands[s] = new_hands[s]
        ids = {c.id for c in new_hands[s]}
        game.public_ids[s] = {i for i in game.public_ids[s] if i in ids}
    game.draw = list(reversed(draw_top_first))  # type: ignore[attr-defined]
    game.discard = new_discard  # type: ignore[attr-defined]
    game.muck = []  # type: ignore[attr-defined]
    game._legal = None
    check_cards(game)


def force_dice(game: Game, shift: bool) -> None:
    """Reseed ``game.rng`` so that the next two dice (``randrange(6)`` each) are doubles or not.

    Call it just before the action that ends a betting phase (nothing else draws on the RNG
    between that action and the dice).
    """
    for seed in range(10_000):
        r = random.Random(seed)
        if (r.randrange(6) == r.randrange(6)) == shift:
            game.rng.seed(seed)
            return
    raise AssertionError("no seed found")  # pragma: no cover


def do(game: Game, *moves: str) -> list[Any]:
    """Apply moves written ``"<seat> <action>"`` (the seat must be the current player)."""
    out: list[Any] = []
    for move in moves:
        seat, action = move.split(" ", 1)
        assert game.current_player == int(seat), (move, game.current_player, game.phase)
        out.extend(game.apply(action, seat=int(seat)))
    return out


def passive(game: Game, *, shift: bool | None = False, hands: int | None = None) -> None:
    """Stand and check (or call) until the current hand ends (or the game is over).

    ``shift`` forces every Spike phase on the way to be a Sabacc Shift (True) or not (False);
    None leaves the dice alone.
    """
    start = game.hand_no
    while not game.is_over and game.hand_no == start:
        if shift is not None and game.phase == "betting":
            force_dice(game, shift)
        legal = [str(a) for a in game.legal_actions()]
        for choice in ("stand", "check", "call"):
            if choice in legal:
                game.apply(choice)
                break
        else:  # pragma: no cover - stand/check/call is always legal in Spike
            raise AssertionError(legal)


def to_phase(game: Game, phase: str, *, shift: bool | None = False) -> None:
    """Stand/check/call until ``game.phase == phase`` (within the current hand)."""
    start = game.hand_no
    while game.phase != phase:
        assert not game.is_over and game.hand_no == start, "phase not reached"
        if shift is not None and game.phase == "betting":
            force_dice(game, shift)
        legal = [str(a) for a in game.legal_actions()]
        for choice in ("stand", "check", "call"):
            if choice in legal:
                game.apply(choice)
                break


def set_stacks(game: Game, stacks: list[int]) -> int:
    """Set the stacks directly (for side-pot scenarios); returns the new credit total."""
    assert len(stacks) == game.n and all(s >= 0 for s in stacks)
    game.stacks[:] = stacks
    game._legal = None
    return game.total_credits()


def choose_small(rng: random.Random, game: Game) -> sabacc.Action:
    """A random legal action with small bets (games last several hands; no big enumeration)."""
    legal = game.legal()
    options: list[sabacc.Action] = list(legal.fixed)
    if legal.bet is not None:
        lo, hi = legal.bet
        options.append(sabacc.Bet(rng.randint(lo, min(hi, lo + 2))))
    if legal.raise_ is not None:
        lo, hi = legal.raise_
        options.append(sabacc.Raise(rng.randint(lo, min(hi, lo + 2))))
    passive_moves = [a for a in options if isinstance(a, sabacc.Check | sabacc.Call)]
    if passive_moves and rng.random() < 0.5:
        return passive_moves[0]
    return rng.choice(options)


def check_private(game: Game, since: int | None = None) -> None:
    """No seat (nor a spectator) is shown another seat's hidden cards.

    Observations must not contain another seat's hidden card codes (``last_hand``, the previous
    hand's showdown, is public and excluded), and every private event field must be blanked
    for other viewers. (``check_no_leak`` also scans ``last_hand`` and older events, where a card
    shown earlier may legitimately have the code of a card now hidden in a hand.)
    """
    if game.is_over:
        return
    if since is None:  # the current hand's events
        since = max((i for i, e in enumerate(game.events) if e.type == "hand_started"), default=0)
    viewers: list[int | None] = [*range(game.n), None]
    deck = game.deck
    counts = Counter(c.code for c in deck.cards)
    # Cards a seat saw go to another seat (Surabat's Moon pile): ``seen[viewer]`` card ids.
    seen: list[set[int]] | None = getattr(game, "seen", None)
    for viewer in viewers:
        obs: dict[str, Any] = dict(game.observation(viewer))
        obs.pop("last_hand", None)
        text = json.dumps(obs)
        known = seen[viewer] if seen is not None and viewer is not None else set()
        for owner in range(game.n):
            if owner == viewer:
                continue
            for c in game.hands[owner]:
                if c.id in game.public_ids[owner] or c.id in known or counts[c.code] > 1:
                    continue
                assert f'"{c.code}"' not in text, (viewer, owner, c.code)
        for e in game.events_for(viewer, since):
            actor = getattr(e, "seat", None)
            if actor == viewer or getattr(e, "shown", False):
                continue
            for name in type(e).private:
                assert getattr(e, name) is None, (viewer, e)


def ids(cards: list[sabacc.Card]) -> list[int]:
    return [c.id for c in cards]


def spike_state(g: Any) -> dict[str, Any]:
    """Everything both Corellian Spike engines (reference and compiled) expose about a state,
    for exact comparison."""
    return {
        "current_player": g.current_player,
        "to_act": g.to_act,
        "is_over": g.is_over,
        "phase": g.phase,
        "hand_no": g.hand_no,
        "dealer": g.dealer,
        "orbit_steps": g.orbit_steps,
        "round": g.round,
        "stacks": list(g.stacks),
        "committed": list(g.committed),
        "round_bet": list(g.round_bet),
        "acted": list(g.acted),
        "in_hand": list(g.in_hand),
        "folded": list(g.folded),
        "out": list(g.out),
        "hand_start_stacks": list(g.hand_start_stacks),
        "cur_bet": g.cur_bet,
        "raises": g.raises,
        "dead": g.dead,
        "sabacc_pot": g.sabacc_pot,
        "carry": g.carry,
        "house": g.house,
        "last_dice": g.last_dice,
        "hands": [ids(h) for h in g.hands],
        "public_ids": [sorted(p) for p in g.public_ids],
        "draw": ids(g.draw),
        "discard": ids(g.discard),
        "muck": ids(g.muck),
        "last_action": list(g.last_action),
        "pots": g.pots(),
        "pot_total": g.pot_total(),
        "total_credits": g.total_credits(),
        "payoffs": g.payoffs,
        "actions": list(g.actions),
        "legal": g.legal(),
        "legal_actions": g.legal_actions(),
    }


class CorelessObservation(KesselObservation):
    """The stand-in variant's own observation type (Kessel's: a record's type is its own)."""


class CorelessGame(KesselGame):
    """The stand-in variant's game: Kessel's, with its own record and observation type."""

    observation_type: ClassVar[type] = CorelessObservation


@contextmanager
def variant_without_core() -> Iterator[str]:
    """A registered stand-in variant with no compiled core (Kessel's rules under another name
    and title, ``compiled=None``), for the refusals of ``engine="compiled"``: every built-in
    variant has a core. Unregistered on exit."""
    kessel = lookup("kessel")
    info = replace(
        kessel,
        name="coreless_test",
        aliases=(),
        title="Coreless Test",
        game_type=CorelessGame,
        compiled=None,
        rl_spec=replace(kessel.rl_spec, env_name="coreless") if kessel.rl_spec else None,
    )
    CorelessGame.info = info
    register(info)
    try:
        yield info.name
    finally:
        unregister(info.name)
