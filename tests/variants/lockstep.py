"""Scaffolding the compiled cores' tests share (``tests/variants/test_*_core*.py``)."""

from __future__ import annotations

import ast
import copy
import pickle
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

import sabacc
from sabacc.core.actions import Stand
from sabacc.core.errors import IllegalActionError
from tests.support import ids

VARIANTS = Path(__file__).resolve().parents[2] / "src" / "sabacc" / "variants"


def stub_members(stub: str, name: str) -> set[str]:
    """The public members class ``name`` declares in the type stub ``stub`` (a file name in
    ``sabacc/variants``), those of its stub bases included: a base class of the same stub, or
    one of the stub-only shared bases: ``CoreMembers`` and ``BettingCoreMembers`` of
    ``_core_protocol.pyi`` (the kernel's members, generic bases named with their type
    arguments) and ``SpikeFamilyCore`` of
    ``spike_family/_spike_family.pyi`` (what every Spike-family core compiles from
    ``_spike_family.pxi``)."""
    classes: dict[str, ast.ClassDef] = {}
    for file in (stub, "_kernel/_core_protocol.pyi", "spike_family/_spike_family.pyi"):
        tree = ast.parse((VARIANTS / file).read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                classes.setdefault(node.name, node)
    names: set[str] = set()
    todo = [name]
    while todo:
        cls = classes[todo.pop()]
        for base in cls.bases:
            if isinstance(base, ast.Subscript):  # a generic base with its type arguments
                base = base.value
            if isinstance(base, ast.Name) and base.id in classes:
                todo.append(base.id)
        for node in cls.body:
            if isinstance(node, ast.FunctionDef):
                names.add(node.name)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
    return {n for n in names if not n.startswith("_")}


def assert_stub_matches(stub: str, cls: type) -> None:
    """The stub (what mypy checks ``GameProtocol`` against) lists exactly the public members
    of the built class ``cls``."""
    stub_names = stub_members(stub, cls.__name__)
    runtime = {n for n in dir(cls) if not n.startswith("_")}
    assert stub_names - runtime == set(), "in the stub, not in the core"
    assert runtime - stub_names == set(), "in the core, not in the stub"


# ------------------------------------------------------------------ play and comparisons
#: What a test's ``state`` function returns for a game: every state field both engines expose.
StateOf = Callable[[Any], dict[str, Any]]


def play_some(game: Any, rng: random.Random, count: int) -> None:
    """Up to ``count`` uniformly random legal actions (fewer if the game ends)."""
    for _ in range(count):
        if game.is_over:
            return
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])


def assert_same_error(ref: Any, core: Any, action: Any, **kw: Any) -> None:
    """Both engines refuse ``action`` with the same message."""
    with pytest.raises(IllegalActionError) as r:
        ref.apply(action, **kw)
    with pytest.raises(IllegalActionError) as c:
        core.apply(action, **kw)
    assert str(c.value) == str(r.value), action


def check_illegal_inputs(
    ref: Any, core: Any, state: StateOf, odd: Sequence[Any], rng: random.Random
) -> None:
    """Plays ``ref`` and ``core`` (same options and seed) to the end in lockstep; at every
    decision each of ``odd`` is legal on both or on neither, and an illegal one raises the
    same message on both and leaves the core's state unchanged; so does the right action from
    the wrong seat, and any action once the game is over."""
    while not ref.is_over:
        legal = ref.legal_actions()
        for bad in odd:
            try:
                ok = ref.is_legal(bad)
            except Exception as exc:  # pragma: no cover - is_legal never raises
                raise AssertionError(bad) from exc
            assert core.is_legal(bad) == ok, bad
            if ok:
                continue
            before = state(core)
            assert_same_error(ref, core, bad)
            assert state(core) == before
        other = (ref.current_player + 1) % ref.n
        assert_same_error(ref, core, legal[0], seat=other)
        act = rng.choice(legal)
        ref.apply(act)
        core.apply(act)
    assert_same_error(ref, core, Stand())


