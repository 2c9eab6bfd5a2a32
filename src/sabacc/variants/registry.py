"""The variant registry: names and aliases to :class:`VariantInfo` records.

Each variant module registers itself on import. Importing this module first imports its package,
:mod:`sabacc.variants`, whose ``__init__`` imports the built-in variant modules: so the built-ins
are registered by the time anyone can call :func:`lookup` (no lazy imports, no cycle: this module
imports only the core and the engine).
"""

from __future__ import annotations

from sabacc.core.errors import UnknownVariantError
from sabacc.engine.variant import VariantInfo

#: The variant a caller gets without naming one (the CLI, the web lobby, the RL
#: environments, :func:`sabacc.new_game`): Corellian Spike, the seeds' main game.
DEFAULT_VARIANT = "corellian_spike"

_REGISTRY: dict[str, VariantInfo] = {}
_ALIASES: dict[str, str] = {}


def register(info: VariantInfo) -> VariantInfo:
    """Add a variant to the registry (called by each variant module)."""
    _REGISTRY[info.name] = info
    for alias in (info.name, *info.aliases):
        _ALIASES[_norm(alias)] = info.name
    return info


def unregister(name: str) -> None:
    """Remove a variant added with :func:`register` (a plugin's, or a test's stand-in variant)."""
    info = _REGISTRY.pop(name)
    for alias in (info.name, *info.aliases):
        if _ALIASES.get(_norm(alias)) == name:
            del _ALIASES[_norm(alias)]


def _norm(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def lookup(name: str) -> VariantInfo:
    """The registered variant for a name or alias (``spike``, ``corellian-spike``...)."""
    key = _ALIASES.get(name)  # the common case: a canonical name or alias as registered
    if key is not None:
        return _REGISTRY[key]
    key = _ALIASES.get(_norm(name))
    if key is None:
        raise UnknownVariantError(
            f"unknown variant {name!r}; known: " + ", ".join(sorted(_REGISTRY))
        )
    return _REGISTRY[key]


def variant_names() -> list[str]:
    """The canonical names of the registered variants, sorted."""
    return sorted(_REGISTRY)
