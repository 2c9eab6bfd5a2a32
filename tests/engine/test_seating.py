"""Seats and stacks that change between hands, and saved games, on every registered variant.

A game starts from given stacks, seats join and leave and players rebuy between hands
(engine/seating.py); chips and cards are conserved, the history replays exactly, a saved game
(engine/saved.py) restores to one that goes on identically, mid-hand or between hands, and no
observation shows another seat's hidden cards. The compiled cores play a custom table too
(in lockstep with the reference: tests/variants/test_custom_table_lockstep.py).
"""

from __future__ import annotations

import copy
import json
import os
import random
from typing import Any, cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sabacc
from sabacc.core import events as ev
from sabacc.core.errors import IllegalActionError, OptionError, SaveError
from sabacc.engine.game import Game
from sabacc.engine.seating import BETWEEN_HANDS
from sabacc.variants import compiled
from sabacc.variants.kessel.rules import KesselGame
from sabacc.variants.registry import lookup
from tests.support import check_cards, check_private, choose_small

VARIANTS = sabacc.variant_names()
EXAMPLES = int(os.environ.get("SABACC_PROP_EXAMPLES", "12"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
#: Actions and table operations per random game (enough for several hands of every variant).
STEPS = 300


def start(variant: str) -> int:
    return int(lookup(variant).options_type.from_mapping({}).starting_stack)


def new(variant: str, players: int, seed: int, **setup: Any) -> Game:
    game = sabacc.new_game(variant, players=players, seed=seed, **setup)
    assert isinstance(game, Game)
    return game


def state(game: Game) -> dict[str, Any]:
    """Everything observable about a state, the RNG and the table's bookkeeping included (a
    deep copy: ``full_state`` may hand out the game's own lists)."""
    return copy.deepcopy(
        {
            "full": game.full_state(),
            "stacks": list(game.stacks),
            "payoffs": list(game.payoffs),
            "names": list(game.names),
            "actions": list(game.actions),
            "legal": [str(a) for a in game.legal_actions()],
            "rng": game.rng.getstate(),
            "history": game.history(),
            "pending": game.pending_changes,
            "vacant": game.vacant,
            "credits": game.credits_at_table(),
        }
    )


def conserved(game: Game) -> None:
    assert game.total_credits() == game.credits_at_table()
    assert all(s >= 0 for s in game.stacks)
    check_cards(game)


def table_step(game: Game, rng: random.Random) -> None:
    """One random table operation (some of them refused: then nothing may change)."""
    before = state(game)
    unit = max(1, start(game.variant) // 4)
    op = rng.randrange(3)
    try:
        if op == 0:
            game.join(f"Late {len(game.table_log)}", rng.randint(1, 4 * unit))
        elif op == 1:
            game.leave(rng.randrange(game.n + 1))
        else:
            reason = rng.choice(("rebuy", "add_on", "top_up"))
            game.rebuy(rng.randrange(game.n + 1), rng.randint(1, 4 * unit), reason)
    except IllegalActionError:
        assert state(game) == before, "a refused table operation changed the game"


def step(game: Game, rng: random.Random) -> None:
    """The driver: a table operation now and then, a deal when paused, else a random action."""
    if rng.random() < 0.06:
        table_step(game, rng)
    elif game.phase == BETWEEN_HANDS:
        game.deal()
    else:
        game.apply(choose_small(rng, game))


def drive(game: Game, rng: random.Random, steps: int, check: bool = False) -> None:
    for _ in range(steps):
        if game.is_over:
            return
        step(game, rng)
        if check:
            conserved(game)


@st.composite
def tables(draw: st.DrawFn, variant: str) -> tuple[int, int, list[int], bool, int]:
    base = start(variant)
    players = draw(st.integers(2, 4))
    stacks = draw(st.lists(st.integers(1, 3 * base), min_size=players, max_size=players))
    stacks[0] = max(stacks[0], base)  # somebody can ante
    stacks[1] = max(stacks[1], base)
    return (
        players,
        draw(st.integers(0, 2**32)),
        stacks,
        draw(st.booleans()),
        draw(st.integers(0, 999)),
    )


# ---------------------------------------------------------------------------- properties
@pytest.mark.parametrize("variant", VARIANTS)
@SETTINGS
@given(data=st.data())
def test_chips_and_cards_are_conserved_and_the_history_replays(
    variant: str, data: st.DataObject
) -> None:
    players, seed, stacks, pause, play = data.draw(tables(variant))
    game = new(variant, players, seed, stacks=stacks, pause_between_hands=pause)
    assert game.stacks == stacks or game.hand_no == 1  # antes may be paid already
    conserved(game)
    rng = random.Random(play)
    hands = 0
    for _ in range(STEPS):
        if game.is_over:
            break
        step(game, rng)
        conserved(game)
        if game.hand_no != hands:  # each new hand: nobody sees another seat's cards
            hands = game.hand_no
            check_private(game)
    history = json.loads(json.dumps(game.history()))
    again = sabacc.replay(history)
    assert state(again) == state(game)
    if game.is_over:
        outcome = game.outcome
        assert outcome is not None and list(outcome.payoffs) == game.payoffs
        joins = [e for e in game.table_log if e["op"] == "join"]
        if len(joins) == game.n - players:  # no seat taken again: every player has a payoff
            assert sum(game.payoffs) == -game.house  # what the house kept is the table's loss


@pytest.mark.parametrize("variant", VARIANTS)
@settings(SETTINGS, max_examples=max(1, EXAMPLES // 2))
@given(data=st.data())
def test_a_partial_replay_stops_right_after_its_last_action(
    variant: str, data: st.DataObject
) -> None:
    players, seed, stacks, pause, play = data.draw(tables(variant))
    game = new(variant, players, seed, stacks=stacks, pause_between_hands=pause)
    rng = random.Random(play)
    after: dict[int, dict[str, Any]] = {0: state(game)}
    for _ in range(STEPS // 2):
        if game.is_over:
            break
        count = game.action_count
        step(game, rng)
        if game.action_count > count:  # the state right after an action, before any request
            after[game.action_count] = state(game)
    history = game.history()
    total = game.action_count
    picks = data.draw(st.lists(st.sampled_from(sorted(after)), min_size=1, max_size=4))
    for upto in picks:
        if upto < total:
            assert state(sabacc.replay(history, upto=upto)) == after[upto]
    assert state(sabacc.replay(history, upto=total)) == state(game)


@pytest.mark.parametrize("variant", VARIANTS)
@SETTINGS
@given(data=st.data(), at=st.integers(0, STEPS))
def test_a_restored_game_goes_on_exactly_as_the_original(
    variant: str, data: st.DataObject, at: int
) -> None:
    players, seed, stacks, pause, play = data.draw(tables(variant))
    custom = data.draw(st.booleans())
    setup: dict[str, Any] = {"stacks": stacks, "pause_between_hands": pause} if custom else {}
    game = new(variant, players, seed, **setup)
    rng = random.Random(play)
    drive(game, rng, at)
    doc = json.loads(json.dumps(game.save()))  # plain JSON, both ways
    restored = type(game).restore(doc)
    assert state(restored) == state(game)
    assert restored.save() == doc
    twin = random.Random()
    twin.setstate(rng.getstate())
    for _ in range(STEPS):
        if game.is_over:
            break
        step(game, rng)
        step(restored, twin)
    assert state(restored) == state(game)


@pytest.mark.parametrize("variant", [v for v in VARIANTS if compiled.available(v)])
@SETTINGS
@given(seed=st.integers(0, 2**32), play=st.integers(0, 999), at=st.integers(0, 150))
def test_a_compiled_game_saves_and_restores_on_both_engines(
    variant: str, seed: int, play: int, at: int
) -> None:
    core = sabacc.new_game(variant, players=3, seed=seed, engine="compiled")
    rng = random.Random(play)
    for _ in range(at):
        if core.is_over:
            break
        core.apply(choose_small(rng, cast(Game, core)))  # the same legal() on both engines
    doc = json.loads(json.dumps(sabacc.save(core)))
    again = sabacc.restore(doc, engine="compiled")
    assert type(again) is type(core)
    reference = sabacc.restore(doc)
    assert reference.history() == core.history()
    twin = random.Random()
    twin.setstate(rng.getstate())
    third = random.Random()
    third.setstate(rng.getstate())
    for _ in range(150):
        if core.is_over:
            break
        core.apply(choose_small(rng, cast(Game, core)))
        again.apply(choose_small(twin, cast(Game, again)))
        reference.apply(choose_small(third, reference))
    assert again.history() == core.history() == reference.history()
    assert again.stacks == core.stacks == reference.stacks


# ---------------------------------------------------------------------------- examples
class TestSetup:
    def test_unequal_stacks_and_their_payoffs(self) -> None:
        game = new("spike", 3, 7, stacks=[100, 250, 80])
        ante = game.options.ante + game.options.sabacc_ante
        assert game.stacks == [100 - ante, 250 - ante, 80 - ante]
        assert game.credits_at_table() == game.total_credits() == 430
        assert game.payoffs == [-ante, -ante, -ante]
        history = game.history()
        assert history["setup"] == {"stacks": [100, 250, 80]}
        assert "table" not in history

    def test_a_plain_game_writes_no_setup(self) -> None:
        history = new("spike", 3, 7).history()
        assert "setup" not in history and "table" not in history
        assert not new("spike", 3, 7).custom_table

    @pytest.mark.parametrize(
        "stacks", [[100, 200], [100, 0, 50], [100, True, 50], [100, 2.5, 50], "100", 100]
    )
    def test_bad_stacks_are_refused(self, stacks: Any) -> None:
        with pytest.raises(OptionError, match="stacks="):
            new("spike", 3, 7, stacks=stacks)

    def test_stacks_that_cannot_ante_are_refused(self) -> None:
        with pytest.raises(OptionError, match="cannot cover the antes"):
            new("spike", 2, 7, stacks=[1, 1], ante=2)

    @pytest.mark.parametrize("variant", VARIANTS)
    def test_every_variant_takes_stacks(self, variant: str) -> None:
        base = start(variant)
        game = new(variant, 3, 5, stacks=[base, 2 * base, base + 3])
        assert game.total_credits() == 4 * base + 3 == game.credits_at_table()
        assert sabacc.replay(game.history()).stacks == game.stacks


class TestTableChanges:
    def test_a_join_takes_effect_when_the_hand_ends(self) -> None:
        game = new("spike", 2, 3)
        seat = game.join("Dana", 150)
        assert seat == 2 and game.n == 2
        assert game.pending_changes == [{"op": "join", "seat": 2, "name": "Dana", "stack": 150}]
        hand = game.hand_no
        rng = random.Random(1)
        events: list[ev.Event] = []
        while game.hand_no == hand:
            events += game.apply(choose_small(rng, game))
        kinds = [type(e) for e in events]
        joined = kinds.index(ev.SeatJoined)
        assert kinds.index(ev.HandEnded) < joined < kinds.index(ev.HandStarted)
        assert game.n == 3 and game.names[2] == "Dana" and game.pending_changes == []
        assert game.in_hand[2]  # dealt into the new hand
        assert game.observation(2)["seats"][2]["name"] == "Dana"
        conserved(game)

    def test_leave_takes_the_stack_and_the_seat_is_taken_again(self) -> None:
        game = new("spike", 3, 4, pause_between_hands=True, game_end="last_standing")
        rng = random.Random(2)
        while game.phase != BETWEEN_HANDS:
            game.apply(choose_small(rng, game))
        assert game.current_player is None and not game.is_over
        with pytest.raises(IllegalActionError, match="deal"):
            game.apply("stand")
        stack = game.stacks[1]
        game.leave(1)
        with pytest.raises(IllegalActionError, match="leaving"):
            game.rebuy(1, 5)
        events = game.deal()
        assert ev.SeatLeft(1, "Player 2", stack) in events
        assert game.vacant == [False, True, False] and game.stacks[1] == 0
        assert not game.in_hand[1]
        assert game.payoffs[1] == stack - game.options.starting_stack
        while game.phase != BETWEEN_HANDS:
            game.apply(choose_small(rng, game))
        assert game.join("Eve", 40) == 1  # the empty seat first
        game.deal()
        assert game.names[1] == "Eve" and game.payoffs[1] == -game.options.ante - 1
        conserved(game)
        assert state(sabacc.replay(game.history())) == state(game)

    @staticmethod
    def busted(seed: int) -> tuple[Game, int]:
        """A heads-up game paused after the hand that left a seat unable to ante."""
        game = new(
            "spike", 2, seed, stacks=[60, 3], pause_between_hands=True, game_end="last_standing"
        )
        rng = random.Random(seed)
        while True:
            while game.phase != BETWEEN_HANDS:
                game.apply(choose_small(rng, game))
            short = min(range(2), key=lambda s: game.stacks[s])
            if game.stacks[short] < 2:
                return game, short
            game.deal()

    def test_a_rebuy_keeps_a_busted_player_in_the_game(self) -> None:
        game, short = self.busted(9)
        game.rebuy(short, 50)
        events = game.deal()
        assert ev.ChipsAdded(short, 50, "rebuy") in events
        assert not game.is_over and not game.out[short] and game.in_hand[short]
        assert game.credits_at_table() == 113 == game.total_credits()
        assert state(sabacc.replay(game.history())) == state(game)

    def test_without_a_rebuy_the_heads_up_game_ends_at_the_deal(self) -> None:
        game, _short = self.busted(9)
        game.deal()
        assert game.is_over
        with pytest.raises(IllegalActionError, match="closed"):
            game.join("Late", 10)

    def test_when_everyone_leaves_the_pots_left_go_to_the_house(self) -> None:
        for seed in range(50):
            game = new("spike", 2, seed, pause_between_hands=True)
            rng = random.Random(seed)
            while game.phase != BETWEEN_HANDS:
                game.apply(choose_small(rng, game))
            if game.sabacc_pot:
                break
        left = game.sabacc_pot + game.carry
        assert left
        game.leave(0)
        game.leave(1)
        events = game.deal()
        assert game.is_over and game.house == left and game.stacks == [0, 0]
        assert ev.PotCarried("house", left) in events
        assert game.total_credits() == game.credits_at_table() == left
        assert sum(game.payoffs) == -left

    def test_refusals(self) -> None:
        game = new("kessel", 6, 1)
        with pytest.raises(IllegalActionError, match="full"):
            game.join("Seventh", 8)
        with pytest.raises(IllegalActionError, match="reason"):
            game.rebuy(0, 5, "gift")
        with pytest.raises(IllegalActionError, match="whole number"):
            game.rebuy(0, 2.5)  # type: ignore[arg-type]
        with pytest.raises(IllegalActionError, match="no seat"):
            game.leave(6)
        with pytest.raises(IllegalActionError, match="in play"):
            game.deal()
        game.leave(2)
        with pytest.raises(IllegalActionError, match="is leaving"):
            game.leave(2)
        with pytest.raises(IllegalActionError, match="not free"):
            game.join("Late", 8, seat=2)  # not empty before the hand ends
        assert game.table_log == [{"at": 0, "op": "leave", "seat": 2}]

    def test_a_kessel_newcomer_gets_shift_tokens(self) -> None:
        game = new("kessel", 2, 3, pause_between_hands=True)
        rng = random.Random(3)
        while game.phase != BETWEEN_HANDS:
            game.apply(choose_small(rng, game))
        game.join("Dana", 6)
        game.deal()
        assert isinstance(game, KesselGame)
        assert len(game.tokens_left) == 3 and game.tokens_used[2] == []
        assert len(game.tokens_left[2]) == len(game.tokens_left[0]) + len(game.tokens_used[0])


class TestEngines:
    @pytest.mark.parametrize("variant", [v for v in VARIANTS if compiled.available(v)])
    def test_the_compiled_engine_plays_a_custom_table(self, variant: str) -> None:
        """(tests/variants/test_custom_table_lockstep.py plays both engines in lockstep.)"""
        core = sabacc.new_game(variant, players=2, engine="compiled", stacks=[50, 60])
        assert not isinstance(core, Game) and core.custom_table
        assert compiled.resolve_engine("auto", variant) == "compiled"
        game = new(variant, 2, 1)
        game.join("Late", start(variant))
        again = sabacc.replay(game.history(), engine="compiled")
        assert again.pending_changes == game.pending_changes
        restored = sabacc.restore(game.save(), engine="auto")
        assert not isinstance(restored, Game) and restored.pending_changes == game.pending_changes

    def test_a_bad_save_is_refused(self) -> None:
        doc = new("spike", 2, 1).save()
        with pytest.raises(SaveError, match="not Kessel"):
            lookup("kessel").game_type.restore(doc)
        with pytest.raises(SaveError, match="version"):
            sabacc.restore({**doc, "version": 99})
        with pytest.raises(SaveError, match="no 'Popen'"):
            state = dict(doc["state"])
            state["names"] = {"object": "Popen", "fields": {}}
            sabacc.restore({**doc, "state": state})
