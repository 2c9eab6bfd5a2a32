"""The RL tests need the ``rl`` extra (PettingZoo, Gymnasium, NumPy), part of ``sabacc[test]``.

Without it they are not collected; the Ray backend test skips itself when Ray is missing.
"""

from __future__ import annotations

import importlib.util

VARIANTS = ("corellian_spike", "surabat_cycle", "classic")

_RL = ("numpy", "gymnasium", "pettingzoo")
if not all(importlib.util.find_spec(name) for name in _RL):
    collect_ignore_glob = ["test_*.py"]
