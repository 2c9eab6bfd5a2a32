"""The variant registry: names and aliases to :class:`VariantInfo` records.

Each variant module registers itself on import. Importing this module first imports its package,
:mod:`sabacc.variants`, whose ``__init__`` imports the built-in variant modules: so the built-ins
are registered by the time anyone can call :func:`lookup` (no lazy imports, no cycle: this module
imports only the core and the engine).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from sabacc.core.errors import SabaccError, UnknownVariantError
from sabacc.engine.game import Game
from sabacc.engine.variant import TRUE_TIES, VariantInfo

#: The variant a caller gets without naming one (the CLI, the web lobby, the RL
#: environments, :func:`sabacc.new_game`): Corellian Spike, the seeds' main game.
DEFAULT_VARIANT = "corellian_spike"

_REGISTRY: dict[str, VariantInfo] = {}
_ALIASES: dict[str, str] = {}


#: The shared message catalogue (language -> key -> template) a record's text may rely on
#: besides its own, installed by :mod:`sabacc.services.messages` (:func:`set_shared_text`).
_SHARED_TEXT: Mapping[str, Mapping[str, str]] | None = None
#: Checks a service adds to every record (:func:`add_record_check`): each returns the record's
#: faults as sentences (the bots' levels: distinct levels must not play one bot undeclared).
_CHECKS: list[Callable[[VariantInfo], list[str]]] = []


class VariantRecordError(SabaccError, ValueError):
    """A variant record that cannot be registered: it says what is missing or clashes."""


def register(info: VariantInfo) -> VariantInfo:
    """Add a variant to the registry (called by each variant module), once its record is
    valid (:func:`check_record`; raises :class:`VariantRecordError` naming every fault)."""
    faults = check_record(info)
    if faults:
        raise VariantRecordError(
            f"variant {info.name!r} cannot be registered:\n  " + "\n  ".join(faults)
        )
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


def rl_env_name(info: VariantInfo) -> str:
    """The short name of a variant's RL environments (its RL feature spec's ``env_name``, else
    its name): ``sabacc_<name>_v1``, ``sabacc/<Name>-v1``, ``python_sabacc_<name>``."""
    return (info.rl_spec.env_name if info.rl_spec else "") or info.name


def set_shared_text(catalogue: Mapping[str, Mapping[str, str]]) -> None:
    """Install the shared message catalogue (by :mod:`sabacc.services.messages`, on import):
    from then on a record's text is checked against it and its own, and every variant already
    registered is checked now (raises :class:`VariantRecordError`)."""
    global _SHARED_TEXT
    _SHARED_TEXT = catalogue
    for info in list(_REGISTRY.values()):
        faults = _text_faults(info, catalogue)
        if faults:
            raise VariantRecordError(f"variant {info.name!r} lacks text:\n  " + "\n  ".join(faults))


def add_record_check(check: Callable[[VariantInfo], list[str]]) -> None:
    """Add a check every record must pass (by a service that knows more of a record than the
    registry may import, on that service's import): the variants registered so far are checked
    now, every later one at :func:`register` (raises :class:`VariantRecordError`)."""
    if check in _CHECKS:
        return
    _CHECKS.append(check)
    for info in list(_REGISTRY.values()):
        faults = check(info)
        if faults:
            raise VariantRecordError(
                f"variant {info.name!r} cannot be registered:\n  " + "\n  ".join(faults)
            )


def check_record(info: VariantInfo) -> list[str]:
    """Every fault of a record, as sentences (empty: it can be registered).

    Its name and aliases, observation type and RL environment name are its own; its pot rules
    are ones the engine's showdown settles; its true tie-breaks are the engine's
    (:data:`~sabacc.engine.variant.TRUE_TIES`), chosen by an option it has; and, once the shared
    catalogue is installed, every phase, action, option, hand name and tie-break it declares
    has text in every language (:func:`set_shared_text`).
    """
    faults: list[str] = []
    others = [o for o in _REGISTRY.values() if o.name != info.name]
    if _REGISTRY.get(info.name, info) is not info:
        faults.append(f"the name {info.name!r} is already registered (unregister it first)")
    for alias in (info.name, *info.aliases):
        owner = _ALIASES.get(_norm(alias))
        if owner is not None and owner != info.name:
            faults.append(f"the name {alias!r} is already {owner!r}'s")
    obs_type = info.game_type.observation_type
    for other in others:
        if other.game_type.observation_type is obs_type:
            faults.append(
                f"its observation type {obs_type.__name__} is already {other.name!r}'s: give "
                "its game class its own observation TypedDict (observation_type)"
            )
    if info.rl_spec is not None:
        env = rl_env_name(info)
        for other in others:
            if other.rl_spec is not None and rl_env_name(other).lower() == env.lower():
                faults.append(
                    f"its RL environment name {env!r} is already {other.name!r}'s: give its "
                    "rl_spec its own env_name (dataclasses.replace(spec, env_name=...))"
                )
    faults += _pot_faults(info)
    faults += _tie_faults(info)
    if _SHARED_TEXT is not None:
        faults += _text_faults(info, _SHARED_TEXT)
    for check in _CHECKS:
        faults += check(info)
    return faults


def _pot_faults(info: VariantInfo) -> list[str]:
    if not info.pots:
        return ["it declares no pot (pots)"]
    hand, *others = info.pots
    faults = []
    if not hand.per_seat and hand.pot != "main":
        faults.append(
            f"its first pot rule {hand.pot!r} must be the hand pot: 'main', or per_seat=True"
        )
    for rule in others:
        if rule.per_seat or rule.pot != "sabacc":
            faults.append(
                f"pot rule {rule.pot!r}: besides the hand pot a game keeps only the 'sabacc' pot"
            )
    if len(others) > 1:
        faults.append("it declares the sabacc pot more than once")
    return faults


def _tie_faults(info: VariantInfo) -> list[str]:
    faults = []
    if not info.true_ties:
        faults.append("it declares no true tie-break (true_ties)")
    for tie in info.true_ties:
        if TRUE_TIES.get(tie.name) != tie:
            faults.append(
                f"true tie-break {tie.name!r} is not the engine's (one of "
                + ", ".join(TRUE_TIES)
                + ")"
            )
        elif tie.cards and info.game_type._tie_card is Game._tie_card:
            faults.append(
                f"true tie-break {tie.name!r} deals cards: its game must give them (_tie_card)"
            )
    option = info.true_tie_option
    if option and option not in info.options_type.names():
        faults.append(f"true_tie_option {option!r} is not one of its options")
    for name in info.tiebreaks:
        if not name.isidentifier():
            faults.append(f"tie-break {name!r} is not a message-key name")
    return faults


def _text_faults(info: VariantInfo, catalogue: Mapping[str, Mapping[str, str]]) -> list[str]:
    """The declared things without text in some language of ``catalogue``."""
    keys: list[str] = []
    spec = info.rl_spec
    if spec is not None:
        keys += [f"phase.{phase}" for phase in spec.phases]
    keys += [f"label.{kind.name}" for kind in info.actions]
    keys += [f"option.{name}" for name in info.options_type.names()]
    keys += [f"tiebreak.{name}" for name in dict.fromkeys(info.tiebreaks)]
    keys += [f"tiebreak.{tie.name}" for tie in info.true_ties]
    faults = []
    own = info.text.messages
    english = info.text.glossary.get("en", ())
    for lang, shared in catalogue.items():
        mine = own.get(lang, {})
        missing = [k for k in dict.fromkeys(keys) if k not in mine and k not in shared]
        if missing:
            faults.append(f"no {lang} text for " + ", ".join(missing))
        glossary = info.text.glossary.get(lang, ())
        if len(glossary) != len(english) or not all(
            g.name and g.definition and g.example for g in glossary
        ):
            faults.append(
                f"its {lang} glossary does not name and define each of its "
                f"{len(english)} hands (text.glossary)"
            )
    if not english:
        faults.append("its glossary names no hand (text.glossary)")
    return faults
