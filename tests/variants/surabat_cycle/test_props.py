"""Surabat Cycle properties: random playouts over seeds, 2-8 players and options.

After every action: credits conserved, the 62 cards each in exactly one place, and every seat's
observation equal to what an independent event-driven *knowledge oracle* says that seat may know
(per-viewer, because a Moon card is known to the seat that put it there). Also termination,
determinism, replay, clone independence, determinization and illegal actions.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any, cast

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sabacc
from sabacc.core.events import (
    Acted,
    BlindDraw,
    CardDiscarded,
    CardTaken,
    Dealt,
    Event,
    Flipped,
    HandStarted,
    Revealed,
)
from sabacc.variants.corellian_spike.rules import SPIKE_DECK
from sabacc.variants.surabat_cycle.rules import MoonPlaced, SurabatGame
from tests.support import check_cards, check_credits, snapshot

CODE = re.compile(r'"([+-]\d{1,2}[cst])"')  # every card code but the Sylop's
assert {c.code for c in SPIKE_DECK.cards if c.code != "0"} == set(
    CODE.findall(json.dumps([c.code for c in SPIKE_DECK.cards]))
)

options_st = st.fixed_dictionaries(
    {"game_end": st.sampled_from(["hands:1", "hands:2", "hands:3"])},
    optional={
        "hand_cap": st.integers(2, 8),
        "rounds": st.none() | st.integers(1, 6),
        "betting": st.sampled_from(["no_limit", "pot_limit", "fixed"]),
        "min_bet": st.none() | st.integers(1, 20),
        "max_raises": st.none() | st.integers(0, 3),
        "gain_fee": st.integers(0, 3),
        "swap_fee": st.integers(0, 3),
        "true_tie": st.sampled_from(["blind_draw", "split"]),
        "ante": st.integers(1, 10),
        "sabacc_ante": st.integers(0, 10),
        "buy_in": st.integers(20, 600),
        "final_pot": st.sampled_from(["split", "house"]),
    },
)


def choose(rng: random.Random, game: sabacc.Game) -> sabacc.Action:
    """A random legal action: any card action; mostly check/call with small bets in betting,
    so that hands go the distance (Moon swaps, restocks, reshuffles, several hands)."""
    legal = game.legal_actions()
    if game.phase == "betting":
        r = rng.random()
        passive = [a for a in legal if isinstance(a, sabacc.Check | sabacc.Call)]
        if r < 0.85 and passive:
            return passive[0]
        if r < 0.97:
            sized = [a for a in legal if isinstance(a, sabacc.Bet | sabacc.Raise)]
            if sized:
                return sized[min(len(sized) - 1, int(rng.expovariate(0.5)))]
    return rng.choice(legal)


class Oracle:
    """What each viewer may know in the current hand, rebuilt from the full event log.

    Written independently of the engine's bookkeeping: it only reads events. ``known[v][s]`` is
    the multiset of codes viewer ``v`` (a seat, or None) knows to be in seat ``s``'s hand;
    ``moon`` the Moon pile as (code, placer); ``shown[v]`` every code ``v`` saw this hand.
    """

    def __init__(self, game: SurabatGame) -> None:
        self.game = game
        self.n = game.n
        self.viewers: list[int | None] = [*range(game.n), None]
        self.pos = 0
        self.hand_start = 0
        self._reset()

    def _reset(self) -> None:
        self.known: dict[int | None, list[Counter[str]]] = {
            v: [Counter() for _ in range(self.n)] for v in self.viewers
        }
        self.moon: list[tuple[str, int | None]] = []
        self.shown: dict[int | None, set[str]] = {v: set() for v in self.viewers}

    def _show_all(self, code: str) -> None:
        for v in self.viewers:
            self.shown[v].add(code)

    def update(self) -> None:
        events = self.game.events
        while self.pos < len(events):
            self.feed(events[self.pos])
            self.pos += 1

    def feed(self, e: Event) -> None:
        if isinstance(e, HandStarted):
            self._reset()
            self.hand_start = self.pos
        elif isinstance(e, Dealt):
            assert e.cards is not None
            self.shown[e.seat].update(e.cards)
        elif isinstance(e, Flipped):
            assert e.pile == "sun"
            self._show_all(e.card)
        elif isinstance(e, CardTaken):
            assert e.card is not None
            s = e.seat
            if e.source == "sun":
                assert e.shown
                self._show_all(e.card)
                for v in self.viewers:
                    if v != s:
                        self.known[v][s][e.card] += 1
            else:
                assert e.source == "moon" and not e.shown
                code, placer = self.moon.pop()
                assert code == e.card
                self.shown[s].add(code)
                for v in self.viewers:
                    if v != s:
                        self.known[v][s] = Counter()
                if placer is not None and placer != s:
                    self.known[placer][s][code] += 1
        elif isinstance(e, MoonPlaced):
            assert e.card is not None
            self.moon.append((e.card, e.seat))
            if e.seat is not None:
                self.shown[e.seat].add(e.card)
        elif isinstance(e, CardDiscarded):
            self._show_all(e.card)
            for v in self.viewers:
                if v != e.seat and self.known[v][e.seat][e.card] > 0:
                    self.known[v][e.seat][e.card] -= 1
        elif isinstance(e, Acted) and e.public == "junk":
            for v in self.viewers:
                self.known[v][e.seat] = Counter()
        elif isinstance(e, Revealed):
            for code in e.cards:
                self._show_all(code)
        elif isinstance(e, BlindDraw):
            self._show_all(e.card)

    def check(self) -> None:
        """Every observation and new event shows exactly what the oracle allows."""
        game = self.game
        start = self.pos
        self.update()
        if game.is_over:
            return
        assert [c for c, _ in self.moon] == [c.code for c in game.moon]
        fresh = game.events[max(start, self.hand_start) :]
        for v in self.viewers:
            obs = game.observation(v)
            for s in range(self.n):
                if s == v:
                    continue
                got = Counter(obs["seats"][s]["known_cards"])
                assert got == +self.known[v][s], (v, s, got, self.known[v][s])
            want_moon = [code if p is not None and p == v else None for code, p in self.moon]
            assert obs["moon_known"] == want_moon, (v, obs["moon_known"], want_moon)
            cast(dict[str, Any], obs).pop("last_hand")  # the previous hand's showdown, public
            text = json.dumps(obs) + json.dumps([e.visible_to(v).to_dict() for e in fresh])
            leaked = set(CODE.findall(text)) - self.shown[v]
            assert not leaked, (v, leaked)


def run(seed: int, players: int, options: dict[str, Any], *, oracle: bool = True) -> SurabatGame:
    game = sabacc.new_game("surabat", players=players, seed=seed, **options)
    assert isinstance(game, SurabatGame)
    rng = random.Random(seed)
    orc = Oracle(game)
    if oracle:
        orc.check()
    count = 0
    while not game.is_over:
        game.apply(choose(rng, game))
        count += 1
        check_credits(game)
        check_cards(game)
        if oracle:
            orc.check()
        assert count < 20_000, "game did not terminate"
    assert sum(game.payoffs) + game.house == 0
    return game


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 8), options=options_st)
def test_playout_invariants(seed: int, players: int, options: dict[str, Any]) -> None:
    game = run(seed, players, options)
    assert game.is_over and game.outcome is not None


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 8))
def test_full_games_terminate(seed: int, players: int) -> None:
    """Default options (a full orbit of the dealer button, or until one player is left)."""
    game = run(seed, players, {}, oracle=False)
    assert game.hand_no <= players


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 8), options=options_st)
def test_determinism_and_replay(seed: int, players: int, options: dict[str, Any]) -> None:
    first = run(seed, players, options, oracle=False)
    # The same seed and choices under a disturbed global RNG give the same game.
    game = sabacc.new_game("surabat", players=players, seed=seed, **options)
    rng = random.Random(seed)
    noise = random.Random(~seed)
    while not game.is_over:
        random.seed(noise.random())
        random.random()
        game.apply(choose(rng, game))
    assert game.history() == first.history()
    assert [e.to_dict() for e in game.events] == [e.to_dict() for e in first.events]
    again = sabacc.replay(json.loads(json.dumps(first.history())))
    assert again.full_state() == first.full_state()
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in first.events]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 8), options=options_st)
def test_replay_midgame(seed: int, players: int, options: dict[str, Any]) -> None:
    game = sabacc.new_game("surabat", players=players, seed=seed, **options)
    rng = random.Random(seed)
    while not game.is_over and len(game.actions) < 150:
        game.apply(choose(rng, game))
    again = sabacc.replay(game.history())
    assert again.full_state() == game.full_state()
    for v in [*range(players), None]:
        assert again.observation(v) == game.observation(v)


ACTION_TEXTS = [
    "stand",
    "gain",
    "check",
    "call",
    "junk",
    "call hand",
    "bet 0",
    "bet 5",
    "bet 100000",
    "raise 1",
    "raise 5",
    "swap draw +1",
    "swap discard -2",
    "frobnicate",
    "gain +11",
    "swap moon 11",
    "discard",
    *(f"gain {v:+d}" for v in range(-10, 11) if v),
    *(f"swap moon {v:+d}" for v in range(-10, 11) if v),
    *(f"discard {v:+d}" for v in range(-10, 11) if v),
    "gain 0",
    "swap moon 0",
    "discard 0",
]


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 8),
    options=options_st,
    picks=st.lists(st.sampled_from(ACTION_TEXTS), min_size=40, max_size=40),
)
def test_illegal_actions_change_nothing(
    seed: int, players: int, options: dict[str, Any], picks: list[str]
) -> None:
    game = sabacc.new_game("surabat", players=players, seed=seed, **options)
    rng = random.Random(seed)
    step = 0
    while not game.is_over and step < 400:
        if step % 10 == 0:
            text = picks[(step // 10) % len(picks)]
            legal = {str(a) for a in game.legal_actions()}
            before = snapshot(game)
            actor = game.current_player
            assert actor is not None
            try:
                parsed: str | None = str(sabacc.parse_action(text, "surabat"))
            except sabacc.IllegalActionError:
                parsed = None
            if parsed in legal:
                assert game.is_legal(text)
            else:
                assert not game.is_legal(text)
                try:
                    game.apply(text)
                except sabacc.IllegalActionError:
                    pass
                else:
                    raise AssertionError(f"{text!r} was accepted in {game.phase}")
                assert snapshot(game) == before
            other = (actor + 1) % players
            try:
                game.apply(next(iter(legal)), seat=other)
            except sabacc.IllegalActionError:
                pass
            else:
                raise AssertionError("an out-of-turn action was accepted")
            assert snapshot(game) == before
        game.apply(choose(rng, game))
        step += 1


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 8), options=options_st)
def test_clone_is_independent_and_faithful(
    seed: int, players: int, options: dict[str, Any]
) -> None:
    game = sabacc.new_game("surabat", players=players, seed=seed, **options)
    rng = random.Random(seed)
    while not game.is_over:
        if rng.random() < 0.05:
            before = snapshot(game)
            twin = game.clone()
            branch = random.Random(rng.random())
            moves = []
            for _ in range(30):
                if twin.is_over:
                    break
                action = choose(branch, twin)
                moves.append(action)
                twin.apply(action)
            assert snapshot(game) == before
            probe = game.clone()
            for action in moves:
                probe.apply(action)
            assert probe.full_state() == twin.full_state()
        game.apply(choose(rng, game))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 8), options=options_st)
def test_determinize_keeps_what_the_viewer_knows(
    seed: int, players: int, options: dict[str, Any]
) -> None:
    game = sabacc.new_game("surabat", players=players, seed=seed, **options)
    rng = random.Random(seed)
    while not game.is_over:
        if rng.random() < 0.1:
            viewer = rng.randrange(players)
            guess = game.determinize(viewer, random.Random(rng.random()))
            assert isinstance(guess, SurabatGame)
            check_cards(guess)
            assert guess.observation(viewer) == game.observation(viewer)
            assert guess.hands[viewer] == game.hands[viewer]
            # Playing on from the guess works and leaves the real game alone.
            before = snapshot(game)
            for _ in range(10):
                if guess.is_over:
                    break
                guess.apply(choose(rng, guess))
                check_cards(guess)
            assert snapshot(game) == before
        game.apply(choose(rng, game))
