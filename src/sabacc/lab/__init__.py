"""The lab: the bots that are experiments or yardsticks, apart from the product.

Importing it registers them by name for :func:`sabacc.services.bots.make_bot` and the
simulations: the ``sharp`` family's experiments (``sharp``, ``shark``, ``shrewd``, ``canny``:
:mod:`sabacc.lab.sharp`), ``sharpmc`` (``sharp`` checked by search: :mod:`sabacc.lab.sharpmc`)
and the reference opponents written from public strategy descriptions (``ref-*``:
:mod:`sabacc.lab.reference`). Players are offered only ``random`` and the difficulty levels;
only the benchmarks, the rating scripts and the tests import the lab
(``tests/meta/test_layers.py`` checks it).
"""

from __future__ import annotations

from sabacc.lab.reference import REFERENCE, ReferenceBot
from sabacc.lab.sharp import CANNY, SHARK, SHREWD, STEAL, WILY, Params, SharpBot
from sabacc.lab.sharpmc import SharpSearchBot

__all__ = [
    "CANNY",
    "REFERENCE",
    "SHARK",
    "SHREWD",
    "STEAL",
    "WILY",
    "Params",
    "ReferenceBot",
    "SharpBot",
    "SharpSearchBot",
    "load",
]


def load() -> None:
    """Register the lab's bots (importing this package did): a picklable initializer for the
    worker processes of a simulation (``ProcessBackend(setup=sabacc.lab.load)``)."""
