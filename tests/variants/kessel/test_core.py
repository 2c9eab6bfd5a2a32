"""The compiled Kessel Sabacc core (``_kessel_core.KesselCore``) against the reference engine
(``KesselGame``): random games over every option and player count in lockstep, comparing every
piece of state, the legal actions, every seat's observation and seat view after every action;
the same refusals for illegal and malformed input; clone, determinize, pickling; conservation;
the golden histories; the RNG's ``random.sample`` port.

Sized to run in well under a minute on two loaded cores; raise ``SABACC_CORE_EXAMPLES``
(default 1 = the normal size) to multiply the Hypothesis examples.
"""

from __future__ import annotations

import importlib.util
import json
import os
import pickle
import random
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sabacc
from sabacc.core.actions import Bet, Stand
from sabacc.core.errors import IllegalActionError, OptionError
from sabacc.engine.game import Game
from sabacc.variants import compiled
from sabacc.variants.kessel.actions import ChooseImpostor, Draw, PlayToken
from sabacc.variants.kessel.hands import kessel_deck
from sabacc.variants.kessel.rules import KesselGame, KesselOptions
from sabacc.variants.kessel.tokens import TOKENS
from tests.variants.lockstep import assert_end_equal as assert_lockstep_end
from tests.variants.lockstep import assert_stub_matches, drive

core_mod = pytest.importorskip(
    "sabacc.variants.kessel._kessel_core", reason="the compiled core is built"
)

if TYPE_CHECKING:
    from sabacc.variants.kessel._kessel_core import KesselCore
else:
    KesselCore = core_mod.KesselCore

SCALE = int(os.environ.get("SABACC_CORE_EXAMPLES", "1"))
ROOT = Path(__file__).resolve().parents[3]

#: Every state field both engines have (the reference's attributes, the core's properties).
FIELDS = (
    "stacks", "out", "in_hand", "folded", "acted", "committed", "round_bet", "hand_start_stacks",
    "hand_no", "dealer", "orbit_steps", "phase", "cur_bet", "raises", "dead", "sabacc_pot",
    "carry", "house", "to_act", "current_player", "is_over", "over", "hands", "public_ids",
    "last_action", "seen", "sand_draw", "blood_draw", "sand_discard", "blood_discard", "drawn",
    "drawn_from", "order", "pos", "turn", "stood", "stood_now", "embargoed", "immune",
    "must_stand", "token_now", "free_draw", "rules", "chosen", "pending", "dice", "end_reason",
    "tokens_left", "tokens_used", "payoffs", "actions", "action_count", "hand_nets", "rounds",
    "bet_unit", "n", "num_players", "names", "seed", "variant",
)  # fmt: skip


def hsettings(examples: int) -> settings:
    return settings(
        max_examples=examples * SCALE,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )


def state(g: Any) -> dict[str, Any]:
    out = {name: getattr(g, name) for name in FIELDS}
    out["legal"] = g.legal()
    out["legal_actions"] = g.legal_actions()
    out["pots"] = g.pots()
    out["pot_total"] = g.pot_total()
    out["total_credits"] = g.total_credits()
    out["card_locations"] = g.card_locations()
    out["full_state"] = g.full_state()
    out["results"] = [r.to_dict() for r in g.hand_results]
    out["outcome"] = g.outcome
    return out


def assert_same_state(ref: KesselGame, core: KesselCore, where: str = "") -> None:
    a, b = state(ref), state(core)
    if a != b:
        diff = {k: (a[k], b[k]) for k in a if a[k] != b[k]}
        raise AssertionError(f"state differs {where}: {diff}")
    for seat in [None, *range(ref.n)]:
        assert ref.observation(seat) == core.observation(seat), (where, seat)
    for seat in range(ref.n):
        assert ref.seat_view(seat) == core.seat_view(seat), (where, seat)


# ============================================================================================
# Setups: every option, 2-6 players
# ============================================================================================
@st.composite
def option_dicts(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["draft", "none", "list"]))
    if kind == "list":
        tokens = draw(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=16, unique=True))
        shift = ",".join(tokens)
    else:
        shift = kind
    end = draw(st.sampled_from(["last_standing", "rounds", "hands"]))
    game_end = end if end == "last_standing" else f"{end}:{draw(st.integers(1, 6))}"
    return {
        "chips": draw(st.integers(4, 10)),
        "turns": draw(st.sampled_from([1, 2, 3, 3, 4, 6, 20])),
        "early_end": draw(st.booleans()),
        "game_end": game_end,
        "shift_tokens": shift,
        "impostors": draw(st.integers(0, 3)),
        "sylops": draw(st.integers(0, 3)),
    }