def check_clone_and_copies(core: Any, state: StateOf) -> None:
    """A clone continues exactly as the original and independently of it; a pickled and a
    deep-copied core keep their class and state and play on as a clone does."""
    play_some(core, random.Random(1), 25)
    twin = core.clone()
    snap = state(core)
    play_some(twin, random.Random(2), 40)
    assert state(core) == snap  # the original did not move
    play_some(core, random.Random(2), 40)
    assert state(core) == state(twin)
    for copied in (pickle.loads(pickle.dumps(core)), copy.deepcopy(core)):
        assert type(copied) is type(core)
        assert state(copied) == state(core)
        play_some(copied, random.Random(9), 30)
        play_some(core_twin := core.clone(), random.Random(9), 30)
        assert state(copied) == state(core_twin)


def check_determinize(
    ref: Any, core: Any, state: StateOf, seed: int, steps: int, rng: random.Random
) -> None:
    """Along ``steps`` random actions, every seat's determinization of the core equals the
    reference's for the same RNG (a reference game of the same class), and both play on alike."""
    for _step in range(steps):
        if ref.is_over:
            break
        for viewer in range(ref.n):
            a = ref.determinize(viewer, random.Random(seed * 100 + viewer))
            b = core.determinize(viewer, random.Random(seed * 100 + viewer))
            assert type(a) is type(ref)
            assert state(a) == state(b), (seed, viewer)
            play_some(a, random.Random(1), 8)
            play_some(b, random.Random(1), 8)
            assert state(a) == state(b)
        act = rng.choice(ref.legal_actions())
        ref.apply(act)
        core.apply(act)


# ------------------------------------------------------------------ the lockstep driver
#: ``compare(ref, core, where)``: a test file's comparisons of the two engines at one point.
Compare = Callable[[Any, Any, str], None]


def drive(
    ref: Any,
    core: Any,
    pick: Callable[[Any], Any],
    compare: Compare,
    *,
    max_actions: int,
    forms: bool = True,
) -> int:
    """Play ``ref`` and ``core`` with the same actions to the end, ``pick(ref)`` choosing each
    one, calling ``compare`` at the start and after every action (the end included); returns
    the number of actions. With ``forms`` each action must be legal on the core as an object
    and as text, and is applied in turn as the object (``apply`` returns None), its text, and
    its text with the seat; else always as the object."""
    steps = 0
    while True:
        compare(ref, core, f"after {steps} actions")
        if ref.is_over:
            return steps
        act = pick(ref)
        seat = ref.current_player
        if forms:
            assert core.is_legal(act) and core.is_legal(str(act))
        ref.apply(act)
        form = steps % 3 if forms else 0
        if form == 0:
            assert core.apply(act) is None
        elif form == 1:
            core.apply(str(act))
        else:
            core.apply(str(act), seat=seat)
        steps += 1
        assert steps < max_actions, "game did not terminate"


def check_conservation(core: Any, deck_ids: list[int]) -> None:
    """Credits are constant, no stack is negative, every deck card is somewhere exactly once,
    a live game has a legal action."""
    assert core.total_credits() == core.n * core.options.starting_stack
    assert all(s >= 0 for s in core.stacks), core.stacks
    assert sorted(ids(core.card_locations())) == deck_ids
    if not core.is_over:
        assert core.legal_actions(), "a live game has no legal action"


def assert_end_equal(ref: Any, core: Any, *, replayable: bool = True) -> None:
    """At the end of a lockstep game: no decision left, the same payoffs, outcome, history,
    hand results and nets; the core's history replays (on the reference engine) to its
    stacks, unless the game was reseeded (``replayable=False``: the history's seed no longer
    describes its deals)."""
    assert core.is_over and core.current_player is None
    assert core.legal_actions() == [] and core.legal() == ref.legal()
    assert core.payoffs == ref.payoffs
    assert core.outcome == ref.outcome
    assert core.outcome is not None and ref.outcome is not None
    assert core.outcome.to_dict() == ref.outcome.to_dict()
    assert core.history() == ref.history()
    assert core.hand_results == ref.hand_results
    assert [r.to_dict() for r in core.hand_results] == [r.to_dict() for r in ref.hand_results]
    nets = [(r.hand, r.dealer, r.reason, r.net) for r in ref.hand_results]
    assert list(core.hand_nets) == nets
    if not replayable:
        return
    replayed = sabacc.replay(core.history())
    assert replayed.stacks == core.stacks
    assert replayed.is_over and replayed.payoffs == core.payoffs
