"""The variant registry: names and aliases to :class:`VariantInfo` records.

Each variant module registers itself on import; importing :mod:`sabacc.variants` registers the
built-in ones.
"""

from __future__ import annotations

from sabacc.core.errors import UnknownVariantError
from sabacc.engine.variant import VariantInfo

_REGISTRY: dict[str, VariantInfo] = {}
_ALIASES: dict[str, str] = {}


def register(info: VariantInfo) -> VariantInfo:
    """Add a variant to the registry (called by each variant module)."""
    _REGISTRY[info.name] = info
    for alias in (info.name, *info.aliases):
        _ALIASES[_norm(alias)] = info.name
    return info


def _norm(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def lookup(name: str) -> VariantInfo:
    """The registered variant for a name or alias (``spike``, ``corellian-spike``...)."""
    key = _ALIASES.get(name)  # the common case: a canonical name or alias as registered
    if key is not None and key in _REGISTRY:
        return _REGISTRY[key]
    _ensure_loaded()
    key = _ALIASES.get(_norm(name))
    if key is None:
        raise UnknownVariantError(
            f"unknown variant {name!r}; known: " + ", ".join(sorted(_REGISTRY))
        )
    return _REGISTRY[key]


def variant_names() -> list[str]:
    _ensure_loaded()
    return sorted(_REGISTRY)


def _ensure_loaded() -> None:
    # Importing the package registers the built-in variants; done lazily to avoid import cycles.
    import sabacc.variants  # noqa: F401
