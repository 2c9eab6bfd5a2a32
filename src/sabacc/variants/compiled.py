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


def check_engine(engine: str, variant: str) -> None:
    """Refuse an unknown engine, or ``compiled`` for a variant it does not play."""
    if engine not in ENGINES:
        raise OptionError(f"engine={engine!r}: must be one of {', '.join(ENGINES)}")
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


def resolve_engine(engine: str, variant: str) -> str:
    """``"python"`` or ``"compiled"``: the engine ``engine`` (one of :data:`CHOICES`) means for
    ``variant``.

    ``"auto"`` is ``"compiled"`` for a variant with a compiled core when it is built, else
    ``"python"``; ``"compiled"`` for another variant, or when the core is not built, is refused
    (:class:`~sabacc.core.errors.OptionError`). A custom table (given stacks, pauses between
    hands, seat changes: :mod:`sabacc.engine.seating`) plays on either engine.
    """
    if engine not in CHOICES:
        raise OptionError(f"engine={engine!r}: must be one of {', '.join(CHOICES)}")
    name = lookup(variant).name
    if engine == "auto":
        return "compiled" if available(name) else "python"
    check_engine(engine, name)
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
    through so that one call does every check); ``stacks`` and ``pause_between_hands``: the
    game's setup, as the reference engine takes it (:mod:`sabacc.engine.seating`).
    """
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
    if stacks is None and pause_between_hands is False:  # a plain table: the common case
        game: GameProtocol = core(options, seed=seed, players=players)
    else:
        game = core(
            options,
            seed=seed,
            players=players,
            stacks=stacks,
            pause_between_hands=pause_between_hands,
        )
    return game


#: The core class for each ``(engine, variant)`` that passed :func:`check_engine`, with the
#: registered ``VariantInfo`` it was loaded for (a variant registered again is checked again):
#: a loader imports its core module, which costs more than a small game's construction (2 us
#: against 7), and whether a core is built does not change while the process runs.
_CORES: dict[tuple[str, str], tuple[VariantInfo, Callable[..., GameProtocol]]] = {}