#: The option fields the strategy above draws (a new KesselOptions field must join it).
DRAWN = {"chips", "turns", "early_end", "game_end", "shift_tokens", "impostors", "sylops"}


def test_every_option_has_a_strategy() -> None:
    own = {f.name for f in fields(KesselOptions)} - set(KesselOptions.unused)
    assert own - DRAWN == set()


@dataclass(frozen=True)
class Setup:
    options: dict[str, Any]
    players: int
    seed: int
    play_seed: int
    token_bias: float


setups = st.builds(
    Setup,
    option_dicts(),
    st.integers(2, 6),
    st.integers(0, 2**40),
    st.integers(0, 2**20),
    st.sampled_from([0.0, 0.3, 0.8]),
)


def make_pair(setup: Setup) -> tuple[KesselGame, KesselCore]:
    options = KesselOptions.from_mapping(setup.options)
    ref = KesselGame(options, seed=setup.seed, players=setup.players)
    core = KesselCore(options, seed=setup.seed, players=setup.players)
    return ref, core


def choose(rng: random.Random, actions: list[Any], token_bias: float) -> Any:
    tokens = [a for a in actions if type(a) is PlayToken]
    if tokens and rng.random() < token_bias:
        return rng.choice(tokens)
    return rng.choice(actions)


MAX_ACTIONS = 3000


def play_lockstep(setup: Setup, *, full: bool = True) -> tuple[KesselGame, KesselCore]:
    """Play a setup's games on both engines with the same random actions
    (``tests.variants.lockstep.drive``), comparing every state field after each (or, not
    ``full``, the whole ``full_state()``), and their ends."""
    ref, core = make_pair(setup)
    rng = random.Random(setup.play_seed)

    def compare(ref: KesselGame, core: KesselCore, where: str) -> None:
        if full or where == "after 0 actions":
            assert_same_state(ref, core, where)
        else:
            assert ref.full_state() == core.full_state(), where

    drive(
        ref,
        core,
        lambda g: choose(rng, g.legal_actions(), setup.token_bias),
        compare,
        max_actions=MAX_ACTIONS + 1,
        forms=False,
    )
    assert_end_equal(ref, core)
    return ref, core


def assert_end_equal(ref: KesselGame, core: KesselCore) -> None:
    """The shared end checks, and the whole state and a replay's state."""
    assert_same_state(ref, core, "at the end")
    assert_lockstep_end(ref, core)
    again = sabacc.replay(core.history())
    assert isinstance(again, Game)
    assert again.full_state() == ref.full_state()


