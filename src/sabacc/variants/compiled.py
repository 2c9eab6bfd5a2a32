"""Compiled engines (each variant's ``_<variant>_core`` module in its package:
:mod:`sabacc.variants.corellian_spike._corellian_spike_core`,
:mod:`sabacc.variants.surabat_cycle._surabat_cycle_core`,
:mod:`sabacc.variants.coruscant_shift._coruscant_shift_core` (the three compiled from the Spike
family's ``_spike_family.pxi`` with each one's own rules),
:mod:`sabacc.variants.classic._classic_core` and :mod:`sabacc.variants.kessel._kessel_core`, all
on the kernel in ``sabacc/variants/_kernel``): is one built, and make games. A variant declares
its compiled core in ``VariantInfo.compiled``.

The compiled core plays the same rules as the reference engine (the pure-Python
:class:`~sabacc.variants.corellian_spike.rules.SpikeGame`) for every Spike option, draws from a
bit-exact copy of its seeded RNG, and so reaches the same states for the same seed and actions
(tests play both in lockstep). It is for throughput: simulations, search, RL. It has the same
protocol (``legal_actions``, ``apply``, ``observation``, ``hand_results``, ``history``,
``clone``, ``determinize``...) but no per-event log (``apply`` returns ``None``);
``sabacc.replay(game.history())`` rebuilds the events on the reference engine when wanted.
Both engines implement :class:`~sabacc.engine.protocol.GameProtocol` and exchange state through
the public :class:`~sabacc.variants.spike_family.snapshot.SpikeSnapshot` (``snapshot()`` /
``from_snapshot()``; docs/engines.md).

It is a C extension built by Cython when sabacc is installed; without a C compiler sabacc still
installs, and asking for ``engine="compiled"`` says so.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from sabacc.core.errors import OptionError
from sabacc.core.options import Options
from sabacc.variants.registry import lookup, variant_names

if TYPE_CHECKING:
    from sabacc.engine.protocol import GameProtocol
    from sabacc.engine.variant import VariantInfo

ENGINES = ("python", "compiled")
#: What an ``engine=`` parameter accepts where a default is chosen for the user.
CHOICES = ("auto", *ENGINES)


def available(variant: str = "corellian_spike") -> bool:
    """Whether ``variant`` has a compiled core and it is built and importable."""
    return _available(lookup(variant).name)


@functools.cache
def _available(name: str) -> bool:
    loader = lookup(name).compiled
    if loader is None:
        return False
    try:
        loader()
    except ImportError:
        return False
    return True


def compiled_titles() -> str:
    """The titles of the variants that have a compiled core (for messages)."""
    titles = [lookup(n).title for n in variant_names() if lookup(n).compiled is not None]
    return " and ".join(titles) or "no variant"


#: Why the compiled cores refuse a game: they play a fixed table with equal stacks.
CUSTOM_TABLE = (
    "engine='compiled' plays a fixed table with equal stacks: a game with stacks=, "
    "pause_between_hands or seat changes (join, leave, rebuy) plays on engine='python'"
)


def check_engine(engine: str, variant: str, *, custom_table: bool = False) -> None:
    """Refuse an unknown engine, or ``compiled`` for a variant it does not play (or for a game
    with a custom table: ``custom_table``, see :attr:`Game.custom_table`)."""
    if engine not in ENGINES:
        raise OptionError(f"engine={engine!r}: must be one of {', '.join(ENGINES)}")
    if engine == "compiled" and custom_table:
        raise OptionError(CUSTOM_TABLE)
    if engine == "compiled":
        info = lookup(variant)
        if info.compiled is None:
            raise OptionError(
                f"engine='compiled' plays {compiled_titles()} only, not {info.title}: "
                "use engine='python'"
            )
        if not available(info.name):
            raise OptionError(
                "engine='compiled': the compiled core is not built (reinstall sabacc where a "
                "C compiler is available: pip install --force-reinstall sabacc)"
            )


def resolve_engine(engine: str, variant: str, *, custom_table: bool = False) -> str:
    """``"python"`` or ``"compiled"``: the engine ``engine`` (one of :data:`CHOICES`) means for
    ``variant``.

    ``"auto"`` is ``"compiled"`` for a variant with a compiled core when it is built, else
    ``"python"``; ``"compiled"`` for another variant, or when the core is not built, is refused
    (:class:`~sabacc.core.errors.OptionError`). ``custom_table``: the game has given stacks,
    pauses between hands or changes seats (:attr:`Game.custom_table`), which only the reference
    engine plays: ``"auto"`` is then ``"python"`` and ``"compiled"`` is refused.
    """
    if engine not in CHOICES:
        raise OptionError(f"engine={engine!r}: must be one of {', '.join(CHOICES)}")
    name = lookup(variant).name
    if engine == "auto":
        return "compiled" if available(name) and not custom_table else "python"
    check_engine(engine, name, custom_table=custom_table)
    return engine


def new_compiled_game(
    options: Options,
    players: int | Sequence[str] = 4,
    seed: int | None = None,
    engine: str = "compiled",
    variant: str = "corellian_spike",
    *,
    stacks: Sequence[int] | None = None,
    pause_between_hands: bool = False,
) -> GameProtocol:
    """A game on ``variant``'s compiled core (``options`` are that variant's options).

    ``engine`` and ``variant`` are checked as :func:`check_engine` does (the API passes them
    through so that one call does every check); ``stacks`` and ``pause_between_hands`` are
    refused (:data:`CUSTOM_TABLE`).
    """
    if stacks is not None or pause_between_hands:
        raise OptionError(CUSTOM_TABLE)
    info = lookup(variant)
    known = _CORES.get((engine, variant))
    if known is not None and known[0] is info:
        core = known[1]
    else:
        check_engine(engine, variant)
        loader = info.compiled
        assert loader is not None  # check_engine refused variants without one
        core = loader()
        _CORES[engine, variant] = (info, core)
    game: GameProtocol = core(options, seed=seed, players=players)
    return game


#: The core class for each ``(engine, variant)`` that passed :func:`check_engine`, with the
#: registered ``VariantInfo`` it was loaded for (a variant registered again is checked again):
#: a loader imports its core module, which costs more than a small game's construction (2 us
#: against 7), and whether a core is built does not change while the process runs.
_CORES: dict[tuple[str, str], tuple[VariantInfo, Callable[..., GameProtocol]]] = {}
