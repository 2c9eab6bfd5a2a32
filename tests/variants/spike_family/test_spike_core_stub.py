"""Each Spike-family core's type stub (what mypy checks GameProtocol against) lists exactly the
public members the built core has: its own, those of the family's ``SpikeFamilyCore``
(``spike_family/_spike_family.pyi``) and the kernel's ``CoreMembers``."""

from __future__ import annotations

import importlib

import pytest

from tests.variants import lockstep

CORES = [
    ("corellian_spike/_corellian_spike_core", "SpikeCore"),
    ("surabat_cycle/_surabat_cycle_core", "SurabatCore"),
    ("coruscant_shift/_coruscant_shift_core", "CoruscantCore"),
]


@pytest.mark.parametrize(("module", "name"), CORES)
def test_stub_matches_the_built_core(module: str, name: str) -> None:
    core_mod = pytest.importorskip(
        "sabacc.variants." + module.replace("/", "."), reason="the compiled core is built"
    )
    lockstep.assert_stub_matches(f"{module}.pyi", getattr(core_mod, name))


@pytest.mark.parametrize(("module", "name"), CORES)
def test_the_family_stub_lists_the_shared_base(module: str, name: str) -> None:
    """The runtime base of each core is the family's class, and the family stub lists exactly
    its members (the members a variant's class adds are in its own stub)."""
    try:
        core_mod = importlib.import_module("sabacc.variants." + module.replace("/", "."))
    except ImportError:
        pytest.skip("the compiled core is not built")
    cls = getattr(core_mod, name)
    assert cls.__base__ is core_mod.SpikeFamilyCore
    lockstep.assert_stub_matches("spike_family/_spike_family.pyi", core_mod.SpikeFamilyCore)