# ============================================================================================
# The RNG: random.sample
# ============================================================================================
class TestRng:
    def test_sample_matches_cpython_over_many_sizes(self) -> None:
        # Both branches of CPython's sample: the pool (n small for k) and the set of indices.
        for n in range(0, 65):
            for k in sorted({0, 1, 2, 3, 5, 6, 7, 10, 16, n // 2, n}):
                if k > n:
                    continue
                for seed in (0, 1, 12345, 2**40 + 7):
                    want = random.Random(seed).sample(range(n), k)
                    assert core_mod.sample_indices(seed, n, k) == want, (seed, n, k)

    def test_the_set_branch_is_reached(self) -> None:
        # n = 64, k = 3: setsize 21 < 64, so CPython draws indices into a set (redraws repeats).
        seeds = [s for s in range(200) if len(set(random.Random(s).sample(range(64), 3))) == 3]
        for seed in seeds[:50]:
            assert core_mod.sample_indices(seed, 64, 3) == random.Random(seed).sample(range(64), 3)

    def test_draft_is_the_reference_draft(self) -> None:
        for seed in range(30):
            ref, core = make_pair(Setup({}, 2 + seed % 5, seed, 0, 0.0))
            assert core.tokens_left == ref.tokens_left


# ============================================================================================
# Lockstep
# ============================================================================================
class TestLockstep:
    @hsettings(60)
    @given(setups)
    def test_random_games_in_lockstep(self, setup: Setup) -> None:
        play_lockstep(setup)

    def test_deterministic_sweep_reaches_every_phase_and_token(self) -> None:
        """Seeded games (every token held, every player count) that together reach every phase
        and play every token: the lockstep above covers them, not by luck."""
        phases: set[str] = set()
        played: set[str] = set()
        for i in range(24):
            setup = Setup(
                {
                    "shift_tokens": ",".join(TOKENS) if i % 3 else "draft",
                    "early_end": i % 2 == 0,
                    "chips": 4 + i % 7,
                    "sylops": i % 4,
                    "impostors": 3 - i % 4,
                },
                2 + i % 5,
                1000 + i,
                i,
                0.6,
            )
            ref, core = make_pair(setup)
            rng = random.Random(i)
            while not ref.is_over:
                phases.add(ref.phase)
                action = choose(rng, ref.legal_actions(), 0.6)
                if type(action) is PlayToken:
                    played.add(action.token)
                ref.apply(action)
                core.apply(action)
                assert ref.full_state() == core.full_state()
            assert_end_equal(ref, core)
        assert phases == {"turn", "draw", "impostor", "prime"}
        assert played == set(TOKENS)

    @hsettings(20)
    @given(setups)
    def test_conservation(self, setup: Setup) -> None:
        _, core = make_pair(setup)
        rng = random.Random(setup.play_seed)
        total = core.total_credits()
        assert total == setup.players * core.options.chips
        deck = sorted(c.id for c in kessel_deck(core.options.impostors, core.options.sylops).cards)
        while not core.is_over:
            core.apply(choose(rng, core.legal_actions(), setup.token_bias))
            assert core.total_credits() == total
            assert all(s >= 0 for s in core.stacks) and all(c >= 0 for c in core.committed)
            assert sorted(c.id for c in core.card_locations()) == deck
        assert sum(core.payoffs) == -core.house


# ============================================================================================
# Illegal and malformed input
# ============================================================================================
def fingerprint(g: Any) -> Any:
    return (g.full_state(), g.action_count, g.legal_actions(), g.last_action, g.hand_nets)


def junk(g: KesselGame, rng: random.Random) -> list[tuple[Any, Any]]:
    """Actions refused now, or malformed: wrong phase, tokens not held or played twice, bad
    targets, out-of-range dice, other variants' actions, wrong seats, non-actions."""
    legal = g.legal_actions()
    candidates: list[Any] = [
        "stand", "keep", "discard", "draw sand", "draw blood", "draw sand discard",
        "draw blood discard", "impostor 1", "impostor 6", "prime 3", "impostor 0", "prime 7",
        "draw", "draw deck", "token", "token bogus", "token refund x", "bet 3", "raise 2",
        "check", "junk", "gain", "", "   ", 42, None, 2.5, ["stand"], Bet(2), Stand(),
        Draw("nowhere"), ChooseImpostor(9), PlayToken("free_draw", 3),
        PlayToken("nope", None),
    ]  # fmt: skip
    for token in TOKENS:
        candidates.append(f"token {token}")
        for target in (-1, 0, 1, 5, 6, 99):
            candidates.append(PlayToken(token, target))
    out: list[tuple[Any, Any]] = [(c, None) for c in rng.sample(candidates, 25)]
    actor = g.current_player
    if actor is not None and legal:
        out.append((legal[0], (actor + 1) % g.n))  # a legal action from the wrong seat
        out.append((legal[0], g.n + 3))
        out.append((legal[0], True))
        out.append((legal[0], "0"))
    return out


def outcome_of(g: Any, action: Any, seat: Any) -> tuple[str, str] | None:
    try:
        g.apply(action, seat=seat)
    except (IllegalActionError, OptionError, TypeError) as exc:
        return (type(exc).__name__, str(exc))
    return None


class TestIllegalInput:
    @hsettings(12)
    @given(setups)
    def test_same_refusal_and_nothing_changes(self, setup: Setup) -> None:
        ref, core = make_pair(setup)
        rng = random.Random(setup.play_seed)
        for step in range(400):
            if ref.is_over:
                break
            if step % 3 == 0:
                for action, seat in junk(ref, rng):
                    before = fingerprint(core)
                    ref_before = fingerprint(ref)
                    legal = ref.is_legal(action) if not isinstance(action, list) else False
                    if legal and seat is None:
                        continue
                    got_ref = outcome_of(ref, action, seat) if not legal or seat else None
                    got_core = outcome_of(core, action, seat) if not legal or seat else None
                    assert got_ref == got_core, (action, seat)
                    if got_ref is not None:
                        assert fingerprint(core) == before
                        assert fingerprint(ref) == ref_before
                    else:  # a legal action from the right seat: both moved on alike
                        assert ref.full_state() == core.full_state()
                    if not isinstance(action, list):
                        assert core.is_legal(action) == ref.is_legal(action), action
                if ref.is_over:
                    break
            action = choose(rng, ref.legal_actions(), setup.token_bias)
            ref.apply(action)
            core.apply(action)
        assert ref.full_state() == core.full_state()

    def test_after_the_game_is_over(self) -> None:
        ref, core = play_lockstep(Setup({"chips": 4}, 2, 3, 3, 0.0), full=False)
        for g in (ref, core):
            with pytest.raises(IllegalActionError, match="the game is over"):
                g.apply("stand")
            assert not g.is_legal("stand")
            assert g.legal_actions() == []


# ============================================================================================
# Clone, determinize, pickle
# ============================================================================================
def advance(g: Any, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if g.is_over:
            return
        g.apply(choose(rng, g.legal_actions(), 0.4))


class TestClone:
    @hsettings(15)
    @given(setups, st.integers(0, 60))
    def test_clone_continues_identically_and_is_independent(self, setup: Setup, at: int) -> None:
        _, core = make_pair(setup)
        advance(core, random.Random(setup.play_seed), at)
        before = fingerprint(core)
        twin = core.clone()
        assert fingerprint(twin) == before
        advance(twin, random.Random(5), 40)
        assert fingerprint(core) == before  # the original did not move
        again = core.clone()
        advance(core, random.Random(5), 40)
        advance(again, random.Random(5), 40)
        assert fingerprint(core) == fingerprint(again)
        # reseeded copies on both engines draw alike too
        rebuilt = sabacc.replay(core.history())
        a = rebuilt.clone(reseed=77)
        b = core.clone(reseed=77)
        advance(a, random.Random(9), 80)
        advance(b, random.Random(9), 80)
        assert a.full_state() == b.full_state()

    @hsettings(15)
    @given(setups, st.integers(0, 80), st.integers(0, 2**32))
    def test_determinize_equals_the_reference(self, setup: Setup, at: int, key: int) -> None:
        ref, core = make_pair(setup)
        rng = random.Random(setup.play_seed)
        for _ in range(at):
            if ref.is_over:
                break
            action = choose(rng, ref.legal_actions(), setup.token_bias)
            ref.apply(action)
            core.apply(action)
        if ref.is_over:
            return
        for viewer in range(ref.n):
            r1, r2 = random.Random(key), random.Random(key)
            d_ref = ref.determinize(viewer, r1)
            d_core = core.determinize(viewer, r2)
            assert r1.getstate() == r2.getstate()
            assert d_ref.full_state() == d_core.full_state()
            assert d_ref.legal_actions() == d_core.legal_actions()
            assert d_ref.observation(viewer) == core.observation(viewer) == ref.observation(viewer)
            play = random.Random(key + 1)
            for _ in range(30):
                if d_ref.is_over:
                    break
                action = choose(play, d_ref.legal_actions(), 0.3)
                d_ref.apply(action)
                d_core.apply(action)
            assert d_ref.full_state() == d_core.full_state()
        assert ref.full_state() == core.full_state()  # determinizing changed nothing

    @hsettings(15)
    @given(setups, st.integers(0, 120))
    def test_from_game_goes_on_as_the_game(self, setup: Setup, at: int) -> None:
        ref, _ = make_pair(setup)
        rng = random.Random(setup.play_seed)
        advance(ref, rng, at)
        core = KesselCore.from_game(ref)
        assert_same_state(ref, core, "from_game")
        for _ in range(200):  # the RNG state came along: reshuffles, dice, next rounds agree
            if ref.is_over:
                break
            action = choose(rng, ref.legal_actions(), setup.token_bias)
            ref.apply(action)
            core.apply(action)
            assert ref.full_state() == core.full_state()
        assert_same_state(ref, core, "after from_game")
        back = pickle.loads(pickle.dumps(core))
        assert [r.to_dict() for r in back.hand_results] == [r.to_dict() for r in ref.hand_results]

    def test_pickle_round_trip(self) -> None:
        _, core = make_pair(Setup({}, 4, 8, 1, 0.3))
        advance(core, random.Random(2), 50)
        back = pickle.loads(pickle.dumps(core))
        assert fingerprint(back) == fingerprint(core)
        assert [r.to_dict() for r in back.hand_results] == [r.to_dict() for r in core.hand_results]
        advance(back, random.Random(3), 50)
        advance(core, random.Random(3), 50)
        assert fingerprint(back) == fingerprint(core)


# ============================================================================================
# The API, golden histories
# ============================================================================================
class TestApi:
    def test_engines(self) -> None:
        assert compiled.available("kessel")
        core = sabacc.new_game("kessel", players=3, seed=4, engine="compiled")
        assert isinstance(core, KesselCore)
        assert compiled.resolve_engine("auto", "kessel") == "compiled"
        ref = sabacc.new_game("kessel", players=3, seed=4)
        assert isinstance(ref, KesselGame)
        assert core.full_state() == ref.full_state()
        variant = sabacc.variant("kessel", shift_tokens="none", chips=5)
        assert isinstance(variant.new_game(2, 1, engine="compiled"), KesselCore)

    def test_replay_on_the_core(self) -> None:
        ref, _ = play_lockstep(Setup({"shift_tokens": "draft"}, 3, 11, 4, 0.5), full=False)
        back = sabacc.replay(ref.history(), engine="compiled")
        assert isinstance(back, KesselCore)
        assert back.full_state() == ref.full_state()
        assert back.history() == ref.history()

    def test_refusals(self) -> None:
        with pytest.raises(OptionError, match="2-6 players, not 7"):
            KesselCore(KesselOptions(), seed=1, players=7)
        with pytest.raises(OptionError, match="Kessel Sabacc only"):
            KesselCore(sabacc.variant("spike").options, seed=1)  # type: ignore[arg-type]
        with pytest.raises(OptionError):
            KesselCore(KesselOptions(), seed=1.5)  # type: ignore[arg-type]
        with pytest.raises(OptionError, match="chips"):
            KesselCore({"chips": 11}, seed=1)
        assert (
            KesselCore({"shift_tokens": ["refund", "embargo"]}, seed=2).tokens_left
            == [["refund", "embargo"]] * 4
        )


_spec = importlib.util.spec_from_file_location("make_golden", ROOT / "scripts" / "make_golden.py")
assert _spec is not None and _spec.loader is not None
make_golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_golden)
GOLDEN = sorted((ROOT / "tests" / "golden").glob("kessel-*.json"))


def test_there_are_kessel_goldens() -> None:
    assert len(GOLDEN) >= 3


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_replays_on_the_core(path: Path) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    history = doc["history"]
    start = sabacc.replay(history, upto=0, engine="compiled")
    assert isinstance(start, KesselCore)
    actions = [(a["seat"], a["action"]) for a in history["actions"]]
    walked = make_golden.walk(start, actions)
    for i, (got, want) in enumerate(zip(walked["digests"], doc["digests"], strict=True)):
        assert got == want, f"{doc['name']}: the state differs after action {i + 1}"
    assert walked["deals"] == doc["deals"]
    assert walked["hands"] == doc["hands"]
    assert walked["final_stacks"] == doc["final_stacks"]
    assert walked["outcome"] == doc["outcome"] == history["result"]
    assert sabacc.replay(history, engine="compiled").history() == history


def test_stub_matches_the_built_core() -> None:
    """The type stub lists exactly the public members of the built KesselCore."""
    assert_stub_matches("kessel/_kessel_core.pyi", KesselCore)


def test_random_games_in_c_are_the_games_the_protocol_plays() -> None:
    """The all-C random play (the engine's own speed, without Python calls) plays exactly the
    games the Python loop plays on the core with the same picks (randrange of a Random(1))."""
    for players, opts in ((2, {}), (4, {"shift_tokens": "none"}), (6, {"chips": 4})):
        rng = random.Random(1)
        actions = rounds = 0
        options = KesselOptions.from_mapping(opts)
        for seed in range(5, 25):
            core = KesselCore(options, seed=seed, players=players)
            while not core.is_over:
                legal = core.legal_actions()
                core.apply(legal[rng.randrange(len(legal))])
                actions += 1
            rounds += core.hand_no
        assert core_mod.random_games_in_c(opts, players, 20, 5) == (actions, rounds)


def test_every_protocol_member_is_there() -> None:
    from sabacc.engine.protocol import GameProtocol

    core = KesselCore(KesselOptions(), seed=3, players=3)
    members = [n for n in vars(GameProtocol) if not n.startswith("_") and n != "register"]
    assert [n for n in members if not hasattr(core, n)] == []
