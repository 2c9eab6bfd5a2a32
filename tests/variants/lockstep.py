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

from sabacc.core.actions import Stand
from sabacc.core.errors import IllegalActionError

VARIANTS = Path(__file__).resolve().parents[2] / "src" / "sabacc" / "variants"


def stub_members(stub: str, name: str) -> set[str]:
    """The public members class ``name`` declares in the type stub ``stub`` (a file name in
    ``sabacc/variants``), those of its stub bases included: a base class of the same stub, or
    ``CoreMembers`` of the stub-only ``_core_protocol.pyi`` (the members every core includes
    from ``_core_protocol.pxi``)."""
    classes: dict[str, ast.ClassDef] = {}
    for file in (stub, "_core_protocol.pyi"):
        tree = ast.parse((VARIANTS / file).read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                classes.setdefault(node.name, node)
    names: set[str] = set()
    todo = [name]
    while todo:
        cls = classes[todo.pop()]
        todo.extend(b.id for b in cls.bases if isinstance(b, ast.Name))
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
