"""The RL tests need the ``rl`` extra (PettingZoo, Gymnasium, NumPy), part of ``sabacc[test]``.

Without it they are not collected; the Ray backend test skips itself when Ray is missing.
The variants with a compiled core (Corellian Spike, Surabat Cycle, Coruscant Shift) run on both
engines (``engine="python"`` and, when it is built, the compiled core); the compiled cases skip
themselves when it is not built.
"""

from __future__ import annotations

import importlib.util

import pytest

import sabacc.variants.compiled

VARIANTS = ("corellian_spike", "surabat_cycle", "classic", "kessel", "coruscant_shift")
COMPILED = sabacc.variants.compiled.available()
needs_compiled = pytest.mark.skipif(not COMPILED, reason="the compiled core is not built")

#: ``(variant, engine)``: every variant on the reference engine, and the compiled cores.
VARIANT_ENGINES = [
    pytest.param(
        "corellian_spike", "compiled", marks=needs_compiled, id="corellian_spike-compiled"
    ),
    pytest.param("corellian_spike", "python", id="corellian_spike-python"),
    pytest.param("surabat_cycle", "compiled", marks=needs_compiled, id="surabat_cycle-compiled"),
    pytest.param("surabat_cycle", "python", id="surabat_cycle-python"),
    pytest.param("classic", "python", id="classic-python"),
    pytest.param("classic", "compiled", marks=needs_compiled, id="classic-compiled"),
    pytest.param("kessel", "python", id="kessel-python"),
    pytest.param(
        "coruscant_shift", "compiled", marks=needs_compiled, id="coruscant_shift-compiled"
    ),
    pytest.param("coruscant_shift", "python", id="coruscant_shift-python"),
]

_RL = ("numpy", "gymnasium", "pettingzoo")
if not all(importlib.util.find_spec(name) for name in _RL):
    collect_ignore_glob = ["test_*.py"]
