"""The compiled core's type stub (_spike_core.pyi, what mypy checks GameProtocol against) lists
exactly the public members the built SpikeCore has."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

core_mod = pytest.importorskip("sabacc.variants._spike_core", reason="the compiled core is built")
STUB = Path(__file__).resolve().parents[2] / "src" / "sabacc" / "variants" / "_spike_core.pyi"


def stub_members(name: str = "SpikeCore") -> set[str]:
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)
    names: set[str] = set()
    for node in cls.body:
        if isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {n for n in names if not n.startswith("_")}


def test_stub_matches_the_built_core() -> None:
    runtime = {n for n in dir(core_mod.SpikeCore) if not n.startswith("_")}
    stub = stub_members()
    assert stub - runtime == set(), "in the stub, not in the core"
    assert runtime - stub == set(), "in the core, not in the stub"


@pytest.mark.parametrize("name", ["SurabatCore", "CoruscantCore"])
def test_subclass_stub_matches_the_built_core(name: str) -> None:
    """A Spike-family core's stub lists what it adds to SpikeCore (the rest it inherits)."""
    cls = getattr(core_mod, name)
    runtime = {n for n in dir(cls) if not n.startswith("_")}
    own = {n for n in vars(cls) if not n.startswith("_")}
    stub = stub_members(name)
    assert runtime == stub | stub_members(), f"{name}'s members differ from the stubs"
    # Everything the stub declares exists; what the core itself defines beyond SpikeCore's
    # members (its own piles and knowledge) is in its stub.
    assert stub - runtime == set()
    assert own - stub_members() <= stub
