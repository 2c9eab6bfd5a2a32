"""Custom tables on the compiled cores, in lockstep with the reference engine, every variant.

Given stacks, pauses between hands, joins, leaves and rebuys (engine/seating.py) play on the
compiled cores too (the kernel's ``_CoreBase`` holds the hand end and carries the changes out
through the reference engine's bookkeeping). Random sequences of actions and table operations
(legal and illegal) go to both engines: every answer, refusal message, observation, hand
result and history is the same, chips and cards are conserved, a refused operation changes
nothing, the history replays on both engines with the reference's events, and a saved game
restores on the compiled core going on as the original.
"""

from __future__ import annotations

import json
import os
import pickle
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sabacc
from sabacc.core.errors import IllegalActionError, OptionError
from sabacc.engine.game import Game
from sabacc.engine.seating import BETWEEN_HANDS
from sabacc.variants import compiled
from sabacc.variants.registry import lookup
from tests.support import choose_small

COMPILED = [v for v in sabacc.variant_names() if compiled.available(v)]
EXAMPLES = int(os.environ.get("SABACC_PROP_EXAMPLES", "12"))
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
STEPS = 250


def base(variant: str) -> int:
    return int(lookup(variant).options_type.from_mapping({}).starting_stack)


def view(game: Any) -> dict[str, Any]:
    """Everything both engines show of a state (every viewer's observation included)."""
    n = game.n
    return {
        "observations": [game.observation(s) for s in [None, *range(n)]],
        "names": list(game.names),
        "stacks": list(game.stacks),
        "out": list(game.out),
        "payoffs": list(game.payoffs),
        "phase": game.phase,
        "hand_no": game.hand_no,
        "dealer": game.dealer,
        "current_player": game.current_player,
        "over": game.is_over,
        "legal": [str(a) for a in game.legal_actions()],
        "results": [r.to_dict() for r in game.hand_results],
        "pending": game.pending_changes,
        "table": game.table_log,
        "vacant": game.vacant,
        "custom": game.custom_table,
        "credits": game.credits_at_table(),
        "total": game.total_credits(),
        "actions": list(game.actions),
    }


def outcome(call: Any, *args: Any, **kw: Any) -> tuple[str, Any]:
    """What ``call(*args, **kw)`` answered: ``("ok", value)`` or the refusal's type and
    message."""
    try:
        return "ok", call(*args, **kw)
    except (IllegalActionError, OptionError) as exc:
        return type(exc).__name__, str(exc)


def table_call(
    rng: random.Random, game: Any, unit: int
) -> tuple[str, tuple[Any, ...], dict[str, Any]]:
    """A random table operation, often an illegal one (bad seats, amounts, names, reasons)."""
    op = rng.randrange(5)
    seat: Any = rng.randrange(game.n)  # mostly a seat at the table, else anything
    if rng.random() < 0.3:
        seat = rng.choice([rng.randrange(-1, game.n + 2), None, "1", 1.0, True])
    amount: Any = rng.randint(1, 4 * unit)
    if rng.random() < 0.2:
        amount = rng.choice([0, -3, 2.5, "9", None])
    if op == 0:
        name = rng.choice([f"Late {rng.randrange(99)}"] * 4 + ["", "  ", 7])
        kw = {} if rng.random() < 0.5 else {"seat": seat}
        return "join", (name, amount), kw
    if op == 1:
        return "leave", (seat,), {}
    if op == 2:
        reason = rng.choice(["rebuy", "add_on", "top_up", "gift"])
        return "rebuy", (seat, amount, reason), {}
    if op == 3:
        return "deal", (), {}
    return "apply", ("stand",), {"seat": seat}  # often out of turn or between hands


