"""The compiled core's type stub (_spike_core.pyi, what mypy checks GameProtocol against) lists
exactly the public members the built SpikeCore has."""

from __future__ import annotations

import pytest

from tests.variants import lockstep

core_mod = pytest.importorskip(
    "sabacc.variants.spike_family._spike_core", reason="the compiled core is built"
)


def stub_members(name: str = "SpikeCore") -> set[str]:
    return lockstep.stub_members("spike_family/_spike_core.pyi", name)


def test_stub_matches_the_built_core() -> None:
    lockstep.assert_stub_matches("spike_family/_spike_core.pyi", core_mod.SpikeCore)


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