def lockstep(
    variant: str, players: int, seed: int, setup: dict[str, Any], play: int
) -> tuple[Game, Any]:
    ref = sabacc.new_game(variant, players=players, seed=seed, **setup)
    core = sabacc.new_game(variant, players=players, seed=seed, engine="compiled", **setup)
    assert isinstance(ref, Game) and not isinstance(core, Game)
    assert view(core) == view(ref)
    rng = random.Random(play)
    unit = max(1, base(variant) // 4)
    deck = sorted(c.id for c in ref.card_locations())
    for _ in range(STEPS):
        if ref.is_over:
            break
        if rng.random() < 0.15:
            name, args, kw = table_call(rng, ref, unit)
            before = view(core)
            got_ref = outcome(getattr(ref, name), *args, **kw)
            got_core = outcome(getattr(core, name), *args, **kw)
            if name in ("deal", "apply"):  # events on one engine, None on the other
                got_ref = (got_ref[0], None) if got_ref[0] == "ok" else got_ref
            assert got_core == got_ref, (name, args, kw)
            if got_ref[0] != "ok":
                assert view(core) == before, "a refused operation changed the core"
        elif ref.phase == BETWEEN_HANDS:
            ref.deal()
            assert core.deal() is None
        else:
            action = choose_small(rng, ref)
            ref.apply(action)
            core.apply(str(action))
        assert view(core) == view(ref)
        if rng.random() < 0.05 and ref.current_player is not None:  # a search bot's world
            viewer, seed = ref.current_player, rng.randrange(2**32)
            world = view(core.determinize(viewer, random.Random(seed)))
            same = view(ref.determinize(viewer, random.Random(seed)))
            del world["actions"], same["actions"]  # (Kessel's core keeps its log there)
            assert world == same
        assert core.total_credits() == core.credits_at_table()
        assert all(s >= 0 for s in core.stacks)
        assert sorted(c.id for c in core.card_locations()) == deck
    return ref, core


@st.composite
def tables(draw: st.DrawFn, variant: str) -> tuple[int, int, dict[str, Any], int]:
    start = base(variant)
    players = draw(st.integers(2, 4))
    setup: dict[str, Any] = {}
    if draw(st.booleans()):
        stacks = draw(st.lists(st.integers(1, 3 * start), min_size=players, max_size=players))
        stacks[0] = max(stacks[0], start)  # somebody can ante
        stacks[1] = max(stacks[1], start)
        setup["stacks"] = stacks
    if draw(st.booleans()):
        setup["pause_between_hands"] = True
    if draw(st.booleans()):  # longer games: more hands, more table changes
        setup["game_end"] = "hands:12"
    return players, draw(st.integers(0, 2**32)), setup, draw(st.integers(0, 999))


@pytest.mark.parametrize("variant", COMPILED)
@SETTINGS
@given(data=st.data())
def test_both_engines_play_a_custom_table_alike(variant: str, data: st.DataObject) -> None:
    players, seed, setup, play = data.draw(tables(variant))
    ref, core = lockstep(variant, players, seed, setup, play)
    history = json.loads(json.dumps(core.history()))
    assert history == ref.history()
    again = sabacc.replay(history, engine="compiled")
    assert view(again) == view(core)
    assert sabacc.replay(history).events == ref.events  # the core's history: the same events
    copies = [core.clone(), pickle.loads(pickle.dumps(core))]
    for twin in copies:
        assert view(twin) == view(core)


@pytest.mark.parametrize("variant", COMPILED)
@settings(SETTINGS, max_examples=max(1, EXAMPLES // 2))
@given(data=st.data(), at=st.integers(0, STEPS))
def test_a_saved_custom_table_goes_on_on_the_compiled_core(
    variant: str, data: st.DataObject, at: int
) -> None:
    players, seed, setup, play = data.draw(tables(variant))
    ref = sabacc.new_game(variant, players=players, seed=seed, **setup)
    rng = random.Random(play)
    unit = max(1, base(variant) // 4)
    for _ in range(at):
        if ref.is_over:
            break
        if rng.random() < 0.1:
            name, args, kw = table_call(rng, ref, unit)
            outcome(getattr(ref, name), *args, **kw)
        elif ref.phase == BETWEEN_HANDS:
            ref.deal()
        else:
            ref.apply(choose_small(rng, ref))
    doc = json.loads(json.dumps(ref.save()))
    core = sabacc.restore(doc, engine="auto")
    assert not isinstance(core, Game)
    assert view(core) == view(ref)
    assert json.loads(json.dumps(sabacc.save(core))) == doc  # the RNG state included
    for _ in range(STEPS // 2):
        if ref.is_over:
            break
        if ref.phase == BETWEEN_HANDS:
            joined = outcome(ref.join, "Later", 3 * unit)  # until the table is full
            assert outcome(core.join, "Later", 3 * unit) == joined
            ref.deal()
            core.deal()
        else:
            action = choose_small(rng, ref)
            ref.apply(action)
            core.apply(str(action))
        assert view(core) == view(ref)


@pytest.mark.parametrize("variant", COMPILED)
def test_auto_picks_the_compiled_core_for_a_custom_table(variant: str) -> None:
    assert compiled.resolve_engine("auto", variant) == "compiled"
    core = sabacc.new_game(variant, players=2, seed=3, engine="compiled", stacks=[60, 90])
    ref = sabacc.new_game(variant, players=2, seed=3, stacks=[60, 90])
    assert view(core) == view(ref)
    for setup in (
        {"stacks": [60]},
        {"stacks": [60, 0]},
        {"stacks": "60 90"},
        {"pause_between_hands": 1},
    ):
        assert outcome(sabacc.new_game, variant, players=2, **setup) == outcome(
            sabacc.new_game, variant, players=2, engine="compiled", **setup
        )


@pytest.mark.parametrize("variant", COMPILED)
@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_an_empty_seat_says_so_until_someone_takes_it(variant: str, engine: str) -> None:
    """The observation marks an empty seat (``vacant``), on either engine, and no other."""
    game: Any = sabacc.new_game(variant, players=3, seed=5, engine=engine)  # type: ignore[call-overload]
    rng = random.Random(5)
    game.leave(1)
    hand = game.hand_no
    while game.hand_no == hand and not game.is_over:
        game.apply(str(choose_small(rng, game)))
    rows = game.observation(0)["seats"]
    assert [row.get("vacant", False) for row in rows] == [False, True, False]
    assert rows[1]["status"] == "out" and game.vacant == [False, True, False]
    if game.is_over:
        return
    assert game.join("Newcomer", base(variant)) == 1
    hand = game.hand_no
    while game.hand_no == hand and not game.is_over:
        game.apply(str(choose_small(rng, game)))
    assert not any("vacant" in row for row in game.observation(None)["seats"])
    assert game.names[1] == "Newcomer"


@pytest.mark.skipif(not compiled.available("kessel"), reason="the Kessel core is not built")
def test_a_kessel_search_world_ends_at_the_payout_at_a_custom_table() -> None:
    """A Kessel search world's rollouts end at the round's payout whether or not the table
    pauses or has seat changes pending: the same values as at a plain table."""
    from sabacc.variants.kessel._kessel_core import KesselSearchWorld
    from sabacc.variants.kessel.rules import KesselGame
    from sabacc.variants.kessel.search import POLICY

    plain = sabacc.new_game("kessel", players=3, seed=4)
    custom = sabacc.new_game("kessel", players=3, seed=4, pause_between_hands=True)
    assert isinstance(plain, KesselGame) and isinstance(custom, KesselGame)
    custom.leave(2)
    seat = plain.current_player
    assert seat is not None and custom.current_player == seat
    worlds = [KesselSearchWorld(g, seat, POLICY).sample(random.Random(1)) for g in (plain, custom)]
    for action in plain.legal_actions():
        done = [w.rollout(seat, action, 7) for w in worlds]
        assert done[0] == done[1] and done[0][1] < 100  # steps: one round, not the cap
